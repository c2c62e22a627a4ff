// The room's chat panel, for seats and spectators alike: the messages this connection may read
// (every text shown as text, never as markup), quick phrases shown in the reader's own language,
// free text up to 300 characters, a spectator's name (asked once, kept in this browser), and a
// player's own mutes (the spectators' chat, the opponent's typed messages).
import { signal } from "@preact/signals";
import { useEffect, useRef, useState } from "preact/hooks";
import { colon, isolated, sideName, t } from "../i18n";
import { type ChatBody, type ChatChannel, type ChatMessage, MAX_NAME_CHARS, type Phrase } from "../net/protocol";
import { prefs, setPref } from "../state/prefs";
import type { GameStore } from "../state/store";

const PHRASES: Phrase[] = ["good_luck", "good_game", "thinking", "well_played", "your_turn", "rematch"];
const MAX_CHARS = 300;

/** The newest message id this page has had the chat panel on screen for. */
const seenId = signal(0);

/** The header's chat button: how many messages arrived since the panel was last on screen; a
 *  click brings the panel into view. */
export function ChatButton({ store }: { store: GameStore }) {
  const unread = shownChat(store.chat.value, readerOf(store)).filter((m) => m.id > seenId.value).length;
  return (
    <button
      type="button"
      class="link chat-link"
      onClick={() => document.getElementById("chat")?.scrollIntoView({ block: "start" })}
    >
      {t("chat.button")}
      {unread > 0 && <span class="badge unread"> {t("chat.unread", { n: unread })}</span>}
    </button>
  );
}

/** Who reads the chat: the side they play now (none for a spectator) and the room's game now. */
export type ChatReader = { side: "rebel" | "imperial" | null; game: number };

function readerOf(store: GameStore): ChatReader {
  return { side: store.me.value, game: store.room.value?.game_number ?? 1 };
}

/** Whether a seat's message is the reader's own. Sides swap at every rematch: the reader wrote it if
 *  they played its side in the game it was written in (the mark followed the side before: after a
 *  rematch the opponent's earlier lines read "(You)"). */
function writtenBy(m: ChatMessage, reader: ChatReader): boolean {
  if (!("seat" in m.from) || !reader.side) return false;
  const sameSideThen = (reader.game - m.game) % 2 === 0;
  return sameSideThen === (m.from.seat === reader.side);
}

/** The messages a reader shows after their own mutes. */
export function shownChat(messages: ChatMessage[], reader: ChatReader): ChatMessage[] {
  const p = prefs.value;
  if (!reader.side) return messages;
  return messages.filter((m) => {
    if (m.channel === "spectators") return !p.muteSpectators;
    const opponent = "seat" in m.from && !writtenBy(m, reader);
    return !(opponent && m.body.kind === "text" && p.muteOpponentText);
  });
}

function bodyText(body: ChatBody): string {
  return body.kind === "phrase" ? t(`chat.phrase.${body.phrase}`) : body.text;
}

function author(m: ChatMessage, reader: ChatReader): string {
  if ("seat" in m.from) {
    // the writer's name as it was when they wrote, with the side they played then
    const who = m.name
      ? t("player.named", { name: isolated(m.name), side: sideName(m.from.seat) })
      : sideName(m.from.seat);
    return who + (writtenBy(m, reader) ? t("common.youMark") : "");
  }
  return t("chat.spectatorName", { name: isolated(m.from.spectator) });
}

