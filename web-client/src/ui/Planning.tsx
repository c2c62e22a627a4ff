import { useEffect, useRef, useState } from "preact/hooks";
import { STRATEGIES } from "../data/cards";
import { colon, sideName, strategyName, strategyText, t } from "../i18n";
import { FACTIONS, otherFaction, type PlayerView, type Strategy } from "../net/protocol";
import { playerOf, roundOutcome, strategyChoices } from "../state/derived";
import type { GameStore } from "../state/store";
import { ScoreStrip } from "./Counts";
import { EventCard, RoundSummary } from "./Event";
import { PendingPanel } from "./PendingPanel";
import { PlayerName } from "./widgets";

function Modifiers({ p }: { p: PlayerView }) {
  const side = sideName(p.faction);
  const other = sideName(otherFaction(p.faction));
  return (
    <>
      {p.modifiers.infiltrated && <p class="modifier">{t("modifier.infiltrated", { side, other })}</p>}
      {p.modifiers.diversion && <p class="modifier">{t("modifier.diversion", { side })}</p>}
      {p.modifiers.located && <p class="modifier">{t("modifier.located", { side })}</p>}
    </>
  );
}

export function slotText(p: PlayerView): string {
  const s = p.strategy;
  if (s.state === "none") return t("strategy.notChosen");
  if (s.state === "hidden") return t("strategy.hidden");
  return `${t("strategy.chosen")}${colon()}${strategyName(s.strategy)}`;
}

export function Planning({ store }: { store: GameStore }) {
  const view = store.view.value!;
  const me = store.me.value;
  const choices = strategyChoices(view);
  // the last round played before this one
  const prev = view.rounds[view.rounds.length - 1];
  const last = prev && prev.round < view.round ? roundOutcome(view, prev.round) : null;
  // The block whose strategies are this player's to choose now. On a phone RoomPage brings it into
  // view as the phase starts; when the choices due change later in the phase (one becomes due while
  // the player had nothing to decide, or they just made one of two: theirs and the opponent's after
  // Infiltration), the one left comes into view here, as it appears.
  const dueSides = FACTIONS.filter((f) => choices[f].length > 0);
  const due = dueSides[0] ?? null;
  const dueKey = dueSides.join();
  const lastDue = useRef(dueKey);
  useEffect(() => {
    const before = lastDue.current;
    lastDue.current = dueKey;
    if (!due || before === dueKey || !matchMedia("(max-width: 900px)").matches) return;
    document.querySelector(".strategy-block.due")?.scrollIntoView({ block: "start" });
  }, [dueKey, due]);
  return (
    <div class={`board planning${due ? " deciding" : ""}`}>
      <div class="board-main">
        <ScoreStrip view={view} me={me} />
        <section class="panel" aria-labelledby="plan-h">
          <h2 id="plan-h">{t("strategy.title")}</h2>
          {/* as at the table, the opponent above and you below: your block, which changes most (the
              strategies give way to what is used once you chose), moves nothing under it */}
          {[otherFaction(store.bottom.value), store.bottom.value].map((f) => {
            const i = f === "rebel" ? 0 : 1;
            const p = playerOf(view, f);
            const chooser = view.planning?.chooser[i];
            const legal = choices[f];
            return (
              <div key={f} class={`strategy-block ${f}${f === due ? " due" : ""}`}>
                <h3>
                  <PlayerName f={f} names={store.names.value} />
                  {me === f && t("common.youMark")} — {slotText(p)}
                  {p.strategy.state === "known" && !p.modifiers.located && (
                    <>
                      {" "}
                      <span class="badge secret-mark">{t("common.onlyYou")}</span>
                    </>
                  )}
                </h3>
                {/* who chooses, unless the viewer does and the next line asks them to */}
                {!(chooser === me && legal.length > 0) && (
                  <p class="muted">
                    {chooser === null
                      ? t("strategy.random")
                      : chooser
                        ? chooser === me
                          ? t("strategy.youChoose")
                          : t("strategy.chosenBy", { side: sideName(chooser) })
                        : ""}
                  </p>
                )}
                <Modifiers p={p} />
                {legal.length > 0 && (
                  <>
                    <p>{f === me ? t("strategy.forYou") : t("strategy.forOpponent", { side: sideName(f) })}</p>
                    <StrategyRow
                      key={`${view.round}-${f}`}
                      p={p}
                      legal={legal.flatMap((a) => (a.type === "choose_strategy" ? [a.strategy] : []))}
                      busy={store.busy.value}
                      onPick={(s) => {
                        const a = legal.find((x) => x.type === "choose_strategy" && x.strategy === s);
                        if (a) store.act(a);
                      }}
                    />
                  </>
                )}
                {legal.length === 0 &&
                  p.faction === me &&
                  p.strategy.state === "none" &&
                  view.planning &&
                  !view.planning.open[i] && <p class="muted">{t("strategy.waiting")}</p>}
                {legal.length === 0 && <UsedList p={p} />}
              </div>
            );
          })}
        </section>
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region with nothing focusable in it must take the keyboard's focus to scroll (axe: scrollable-region-focusable) */}
      <aside class="board-side" aria-label={t("event.title")} tabIndex={0}>
        <PendingPanel store={store} />
        <EventCard view={view} />
        {last && <RoundSummary outcome={last} />}
      </aside>
    </div>
  );
}

function UsedList({ p }: { p: PlayerView }) {
  return (
    <p class="muted">
      {t("table.strategies")}
      {colon()}
      {p.unused_strategy_count} · {t("strategy.used")}
      {colon()}
      {p.used_strategies.length ? p.used_strategies.map(strategyName).join(t("sep.list")) : t("common.none")}
    </p>
  );
}

/** The strategies for one target: a click selects (and may change) the choice; only Confirm sends
 *  it, so one slip of the finger never commits a strategy. */
function StrategyRow(props: { p: PlayerView; legal: Strategy[]; busy: boolean; onPick: (s: Strategy) => void }) {
  const [selected, setSelected] = useState<Strategy | null>(null);
  const chosen = selected !== null && props.legal.includes(selected) ? selected : null;
  return (
    <>
      <ul class="strategies" role="list">
        {STRATEGIES.map((s) => {
          const used = props.p.used_strategies.includes(s);
          const ok = props.legal.includes(s);
          return (
            <li key={s}>
              <button
                type="button"
                class={`strategy ${used ? "used" : ""} ${chosen === s ? "selected" : ""}`}
                disabled={!ok || props.busy}
                aria-pressed={chosen === s}
                onClick={() => setSelected(s)}
              >
                {/* named by its visible text (the spaces part its words; flex items do not show them) */}
                <span class="strategy-head">
                  <strong>{strategyName(s)}</strong>
                  {used && (
                    <>
                      {" "}
                      <span class="tag">{t("strategy.used")}</span>
                    </>
                  )}
                </span>{" "}
                <span class="small">{strategyText(s)}</span>
              </button>
            </li>
          );
        })}
      </ul>
      <p class="confirm-row">
        <button
          type="button"
          class="primary strategy-confirm"
          disabled={chosen === null || props.busy}
          onClick={() => chosen && props.onPick(chosen)}
        >
          {props.busy
            ? t("action.sending")
            : chosen
              ? t("strategy.confirm", { strategy: strategyName(chosen) })
              : t("strategy.selectFirst")}
        </button>
      </p>
    </>
  );
}
