// Friends, challenges and ratings: the logic under the screens (ui/social/, ui/RatingMark.tsx).
import { describe, expect, it, vi } from "vitest";
import { type PollEnv, pollWhileVisible } from "../src/state/challengePoll";
import { ratingText } from "../src/state/rating";
import { changeText } from "../src/state/ratingChange";
import { chartPoints, ratingsOverTime } from "../src/state/ratingChart";
import { parseRoute } from "../src/state/route";
import { playerPage, socialPage } from "../src/ui/social/pages";

/** A tab whose visibility the test sets, with vitest's fake timers. */
type FakeTab = { visible: boolean; env: PollEnv; show: (v: boolean) => void };
function fakeTab(visible: boolean): FakeTab {
  let listener: (() => void) | null = null;
  const tab: FakeTab = {
    visible,
    env: {
      visible: () => tab.visible,
      onVisibility: (f) => {
        listener = f;
        return () => {
          listener = null;
        };
      },
      setTimeout: (f, ms) => setTimeout(f, ms),
      clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
    },
    show(v: boolean) {
      tab.visible = v;
      listener?.();
    },
  };
  return tab;
}

describe("the challenges' poll", () => {
  it("asks at once and every 15 s while the tab is visible, nothing while hidden, at once when shown again", async () => {
    vi.useFakeTimers();
    try {
      const ask = vi.fn(() => Promise.resolve());
      const tab = fakeTab(true);
      const { stop } = pollWhileVisible(ask, tab.env);
      expect(ask).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(14_999);
      expect(ask).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(ask).toHaveBeenCalledTimes(2);
      tab.show(false);
      await vi.advanceTimersByTimeAsync(120_000);
      expect(ask).toHaveBeenCalledTimes(2);
      tab.show(true);
      expect(ask).toHaveBeenCalledTimes(3);
      await vi.advanceTimersByTimeAsync(15_000);
      expect(ask).toHaveBeenCalledTimes(4);
      stop();
      await vi.advanceTimersByTimeAsync(60_000);
      tab.show(true);
      expect(ask).toHaveBeenCalledTimes(4);
    } finally {
      vi.useRealTimers();
    }
  });

  it("starts in a hidden tab without asking, and a failed ask is tried again at the next tick", async () => {
    vi.useFakeTimers();
    try {
      const ask = vi.fn(() => Promise.reject(new Error("offline")));
      const tab = fakeTab(false);
      const { stop } = pollWhileVisible(ask, tab.env);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(ask).not.toHaveBeenCalled();
      tab.show(true);
      expect(ask).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(15_000);
      expect(ask).toHaveBeenCalledTimes(2);
      stop();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("a poke of the challenges' poll (the event stream said they changed)", () => {
  it("asks at once, asks once more after an ask under way, and asks nothing in a hidden tab", async () => {
    vi.useFakeTimers();
    try {
      const answers: Array<() => void> = [];
      const ask = vi.fn(() => new Promise<void>((done) => answers.push(done)));
      const tab = fakeTab(true);
      const poll = pollWhileVisible(ask, tab.env, 60_000);
      expect(ask).toHaveBeenCalledTimes(1);
      // two pokes during the first ask: one more ask, after it (it may have read the list before)
      poll.poke();
      poll.poke();
      expect(ask).toHaveBeenCalledTimes(1);
      answers[0]!();
      await vi.advanceTimersByTimeAsync(0);
      expect(ask).toHaveBeenCalledTimes(2);
      answers[1]!();
      await vi.advanceTimersByTimeAsync(0);
      expect(ask).toHaveBeenCalledTimes(2);
      // a poke between asks asks at once, and the slow poll starts again from it
      poll.poke();
      expect(ask).toHaveBeenCalledTimes(3);
      answers[2]!();
      await vi.advanceTimersByTimeAsync(59_999);
      expect(ask).toHaveBeenCalledTimes(3);
      await vi.advanceTimersByTimeAsync(1);
      expect(ask).toHaveBeenCalledTimes(4);
      answers[3]!();
      await vi.advanceTimersByTimeAsync(0);
      tab.show(false);
      poll.poke();
      expect(ask).toHaveBeenCalledTimes(4);
      poll.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("ratings as read", () => {
  it("shows a provisional rating with a question mark", () => {
    expect(ratingText({ rating: 1500, provisional: true })).toBe("1500?");
    expect(ratingText({ rating: 1623, provisional: false })).toBe("1623");
  });

  it("always signs a change, with a real minus", () => {
    expect(changeText(12)).toBe("+12");
    expect(changeText(-12)).toBe("\u221212");
    expect(changeText(0)).toBe("\u00b10");
  });
});

describe("the rating chart", () => {
  const box = { width: 100, height: 60, pad: 10 };

  it("puts the highest rating at the top and the lowest at the bottom, games in equal steps", () => {
    const { points, low, high } = chartPoints([1500, 1540, 1460], box);
    expect(low).toBe(1460);
    expect(high).toBe(1540);
    expect(points).toEqual([
      [10, 30],
      [50, 10],
      [90, 50],
    ]);
  });

  it("draws a flat history as a line in the middle, and one game in the middle of the box", () => {
    expect(chartPoints([1500, 1500], box).points).toEqual([
      [10, 30],
      [90, 30],
    ]);
    expect(chartPoints([1500], box).points).toEqual([[50, 30]]);
    expect(chartPoints([], box).points).toEqual([]);
  });

  it("reads the history newest first into ratings oldest first, from the rating before the first game", () => {
    expect(
      ratingsOverTime([
        { rating_after: 1510, change: -6 },
        { rating_after: 1516, change: 16 },
      ]),
    ).toEqual([1500, 1516, 1510]);
  });
});

describe("the social pages' routes", () => {
  const page = (hash: string) => {
    const r = parseRoute("/", hash);
    return r.page === "social" ? socialPage(r.sub) : r;
  };
  it("reads friends, a player's page (any username, encoded) and the leaderboard from the fragment", () => {
    expect(page("#/friends")).toEqual({ page: "friends" });
    expect(page("#/leaderboard")).toEqual({ page: "leaderboard" });
    expect(page(playerPage("ana.b-2").slice(1))).toEqual({ page: "player", username: "ana.b-2" });
    expect(page(playerPage("名前 x/y").slice(1))).toEqual({ page: "player", username: "名前 x/y" });
    expect(page("#/players/%E0%A4%A")).toEqual({ page: "notFound" });
    expect(page("#/account")).toEqual({ page: "account", sub: "" });
    expect(page("#/friendsx")).toEqual({ page: "notFound" });
    expect(page("#/elsewhere")).toEqual({ page: "notFound" });
    expect(page("#x")).toEqual({ page: "landing" });
  });
});
