import type { ComponentChildren } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { colon, errorMessage, logLine, playerName, t } from "../i18n";
import { Connection } from "../net/connection";
import { browserSocketFactory, realClock, wsUrlFor } from "../net/env";
import { otherFaction } from "../net/protocol";
import { displayCode } from "../net/roomCode";
import { reloadOnVersionMismatch, tabStorage } from "../net/versionReload";
import { GameStore } from "../state/store";
import { AccountSlot } from "./AccountSlot";
import { useTurnAlerts } from "./attention";
import { CardDetail } from "./CardDetail";
import { CharacterChoice } from "./CharacterChoice";
import { ChatButton, ChatPanel } from "./Chat";
import { Clocks } from "./Clocks";
import { FairnessPanel } from "./Fairness";
import { endsOnTable, GameOver } from "./GameOver";
import { Lobby } from "./Lobby";
import { MoveSeat } from "./MoveSeat";
import { Planning } from "./Planning";
import { Reference } from "./Reference";
import { overDays, Reminders } from "./Reminders";
import { SettingsMenu } from "./Settings";
import { tokens } from "./services";
import { Table } from "./Table";
import { useTableSounds } from "./tableSounds";
import { LanguagePicker, numbered, useHeaderRoom } from "./widgets";

export function RoomPage({ code, watch }: { code: string; watch: boolean }) {
  const token = watch ? null : tokens.getToken(code);
  const ctx = useMemo(() => {
    if (!watch && !token) return null;
    const conn = new Connection({ url: wsUrlFor(code), token, socketFactory: browserSocketFactory, clock: realClock });
    const store = new GameStore();
    store.attach(conn);
    return { conn, store };
  }, [code, watch, token]);

  useEffect(() => {
    if (!ctx) return;
    // the room goes to the top of this device's rooms (the landing page's list)
    if (token) tokens.touch(code);
    // a server of another release: reload to get its page (a few times at most)
    const stopWatching = reloadOnVersionMismatch(ctx.conn, {
      storage: tabStorage(),
      clock: realClock,
      reload: () => location.reload(),
    });
    ctx.conn.start();
    const onOnline = () => ctx.conn.retryNow();
    addEventListener("online", onOnline);
    return () => {
      removeEventListener("online", onOnline);
      stopWatching();
      ctx.conn.stop();
      ctx.store.detach();
    };
  }, [ctx, code, token]);

  if (!ctx) {
    return (
      <main class="page narrow">
        <div class="topline">
          <LanguagePicker />
        </div>
        <h1>{t("header.room", { code: displayCode(code) })}</h1>
        <div class="panel">
          <p>{t("room.noToken")}</p>
          <p class="row">
            <a class="button" href={`/r/${code}/watch`}>
              {t("room.watchInstead")}
            </a>
            <a class="button" href="/">
              {t("common.back")}
            </a>
          </p>
        </div>
      </main>
    );
  }
  return <Room code={code} store={ctx.store} />;
}

/** The header's Rules button: open the reference drawer at the bottom and move there. */
function openReference() {
  const d = document.getElementById("reference");
  if (!(d instanceof HTMLDetailsElement)) return;
  d.open = true;
  d.scrollIntoView({ block: "start" });
  d.querySelector("summary")?.focus({ preventScroll: true });
}

/** The connection's state, and a retry while it waits to connect again. */
function ConnStatus({ store }: { store: GameStore }) {
  const status = store.status.value;
  const retry = store.retryInMs.value;
  const statusText =
    status === "waiting" ? t("status.waiting", { s: Math.ceil((retry ?? 0) / 1000) }) : t(`status.${status}`);
  return (
    <span class={`conn ${status}`} role="status">
      <span class="dot" aria-hidden="true" /> <span class="conn-text">{statusText}</span>
      {status === "waiting" && (
        <button type="button" class="link" onClick={() => store.retryNow()}>
          {t("status.retry")}
        </button>
      )}
    </span>
  );
}

/** The room's page before its first state: its code and the connection's state. */
function Connecting({ code, store }: { code: string; store: GameStore }) {
  return (
    <main class="page narrow connecting">
      <h1>{t("header.room", { code: displayCode(code) })}</h1>
      <p class="panel">
        <ConnStatus store={store} />
      </p>
    </main>
  );
}

