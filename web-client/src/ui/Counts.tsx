// A side's counts (VP, influence, deck, discard pile, reserve, strategies left), on the table's
// side strips and, compact, as the score strip of the screens without a table (planning), so the
// score is always in view.
import { sideName, t } from "../i18n";
import { FACTIONS, type PlayerView, type View } from "../net/protocol";
import { playerOf } from "../state/derived";

/** Filled and empty marks (VP ●●○○○○○, strategies ▣▣▢▢▢) followed by the number itself, so a
 *  newcomer reads "4" without counting marks. */
function Pips({ n, of, square, label }: { n: number; of: number; square?: boolean; label: string }) {
  const on = square ? "▣" : "●";
  const off = square ? "▢" : "○";
  return (
    <>
      <span class="pips-inline" aria-hidden="true" title={label}>
        {on.repeat(Math.max(0, Math.min(n, of)))}
        {off.repeat(Math.max(0, of - n))}
      </span>{" "}
      <span class="pip-num">{label}</span>
    </>
  );
}

/** A side's counts (`shuffles`: how often its deck was shuffled, to show each shuffle); the tutorial (R-2.8: no VP, influence, characters or strategies) shows only its
 *  deck and discard pile. */
export function Counts({
  p,
  tutorial = false,
  shuffles = 0,
}: {
  p: PlayerView;
  tutorial?: boolean;
  shuffles?: number;
}) {
  return (
    <dl class="counts">
      {!tutorial && (
        <>
          <div>
            <dt>{t("table.vp")}</dt>
            <dd>
              <Pips n={p.vp} of={7} label={`${p.vp} / 7`} />
            </dd>
          </div>
          <div>
            <dt>{t("table.influence")}</dt>
            <dd>{p.influence}</dd>
          </div>
        </>
      )}
      <div>
        <dt>{t("table.deck")}</dt>
        {/* keyed by the number of shuffles: a shuffle remounts it and its animation plays */}
        <dd key={`deck-${shuffles}`} class={shuffles > 0 ? "shuffled" : undefined} data-pile="deck">
          {p.deck_size}
        </dd>
      </div>
      <div>
        <dt>{t("table.discard")}</dt>
        <dd
          key={`discard-${p.discard_pile.length}`}
          class={p.discard_pile.length > 0 ? "grew" : undefined}
          data-pile="discard"
        >
          {p.discard_pile.length}
        </dd>
      </div>
      {!tutorial && (
        <>
          <div>
            <dt>{t("table.reserve")}</dt>
            <dd data-pile="reserve">{p.reserve_size}</dd>
          </div>
          <div>
            <dt>{t("table.strategiesLeft")}</dt>
            <dd>
              <Pips n={p.unused_strategy_count} of={5} square label={`${p.unused_strategy_count} / 5`} />
            </dd>
          </div>
        </>
      )}
    </dl>
  );
}

/** Both sides' counts and the round, compact, for screens without the table. */
export function ScoreStrip({ view, me }: { view: View; me: string | null }) {
  return (
    <section class="score-strip" aria-label={t("table.score")}>
      <p class="score-round">{t("table.round", { n: view.round })}</p>
      {FACTIONS.map((f) => (
        <div key={f} class={`score-side ${f}`}>
          <h2>
            {sideName(f)}
            {me === f && <span class="muted">{t("common.youMark")}</span>}
          </h2>
          <Counts p={playerOf(view, f)} />
        </div>
      ))}
    </section>
  );
}
