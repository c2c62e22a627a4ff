import { colon, playerName, sentences, sideName, t } from "../i18n";
import { otherFaction, type View } from "../net/protocol";
import { roundOutcome, vpByRound } from "../state/derived";
import type { GameStore } from "../state/store";
import { Archive } from "./Archive";
import { RoundSummary } from "./Event";
import { FairnessPanel } from "./Fairness";
import { ReplayPanel } from "./ReplayPanel";

export function GameOver({ store }: { store: GameStore }) {
  const view = store.view.value!;
  const room = store.room.value;
  const me = store.me.value;
  const o = view.outcome;
  const lastRound = view.rounds[view.rounds.length - 1];
  const last = lastRound ? roundOutcome(view, lastRound.round) : null;
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
  const points = vpByRound(view);
  const tutorial = view.mode === "tutorial";
  const offered = myIdx >= 0 && asked[1 - myIdx] && !asked[myIdx];
  // The result and what to do next (a rematch, the replay) come first: on a desktop they fit the
  // first screen; the chart, the last round, the room's games and the shuffles' proof follow.
  return (
    <section class="panel gameover" aria-labelledby="over-h">
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
          ) : tutorial ? (
            <TutorialEnd view={view} />
          ) : (
            o && (
              <p>
                {t(`over.by.${o.reason}`)} · {sideName("rebel")} {o.vp[0]} – {o.vp[1]} {sideName("imperial")}
              </p>
            )
          )}
          {me && !offered && (
            <div class="row over-rematch">
              {myIdx >= 0 && asked[myIdx] ? (
                <p role="status">{t("over.rematchAsked")}</p>
              ) : (
                <button type="button" class="primary" onClick={() => store.rematch()}>
                  {t("over.rematch")}
                </button>
              )}
            </div>
          )}
        </div>
        {room && <ReplayPanel room={room} me={me} onReveal={() => store.revealReplay()} />}
      </div>
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