function Header({ code, store }: { code: string; store: GameStore }) {
  const presence = store.presence.value;
  const header = useRef<HTMLElement>(null);
  useHeaderRoom(header);
  return (
    <header class="topbar" ref={header}>
      <h1 class="code">{t("header.room", { code: displayCode(code) })}</h1>
      <ConnStatus store={store} />
      {presence && (
        <span class={`specs${presence.spectators === 0 ? " none" : ""}`}>
          {t("header.spectators", { n: presence.spectators })}
        </span>
      )}
      {store.view.value && <Clocks store={store} />}
      {store.isSpectator.value && <span class="badge">{t("room.spectating")}</span>}
      {store.room.value?.options.rated && <AccountSlot at="rated" />}
      {store.view.value && <ChatButton store={store} />}
      <button type="button" class="link rules-link" onClick={openReference}>
        {t("header.rules")}
      </button>
      {!store.isSpectator.value && store.role.value && <MoveSeat code={code} />}
      {!store.isSpectator.value && <SettingsMenu store={store} />}
      <LanguagePicker />
    </header>
  );
}

function Room({ code, store }: { code: string; store: GameStore }) {
  const view = store.view.value;
  const presence = store.presence.value;
  const me = store.me.value;
  const failure = store.failure.value;

  let body: ComponentChildren;
  // planning and the table lay out two columns (the whole width of the page)
  let board = false;
  if (failure) {
    body = (
      <div class="panel" role="alert">
        <p>{errorMessage(failure)}</p>
        <p class="row">
          {failure === "bad_token" && (
            <a class="button" href={`/r/${code}/watch`}>
              {t("room.watchInstead")}
            </a>
          )}
          <a class="button" href="/">
            {t("common.back")}
          </a>
        </p>
      </div>
    );
  } else if (!view || !presence) {
    body = (
      <p class="panel" aria-live="polite">
        {t("status.connecting")}
      </p>
    );
  } else {
    const bothSeated = presence.seats[0].taken && presence.seats[1].taken;
    if (!bothSeated) body = <Lobby code={code} store={store} />;
    else if (view.phase === "game_over" || store.forfeited.value) {
      // over its final table when it ended at the table (two columns, as the table had)
      board = endsOnTable(view);
      body = <GameOver store={store} />;
    } else if (view.phase === "character_choice") body = <CharacterChoice store={store} />;
    else {
      board = true;
      body = view.phase === "planning" ? <Planning store={store} /> : <Table store={store} />;
    }
  }
  // The room's page is wide from its first to its last screen: the table and planning lay out two
  // columns, every other screen (connecting, the lobby, the character choice, a game over away from the
  // table) keeps a narrower column in it (the page changing width as a game started and ended moved the chat, the
  // log and everything else under the player: layout shift). On a desktop the character choice fills
  // the screen, as planning and the table do, so the chat under it stays where it will be all game.
  const filled = !board && !failure && !store.forfeited.value && view?.phase === "character_choice";
  if (!board) body = <div class={`narrow-body${filled ? " filled" : ""}`}>{body}</div>;
  const opp = me ? otherFaction(me) : null;
  const oppSeat = store.opponentSeat.value;
  // A new phase or round starts at the top of its screen (a phone would otherwise stay mid-page,
  // with the event out of view); not on the first render (a reload keeps the browser's position).
  const phaseKey = view ? `${view.phase}:${view.round}` : "";
  const lastPhase = useRef(phaseKey);
  // On a phone a phase that opens with a decision of this player starts at that decision: a planning
  // with strategies to choose (the strategies and Confirm on screen), a Dominance phase that opens
  // with their choice (Support, Rebel Uprising's reserve character: the dialog sits ~2,000 px down a
  // phone's one column); the score and the event are a scroll up. This effect runs after the
  // dialog's own (which focuses its first option): scrolling to the top here would undo that.
  useEffect(() => {
    if (lastPhase.current && phaseKey && lastPhase.current !== phaseKey) {
      const phone = matchMedia("(max-width: 900px)").matches;
      const due = phone ? document.querySelector(".strategy-block.due, .board [role=dialog]") : null;
      if (due) due.scrollIntoView({ block: "start" });
      else window.scrollTo({ top: 0 });
    }
    lastPhase.current = phaseKey;
  }, [phaseKey]);
  // an opponent's rematch offer shows in the tab's title too, for a player looking elsewhere
  const asked = store.room.value?.rematch_requested;
  const offered = !!me && !!asked && asked[me === "rebel" ? 1 : 0] && !asked[me === "rebel" ? 0 : 1];
  // a room over days: the opponent being away is how it is played (no away notice, no claim: the
  // deadlines decide), and reminders by email are offered under the game
  const days = overDays(store.room.value?.options.clock);
  const over = view?.phase === "game_over" || store.forfeited.value;
  const title = `${offered ? `${t("over.offerTitle")} · ` : ""}${t("header.room", { code: displayCode(code) })} · ${t("app.title")}`;
  useTurnAlerts(store, title);
  useTableSounds(store);
  // Until the room's first state arrives, only that it is coming (and a retry when it cannot): the
  // header, the drawers and the table appear together with it, so that nothing on the first screen
  // moves when they do (layout shift at every page load).
  if (!view && !failure) return <Connecting code={code} store={store} />;
  return (
    <div class={`room ${me ?? "spectator"}`}>
      <Header code={code} store={store} />
      <main class="page wide">
        {opp && oppSeat?.taken && !oppSeat.connected && !over && !days && (
          <AwayNotice
            side={playerName(opp, store.names.value)}
            claimIn={oppSeat.claim_in_seconds}
            presence={store.presence.value}
            onClaim={() => store.claimWin()}
          />
        )}
        {body}
        {days && me && view && !over && <Reminders code={code} />}
        <ErrorToast store={store} />
        {view && presence && <ChatPanel store={store} />}
        {view && <LogDrawer store={store} />}
        {view && view.phase !== "game_over" && <FairnessPanel fairness={store.room.value?.fairness ?? null} />}
        <Reference />
        <CardDetail view={view} />
      </main>
    </div>
  );
}

