// A finished game's replay (`/r/{code}/games/{n}`): the table as it was after every action, stepped
// with buttons, a slider or the keyboard, the log so far beside it, the round and phase. Whose eyes:
// a spectator's (anyone with the link), the player's own seat (their token on this device) or
// everything (once both players agreed to reveal the game). The server replays the stored actions
// and projects each step for those eyes, so this page can only show what they were allowed to see.
import { batch } from "@preact/signals";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import { colon, errorMessage, logLine, type Names, playerName, sideName, t } from "../i18n";
import { ApiError } from "../net/http";
import type { ClientErrorCode, Faction, LogEntry, ReplayEyes, ReplaySteps, Role, View } from "../net/protocol";
import { displayCode } from "../net/roomCode";
import { replayPage } from "../state/route";
import { GameStore } from "../state/store";
import { archivePage, resultText } from "./Archive";
import { CardDetail } from "./CardDetail";
import { FairnessPanel } from "./Fairness";
import { ReplayFile } from "./ReplayPanel";
import { nextRoundStep, previousRoundStep, usePlayback } from "./replayNav";
import { api, tokens } from "./services";
import { Table } from "./Table";
import { LanguagePicker, numbered, useBottomBarRoom } from "./widgets";

type Loaded = { eyes: ReplayEyes; steps: ReplaySteps };

function roleOf(steps: ReplaySteps): Role {
  const v = steps.viewer;
  return typeof v === "object" ? { role: "seat", faction: v.seat } : { role: "spectator" };
}

/** A step's view as the table shows it in a replay: nothing can be answered, so no options. */
function shown(view: View): View {
  return view.pending ? { ...view, pending: { ...view.pending, options: null } } : view;
}

