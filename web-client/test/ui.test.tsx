// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLanguage } from "../src/i18n";
import type { Action, View } from "../src/net/protocol";
import type { RoundOutcome } from "../src/state/derived";
import { GameStore } from "../src/state/store";
import { CardDetail, inspected } from "../src/ui/CardDetail";
import { CharacterChoice } from "../src/ui/CharacterChoice";
import { awardLines } from "../src/ui/Event";
import { GameOver } from "../src/ui/GameOver";
import { Landing } from "../src/ui/Landing";
import { Lobby } from "../src/ui/Lobby";
import { PendingPanel } from "../src/ui/PendingPanel";
import { Planning } from "../src/ui/Planning";
import { Table } from "../src/ui/Table";
import { makeView, noGamesFetch, ROOM, welcome } from "./fakes";

let root: HTMLElement;
beforeEach(() => {
  root = document.createElement("div");
  document.body.appendChild(root);
  setLanguage("en");
  vi.stubGlobal("fetch", noGamesFetch);
});
afterEach(() => {
  render(null, root);
  root.remove();
  vi.unstubAllGlobals();
});

function storeWith(view: View): GameStore {
  const s = new GameStore();
  s.apply(welcome(3, view));
  return s;
}

/** A store on `view` whose actions are collected in `sent` instead of sent. */
function sendingStore(view: View): { store: GameStore; sent: Action[] } {
  const store = storeWith(view);
  const sent: Action[] = [];
  store.act = (a) => {
    sent.push(a);
    return true;
  };
  return { store, sent };
}

const buttons = () => [...root.querySelectorAll("button")].map((b) => b.textContent?.trim());