/** The opponent is away: a live countdown to when the win may be claimed, then the claim button. */
function AwayNotice(props: { side: string; claimIn: number | null; presence: unknown; onClaim: () => void }) {
  const [left, setLeft] = useState(props.claimIn);
  useEffect(() => {
    setLeft(props.claimIn);
    if (props.claimIn === null) return;
    const started = Date.now();
    const id = setInterval(
      () => setLeft(Math.max(0, props.claimIn! - Math.floor((Date.now() - started) / 1000))),
      1000,
    );
    return () => clearInterval(id);
  }, [props.claimIn, props.presence]);
  return (
    <div class="notice" role="status">
      {props.side}
      {colon()}
      {t("seat.away")}
      {left !== null && left > 0 && <span aria-live="off"> — {t("seat.claimIn", { s: left })}</span>}
      {left === 0 && (
        <>
          {" "}
          —{" "}
          <button type="button" onClick={props.onClaim}>
            {t("seat.claimWin")}
          </button>
        </>
      )}
    </div>
  );
}

function ErrorToast({ store }: { store: GameStore }) {
  const err = store.lastError.value;
  if (!err) return null;
  return (
    <div class="toast" role="alert">
      <strong>
        {t("error.title")}
        {colon()}
      </strong>
      {/* the colon holds the space English wants after it; 繁體中文 and 日本語 want none */}
      {errorMessage(err.code, err.message)}
      <button type="button" class="link" onClick={() => store.clearError()} aria-label={t("common.close")}>
        ×
      </button>
    </div>
  );
}

function LogDrawer({ store }: { store: GameStore }) {
  const log = store.log.value;
  const shown = log.slice(-200);
  return (
    <details class="log">
      <summary>
        {t("log.title")} ({log.length})
      </summary>
      {log.length === 0 ? (
        <p>{t("log.empty")}</p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region with nothing focusable in it must take the keyboard's focus to scroll (axe: scrollable-region-focusable)
        <ol start={log.length - shown.length + 1} style={numbered(log.length)} tabIndex={0} aria-label={t("log.title")}>
          {shown.map((e, i) => (
            <li key={i}>{logLine(e)}</li>
          ))}
        </ol>
      )}
    </details>
  );
}