export function ReplayPage({ code, game }: { code: string; game: number }) {
  const token = tokens.getToken(code);
  const [eyes, setEyes] = useState<ReplayEyes>("spectator");
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [failure, setFailure] = useState<ClientErrorCode | null>(null);
  const [at, setAt] = useState(0);
  const store = useMemo(() => {
    const s = new GameStore();
    s.replaying.value = true;
    return s;
  }, []);

  useEffect(() => {
    let live = true;
    setFailure(null);
    api.replaySteps(code, game, eyes, token).then(
      (steps) => {
        if (!live) return;
        setLoaded({ eyes, steps });
        // other eyes keep the step; a first load starts at the beginning
        setAt((i) => Math.min(i, steps.steps.length - 1));
      },
      (e) => {
        if (live) setFailure(e instanceof ApiError ? e.code : "network");
      },
    );
    return () => {
      live = false;
    };
  }, [code, game, eyes, token]);

  const data = loaded?.steps ?? null;
  const last = data ? data.steps.length - 1 : 0;
  const go = useCallback((i: number) => setAt(Math.max(0, Math.min(last, i))), [last]);
  const rounds = useMemo(() => (data ? data.steps.map((s) => s.view.round) : []), [data]);
  const [playing, setPlaying] = usePlayback(at, last, go);

  // ← → step, Page Up / Page Down round, Home / End jump, Space play / pause; not while a control
  // that reads those keys itself has the focus (Space presses a focused button by itself)
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const el = e.target instanceof HTMLElement ? e.target : null;
      if (el?.closest("input, select, textarea") || e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.key === " ") {
        if (el?.closest("button, a, summary")) return;
        e.preventDefault();
        setPlaying(!playing);
        return;
      }
      const to = {
        ArrowLeft: at - 1,
        ArrowRight: at + 1,
        PageUp: previousRoundStep(rounds, at),
        PageDown: nextRoundStep(rounds, at),
        Home: 0,
        End: last,
      }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      go(to);
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  });

  const log = useMemo(() => (data ? data.steps.slice(0, at + 1).flatMap((s) => s.log) : []), [data, at]);
  const step = data?.steps[at] ?? null;
  useLayoutEffect(() => {
    if (!data || !step) return;
    batch(() => {
      store.role.value = roleOf(data);
      store.givenNames.value = data.names;
      store.seq.value = step.seq;
      store.view.value = shown(step.view);
      store.log.value = log;
      store.lastEvents.value = step.log;
    });
  }, [data, step, log, store]);

  const title = `${t("replay.title", { n: game })} · ${t("header.room", { code: displayCode(code) })}`;
  useEffect(() => {
    document.title = `${title} · ${t("app.title")}`;
  }, [title]);
  const me = data?.your_faction ?? null;
  const view = store.view.value;
  return (
    <div class={`room replay-page ${loaded?.eyes === "seat" && me ? me : "spectator"}`}>
      <header class="topbar">
        <a class="code" href={archivePage(code)}>
          {t("header.room", { code: displayCode(code) })}
        </a>
        <h1>{t("replay.title", { n: game })}</h1>
        <LanguagePicker />
      </header>
      <main class="page wide">
        {failure && !data && (
          <div class="panel" role="alert">
            <p>{failure === "game_not_over" ? t("replay.notOver") : errorMessage(failure)}</p>
            <p class="row">
              {failure === "game_not_over" && (
                <a class="button primary" href={token ? `/r/${code}` : `/r/${code}/watch`}>
                  {t("replay.watchLive")}
                </a>
              )}
              <a class="button" href={archivePage(code)}>
                {t("replay.allGames")}
              </a>
            </p>
          </div>
        )}
        {!failure && !data && (
          <p class="panel" aria-live="polite">
            {t("replay.loading")}
          </p>
        )}
        {data && step && (
          <>
            <section class="replay-head panel" aria-label={t("replay.title", { n: game })}>
              <p class="replay-result">
                <strong>{resultText(data.outcome, data.forfeit_winner, data.forfeit_reason, data.names)}</strong>
                {data.outcome && <span class="muted"> · {t(`over.by.${data.outcome.reason}`)}</span>}
              </p>
              <Eyes eyes={eyes} loaded={loaded!.eyes} me={me} revealed={data.revealed} onChange={setEyes} />
              {failure && <p class="error">{errorMessage(failure)}</p>}
            </section>
            <Controls
              at={at}
              last={last}
              go={go}
              rounds={rounds}
              playing={playing}
              setPlaying={setPlaying}
              view={step.view}
              acted={step.seat}
              names={data.names}
            />
            <div class="replay-body">
              {view && <Table store={store} />}
              <ReplayLog entries={log} fresh={step.log.length} />
            </div>
            <section class="replay-files panel">
              {data.revealed && (
                <p>
                  <ReplayFile code={code} game={game} label={t("reveal.download")} button={1} />{" "}
                  <code class="small">{t("reveal.verify", { file: `evr-${code}-game-${game}.json` })}</code>
                </p>
              )}
              <p class="row">
                <a href={archivePage(code)}>{t("replay.allGames")}</a>
                {game > 1 && <a href={replayPage(code, game - 1)}>{t("replay.previousGame")}</a>}
              </p>
            </section>
            <FairnessPanel fairness={data.fairness} open />
            <CardDetail view={view} />
          </>
        )}
      </main>
    </div>
  );
}

/** Whose eyes: a spectator's, the player's own seat (when this device holds its token), everything
 *  (once both players agreed; otherwise said why not). */
function Eyes(props: {
  eyes: ReplayEyes;
  loaded: ReplayEyes;
  me: Faction | null;
  revealed: boolean;
  onChange: (e: ReplayEyes) => void;
}) {
  const choices: [ReplayEyes, string][] = [["spectator", t("replay.eyes.spectator")]];
  if (props.me) choices.push(["seat", t("replay.eyes.seat", { side: sideName(props.me) })]);
  if (props.revealed) choices.push(["everything", t("replay.eyes.everything")]);
  return (
    <fieldset class="replay-eyes">
      <legend>{t("replay.eyes")}</legend>
      {choices.map(([e, label]) => (
        <label key={e} class={props.loaded === e ? "current" : undefined}>
          <input
            type="radio"
            name="replay-eyes"
            value={e}
            checked={props.eyes === e}
            onChange={() => props.onChange(e)}
          />{" "}
          {label}
        </label>
      ))}
      {!props.revealed && <p class="small muted">{t("replay.everythingLocked")}</p>}
    </fieldset>
  );
}

