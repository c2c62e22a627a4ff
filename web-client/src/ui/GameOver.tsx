import { useState } from "preact/hooks";
import { colon, playerName, sentences, sideName, t } from "../i18n";
import { otherFaction, type View } from "../net/protocol";
import { roundOutcome, vpByRound } from "../state/derived";
import type { GameStore } from "../state/store";
import { AccountSlot } from "./AccountSlot";
import { Archive } from "./Archive";
import { RoundSummary } from "./Event";
import { FairnessPanel } from "./Fairness";
import { ReplayPanel } from "./ReplayPanel";
import { Table } from "./Table";
import { useMedia } from "./widgets";

/** Whether a finished game is shown over its final table: a game that ended at the table (the last
 *  Dominance, a tutorial's struggle, a win claimed or lost on time mid-struggle), not one that ended
 *  while the characters or the strategies were being chosen. */
export function endsOnTable(view: View): boolean {
  return !!view.event && (view.phase === "game_over" || view.phase === "struggle" || view.phase === "dominance");
}

/**
 * The game over. At the table (endsOnTable): the result as a card over the final table — the areas,
 * the totals, the last reveal as they were when it ended — and, on a desktop, the table behind it
 * inert until the player asks to see it; the chart, the room's games and the shuffles' proof follow
 * under the table. Otherwise the result and the rest in one column.
 */
export function GameOver({ store }: { store: GameStore }) {
  const view = store.view.value!;
  const desktop = useMedia("(min-width: 901px)");
  // "See the table": the card leaves the table for its place above it (per game of the room)
  const [docked, setDocked] = useState<string | null>(null);
  const gameKey = `${store.room.value?.game_number ?? 0}`;
  if (!endsOnTable(view)) {
    return (
      <>
        <ResultCard store={store} />
        <OverDetails store={store} withLastRound />
      </>
    );
  }
  const covering = desktop && docked !== gameKey;
  return (
    <div class={`over-stage${covering ? " covering" : ""}`}>
      <ResultCard store={store} onSeeTable={covering ? () => setDocked(gameKey) : undefined} />
      <div class="over-table" inert={covering}>
        <Table store={store} ended />
      </div>
      <OverDetails store={store} />
    </div>
  );
}

/** The result, and what to do next (a rematch, the replay): the first thing a player sees. */
function ResultCard({ store, onSeeTable }: { store: GameStore; onSeeTable?: () => void }) {
  const view = store.view.value!;
  const room = store.room.value;
  const me = store.me.value;
  const o = view.outcome;
  const winner = room?.forfeit_winner ?? o?.winner ?? null;
  const headline = !winner
    ? t("over.draw")
    : me
      ? winner === me
        ? t("over.youWin")
        : t("over.youLose")
      : t("over.winner", { side: playerName(winner, room?.names) });
  const asked: boolean[] = room?.rematch_requested ?? [false, false];
  const myIdx = me === "rebel" ? 0 : me === "imperial" ? 1 : -1;
  const tutorial = view.mode === "tutorial";
  const offered = myIdx >= 0 && asked[1 - myIdx] && !asked[myIdx];
  return (
    <section class={`panel gameover over-card ${winner ?? "draw"}`} aria-labelledby="over-h">
      {offered && (
        <p class="notice rematch-offer" role="status">
          {t("over.rematchOfferedBy", { side: playerName(otherFaction(me!), room?.names) })}{" "}
          <button type="button" class="primary" onClick={() => store.rematch()}>
            {t("over.acceptRematch")}
          </button>
        </p>
      )}
      <div class="over-top">
        <div class="over-result">
          <h2 id="over-h">{t("over.title")}</h2>
          <p class={`headline ${winner ?? ""}`}>{headline}</p>
          {winner && me && <p>{t("over.winner", { side: playerName(winner, room?.names) })}</p>}
          {room?.forfeit_winner ? (
            <p>
              {room.forfeit_reason === "time"
                ? t("over.onTime", { side: playerName(otherFaction(room.forfeit_winner), room.names) })
                : t("over.forfeit", { side: playerName(room.forfeit_winner, room.names) })}
            </p>
          ) : room?.forfeit_reason === "both_out_of_time" ? (
            <p>{t("over.bothOutOfTime")}</p>
          ) : tutorial ? (
            <TutorialEnd view={view} />
          ) : (
            o && (
              <p>
                {t(`over.by.${o.reason}`)} · {sideName("rebel")} {o.vp[0]} – {o.vp[1]} {sideName("imperial")}
              </p>
            )
          )}
          <div class="row over-rematch">
            {me &&
              !offered &&
              (myIdx >= 0 && asked[myIdx] ? (
                <p role="status">{t("over.rematchAsked")}</p>
              ) : (
                <button type="button" class="primary" onClick={() => store.rematch()}>
                  {t("over.rematch")}
                </button>
              ))}
            {room && <AccountSlot at="room" room={room} seated={!!me} />}
            {onSeeTable && (
              <button type="button" class="see-table" onClick={onSeeTable}>
                {t("over.seeTable")}
              </button>
            )}
          </div>
        </div>
        {room && <ReplayPanel room={room} me={me} onReveal={() => store.revealReplay()} />}
      </div>
    </section>
  );
}