describe("UI", () => {
  it("landing offers create and enter", () => {
    act(() => render(<Landing />, root));
    expect(root.textContent).toContain("Create a room");
    expect(buttons()).toContain("Create room");
    // Side (3), game (2), opponent (a friend or the computer at three levels: 4), spectators (2),
    // clock (none, 10+10, 20+20, custom, over days: 5).
    expect(root.querySelectorAll('input[type="radio"]').length).toBe(16);
    expect(root.textContent).toContain("Computer — hard");
  });

  it("a computer level says what it is, from its measured strength; a friend needs no such words", () => {
    act(() => render(<Landing />, root));
    const note = () => root.querySelector(".level-note")?.textContent ?? null;
    expect(note()).toBeNull();
    const pick = (value: string) =>
      act(() => {
        root.querySelector<HTMLInputElement>(`input[name="opponent"][value="${value}"]`)!.click();
      });
    pick("hard");
    expect(note()).toContain("8,000 continuations");
    expect(note()).toContain("73%");
    pick("easy");
    expect(note()).toContain("rule of thumb");
    pick("friend");
    expect(note()).toBeNull();
  });

  it("lobby: a watch link and its QR code only when the room allows spectators (else watch_url is null)", () => {
    const store = storeWith(makeView({ phase: "character_choice", turn: null }));
    const watchFields = () =>
      [...root.querySelectorAll<HTMLInputElement>("input[readonly]")].filter((i) => i.value.endsWith("/watch"));
    const watchQr = () => root.querySelector('svg[aria-label="Watch link as a QR code"]');
    act(() => render(<Lobby code={ROOM.code} store={store} />, root));
    expect(watchFields().map((i) => i.value)).toEqual([`${location.origin}/r/${ROOM.code}/watch`]);
    expect(watchQr()).not.toBeNull();
    act(() => {
      store.room.value = { ...ROOM, options: { ...ROOM.options, spectators: "off" } };
    });
    act(() => render(<Lobby code={ROOM.code} store={store} />, root));
    expect(watchFields()).toEqual([]);
    expect(watchQr()).toBeNull();
    expect(root.textContent).not.toContain("Watch link");
  });

  it("table: only legal actions, ready/exhausted by label, totals and bust", () => {
    const v = makeView({
      legal_actions: [{ type: "play_card" }, { type: "use_power", card: "Han Solo" }, { type: "pass" }],
    });
    v.rebel.play_area = [
      { card: "Han Solo", ready: true, value: 6 },
      { card: "Military 3", ready: false, value: 3 },
    ];
    v.rebel.total = 9;
    v.imperial.total = 17;
    act(() => render(<Table store={storeWith(v)} />, root));
    expect(buttons()).toEqual(expect.arrayContaining(["Play top card", "Pass", "Use power"]));
    expect(buttons()).not.toContain("Spend influence (ready it)");
    // a card face is named by its content: what is not aria-hidden (its name, then the rest for screen readers)
    const spoken = (el: Element) =>
      [...el.children]
        .filter((c) => c.getAttribute("aria-hidden") !== "true")
        .map((c) => c.textContent)
        .join("");
    const labels = [...root.querySelectorAll(".card")].map((c) => (c.hasAttribute("aria-label") ? null : spoken(c)));
    expect(labels).toContain("Han Solo, Rebel, Character, ready, value 6");
    expect(labels).toContain("Military 3, Rebel, exhausted, value 3");
    expect(root.querySelector(".card.exhausted")).not.toBeNull();
    expect(root.textContent).toContain("9 / 15");
    expect(root.textContent).toContain("BUST");
    expect(root.textContent).toContain("Your turn");
  });

  it("on our turn the first action gets the focus when the page has none (keyboard play)", () => {
    (document.activeElement as HTMLElement | null)?.blur();
    act(() =>
      render(<Table store={storeWith(makeView({ legal_actions: [{ type: "play_card" }, { type: "pass" }] }))} />, root),
    );
    expect(document.activeElement?.textContent).toBe("Play top card");
    // focus somewhere else on the page is left alone
    render(null, root);
    const other = document.createElement("button");
    document.body.appendChild(other);
    other.focus();
    act(() => render(<Table store={storeWith(makeView({ legal_actions: [{ type: "pass" }] }))} />, root));
    expect(document.activeElement).toBe(other);
    other.remove();
  });

  it("table in Japanese uses the glossary terms", () => {
    setLanguage("ja");
    act(() => render(<Table store={storeWith(makeView({ legal_actions: [{ type: "pass" }] }))} />, root));
    expect(buttons()).toContain("パスする"); // an instruction, as every button
    expect(root.textContent).toContain("バランス・トークン");
  });

  it("character choice enables confirm only for a legal set of 4", () => {
    const chars = [
      "Chewbacca",
      "Han Solo",
      "Lando Calrissian",
      "Leia Organa",
      "Luke Skywalker",
      "Obi-Wan Kenobi",
      "R2-D2 and C-3PO",
      "Yoda",
    ];
    const legal: Action[] = [];
    for (let m = 0; m < 256; m++) {
      const pick = chars.filter((_, i) => m & (1 << i));
      if (pick.length === 4) legal.push({ type: "choose_characters", characters: pick });
    }
    const v = makeView({ phase: "character_choice", legal_actions: legal });
    v.rebel.characters_chosen = false;
    act(() => render(<CharacterChoice store={storeWith(v)} />, root));
    expect(root.querySelector(".you-play")?.textContent).toBe("Game 1: you play the Rebel.");
    const confirm = () => [...root.querySelectorAll("button")].find((b) => b.textContent === "Lock in these 4")!;
    expect(confirm().disabled).toBe(true);
    const picks = [...root.querySelectorAll("button.pick")] as HTMLButtonElement[];
    expect(picks.length).toBe(8);
    for (const b of picks.slice(0, 4)) act(() => b.click());
    expect(confirm().disabled).toBe(false);
    expect(picks[0]!.getAttribute("aria-pressed")).toBe("true");
  });

  it("planning: strategies with used ones labelled and infiltration sentence", () => {
    const v = makeView({
      phase: "planning",
      turn: null,
      planning: { chooser: ["rebel", "rebel"], open: [true, true] },
      legal_actions: [
        { type: "choose_strategy", target: "rebel", strategy: "support" },
        { type: "choose_strategy", target: "imperial", strategy: "deception" },
      ],
    });
    v.rebel.used_strategies = ["bureaucracy"];
    v.imperial.modifiers.infiltrated = true;
    v.rebel.strategy = { state: "none" };
    v.imperial.vp = 3;
    v.imperial.influence = 2;
    act(() => render(<Planning store={storeWith(v)} />, root));
    expect(root.textContent).toContain("Infiltration: the Rebel chooses the Imperial strategy this round.");
    // The score stays in view while planning: both sides' counts and the round.
    const strip = root.querySelector(".score-strip")!;
    expect(strip.querySelector(".score-side.imperial")?.textContent).toContain("3 / 7");
    expect(strip.querySelector(".score-side.imperial")?.textContent).toContain("Influence2");
    expect(strip.querySelector(".score-side.rebel")?.textContent).toContain("Strategies left");
    expect(strip.textContent).toContain(`Round ${v.round}`);
    const used = [...root.querySelectorAll("button.strategy.used")];
    expect(used.length).toBe(1);
    expect(used[0]!.textContent).toContain("used");
    const enabled = [...root.querySelectorAll("button.strategy")].filter((b) => !(b as HTMLButtonElement).disabled);
    expect(enabled.length).toBe(2);
  });

  it("the event card and the counts say what their numbers are, in words", () => {
    const v = makeView({ legal_actions: [{ type: "pass" }] });
    v.rebel.unused_strategy_count = 4;
    v.rebel.vp = 2;
    act(() => render(<Table store={storeWith(v)} />, root));
    expect(root.querySelector(".objective-label")?.textContent).toBe("Objective value");
    expect(root.querySelector(".objective")?.textContent).toBe("15");
    expect(root.querySelector(".event .pips-label")?.textContent).toBe("Capacity 4");
    const rebel = root.querySelector("section.strip.rebel")!;
    expect(rebel.textContent).toContain("Strategies left");
    expect(rebel.textContent).toContain("4 / 5");
    expect(rebel.textContent).toContain("2 / 7");
    setLanguage("ja");
    act(() => render(<Table store={storeWith(v)} />, root));
    expect(root.querySelector(".objective-label")?.textContent).toBe("目標値");
    expect(root.querySelector(".event .pips-label")?.textContent).toBe("収容力 4");
    setLanguage("en");
  });

  it("planning: a click selects a strategy and may change it; only Confirm sends it", () => {
    const v = makeView({
      phase: "planning",
      turn: null,
      planning: { chooser: ["rebel", "imperial"], open: [true, true] },
      legal_actions: (["deception", "support", "infiltration"] as const).map((strategy) => ({
        type: "choose_strategy" as const,
        target: "rebel" as const,
        strategy,
      })),
    });
    v.rebel.strategy = { state: "none" };
    const { store, sent } = sendingStore(v);
    act(() => render(<Planning store={store} />, root));
    const confirm = () => root.querySelector("button.strategy-confirm") as HTMLButtonElement;
    const strategy = (name: string) =>
      [...root.querySelectorAll("button.strategy")].find((b) => b.textContent?.startsWith(name)) as HTMLButtonElement;
    expect(confirm().disabled).toBe(true);
    expect(confirm().textContent).toBe("Select a strategy, then confirm");
    act(() => strategy("Deception").click());
    expect(sent).toEqual([]);
    expect(strategy("Deception").getAttribute("aria-pressed")).toBe("true");
    act(() => strategy("Support").click());
    expect(sent).toEqual([]);
    expect(strategy("Deception").getAttribute("aria-pressed")).toBe("false");
    expect(confirm().textContent).toBe("Confirm Support");
    act(() => confirm().click());
    expect(sent).toEqual([{ type: "choose_strategy", target: "rebel", strategy: "support" }]);
  });

  it("IG-88: the card to discard, then the card to put on top, two taps on the cards seen — no list of every pair", () => {
    const seen = [
      { owner: "imperial" as const, card: "Darth Vader" as const },
      { owner: "imperial" as const, card: "Military 5" as const },
      { owner: "imperial" as const, card: "Recon 2" as const },
    ];
    const pairs = seen.flatMap((d) =>
      seen.filter((x) => x !== d).map((top) => ({ kind: "discard_and_top" as const, discard: d, top })),
    );
    const v = makeView({
      pending: {
        owner: "rebel",
        source: { kind: "card", card: { owner: "imperial", card: "IG-88" } },
        step: { step: "ig88_pick", deck: "imperial" },
        options: pairs,
        seen_cards: seen,
        seen_events: null,
      },
    });
    const { store, sent } = sendingStore(v);
    act(() => render(<PendingPanel store={store} />, root));
    expect(root.querySelectorAll('input[type="radio"]')).toHaveLength(0);
    const confirm = () =>
      [...root.querySelectorAll<HTMLButtonElement>("button")].find((b) => b.textContent === "Confirm")!;
    const pairButtons = () =>
      [...root.querySelectorAll<HTMLButtonElement>(".pair-btn")].map((b) => b.getAttribute("aria-label"));
    expect(pairButtons()).toEqual(["Discard: Darth Vader", "Discard: Military 5", "Discard: Recon 2"]);
    expect(confirm().disabled).toBe(true);
    act(() => root.querySelector<HTMLButtonElement>('.pair-btn[aria-label="Discard: Military 5"]')!.click());
    expect(pairButtons()).toEqual(["Put on top: Darth Vader", "Put on top: Recon 2"]);
    expect(root.querySelector(".pair-step")?.textContent).toBe(
      "To discard: Military 5. Now choose the card to put on top of the deck.",
    );
    expect(confirm().disabled).toBe(true);
    act(() => root.querySelector<HTMLButtonElement>('.pair-btn[aria-label="Put on top: Recon 2"]')!.click());
    expect(root.querySelector(".pair-step")?.textContent).toBe(
      "Discard Military 5, put Recon 2 on top: confirm, or choose again.",
    );
    act(() => confirm().click());
    expect(sent).toEqual([{ type: "answer", choice: { kind: "discard_and_top", discard: seen[1], top: seen[2] } }]);
    // choosing again starts over
    act(() => root.querySelector<HTMLButtonElement>(".pair-again")!.click());
    expect(pairButtons()).toHaveLength(3);
  });

  it("pending choice: dialog titled by the card, confirm sends the chosen option", () => {
    const v = makeView({
      pending: {
        owner: "rebel",
        source: { kind: "card", card: { owner: "rebel", card: "Recon 2" } },
        step: { step: "recon_discard", deck: "imperial", seen: 2 },
        options: [
          { kind: "cards", cards: [{ owner: "imperial", card: "Darth Vader" }] },
          { kind: "cards", cards: [{ owner: "imperial", card: "Military 5" }] },
        ],
        seen_cards: [
          { owner: "imperial", card: "Darth Vader" },
          { owner: "imperial", card: "Military 5" },
        ],
        seen_events: null,
      },
    });
    const { store, sent } = sendingStore(v);
    act(() => render(<PendingPanel store={store} />, root));
    expect(root.querySelector('[role="dialog"] h2')?.textContent).toBe("Recon 2");
    expect(root.textContent).toContain("only you see this");
    const radios = [...root.querySelectorAll('input[type="radio"]')] as HTMLInputElement[];
    expect(radios.length).toBe(2);
    act(() => radios[1]!.click());
    const confirm = [...root.querySelectorAll("button")].find((b) => b.textContent === "Confirm")!;
    act(() => confirm.click());
    expect(sent).toEqual([
      { type: "answer", choice: { kind: "cards", cards: [{ owner: "imperial", card: "Military 5" }] } },
    ]);
  });

  it("a glowing card on the table selects its answer in the panel", () => {
    const v = makeView({
      pending: {
        owner: "rebel",
        source: { kind: "card", card: { owner: "rebel", card: "Military 3" } },
        step: { step: "discard_opponent_card" },
        options: [
          { kind: "cards", cards: [{ owner: "imperial", card: "Darth Vader" }] },
          { kind: "cards", cards: [{ owner: "imperial", card: "Recon 2" }] },
        ],
        seen_cards: null,
        seen_events: null,
      },
    });
    v.imperial.play_area = [
      { card: "Darth Vader", ready: true, value: 6 },
      { card: "Recon 2", ready: false, value: 2 },
    ];
    const store = storeWith(v);
    // the table holds the pending choice in its side column
    act(() => render(<Table store={store} />, root));
    expect(root.querySelectorAll('[role="dialog"]').length).toBe(1);
    expect(root.querySelectorAll(".card.target").length).toBe(2);
    const pick = root.querySelector('button[aria-label="Select: Recon 2"]') as HTMLButtonElement;
    act(() => pick.click());
    const radios = [...root.querySelectorAll('input[type="radio"]')] as HTMLInputElement[];
    expect(radios.map((r) => r.checked)).toEqual([false, true]);
  });

  it("game over: winner, chart and rematch", () => {
    const v = makeView({
      phase: "game_over",
      outcome: { winner: "rebel", reason: "victory_points", vp: [7, 3] },
      rounds: [
        {
          round: 1,
          event: "Battle of Yavin",
          objective: 15,
          strategies: ["support", "deception"],
          totals_at_reveal: [14, 12],
          eligible: [true, true],
          direct_assault: [false, false],
          totals: [14, 12],
          bust: [false, false],
          would_be_winner: "rebel",
          deception: true,
          winner: "imperial",
          reason: "deception",
          vp_after: [0, 3],
        },
      ],
    });
    act(() => render(<GameOver store={storeWith(v)} />, root));
    expect(root.textContent).toContain("You win!");
    expect(root.textContent).toContain("Deception: the loser wins instead");
    expect(root.querySelector("svg[role=img]")).not.toBeNull();
    expect(buttons()).toContain("Ask for a rematch (sides swap)");
  });

  it("card details: focus shows the whole power, a click pins it, Escape closes", () => {
    inspected.value = null;
    const v = makeView({ legal_actions: [{ type: "pass" }] });
    v.imperial.play_area = [{ card: "Darth Vader", ready: false, value: 1 }];
    act(() =>
      render(
        <>
          <Table store={storeWith(v)} />
          <CardDetail view={v} />
        </>,
        root,
      ),
    );
    const card = root.querySelector<HTMLElement>('.card[role="button"]')!;
    expect(card.getAttribute("tabindex")).toBe("0");
    expect(root.querySelector("aside.card-detail")).toBeNull();
    act(() => void card.dispatchEvent(new FocusEvent("focus")));
    const aside = () => root.querySelector("aside.card-detail");
    expect(aside()?.textContent).toContain("Darth Vader");
    expect(aside()?.textContent).toContain(
      "Discard an exhausted card from either play area; a character goes to its owner's reserve instead.",
    );
    expect(aside()?.textContent).toContain("exhausted");
    expect(aside()?.textContent).toContain("Value now: 1");
    act(() => void card.dispatchEvent(new FocusEvent("blur")));
    expect(aside()).toBeNull();
    act(() => card.click());
    expect(aside()?.classList.contains("pinned")).toBe(true);
    expect(card.getAttribute("aria-expanded")).toBe("true");
    act(() => void card.dispatchEvent(new FocusEvent("blur"))); // pinned: stays
    expect(aside()).not.toBeNull();
    act(() => void document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape" })));
    expect(aside()).toBeNull();
    setLanguage("ja");
    act(() => card.click());
    expect(aside()?.textContent).toContain("ダース・ベイダー");
    expect(aside()?.textContent).toContain("Darth Vader"); // the printed English name beside it
    act(() => card.click());
    expect(aside()).toBeNull();
  });

  it("character choice on a touch screen: a tap selects without covering the grid; ⓘ reads; a tap outside closes", () => {
    inspected.value = null;
    const v = makeView({
      phase: "character_choice",
      legal_actions: [{ type: "choose_characters", characters: ["Han Solo", "Chewbacca", "Leia Organa", "Yoda"] }],
    });
    v.rebel.characters_chosen = false;
    act(() =>
      render(
        <>
          <CharacterChoice store={storeWith(v)} />
          <CardDetail view={v} />
        </>,
        root,
      ),
    );
    const aside = () => root.querySelector("aside.card-detail");
    const pick = root.querySelector<HTMLButtonElement>("button.pick")!;
    // A finger: pointerdown (touch), then the focus and click of the tap.
    act(() => {
      pick.dispatchEvent(new PointerEvent("pointerdown", { bubbles: true, pointerType: "touch" }));
      pick.dispatchEvent(new FocusEvent("focus"));
      pick.click();
    });
    expect(pick.getAttribute("aria-pressed")).toBe("true");
    expect(aside()).toBeNull();
    // ⓘ pins the details, with a close button.
    const info = pick.parentElement!.querySelector<HTMLButtonElement>("button.info-btn")!;
    expect(info.getAttribute("aria-label")).toMatch(/^Show details of /);
    act(() => {
      info.dispatchEvent(new PointerEvent("pointerdown", { bubbles: true, pointerType: "touch" }));
      info.click();
    });
    expect(aside()?.classList.contains("pinned")).toBe(true);
    expect(aside()?.querySelector("button.close")).not.toBeNull();
    // A tap outside closes them.
    act(
      () =>
        void root
          .querySelector("h2")!
          .dispatchEvent(new PointerEvent("pointerdown", { bubbles: true, pointerType: "touch" })),
    );
    expect(aside()).toBeNull();
    // The keyboard still shows them on focus.
    act(() => {
      document.dispatchEvent(new KeyboardEvent("keydown", { key: "Tab" }));
      pick.dispatchEvent(new FocusEvent("focus"));
    });
    expect(aside()).not.toBeNull();
  });

  it("dominance says what the winner takes, a losing Bureaucracy, or the event going under the deck", () => {
    const base: Extract<RoundOutcome, { state: "decided" }> = {
      state: "decided",
      round: 2,
      event: "Battle of Hoth",
      objective: 17,
      strategies: ["support", "bureaucracy"],
      totals_at_reveal: [14, 12],
      eligible: [true, true],
      direct_assault: [false, false],
      totals: [14, 12],
      bust: [false, false],
      would_be_winner: "rebel",
      deception: false,
      winner: "rebel",
      reason: "higher_total",
      vp_after: [2, 0],
    };
    const lines = awardLines(base);
    expect(lines[0]).toMatch(/^Rebel takes Battle of Hoth: \+\d VP, \+\d influence$/);
    expect(lines).toContain("Imperial lost with Bureaucracy: +2 influence");
    expect(awardLines({ ...base, eligible: [true, false] })).not.toContain(
      "Imperial lost with Bureaucracy: +2 influence",
    );
    expect(awardLines({ ...base, winner: null, reason: "both_bust", would_be_winner: null })).toEqual([
      "The event goes face down to the bottom of the event deck.",
    ]);
  });
});
