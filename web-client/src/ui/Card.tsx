import { type ComponentChildren, Fragment } from "preact";
import { type CardKind, cardInfo } from "../data/cards";
import { cardName, powerText, sideName, t } from "../i18n";
import type { Card, Faction } from "../net/protocol";
import { inspected, inspectHandlers } from "./CardDetail";

const GLYPH: { readonly [K in CardKind]: string } = {
  military: "⚔",
  diplomacy: "✉",
  recon: "◎",
  the_force: "✦",
  character: "",
};

function monogram(name: string): string {
  const words = name
    .replace(/[^A-Za-z0-9 -]/g, "")
    .split(/[ -]+/)
    .filter((w) => w && w !== "and" && w !== "the");
  return words
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join("");
}

/** Where a card's name may break: after a space or a middle dot (・ in Japanese, ． or · in Chinese);
 *  nowhere inside a word ("チューバッ/カ" read as nonsense). */
const NAME_BREAK = /(?<=[ ・．·])/u;

/** The widest unbreakable piece of a name, in ems (a CJK or full-width character is one, Latin
 *  letters and digits at most about 0.7 in the cards' bold type): the name's type is made small
 *  enough for it to fit the card. */
export function longestWordEm(name: string): number {
  const width = (ch: string) =>
    /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u.test(ch) ? 1 : 0.7;
  return Math.max(1, ...name.split(NAME_BREAK).map((w) => [...w.trim()].reduce((n, ch) => n + width(ch), 0)));
}

/** A card's name with a line-break opportunity after each space and middle dot, and no other: each
 *  piece between two is kept whole (CSS `nowrap`; "R2-D2" would otherwise break at its hyphen). */
function NameText({ name }: { name: string }) {
  const parts = name.split(NAME_BREAK);
  return (
    <>
      {parts.map((p, i) => (
        <Fragment key={i}>
          <span>{p}</span>
          {i < parts.length - 1 && <wbr />}
        </Fragment>
      ))}
    </>
  );
}

/** A typographic card: faction colour, type glyph, value top-left, exhausted value bottom-left, power. */
export function CardFace(props: {
  name: Card;
  owner: Faction;
  /** undefined: not in play (no ready/exhausted state) */
  ready?: boolean;
  value?: number;
  target?: boolean;
  selected?: boolean;
  compact?: boolean;
  /** false when the face sits inside a control that shows the details itself (the character picker) */
  inspectable?: boolean;
  children?: ComponentChildren;
}) {
  const info = cardInfo(props.name);
  const isChar = info.kind === "character";
  const state = props.ready === undefined ? "" : props.ready ? t("card.ready") : t("card.exhausted");
  const value = props.value ?? info.ready;
  // what the eye gets from the colours, the sideways shape and the corners, said after the name
  const more = [
    sideName(props.owner),
    isChar ? t("card.character") : null,
    state || null,
    t("card.value", { n: value }),
    props.target ? t("card.target") : null,
  ]
    .filter(Boolean)
    .join(t("sep.list"));
  const label = `${cardName(props.name)}${t("sep.list")}${more}`;
  const cls = [
    "card",
    props.owner,
    isChar ? "character" : info.kind,
    props.ready === false ? "exhausted" : "",
    props.target ? "target" : "",
    props.selected ? "selected" : "",
    props.compact ? "compact" : "",
  ].join(" ");
  const inspectable = props.inspectable ?? true;
  const shown = { name: props.name, owner: props.owner };
  const cur = inspected.value;
  const open = cur?.pinned === true && cur.name === props.name && cur.owner === props.owner;
  // A focusable face is named by its content (its visible name, then the rest for screen readers
  // only): an aria-label would have to hold every visible word, the corners and power included
  // (axe's label-content-name-mismatch). Inside the character picker the face is an image.
  const face = (
    <>
      <span class="top" aria-hidden="true">
        <span class="v">{value}</span>
        <span class="glyph">{isChar ? monogram(props.name) : GLYPH[info.kind]}</span>
      </span>
      <span class="name" style={{ "--name-em": longestWordEm(cardName(props.name)).toFixed(2) }}>
        <NameText name={cardName(props.name)} />
      </span>
      {inspectable && (
        <span class="sr-only">
          {t("sep.list")}
          {more}
        </span>
      )}
      {!props.compact && (
        <span class="power" aria-hidden="true">
          {powerText(info.power)}
        </span>
      )}
      <span class="xv" aria-hidden="true">
        {info.exhausted}
      </span>
    </>
  );
  return (
    <div class="card-slot" data-exhausted={props.ready === false ? "true" : undefined}>
      {inspectable ? (
        // biome-ignore lint/a11y/useSemanticElements: a laid-out card face (corners, glyph, name, power) that a <button> would restyle; it has a button's role, focus and Enter/Space
        <div
          class={cls}
          role="button"
          tabIndex={0}
          aria-expanded={open}
          {...inspectHandlers(shown, true)}
          onKeyDown={(e) => {
            if (e.key === "Enter" || e.key === " ") {
              e.preventDefault();
              (e.currentTarget as HTMLElement).click();
            }
          }}
        >
          {face}
        </div>
      ) : (
        <div class={cls} role="img" aria-label={label}>
          {face}
        </div>
      )}
      {state && <span class={`state ${props.ready ? "is-ready" : "is-exhausted"}`}>{state}</span>}
      {props.children}
    </div>
  );
}
