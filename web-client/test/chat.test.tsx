// @vitest-environment happy-dom
/// <reference types="node" />
// The chat panel: messages shown as text (markup never runs), quick phrases in the reader's own
// language, a seat writing the players' chat, a spectator asked for a name once, a player's mutes;
// the store keeps each message once, in order; each author and message is isolated from the text
// around it.
import { readFileSync } from "node:fs";
import { render } from "preact";
import { act } from "preact/test-utils";
import { describe, expect, it } from "vitest";
import { setLanguage } from "../src/i18n";
import { MemoryStorage } from "../src/net/env";
import type { ChatBody, ChatChannel, ChatMessage } from "../src/net/protocol";
import { loadPrefs, prefs, setPref } from "../src/state/prefs";
import { GameStore } from "../src/state/store";
import { ChatPanel, shownChat } from "../src/ui/Chat";
import { mountPoint } from "./dom";
import { makeView, welcome } from "./fakes";

const root = mountPoint();

const msg = (id: number, channel: ChatChannel, from: ChatMessage["from"], body: ChatBody, game = 1): ChatMessage => ({
  id,
  at: 0,
  game,
  channel,
  from,
  body,
});
const MARKUP = '<img src=x onerror="window.__pwned=1"> hello';
const MESSAGES: ChatMessage[] = [
  msg(1, "players", { seat: "rebel" }, { kind: "phrase", phrase: "good_luck" }),
  msg(2, "players", { seat: "imperial" }, { kind: "text", text: MARKUP }),
  msg(3, "spectators", { spectator: "Ana" }, { kind: "text", text: "what a turn" }),
  msg(4, "players", { seat: "imperial" }, { kind: "phrase", phrase: "good_game" }),
];

function storeAs(role: "rebel" | "spectator") {
  const store = new GameStore();
  const w = welcome(5, makeView());
  if (w.type === "welcome") {
    w.you = role === "rebel" ? { role: "seat", faction: "rebel" } : { role: "spectator" };
    w.chat = MESSAGES.slice(0, 3);
  }
  store.apply(w);
  const sent: [ChatChannel, ChatBody, string | null][] = [];
  store.sendChat = (channel, body, name = null) => {
    sent.push([channel, body, name]);
    return true;
  };
  return { store, sent };
}

const texts = () => [...root().querySelectorAll(".chat-msg")].map((li) => li.textContent);