function Controls(props: {
  at: number;
  last: number;
  go: (i: number) => void;
  /** the round of each step */
  rounds: readonly number[];
  playing: boolean;
  setPlaying: (on: boolean) => void;
  view: View;
  acted: Faction | null;
  names: Names;
}) {
  const { at, last, go, view, rounds, playing } = props;
  const nav = useRef<HTMLElement>(null);
  useBottomBarRoom(nav);
  return (
    <nav class="replay-controls" aria-label={t("replay.controls")} ref={nav}>
      <span class="buttons">
        <button type="button" class="ends" onClick={() => go(0)} disabled={at === 0} aria-label={t("replay.first")}>
          «
        </button>
        <button
          type="button"
          onClick={() => go(previousRoundStep(rounds, at))}
          disabled={at === 0}
          aria-label={t("replay.prevRound")}
        >
          ⏮
        </button>
        <button type="button" onClick={() => go(at - 1)} disabled={at === 0} aria-label={t("replay.back")}>
          ‹
        </button>
        <button
          type="button"
          class="primary play"
          onClick={() => props.setPlaying(!playing)}
          disabled={at === last && !playing}
          aria-label={playing ? t("replay.pause") : t("replay.play")}
        >
          {playing ? "❚❚" : "▶"}
        </button>
        <button
          type="button"
          class="step-forward"
          onClick={() => go(at + 1)}
          disabled={at === last}
          aria-label={t("replay.forward")}
        >
          ›
        </button>
        <button
          type="button"
          class="next-round"
          onClick={() => go(nextRoundStep(rounds, at))}
          disabled={at === last}
          aria-label={t("replay.nextRound")}
        >
          ⏭
        </button>
        <button
          type="button"
          class="ends"
          onClick={() => go(last)}
          disabled={at === last}
          aria-label={t("replay.last")}
        >
          »
        </button>
      </span>
      <input
        type="range"
        class="replay-slider"
        min={0}
        max={last}
        value={at}
        aria-label={t("replay.slider")}
        aria-valuetext={t("replay.step", { i: at, n: last })}
        onInput={(e) => go(Number((e.target as HTMLInputElement).value))}
      />
      <span class="replay-where" aria-live="polite">
        <strong>{t("replay.step", { i: at, n: last })}</strong>
        {" · "}
        {view.phase === "game_over" || view.round === 0
          ? t(`phase.${view.phase}`)
          : t("replay.roundPhase", { round: view.round, phase: t(`phase.${view.phase}`) })}
        {props.acted && (
          <>
            {" · "}
            {t("replay.acted", { side: playerName(props.acted, props.names) })}
          </>
        )}
      </span>
      <span class="small muted replay-keys">{t("replay.keys")}</span>
    </nav>
  );
}

/** The log so far, the entries of the current step marked, kept scrolled to them. */
function ReplayLog({ entries, fresh }: { entries: LogEntry[]; fresh: number }) {
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const ol = list.current;
    if (ol) ol.scrollTop = ol.scrollHeight;
  });
  return (
    <aside class="replay-log log" aria-labelledby="replay-log-h">
      <h2 id="replay-log-h">
        {t("log.title")}
        {colon()}
        {entries.length}
      </h2>
      {entries.length === 0 ? (
        <p class="muted">{t("log.empty")}</p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region with nothing focusable in it must take the keyboard's focus to scroll (axe: scrollable-region-focusable)
        <ol ref={list} style={numbered(entries.length)} tabIndex={0} aria-labelledby="replay-log-h">
          {entries.map((e, i) => (
            <li key={i} class={i >= entries.length - fresh ? "fresh" : undefined}>
              {logLine(e)}
            </li>
          ))}
        </ol>
      )}
    </aside>
  );
}
