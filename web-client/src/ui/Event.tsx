import type { RefObject } from "preact";
import { useEffect, useState } from "preact/hooks";
import { EVENT_INFO } from "../data/cards";
import { cardName, colon, effectText, eventName, sideName, strategyName, strategyText, t } from "../i18n";
import type { PendingView, View } from "../net/protocol";
import { FACTIONS } from "../net/protocol";
import type { RoundOutcome } from "../state/derived";

export function EventCard({ view }: { view: View }) {
  const ev = view.event;
  if (!ev) return null;
  // the tutorial's one event awards nothing and has no deck behind it
  const tutorial = view.mode === "tutorial";
  return (
    <section class="event" aria-label={`${t("event.title")}: ${eventName(ev.event)}`}>
      <div class="event-head">
        <h3>{eventName(ev.event)}</h3>
        <span class="objective-box">
          <span class="objective-label">{t("event.objective")}</span>
          <span class="objective">{ev.objective}</span>
        </span>
      </div>
      <div class="pips">
        <span aria-hidden="true">
          {Array.from({ length: ev.capacity }, (_, i) => (
            <span key={i} class="hex">
              ⬡
            </span>
          ))}
        </span>{" "}
        <span class="pips-label">{t("event.capacity", { n: ev.capacity })}</span>
      </div>
      {!tutorial && (
        <p class="rewards">
          {t("event.vp", { n: ev.vp })} · {t("event.influence", { n: ev.influence })}
        </p>
      )}
      <p class="effect">{effectText(ev.effect)}</p>
      <p class="meta">
        {/* the phase last: its name's length changes twice a round, and moved what followed it */}
        {t("table.round", { n: view.round })}
        {view.balance && (
          <>
            {" "}
            · {t("table.balance")}
            {colon()}
            <span class={`side-${view.balance}`}>{sideName(view.balance)}</span>
          </>
        )}
        {!tutorial && (
          <>
            {" · "}
            {t("event.deck", { n: view.event_deck_size })}
          </>
        )}
        {" · "}
        {t(`phase.${view.phase}`)}
      </p>
      {view.known_next_events.length > 0 && (
        <p class="secret">
          {view.viewer === "omniscient" ? (
            t("replay.eventDeck")
          ) : (
            <>
              <span class="badge secret-mark">{t("common.onlyYou")}</span> {t("event.next")}
            </>
          )}
          {colon()}
          {view.known_next_events.map(eventName).join(" → ")}
        </p>
      )}
    </section>
  );
}

type DecidedRound = Extract<RoundOutcome, { state: "decided" }>;

/** The name of what a pending choice comes from (a card, a strategy or an event). */
function sourceName(source: PendingView["source"]): string {
  switch (source.kind) {
    case "card":
      return cardName(source.card.card);
    case "strategy":
      return strategyName(source.strategy);
    case "event":
      return eventName(source.event);
  }
}

/** One line of why the round went the way it did, or what its result still waits for. */
function resultLine(o: RoundOutcome, ended: boolean): string {
  if (o.state === "undetermined") {
    if (ended || !o.waiting) return t("dominance.undecided");
    const who = t("pending.other", { side: sideName(o.waiting.owner), source: sourceName(o.waiting.source) });
    return `${who} — ${t("dominance.decidedNext")}`;
  }
  if (!o.winner) return t("dominance.noWinner");
  const why =
    o.reason === "tie_balance_token"
      ? t("reason.tie_balance_token", { side: sideName(o.winner) })
      : t(`reason.${o.reason}`);
  return `${t("dominance.winner", { side: sideName(o.winner) })} — ${why}`;
}

/** What the round's result gave each side: the event with its VP and influence, a
 *  loser's Bureaucracy, the event's effect — or the event going back under the deck. */
