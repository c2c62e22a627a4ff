// IG-88's choice (R-6.19) made on the cards: among the cards seen, a tap on the one to discard, then
// a tap on the one to put on top — instead of a list of every ordered pair (210 for a deck of 15,
// Confirm thousands of pixels down a phone). The answer is still one of the engine's options: a card
// offers a button only when some option has it in that role.
import { useState } from "preact/hooks";
import { cardName, t } from "../i18n";
import type { CardRef, Choice } from "../net/protocol";
import { choiceKey, refKey } from "../state/derived";
import { CardFace } from "./Card";

type Pair = Extract<Choice, { kind: "discard_and_top" }>;

/** Whether a pending choice's answers are all discard-and-top pairs (then PairChoice asks for them). */
export function isPairChoice(options: readonly Choice[]): options is Pair[] {
  return options.length > 0 && options.every((o) => o.kind === "discard_and_top");
}

export function PairChoice(props: {
  seen: readonly CardRef[];
  options: readonly Pair[];
  /** the chosen option's key (choiceKey), or null */
  selected: string | null;
  onSelect: (key: string | null) => void;
  busy: boolean;
}) {
  const { seen, options, selected, onSelect, busy } = props;
  const chosen = options.find((o) => choiceKey(o) === selected) ?? null;
  const [picked, setPicked] = useState<string | null>(null);
  const discard = chosen ? refKey(chosen.discard) : picked;
  const top = chosen ? refKey(chosen.top) : null;
  const canDiscard = new Set(options.map((o) => refKey(o.discard)));
  const onTop = (k: string) => options.find((o) => refKey(o.discard) === discard && refKey(o.top) === k) ?? null;
  const named = (k: string | null) => {
    const c = seen.find((s) => refKey(s) === k);
    return c ? cardName(c.card) : "";
  };
  const again = () => {
    setPicked(null);
    onSelect(null);
  };
  return (
    <div class="pair-choice">
      <p class="pair-step" aria-live="polite">
        {discard === null
          ? t("pair.pickDiscard")
          : top === null
            ? t("pair.pickTop", { discard: named(discard) })
            : t("pair.ready", { discard: named(discard), top: named(top) })}
      </p>
      <div class="cards-row">
        {seen.map((c) => {
          const k = refKey(c);
          const pair = discard !== null && k !== discard ? onTop(k) : null;
          return (
            <CardFace key={k} name={c.card} owner={c.owner} compact selected={k === discard || k === top}>
              {k === discard ? (
                <span class="badge pair-mark">{t("pair.discarded")}</span>
              ) : k === top ? (
                <span class="badge pair-mark">{t("pair.onTop")}</span>
              ) : discard === null ? (
                canDiscard.has(k) && (
                  <button
                    type="button"
                    class="card-btn pair-btn"
                    disabled={busy}
                    aria-label={`${t("pair.discard")}: ${cardName(c.card)}`}
                    onClick={() => setPicked(k)}
                  >
                    {t("pair.discard")}
                  </button>
                )
              ) : (
                pair && (
                  <button
                    type="button"
                    class="card-btn pair-btn"
                    disabled={busy}
                    aria-label={`${t("pair.putOnTop")}: ${cardName(c.card)}`}
                    onClick={() => onSelect(choiceKey(pair))}
                  >
                    {t("pair.putOnTop")}
                  </button>
                )
              )}
            </CardFace>
          );
        })}
      </div>
      {discard !== null && (
        <button type="button" class="link pair-again" disabled={busy} onClick={again}>
          {t("pair.again")}
        </button>
      )}
    </div>
  );
}
