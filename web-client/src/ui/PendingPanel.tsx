import { useEffect, useLayoutEffect, useRef } from "preact/hooks";
import { eventsIn } from "../data/cards";
import { cardName, colon, eventName, sideName, strategyName, strategyText, t } from "../i18n";
import type { CardRef, Choice, PendingView } from "../net/protocol";
import { choiceKey, myAnswers } from "../state/derived";
import type { GameStore } from "../state/store";
import { CardFace } from "./Card";
import { isPairChoice, PairChoice } from "./PairChoice";
import { pendingSelection } from "./selection";

function sourceName(p: PendingView): string {
  switch (p.source.kind) {
    case "card":
      return cardName(p.source.card.card);
    case "strategy":
      return strategyName(p.source.strategy);
    case "event":
      return eventName(p.source.event);
  }
}

function describeChoice(c: Choice): string {
  const ref = (r: CardRef) => t("pending.ref", { card: cardName(r.card), side: sideName(r.owner) });
  switch (c.kind) {
    case "cards":
      return c.cards.length === 0 ? t("pending.nothing") : c.cards.map(ref).join(" + ");
    case "deck":
      return t("pending.deck", { side: sideName(c.owner) });
    case "discard_and_top":
      return t("pending.discardTop", { discard: ref(c.discard), top: ref(c.top) });
    case "character":
      return c.to === "play_area"
        ? t("pending.toPlayArea", { card: cardName(c.card) })
        : t("pending.toDeck", { card: cardName(c.card) });
    case "strategy":
      return `${strategyName(c.strategy)} — ${strategyText(c.strategy)}`;
    case "event_order":
      return t("pending.order", { list: eventsIn(c.events).map(eventName).join(" → ") });
    case "play":
      return c.play ? t("pending.playYes") : t("pending.playNo");
  }
}

/** Past this many options (a deck search lists every card) they flow in columns, and the table's
 *  side column widens further, so all of them stay on one screen. */
const MANY_OPTIONS = 6;

/** The pending choice: a dialog for its owner (generic over `pending.options`), a line for others. */
export function PendingPanel({ store }: { store: GameStore }) {
  const view = store.view.value!;
  const role = store.role.value;
  const p = view.pending;
  const options = myAnswers(view, role);
  const sel = pendingSelection.value;
  const setSel = (k: string | null) => (pendingSelection.value = k);
  const ref = useRef<HTMLDivElement>(null);
  const shownStep = useRef("");
  const stepKey = p ? JSON.stringify(p.step) + JSON.stringify(p.source) + store.seq.value : "";

  // On a desktop the dialog sits under the event, the totals and the round's result in the table's
  // side column, which scrolls: a new choice is scrolled into the column's view, whole, before the
  // frame that shows it — and again whenever what is above it changed its place (another language,
  // a result that grew), checked at each render while it is open.
  useLayoutEffect(() => {
    const desktop = typeof matchMedia === "function" && matchMedia("(min-width: 901px)").matches;
    const el = ref.current;
    if (options.length === 0 || !desktop || !el) return;
    const fresh = shownStep.current !== stepKey;
    shownStep.current = stepKey;
    const box = el.getBoundingClientRect();
    const column = el.parentElement?.getBoundingClientRect();
    const out = !column || box.bottom > column.bottom + 0.5 || box.top < column.top - 0.5;
    if (fresh || out) el.scrollIntoView?.({ block: "nearest" });
  });
  useEffect(() => {
    setSel(null);
    if (options.length > 0) ref.current?.querySelector<HTMLElement>("input, .pair-btn")?.focus();
  }, [stepKey]);

  if (!p) return null;
  const title = sourceName(p);
  if (options.length === 0) {
    return (
      <p class="notice" role="status">
        {t("pending.other", { side: sideName(p.owner), source: title })}
      </p>
    );
  }
  const chosen = options.find((o) => choiceKey(o) === sel) ?? null;
  // IG-88's ordered pairs are chosen on the cards seen, two taps, not in a list of every pair
  const pairs = isPairChoice(options) && p.seen_cards ? options : null;
  return (
    // a new step is a new dialog (keyed): its cards and options do not push the last step's down
    <div key={stepKey} class="dialog" role="dialog" aria-modal="false" aria-labelledby="pending-h" ref={ref}>
      <h2 id="pending-h">{t("pending.title", { source: title })}</h2>
      <p>{t(`step.${p.step.step}`)}</p>
      {p.seen_cards && p.seen_cards.length > 0 && (
        <div class="secret">
          <span class="badge secret-mark">{t("common.onlyYou")}</span> {t("pending.seen")}
          {pairs ? (
            <PairChoice
              key={stepKey}
              seen={p.seen_cards}
              options={pairs}
              selected={sel}
              onSelect={setSel}
              busy={store.busy.value}
            />
          ) : (
            <div class="cards-row">
              {p.seen_cards.map((c) => (
                <CardFace key={c.owner + c.card} name={c.card} owner={c.owner} compact />
              ))}
            </div>
          )}
        </div>
      )}
      {p.seen_events && p.seen_events.length > 0 && (
        <p class="secret">
          <span class="badge secret-mark">{t("common.onlyYou")}</span> {t("pending.seenEvents")}
          {colon()}
          {p.seen_events.map(eventName).join(" → ")}
        </p>
      )}
      {!pairs && (
        <fieldset class={`options${options.length > MANY_OPTIONS ? " many" : ""}`}>
          <legend>{t("pending.choose")}</legend>
          {/* a long list scrolls in this box, under the legend (never over it) */}
          <div class="option-list">
            {options.map((o) => {
              const k = choiceKey(o);
              return (
                <label key={k} class={`option${sel === k ? " on" : ""}`}>
                  <input type="radio" name="pending" value={k} checked={sel === k} onChange={() => setSel(k)} />
                  {describeChoice(o)}
                </label>
              );
            })}
          </div>
        </fieldset>
      )}
      <button
        type="button"
        class="primary"
        disabled={!chosen || store.busy.value}
        onClick={() => chosen && store.act({ type: "answer", choice: chosen })}
      >
        {store.busy.value ? t("action.sending") : t("common.confirm")}
      </button>
    </div>
  );
}
