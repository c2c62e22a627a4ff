// @vitest-environment happy-dom
// The tutorial's coach and its end screen: each moment of the one struggle gets the lesson
// that applies, in the three languages; nothing of it shows in a full game.
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type Lang, setLanguage } from "../src/i18n";
import type { View } from "../src/net/protocol";
import { GameStore } from "../src/state/store";
import { GameOver } from "../src/ui/GameOver";
import { Table } from "../src/ui/Table";
import { mountPoint } from "./dom";
import { makeView, noGamesFetch, welcome } from "./fakes";

const root = mountPoint();
beforeEach(() => vi.stubGlobal("fetch", noGamesFetch));
afterEach(() => vi.unstubAllGlobals());

const ESCAPE = {
  event: "Escape From Tatooine" as const,
  capacity: 5,
  objective: 17,
  vp: 0,
  influence: 0,
  effect: "none" as const,
};
const PLAY = { type: "play_card" as const };
const PASS = { type: "pass" as const };

function tutorial(over: Partial<View> = {}): View {
  return makeView({ mode: "tutorial", event: ESCAPE, balance: null, legal_actions: [PLAY, PASS], ...over });
}

function coachText(view: View, lang: Lang = "en"): string | null {
  setLanguage(lang);
  const s = new GameStore();
  s.apply(welcome(3, view));
  act(() => render(<Table store={s} />, root()));
  return root().querySelector(".coach")?.textContent ?? null;
}

function withCards(v: View, total: number): View {
  v.rebel.play_area = [{ card: "Military 3", ready: true, value: total }];
  v.rebel.total = total;
  return v;
}

describe("tutorial coach", () => {
  it("first turn: says to play the top card and what the aim is, in each language", () => {
    expect(coachText(tutorial())).toContain("Press “Play top card”");
    expect(coachText(tutorial())).toContain("objective (17)");
    expect(coachText(tutorial(), "zh-Hant")).toContain("按「打出一張卡牌」");
    expect(coachText(tutorial(), "ja")).toContain("「カードをプレイする」を押す");
  });

  it("after the opponent passed: passing ends the struggle", () => {
    const v = withCards(tutorial({ last_action_was_pass: true }), 12);
    v.imperial.total = 9;
    const text = coachText(v)!;
    expect(text).toContain("The Imperial passed with 9");
    expect(text).toContain("the struggle ends");
  });

  it("close to the objective warns of bust; over it says bust", () => {
    expect(coachText(withCards(tutorial(), 15))).toContain("Another card may take you over the objective (bust)");
    expect(coachText(withCards(tutorial(), 19))).toContain("Your total 19 is over the objective 17: bust");
  });

  it("a full play area: only powers or pass", () => {
    expect(coachText(withCards(tutorial({ legal_actions: [PASS] }), 8))).toContain("Your play area is full");
  });

  it("the opponent's turn: wait and watch", () => {
    expect(coachText(withCards(tutorial({ turn: "imperial", legal_actions: [] }), 8))).toContain(
      "The Imperial is taking its turn",
    );
  });

  it("no coach and no tutorial hiding in a full game", () => {
    expect(coachText(makeView({ legal_actions: [PLAY, PASS] }))).toBeNull();
    expect(root().textContent).toContain("Victory points");
  });

  it("the tutorial's table shows no VP, influence, reserve or strategies", () => {
    coachText(tutorial());
    const strips = [...root().querySelectorAll(".strip")].map((s) => s.textContent ?? "");
    expect(strips.length).toBe(2);
    for (const s of strips) {
      expect(s).toContain("Deck");
      for (const word of ["Victory points", "Influence", "Reserve", "Strategies left", "not chosen"])
        expect(s).not.toContain(word);
    }
    // the one event awards nothing and has no deck behind it
    const event = root().querySelector(".event")?.textContent ?? "";
    expect(event).toContain("Escape From Tatooine");
    for (const word of ["VP", "influence", "events left"]) expect(event).not.toContain(word);
  });

  it("the end screen gives the totals that decided it, not 0 – 0 VP, and a way to a full game", () => {
    // the struggle ends the game — no dominance, no round result; the totals stay on the table
    const v = tutorial({
      phase: "game_over",
      turn: null,
      legal_actions: [],
      rounds: [],
      outcome: { winner: "rebel", reason: "tutorial", vp: [0, 0] },
    });
    v.rebel.total = 11;
    v.imperial.total = 6;
    const s = new GameStore();
    s.apply(welcome(3, v));
    act(() => render(<GameOver store={s} />, root()));
    const text = root().textContent ?? "";
    expect(text).toContain("Final totals: Rebel 11 – 6 Imperial (objective 17)");
    expect(text).not.toContain("0 – 0");
    expect(root().querySelector('a[href="/"]')?.textContent).toBe("Start a full game");
    expect(root().querySelector(".chart")).toBeNull();
  });
});