/** The chat as a drawer under the table; `open` follows the header's chat button. */
export function ChatPanel({ store }: { store: GameStore }) {
  const spectator = store.isSpectator.value;
  const channel: ChatChannel = spectator ? "spectators" : "players";
  const reader = readerOf(store);
  const messages = shownChat(store.chat.value, reader);
  const over = store.view.value?.phase === "game_over" || !!store.room.value?.forfeit_reason;
  const [draft, setDraft] = useState("");
  const [name, setName] = useState(prefs.value.name);
  const list = useRef<HTMLOListElement>(null);
  const panel = useRef<HTMLElement>(null);
  const count = messages.length;
  const newest = messages.length > 0 ? messages[messages.length - 1]!.id : 0;
  const [onScreen, setOnScreen] = useState(false);
  useEffect(() => {
    const ol = list.current;
    if (ol) ol.scrollTop = ol.scrollHeight;
  }, [count]);
  // messages count as read while the panel is on screen
  useEffect(() => {
    const el = panel.current;
    if (!el || typeof IntersectionObserver === "undefined") return;
    const io = new IntersectionObserver((entries) => setOnScreen(entries.some((e) => e.isIntersecting)));
    io.observe(el);
    return () => io.disconnect();
  }, []);
  useEffect(() => {
    if (onScreen && newest > seenId.value) seenId.value = newest;
  }, [onScreen, newest]);

  const needsName = spectator && !prefs.value.name;
  const send = (body: ChatBody): boolean => {
    const chosen = spectator ? (prefs.value.name || name.trim()).slice(0, MAX_NAME_CHARS) : null;
    if (spectator && !chosen) return false;
    if (!store.sendChat(channel, body, chosen)) return false;
    if (spectator && chosen && chosen !== prefs.value.name) setPref("name", chosen);
    return true;
  };
  const submit = (e: Event) => {
    e.preventDefault();
    const text = draft.trim();
    if (text && send({ kind: "text", text })) setDraft("");
  };
  return (
    <section class="chat panel" aria-labelledby="chat-h" id="chat" ref={panel}>
      <h2 id="chat-h">{t("chat.title")}</h2>
      {spectator && <p class="small muted">{t("chat.spectatorsNote")}</p>}
      {!spectator && !over && <p class="small muted">{t("chat.playersNote")}</p>}
      {messages.length === 0 ? (
        <p class="muted small">{t("chat.empty")}</p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region with nothing focusable in it must take the keyboard's focus to scroll (axe: scrollable-region-focusable)
        <ol class="chat-list" ref={list} aria-live="polite" tabIndex={0} aria-labelledby="chat-h">
          {messages.map((m) => (
            <li key={m.id} class={`chat-msg ${m.channel}${"seat" in m.from ? ` ${m.from.seat}` : ""}`}>
              <span class="chat-from">
                {author(m, reader)}
                {colon()}
              </span>
              <span class="chat-text">{bodyText(m.body)}</span>
            </li>
          ))}
        </ol>
      )}
      <fieldset class="chat-phrases">
        <legend class="sr-only">{t("chat.phrases")}</legend>
        {PHRASES.map((p) => (
          <button
            key={p}
            type="button"
            class="chip"
            disabled={needsName && !name.trim()}
            onClick={() => send({ kind: "phrase", phrase: p })}
          >
            {t(`chat.phrase.${p}`)}
          </button>
        ))}
      </fieldset>
      <form class="chat-form" onSubmit={submit}>
        {needsName && (
          <label class="chat-name">
            {t("chat.yourName")}
            <input
              type="text"
              maxLength={MAX_NAME_CHARS}
              value={name}
              autocomplete="nickname"
              onInput={(e) => setName((e.target as HTMLInputElement).value)}
            />
          </label>
        )}
        <label class="chat-draft">
          <span class="sr-only">{t("chat.message")}</span>
          <input
            type="text"
            maxLength={MAX_CHARS}
            value={draft}
            placeholder={t("chat.placeholder")}
            onInput={(e) => setDraft((e.target as HTMLInputElement).value)}
          />
        </label>
        <span class="small muted chat-count" aria-hidden="true">
          {draft.length}/{MAX_CHARS}
        </span>
        <button type="submit" disabled={!draft.trim() || (needsName && !name.trim())}>
          {t("chat.send")}
        </button>
      </form>
      {!spectator && (
        <p class="chat-mutes small">
          <label>
            <input
              type="checkbox"
              checked={prefs.value.muteSpectators}
              onChange={(e) => setPref("muteSpectators", (e.target as HTMLInputElement).checked)}
            />{" "}
            {t("chat.muteSpectators")}
          </label>
          <label>
            <input
              type="checkbox"
              checked={prefs.value.muteOpponentText}
              onChange={(e) => setPref("muteOpponentText", (e.target as HTMLInputElement).checked)}
            />{" "}
            {t("chat.muteOpponent")}
          </label>
        </p>
      )}
    </section>
  );
}
