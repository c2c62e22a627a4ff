import { EVENT_INFO } from "../data/cards";
import { colon, effectText, eventName, sideName, strategyName, t } from "../i18n";
import type { RoundResult, View } from "../net/protocol";
import { FACTIONS } from "../net/protocol";

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
        {t("table.round", { n: view.round })} · {t(`phase.${view.phase}`)}
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

/** One line of why the round went the way it did. */
function resultLine(r: RoundResult): string {
  if (!r.winner || !r.reason) return t("dominance.noWinner");
  const why =
    r.reason === "tie_balance_token"
      ? t("reason.tie_balance_token", { side: sideName(r.winner) })
      : t(`reason.${r.reason}`);
  return `${t("dominance.winner", { side: sideName(r.winner) })} — ${why}`;
}

/** What the round's result gave each side: the event with its VP and influence, a
 *  loser's Bureaucracy, the event's effect — or the event going back under the deck. */
export function awardLines(r: RoundResult): string[] {
  const info = EVENT_INFO.find((e) => e.name === r.event);
  if (!r.winner) return [t("dominance.toBottom")];
  const loser = r.winner === "rebel" ? "imperial" : "rebel";
  const li = loser === "rebel" ? 0 : 1;
  const lines = [
    t("dominance.award", {
      side: sideName(r.winner),
      event: eventName(r.event),
      vp: info?.vp ?? 0,
      influence: info?.influence ?? 0,
    }),
  ];
  if (r.strategies[li] === "bureaucracy" && r.eligible[li])
    lines.push(t("dominance.bureaucracy", { side: sideName(loser) }));
  const wi = 1 - li;
  if (r.vp_after[wi]! < 7 && info && info.effect !== "none" && !info.effect.startsWith("ban_")) {
    lines.push(`${t("dominance.effect")}${colon()}${effectText(info.effect)}`);
  }
  return lines;
}

export function RoundSummary({ result, tutorial = false }: { result: RoundResult; tutorial?: boolean }) {
  return (
    <section class="panel dominance" aria-labelledby={`round-${result.round}`}>
      <h3 id={`round-${result.round}`}>
        {t("dominance.title")} · {t("table.round", { n: result.round })} ·{" "}
        {t("dominance.event", { event: eventName(result.event), objective: result.objective })}
      </h3>
      <table class="reveal">
        <caption class="sr-only">{t("dominance.revealed")}</caption>
        <tbody>
          {FACTIONS.map((f, i) => (
            <tr key={f} class={f}>
              <th scope="row">{sideName(f)}</th>
              <td class="strategy-flip">{strategyName(result.strategies[i] ?? null)}</td>
              <td>
                {result.totals_at_reveal[i]}
                {result.direct_assault[i] && (
                  <>
                    {" "}
                    {t("dominance.directAssault")} = {result.totals[i]}
                  </>
                )}
              </td>
              <td>
                {result.bust[i] ? <strong class="bust">{t("table.bust")}</strong> : ""}
                {!result.eligible[i] && <span class="muted"> ({t("dominance.notEligible")})</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p class="big">{resultLine(result)}</p>
      <ul class="award">
        {(tutorial ? [t("coach.noVp")] : awardLines(result)).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </section>
  );
}
