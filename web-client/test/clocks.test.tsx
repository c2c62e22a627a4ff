// @vitest-environment happy-dom
// The clocks in the page: counted down from the server's last word while they run, standing
// otherwise, red under 30 s; a loss on time said as such; the landing page's time controls.
import { render } from "preact";
import { act } from "preact/test-utils";
import { describe, expect, it, vi } from "vitest";
import type { ClockView } from "../src/net/protocol";
import { GameStore } from "../src/state/store";
import { resultText } from "../src/ui/Archive";
import { Clocks, clockLeft, formatClock } from "../src/ui/Clocks";
import { GameOver } from "../src/ui/GameOver";
import { Landing } from "../src/ui/Landing";
import { mountPoint } from "./dom";
import { makeView, noGamesFetch, ROOM, welcome } from "./fakes";

const root = mountPoint();

function storeWith(clock: ClockView, now: { t: number }) {
  const store = new GameStore(() => now.t);
  const w = welcome(3, makeView());
  if (w.type === "welcome") w.clock = clock;
  store.apply(w);
  return store;
}

describe("clocks", () => {
  it("reads as people read a clock", () => {
    expect(formatClock(600_000)).toBe("10:00");
    expect(formatClock(61_500)).toBe("1:01");
    expect(formatClock(9_370)).toBe("0:09.3");
    expect(formatClock(3_723_000)).toBe("1:02:03");
    expect(formatClock(-5)).toBe("0:00.0");
  });

  it("counts down only the running side, from when the server's word arrived; updates renew it", () => {
    const now = { t: 1_000 };
    const store = storeWith(
      {
        remaining_ms: [50_000, 40_000],
        running: [true, false],
        deadline_unix_ms: [null, null],
        days_per_decision: null,
      },
      now,
    );
    expect(clockLeft(store, 1_000)).toEqual([50_000, 40_000]);
    expect(clockLeft(store, 6_000)).toEqual([45_000, 40_000]);
    expect(clockLeft(store, 100_000)).toEqual([0, 40_000]);
    now.t = 7_000;
    store.apply({
      type: "update",
      seq: 4,
      changes: {},
      events: [],
      clock: {
        remaining_ms: [44_000, 40_000],
        running: [false, true],
        deadline_unix_ms: [null, null],
        days_per_decision: null,
      },
    });
    expect(clockLeft(store, 9_000)).toEqual([44_000, 38_000]);
    store.apply({
      type: "clock",
      clock: {
        remaining_ms: [44_000, 0],
        running: [false, false],
        deadline_unix_ms: [null, null],
        days_per_decision: null,
      },
    });
    expect(clockLeft(store, 90_000)).toEqual([44_000, 0]);
  });

  it("shows both clocks, the running one lit, red under 30 seconds; nothing without a clock", () => {
    const now = { t: Date.now() };
    const store = storeWith(
      {
        remaining_ms: [125_000, 29_600],
        running: [false, true],
        deadline_unix_ms: [null, null],
        days_per_decision: null,
      },
      now,
    );
    act(() => render(<Clocks store={store} />, root()));
    const clocks = [...root().querySelectorAll(".clock")];
    expect(clocks.map((c) => c.querySelector(".time")?.textContent)).toEqual(["2:05", "0:29"]);
    expect(clocks[0]!.className).not.toContain("low");
    expect(clocks[1]!.className).toContain("low");
    expect(clocks[1]!.className).toContain("running");
    expect(clocks[0]!.textContent).toContain("Rebel (You)");
    const plain = new GameStore();
    plain.apply(welcome(3, makeView()));
    act(() => render(<Clocks store={plain} />, root()));
    expect(root().querySelector(".clocks")).toBeNull();
  });

  it("a loss on time is said as such", () => {
    vi.stubGlobal("fetch", noGamesFetch);
    try {
      const store = new GameStore();
      store.apply(welcome(3, makeView({ phase: "struggle" })));
      store.apply({ type: "room", room: { ...ROOM, forfeit_winner: "rebel", forfeit_reason: "time" } });
      expect(store.forfeited.value).toBe(true);
      act(() => render(<GameOver store={store} />, root()));
      expect(root().textContent).toContain("Imperial ran out of time.");
      expect(root().querySelector(".headline")?.textContent).toBe("You win!");
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("both out of time together is nobody's win, and the game is over", () => {
    vi.stubGlobal("fetch", noGamesFetch);
    try {
      const store = new GameStore();
      store.apply(welcome(3, makeView({ phase: "character_choice" })));
      store.apply({ type: "room", room: { ...ROOM, forfeit_winner: null, forfeit_reason: "both_out_of_time" } });
      expect(store.forfeited.value).toBe(true);
      act(() => render(<GameOver store={store} />, root()));
      expect(root().textContent).toContain("Both ran out of time: no winner.");
      expect(root().querySelector(".headline")?.textContent).toBe("Draw");
      expect(resultText(null, null, "both_out_of_time")).toBe("Both ran out of time: no winner.");
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("the landing page offers no clock, 10+10, 20+20 and a custom time control", async () => {
    const bodies: unknown[] = [];
    vi.stubGlobal("fetch", async (url: string, init?: { body?: string }) => {
      // the landing page's account entry asks who is signed in (ui/account/): not the form's
      if (url !== "/api/session") bodies.push(JSON.parse(init?.body ?? "null"));
      return new Response(JSON.stringify({ code: "bad_message", message: "stop here" }), { status: 400 });
    });
    try {
      act(() => render(<Landing />, root()));
      const submit = async () => {
        await act(async () => {
          root().querySelector<HTMLFormElement>("form.panel")!.requestSubmit();
          await new Promise((r) => setTimeout(r, 10));
        });
      };
      const pick = (v: string) =>
        act(() => root().querySelector<HTMLInputElement>(`input[name=clock][value="${v}"]`)!.click());
      await submit();
      pick("20+20");
      await submit();
      pick("custom");
      const minutes = root().querySelector<HTMLInputElement>("input[name=clock_minutes]")!;
      act(() => {
        minutes.value = "45";
        minutes.dispatchEvent(new Event("input", { bubbles: true }));
      });
      await submit();
      const clocks = bodies.map((b) => (b as { clock?: unknown }).clock ?? null);
      expect(clocks).toEqual([
        null,
        { bank_secs: 1200, increment_secs: 20 },
        { bank_secs: 45 * 60, increment_secs: 10 },
      ]);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