export function awardLines(o: DecidedRound): string[] {
  const info = EVENT_INFO.find((e) => e.name === o.event);
  if (!o.winner) return [t("dominance.toBottom")];
  const loser = o.winner === "rebel" ? "imperial" : "rebel";
  const li = loser === "rebel" ? 0 : 1;
  const lines = [
    t("dominance.award", {
      side: sideName(o.winner),
      event: eventName(o.event),
      vp: info?.vp ?? 0,
      influence: info?.influence ?? 0,
    }),
  ];
  if (o.strategies[li] === "bureaucracy" && o.eligible[li])
    lines.push(t("dominance.bureaucracy", { side: sideName(loser) }));
  const wi = 1 - li;
  // The effect resolves unless the award ended the game, which settles the VP at once.
  const gameWon = o.vp_after !== null && o.vp_after[wi]! >= 7;
  if (!gameWon && info && info.effect !== "none" && !info.effect.startsWith("ban_")) {
    lines.push(`${t("dominance.effect")}${colon()}${effectText(info.effect)}`);
  }
  return lines;
}

/** The reveal as a moment: both strategy cards turned face up together, each with what it does (a
 *  flip, the Imperial's a beat after the Rebel's; none under reduced motion). It stays as the head of
 *  the round's result: no timer decides what the screen shows. Screen readers read the table after it. */
function RevealedStrategies({ o, brief }: { o: RoundOutcome; brief: boolean }) {
  return (
    <div class="reveal-cards" aria-hidden="true">
      {FACTIONS.map((f, i) => {
        const s = o.strategies[i] ?? null;
        return (
          <div key={f} class={`reveal-card ${f}`}>
            <span class="who">{sideName(f)}</span>
            <strong class="what">{strategyName(s)}</strong>
            {s && !brief && <span class="does">{strategyText(s)}</span>}
          </div>
        );
      })}
    </div>
  );
}

/** The Dominance panel of one round: what the reveal settled, and the result only once the engine
 *  has decided it (`roundOutcome`). `ended`: the game is over (a claimed win or a lost clock may
 *  end it while the round waits). `brief`: above the viewer's open choice, the strategies turned up
 *  and the result without the rules' explanation, the strategies' texts and the table (read by
 *  screen readers only; the totals above say the same), so that the choice fits under it. */
export function RoundSummary({
  outcome: o,
  tutorial = false,
  ended = false,
  brief = false,
  flipped,
}: {
  outcome: RoundOutcome;
  tutorial?: boolean;
  ended?: boolean;
  brief?: boolean;
  /** the last round whose reveal the table showed: a panel shown again for the same round (brief ⇄
   *  full) does not turn its strategies up a second time */
  flipped?: RefObject<number>;
}) {
  const [still] = useState(() => flipped?.current === o.round);
  useEffect(() => {
    if (flipped) flipped.current = o.round;
  }, [flipped, o.round]);
  const decided = o.state === "decided" ? o : null;
  const awards = decided ? (tutorial ? [t("coach.noVp")] : awardLines(decided)) : [];
  const reveal = (
    <table class="reveal">
      <caption class="sr-only">{t("dominance.revealed")}</caption>
      <tbody>
        {FACTIONS.map((f, i) => (
          <tr key={f} class={f}>
            <th scope="row">{sideName(f)}</th>
            <td class="strategy-flip">{strategyName(o.strategies[i] ?? null)}</td>
            <td>
              {o.totals_at_reveal[i]}
              {decided?.direct_assault[i] && (
                <>
                  {" "}
                  {t("dominance.directAssault")} = {decided.totals[i]}
                </>
              )}
            </td>
            <td>
              {decided?.bust[i] ? <strong class="bust">{t("table.bust")}</strong> : ""}
              {!o.eligible[i] && <span class="muted"> ({t("dominance.notEligible")})</span>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
  return (
    <section
      class={`panel dominance${brief ? " brief" : ""}${still ? " still" : ""}`}
      aria-labelledby={`round-${o.round}`}
    >
      <h3 id={`round-${o.round}`}>
        {t("dominance.title")} · {t("table.round", { n: o.round })} ·{" "}
        {t("dominance.event", { event: eventName(o.event), objective: o.objective })}
      </h3>
      {!tutorial && !brief && <p class="small muted dominance-explain">{t("dominance.explain")}</p>}
      {!tutorial && <RevealedStrategies o={o} brief={brief} />}
      {/* brief: for screen readers only, in a box that clips it (a table ignores its own clipping
          and widened a phone's page) */}
      {brief ? <div class="sr-only">{reveal}</div> : reveal}
      {/* brief, undecided: the choice under it is what the round waits for */}
      {(decided || !brief) && <p class="big">{resultLine(o, ended)}</p>}
      {awards.length > 0 && (
        <ul class="award">
          {awards.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
