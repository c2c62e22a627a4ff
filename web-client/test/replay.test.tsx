// @vitest-environment happy-dom
// The replay page: it asks the server for a finished game's steps through the chosen eyes (a
// player's token goes with the request), steps with buttons, the slider and the keyboard, shows the
// log so far beside the table, offers the player's own seat and "everything" only when they exist,
// and shows both sides' secrets and deck orders only in an omniscient replay.
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { LogEntry, ReplaySteps, View } from "../src/net/protocol";
import { ReplayPage } from "../src/ui/ReplayPage";
import { PLAY_STEP_MS } from "../src/ui/replayNav";
import { tokens } from "../src/ui/services";
import { mountPoint } from "./dom";
import { emptyPlayer, FAIR_COMMITMENT, FAIR_SALT, FAIR_SEED, makeView } from "./fakes";

const root = mountPoint();
const CODE = "KJCHM97E";

async function settle() {
  await act(async () => {
    await new Promise((r) => setTimeout(r, 20));
  });
}

function steps(viewer: View["viewer"], over: Partial<ReplaySteps> = {}): ReplaySteps {
  const spectator = viewer === "spectator";
  const view = (round: number, phase: View["phase"], extra: Partial<View> = {}) =>
    makeView({ viewer, round, phase, ...extra });
  const played: LogEntry = { type: "card_played", faction: "rebel", card: "Military 3" };
  const passed: LogEntry = { type: "passed", faction: "imperial" };
  const omniscient = viewer === "omniscient";
  const rebel = {
    ...emptyPlayer("rebel"),
    characters: spectator ? null : ["Luke Skywalker", "Han Solo", "Chewbacca", "Leia Organa"],
    deck_order: omniscient ? (["Military 5", "Han Solo"] as View["rebel"]["play_area"][number]["card"][]) : undefined,
  };
  return {
    code: CODE,
    game_number: 2,
    mode: "full",
    viewer,
    your_faction: null,
    revealed: false,
    fairness: { commitment: FAIR_COMMITMENT, seed: FAIR_SEED, salt: FAIR_SALT },
    outcome: { winner: "imperial", reason: "victory_points", vp: [3, 7] },
    forfeit_winner: null,
    forfeit_reason: null,
    names: [null, "Ben"],
    steps: [
      {
        seq: 4,
        seat: null,
        view: view(1, "character_choice", { rebel }),
        log: [{ type: "game_started", mode: "full", balance: "rebel" }],
      },
      { seq: 5, seat: "rebel", view: view(1, "struggle", { rebel }), log: [played] },
      { seq: 6, seat: "imperial", view: view(2, "planning", { rebel }), log: [passed] },
    ],
    ...over,
  };
}

function serve(answer: (url: string, auth: string | null) => ReplaySteps) {
  const asked: { url: string; auth: string | null }[] = [];
  vi.stubGlobal("fetch", async (url: string, init?: { headers?: Record<string, string> }) => {
    const auth = init?.headers?.authorization ?? null;
    asked.push({ url, auth });
    return new Response(JSON.stringify(answer(url, auth)), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  });
  return asked;
}

const text = () => root().textContent ?? "";
const key = (k: string) => act(() => void dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true })));

afterEach(() => {
  vi.unstubAllGlobals();
  tokens.clearToken(CODE);
});

