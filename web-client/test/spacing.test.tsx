// @vitest-environment happy-dom
// 繁體中文 and 日本語 put no half-width space after full-width punctuation, in the strings
// (translations.test.ts) and in what the screens put together from them: two sentences side by side, a
// label and its colon before a message, a sentence before a button. This renders the screens that join
// translated texts and reads their text and accessible names.
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLanguage } from "../src/i18n";
import type { RoundResult, View } from "../src/net/protocol";
import { GameStore } from "../src/state/store";
import { GameOver } from "../src/ui/GameOver";
import { Landing } from "../src/ui/Landing";
import { FakeSocket, makeView, noGamesFetch, welcome } from "./fakes";
import { FULL_WIDTH_THEN_SPACE, type Local } from "./glossary";

const LOCALS: readonly Local[] = ["zh-Hant", "ja"];

let root: HTMLElement;
let sockets: FakeSocket[] = [];
beforeEach(() => {
  root = document.createElement("div");
  document.body.appendChild(root);
  sockets = [];
  (globalThis as { WebSocket: unknown }).WebSocket = class extends FakeSocket {
    constructor(url: string) {
      super(url);
      sockets.push(this);
    }
  };
  vi.stubGlobal("fetch", noGamesFetch);
});
afterEach(() => {
  render(null, root);
  root.remove();
  localStorage.clear();
  vi.unstubAllGlobals();
  setLanguage("en");
});

/** A control (a field, a button, a link drawn as one) or a picture: set apart from the text around it. */
const CONTROL = "input, select, textarea, button, a.button, svg, img";

/** The text as read on screen, each control as □: the space between a label and its field, or between a
 *  sentence and the button after it, is the gap between two things, not a space in a text. */
function shownText(node: Node): string {
  if (node.nodeType === Node.TEXT_NODE) return (node as Text).data;
  if (node instanceof Element && node.matches(CONTROL)) return "□";
  return [...node.childNodes].map(shownText).join("");
}

/** Where the rendered text or an accessible name has a half-width space after full-width punctuation. */
function spaced(): string[] {
  const texts = [shownText(root)];
  for (const el of root.querySelectorAll("[aria-label], [title], [placeholder]")) {
    for (const a of ["aria-label", "title", "placeholder"]) texts.push(el.getAttribute(a) ?? "");
  }
  const found: string[] = [];
  for (const s of texts) {
    for (const m of s.matchAll(new RegExp(FULL_WIDTH_THEN_SPACE, "g"))) {
      if (s[m.index + m[0].length] === "□") continue;
      found.push(`…${s.slice(Math.max(0, m.index - 20), m.index + 20)}…`);
    }
  }
  return found;
}

function storeWith(view: View): GameStore {
  const s = new GameStore();
  s.apply(welcome(3, view));
  return s;
}

const ROUND: RoundResult = {
  round: 1,
  event: "Battle of Yavin",
  objective: 15,
  strategies: ["direct_assault", "bureaucracy"],
  totals_at_reveal: [12, 11],
  eligible: [true, true],
  direct_assault: [true, false],
  totals: [14, 11],
  bust: [false, false],
  would_be_winner: "rebel",
  deception: false,
  winner: "rebel",
  reason: "higher_total",
  vp_after: [3, 0],
};

async function mountRoom(path: string): Promise<void> {
  history.replaceState(null, "", path);
  const { App } = await import("../src/ui/App");
  const { navigate } = await import("../src/ui/router");
  navigate(path, true);
  act(() => render(<App />, root));
}

describe.each(LOCALS)("no half-width space after full-width punctuation on screen (%s)", (lang) => {
  it("the landing page's introduction", () => {
    setLanguage(lang);
    act(() => render(<Landing />, root));
    expect(spaced()).toEqual([]);
  });

  it("the tutorial's end screen", () => {
    setLanguage(lang);
    const v = makeView({
      mode: "tutorial",
      phase: "game_over",
      turn: null,
      balance: null,
      legal_actions: [],
      rounds: [],
      outcome: { winner: "rebel", reason: "tutorial", vp: [0, 0] },
    });
    act(() => render(<GameOver store={storeWith(v)} />, root));
    expect(root.textContent).not.toBe("");
    expect(spaced()).toEqual([]);
  });

  it("a game's end with a round won by Direct Assault", () => {
    setLanguage(lang);
    const v = makeView({
      phase: "game_over",
      outcome: { winner: "rebel", reason: "victory_points", vp: [7, 3] },
      rounds: [ROUND],
    });
    act(() => render(<GameOver store={storeWith(v)} />, root));
    expect(spaced()).toEqual([]);
  });

  it("a refused action's message", async () => {
    setLanguage(lang);
    localStorage.setItem("evr.token.KJCHM976", "tok6");
    await mountRoom("/r/KJCHM976");
    act(() => sockets[0]!.serverOpen());
    act(() => sockets[0]!.serverSend(welcome(3, makeView({ legal_actions: [{ type: "pass" }] }))));
    act(() => sockets[0]!.serverSend({ type: "error", code: "not_your_turn", message: "no", action_id: null }));
    expect(root.querySelector(".toast")).not.toBeNull();
    expect(spaced()).toEqual([]);
  });

  it("a room whose seats are both taken", async () => {
    setLanguage(lang);
    globalThis.fetch = (async () =>
      ({
        ok: true,
        status: 200,
        json: async () => ({ code: "KJCHM97E", seat_free: false, spectators: "anyone_with_link" }),
      }) as unknown as Response) as typeof fetch;
    await mountRoom("/");
    const input = root.querySelector("input#code") as HTMLInputElement;
    act(() => {
      input.value = "KJCH-M97E";
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await act(async () => {
      input.closest("form")!.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }));
      await new Promise((r) => setTimeout(r, 0));
    });
    expect(root.querySelector('a[href="/r/KJCHM97E/watch"]')).not.toBeNull();
    expect(spaced()).toEqual([]);
  });
});
