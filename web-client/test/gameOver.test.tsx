// @vitest-environment happy-dom
// The game over as a moment (issue 27): a game that ended at the table shows its result over the final
// table (the areas and totals as they were), which on a desktop stays inert behind the result until the
// player asks to see it; a game that ended before the table shows the result alone.
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { View } from "../src/net/protocol";
import { GameStore } from "../src/state/store";
import { GameOver } from "../src/ui/GameOver";
import { mountPoint } from "./dom";
import { makeView, noGamesFetch, welcome } from "./fakes";

const mount = mountPoint();
beforeEach(() => vi.stubGlobal("fetch", noGamesFetch));
afterEach(() => vi.unstubAllGlobals());

/** A screen `desktop` wide or a phone's: `matchMedia` answers the page's width queries. */
function screen(desktop: boolean) {
  vi.stubGlobal("matchMedia", (query: string) => ({
    matches: query.includes("min-width: 901px") ? desktop : query.includes("max-width") ? !desktop : false,
    addEventListener() {},
    removeEventListener() {},
  }));
}

/** The Rebel's last Dominance won the game: its areas hold what they held when it ended. */
function finalView(over: Partial<View> = {}): View {
  const v = makeView({
    phase: "game_over",
    round: 6,
    turn: null,
    outcome: { winner: "rebel", reason: "victory_points", vp: [7, 3] },
    legal_actions: [],
    ...over,
  });
  v.rebel.play_area = [
    { card: "Yoda", ready: true, value: 6 },
    { card: "Recon 5", ready: false, value: 5 },
  ];
  v.imperial.play_area = [{ card: "Diplomacy 4", ready: true, value: 4 }];
  return v;
}

function show(view: View): GameStore {
  const store = new GameStore();
  store.apply(welcome(3, view));
  act(() => render(<GameOver store={store} />, mount()));
  return store;
}

const card = () => mount().querySelector(".over-card");
const table = () => mount().querySelector(".over-table");

describe("the game over", () => {
  it("on a desktop: the result over the final table, inert behind it until seen", () => {
    screen(true);
    show(finalView());
    expect(card()?.querySelector(".headline")?.textContent).toBe("You win!");
    expect(mount().querySelector(".over-stage")?.classList.contains("covering")).toBe(true);
    // the final table: both areas as they ended, a bar that says the game is over and offers nothing
    const names = [...mount().querySelectorAll(".over-table .card .name")].map((n) => n.textContent);
    expect(names.join("|")).toMatch(/Diplomacy 4.*Yoda.*Recon 5|Yoda.*Recon 5.*Diplomacy 4/);
    expect(table()?.querySelector(".actionbar")?.textContent).toContain("Game over");
    expect(table()?.querySelectorAll(".actionbar button, .card-btn").length).toBe(0);
    expect(table()?.hasAttribute("inert")).toBe(true);
    // the result first in reading order, then the table, then the game in figures
    const order = [...mount().querySelectorAll(".over-card, .over-table, .over-more")].map((e) => e.className);
    expect(order.map((c) => c.split(" ").find((k) => k.startsWith("over-")))).toEqual([
      "over-card",
      "over-table",
      "over-more",
    ]);
    const see = [...mount().querySelectorAll("button")].find((b) => b.textContent === "See the final table")!;
    expect(see).toBeTruthy();
    act(() => see.click());
    expect(table()?.hasAttribute("inert")).toBe(false);
    expect(mount().querySelector(".over-stage")?.classList.contains("covering")).toBe(false);
    expect([...mount().querySelectorAll("button")].some((b) => b.textContent === "See the final table")).toBe(false);
    // the rematch stays with the result
    expect(card()?.textContent).toContain("Ask for a rematch (sides swap)");
  });

  it("on a phone: the result above the table, which is never inert", () => {
    screen(false);
    show(finalView());
    expect(card()?.querySelector(".headline")?.textContent).toBe("You win!");
    expect(table()?.hasAttribute("inert")).toBe(false);
    expect(mount().querySelector(".over-stage")?.classList.contains("covering")).toBe(false);
    expect([...mount().querySelectorAll("button")].some((b) => b.textContent === "See the final table")).toBe(false);
  });

  it("a win claimed mid-struggle: the table as it stood, without the struggle's actions", () => {
    screen(true);
    const store = show(
      finalView({ phase: "struggle", outcome: null, turn: "rebel", legal_actions: [{ type: "pass" }] }),
    );
    act(() =>
      store.apply({ type: "room", room: { ...store.room.value!, forfeit_winner: "imperial", forfeit_reason: "time" } }),
    );
    act(() => render(<GameOver store={store} />, mount()));
    expect(card()?.textContent).toContain("You lose");
    expect(table()?.querySelector(".actionbar")?.textContent).toContain("Game over");
    expect(table()?.querySelectorAll("button").length).toBe(0);
  });

  it("a game that ended before the table: the result alone", () => {
    screen(true);
    show(finalView({ phase: "character_choice", event: null }));
    expect(card()).not.toBeNull();
    expect(table()).toBeNull();
    expect(mount().querySelector(".board")).toBeNull();
  });
});