describe("the replay page", () => {
  it("steps through the game with the buttons, the keyboard and the slider, the log so far beside", async () => {
    const asked = serve(() => steps("spectator"));
    act(() => render(<ReplayPage code={CODE} game={2} />, root()));
    await settle();
    expect(asked).toEqual([{ url: `/api/rooms/${CODE}/games/2/steps?eyes=spectator`, auth: null }]);
    expect(text()).toContain("\u2068Ben\u2069 wins");
    expect(text()).toContain("Ben (Imperial)");
    expect(text()).toContain("Step 0 of 2");
    expect(text()).toContain("Round 1 · Character choice");
    const log = () => [...root().querySelectorAll(".replay-log li")].map((li) => li.textContent);
    expect(log()).toHaveLength(1);

    key("ArrowRight");
    expect(text()).toContain("Step 1 of 2");
    expect(text()).toContain("Rebel acted");
    expect(log()).toHaveLength(2);
    expect(root().querySelectorAll(".replay-log li.fresh")).toHaveLength(1);
    key("End");
    expect(text()).toContain("Step 2 of 2");
    expect(text()).toContain("Round 2 · Planning phase");
    key("ArrowRight");
    expect(text()).toContain("Step 2 of 2");
    key("Home");
    expect(text()).toContain("Step 0 of 2");
    const slider = root().querySelector<HTMLInputElement>("input.replay-slider")!;
    act(() => {
      slider.value = "1";
      slider.dispatchEvent(new Event("input", { bubbles: true }));
    });
    expect(text()).toContain("Step 1 of 2");
    act(() => root().querySelector<HTMLButtonElement>(`button[aria-label="Step back"]`)!.click());
    expect(text()).toContain("Step 0 of 2");
    expect(root().querySelector<HTMLButtonElement>(`button[aria-label="Go to the first step"]`)!.disabled).toBe(true);

    // a spectator's eyes: no seat to offer, "everything" not agreed, no secrets on the table
    const eyes = [...root().querySelectorAll<HTMLInputElement>("input[name=replay-eyes]")].map((i) => i.value);
    expect(eyes).toEqual(["spectator"]);
    expect(text()).toContain("once both players agree");
    expect(text()).not.toContain("Luke Skywalker");
    expect(root().querySelector("a[download]")).toBeNull();
  });

  it("plays on by itself a step at a time until the last step or a pause (Space); jumps a round at a time", async () => {
    serve(() => steps("spectator"));
    act(() => render(<ReplayPage code={CODE} game={2} />, root()));
    await settle();
    vi.useFakeTimers();
    try {
      const play = () => root().querySelector<HTMLButtonElement>("button.play")!;
      expect(play().getAttribute("aria-label")).toBe("Play the game step by step");
      act(() => play().click());
      expect(play().getAttribute("aria-label")).toBe("Pause");
      act(() => void vi.advanceTimersByTime(PLAY_STEP_MS));
      expect(text()).toContain("Step 1 of 2");
      act(() => void vi.advanceTimersByTime(PLAY_STEP_MS));
      expect(text()).toContain("Step 2 of 2");
      // at the last step it stops by itself
      act(() => void vi.advanceTimersByTime(PLAY_STEP_MS));
      expect(play().getAttribute("aria-label")).toBe("Play the game step by step");
      expect(play().disabled).toBe(true);
      // Space plays and pauses
      key("Home");
      key(" ");
      act(() => void vi.advanceTimersByTime(PLAY_STEP_MS));
      expect(text()).toContain("Step 1 of 2");
      key(" ");
      act(() => void vi.advanceTimersByTime(3 * PLAY_STEP_MS));
      expect(text()).toContain("Step 1 of 2");
      // a round at a time: round 1 is steps 0–1, round 2 starts at step 2
      key("PageDown");
      expect(text()).toContain("Step 2 of 2");
      key("PageUp");
      expect(text()).toContain("Step 0 of 2");
      act(() => root().querySelector<HTMLButtonElement>("button.next-round")!.click());
      expect(text()).toContain("Round 2 · Planning phase");
    } finally {
      vi.useRealTimers();
    }
  });

  it("a player's token offers their own seat; a revealed game offers everything, with both sides' secrets", async () => {
    tokens.setToken(CODE, "seat-token");
    const asked = serve((url) => {
      const eyes = new URL(url, "http://x").searchParams.get("eyes");
      const viewer = eyes === "seat" ? { seat: "rebel" as const } : eyes === "everything" ? "omniscient" : "spectator";
      return steps(viewer, { your_faction: "rebel", revealed: true });
    });
    act(() => render(<ReplayPage code={CODE} game={2} />, root()));
    await settle();
    expect(asked[0]).toEqual({ url: `/api/rooms/${CODE}/games/2/steps?eyes=spectator`, auth: "Bearer seat-token" });
    const radios = () => [...root().querySelectorAll<HTMLInputElement>("input[name=replay-eyes]")];
    expect(radios().map((i) => i.value)).toEqual(["spectator", "seat", "everything"]);
    expect(text()).toContain("You (Rebel)");
    key("End");

    act(() => radios()[1]!.click());
    await settle();
    expect(asked[1]!.url).toBe(`/api/rooms/${CODE}/games/2/steps?eyes=seat`);
    expect(text()).toContain("Step 2 of 2"); // other eyes keep the step
    expect(text()).toContain("Luke Skywalker");
    expect(text()).not.toContain("Deck, top first");

    act(() => radios()[2]!.click());
    await settle();
    expect(asked[2]!.url).toBe(`/api/rooms/${CODE}/games/2/steps?eyes=everything`);
    expect(text()).toContain("Chosen characters");
    expect(text()).toContain("Deck, top first");
    expect(root().querySelector("a[download]")?.getAttribute("href")).toBe(`/api/rooms/${CODE}/games/2/replay`);
  });

  it("a game being played has no replay: the page says so", async () => {
    vi.stubGlobal(
      "fetch",
      async () =>
        new Response(JSON.stringify({ code: "game_not_over", message: "being played" }), {
          status: 409,
          headers: { "content-type": "application/json" },
        }),
    );
    act(() => render(<ReplayPage code={CODE} game={3} />, root()));
    await settle();
    expect(root().querySelector("[role=alert]")?.textContent).toContain("This game is still being played");
    expect(root().querySelector("[role=alert] a.primary")?.getAttribute("href")).toBe(`/r/${CODE}/watch`);
    expect(root().querySelector(".replay-controls")).toBeNull();
  });
});