/** Under the result (and the table): the chart of the rounds, the last round's result where no table
 *  shows it, the room's games, the shuffles' proof. */
function OverDetails({ store, withLastRound }: { store: GameStore; withLastRound?: boolean }) {
  const view = store.view.value!;
  const room = store.room.value;
  const tutorial = view.mode === "tutorial";
  const points = vpByRound(view);
  const lastRound = view.rounds[view.rounds.length - 1];
  const last = withLastRound && lastRound ? roundOutcome(view, lastRound.round) : null;
  return (
    <section class="panel gameover over-more" aria-label={t("over.details")}>
      {points.length > 0 && !tutorial && <VpChart points={points} />}
      {last && <RoundSummary outcome={last} tutorial={tutorial} ended />}
      {room && <Archive code={room.code} refresh={`${room.game_number}:${room.reveal_agreed.join()}`} />}
      <FairnessPanel fairness={room?.fairness ?? null} open />
    </section>
  );
}

/** The tutorial's end: the totals that decided it (R-2.8: the struggle ends the game, with no
 *  dominance and no VP; the play areas and the event stay as they were), why, and what next. */
function TutorialEnd({ view }: { view: View }) {
  return (
    <div class="coach">
      {view.event && (
        <p class="big">
          {t("coach.overTotals", {
            rebel: sideName("rebel"),
            imperial: sideName("imperial"),
            r: view.rebel.total,
            i: view.imperial.total,
            objective: view.event.objective,
          })}
        </p>
      )}
      <p>{sentences(t("coach.overWhy"), t("coach.noVp"))}</p>
      <p>{t("coach.next")}</p>
      <p>
        <a class="button" href="/">
          {t("coach.fullGame")}
        </a>
      </p>
    </div>
  );
}

/** A small line chart of VP after each round: Rebel orange solid with dots, Imperial blue dashed
 *  with squares (told apart without colour), the 7 VP goal as a dotted line. */
function VpChart({ points }: { points: { round: number; vp: [number, number] }[] }) {
  const w = 320;
  const h = 140;
  const left = 26;
  const bottom = h - 18;
  const maxVp = Math.max(7, ...points.flatMap((p) => p.vp));
  const x = (i: number) => left + 8 + (i * (w - left - 20)) / Math.max(1, points.length - 1);
  const y = (v: number) => bottom - (v * (bottom - 10)) / maxVp;
  const line = (k: 0 | 1) => points.map((p, i) => `${i ? "L" : "M"}${x(i)},${y(p.vp[k])}`).join(" ");
  // read out in the reader's language: "1: 0–3, 2: 3–3" / "1：0–3、2：3–3"
  const desc = points.map((p) => `${p.round}${colon()}${p.vp[0]}–${p.vp[1]}`).join(t("sep.list"));
  const yTicks = [0, Math.round(maxVp / 2), 7, maxVp].filter((v, i, a) => a.indexOf(v) === i);
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${w} ${h}`} role="img" aria-label={`${t("over.chart")}${colon()}${desc}`}>
        <line x1={left} y1={bottom} x2={w - 8} y2={bottom} class="axis" />
        <line x1={left} y1={bottom} x2={left} y2={6} class="axis" />
        <line x1={left} y1={y(7)} x2={w - 8} y2={y(7)} class="goal" />
        {yTicks.map((v) => (
          <text key={`y${v}`} x={left - 5} y={y(v) + 3.5} text-anchor="end" class="tick">
            {v}
          </text>
        ))}
        <path d={line(0)} class="l-rebel" />
        <path d={line(1)} class="l-imperial" />
        {points.map((p, i) => (
          <g key={p.round}>
            <circle cx={x(i)} cy={y(p.vp[0])} r="3.5" class="m-rebel" />
            <rect x={x(i) - 3.5} y={y(p.vp[1]) - 3.5} width="7" height="7" class="m-imperial" />
            <text x={x(i)} y={h - 4} text-anchor="middle" class="tick">
              {p.round}
            </text>
          </g>
        ))}
      </svg>
      <figcaption>
        {t("over.chart")} — <span class="side-rebel">● {sideName("rebel")}</span> /{" "}
        <span class="side-imperial">■ {sideName("imperial")}</span>
      </figcaption>
    </figure>
  );
}