describe("chat", () => {
  it("shows text as text and phrases in the reader's language; the store keeps each message once", () => {
    loadPrefs(new MemoryStorage());
    const { store } = storeAs("rebel");
    store.apply({ type: "chat", messages: [MESSAGES[3]!, MESSAGES[1]!] });
    expect(store.chat.value.map((m) => m.id)).toEqual([1, 2, 3, 4]);
    act(() => render(<ChatPanel store={store} />, root()));
    expect(root().querySelector(".chat img")).toBeNull();
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
    expect(texts()).toEqual([
      "Rebel (You): Good luck!",
      `Imperial: ${MARKUP}`,
      "\u2068Ana\u2069 (spectator): what a turn",
      "Imperial: Good game!",
    ]);
    act(() => {
      setLanguage("ja");
    });
    expect(texts()[3]).toBe("帝国軍：対戦ありがとうございました！");
  });

  it("a seat writes the players' chat: phrases and trimmed text", () => {
    loadPrefs(new MemoryStorage());
    const { store, sent } = storeAs("rebel");
    act(() => render(<ChatPanel store={store} />, root()));
    const phrase = [...root().querySelectorAll<HTMLButtonElement>(".chat-phrases button")].find(
      (b) => b.textContent === "Well played!",
    )!;
    act(() => phrase.click());
    const input = root().querySelector<HTMLInputElement>(".chat-draft input")!;
    act(() => {
      input.value = "  nice one  ";
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    expect(root().querySelector(".chat-count")?.textContent).toBe("12/300");
    act(() => root().querySelector<HTMLFormElement>(".chat-form")!.requestSubmit());
    expect(sent).toEqual([
      ["players", { kind: "phrase", phrase: "well_played" }, null],
      ["players", { kind: "text", text: "nice one" }, null],
    ]);
    expect(input.maxLength).toBe(300);
  });

  it("a spectator chooses a name once; it is remembered", () => {
    const storage = new MemoryStorage();
    loadPrefs(storage);
    const { store, sent } = storeAs("spectator");
    act(() => render(<ChatPanel store={store} />, root()));
    expect(root().textContent).toContain("The players see it only once the game is over");
    const send = root().querySelector<HTMLButtonElement>(".chat-form button[type=submit]")!;
    const name = root().querySelector<HTMLInputElement>(".chat-name input")!;
    const draft = root().querySelector<HTMLInputElement>(".chat-draft input")!;
    act(() => {
      draft.value = "go rebels";
      draft.dispatchEvent(new Event("input", { bubbles: true }));
    });
    expect(send.disabled).toBe(true);
    act(() => {
      name.value = "Ana";
      name.dispatchEvent(new Event("input", { bubbles: true }));
    });
    act(() => send.click());
    expect(sent).toEqual([["spectators", { kind: "text", text: "go rebels" }, "Ana"]]);
    expect(prefs.value.name).toBe("Ana");
    expect(root().querySelector(".chat-name")).toBeNull();
    loadPrefs(storage);
    expect(prefs.value.name).toBe("Ana");
  });

  it("a player mutes the spectators or the opponent's typed messages for themselves", () => {
    loadPrefs(new MemoryStorage());
    expect(shownChat(MESSAGES, { side: "rebel", game: 1 }).map((m) => m.id)).toEqual([1, 2, 3, 4]);
    setPref("muteSpectators", true);
    expect(shownChat(MESSAGES, { side: "rebel", game: 1 }).map((m) => m.id)).toEqual([1, 2, 4]);
    setPref("muteOpponentText", true);
    expect(shownChat(MESSAGES, { side: "rebel", game: 1 }).map((m) => m.id)).toEqual([1, 4]);
    // their own text stays
    expect(shownChat(MESSAGES, { side: "imperial", game: 1 }).map((m) => m.id)).toEqual([1, 2, 4]);
    // spectators mute nothing
    expect(shownChat(MESSAGES, { side: null, game: 1 }).map((m) => m.id)).toEqual([1, 2, 3, 4]);
  });

  it("after a rematch (sides swapped) a player's own earlier lines stay theirs, and the opponent's stay the opponent's", () => {
    loadPrefs(new MemoryStorage());
    // game 1: this reader played the Imperial side and wrote message 1; the Rebel wrote message 2.
    // Game 2 (the rematch): the reader plays the Rebel side and writes message 3.
    const earlier = [
      msg(1, "players", { seat: "imperial" }, { kind: "text", text: "mine, as the Empire" }),
      msg(2, "players", { seat: "rebel" }, { kind: "text", text: "theirs, as the Rebellion" }),
      msg(3, "players", { seat: "rebel" }, { kind: "text", text: "mine, as the Rebellion" }, 2),
    ];
    const store = new GameStore();
    const w = welcome(5, makeView());
    if (w.type === "welcome") {
      w.you = { role: "seat", faction: "rebel" };
      w.room = { ...w.room, game_number: 2 };
      w.chat = earlier;
    }
    store.apply(w);
    act(() => render(<ChatPanel store={store} />, root()));
    expect(texts()).toEqual([
      "Imperial (You): mine, as the Empire",
      "Rebel: theirs, as the Rebellion",
      "Rebel (You): mine, as the Rebellion",
    ]);
    // muting the opponent's typed lines mutes the line the opponent wrote, whichever side it was on
    setPref("muteOpponentText", true);
    expect(shownChat(earlier, { side: "rebel", game: 2 }).map((m) => m.id)).toEqual([1, 3]);
  });

  it("isolates each author and each message from the text around them, as <bdi> would", () => {
    loadPrefs(new MemoryStorage());
    // the page's own style sheet (happy-dom cascades it): a right-to-left name or message must not
    // move the colon, the author or the next line ("אבג 3" read after an author would show "3 גבא")
    const style = document.createElement("style");
    style.textContent = readFileSync(`${process.cwd()}/src/ui/styles/pages.css`, "utf8");
    document.head.append(style);
    try {
      const { store } = storeAs("spectator");
      store.apply({
        type: "chat",
        messages: [msg(9, "spectators", { spectator: "אבג" }, { kind: "text", text: "שלום 3 – 5" })],
      });
      act(() => render(<ChatPanel store={store} />, root()));
      const lines = [...root().querySelectorAll(".chat-msg")];
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) {
        expect(getComputedStyle(line.querySelector(".chat-from")!).unicodeBidi, line.textContent!).toBe("isolate");
        expect(getComputedStyle(line.querySelector(".chat-text")!).unicodeBidi, line.textContent!).toBe("plaintext");
      }
      // a seat's name in the lobby's list of seats
      act(() =>
        render(
          <ul class="seats">
            <li>
              <strong>אבג</strong>
            </li>
          </ul>,
          root(),
        ),
      );
      expect(getComputedStyle(root().querySelector(".seats strong")!).unicodeBidi).toBe("plaintext");
    } finally {
      style.remove();
    }
  });
});
