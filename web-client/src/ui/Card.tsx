import type { ComponentChildren } from "preact";
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
  // what the eye gets from the colours, the rotation and the corners, said after the name
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
      <span class="name">{cardName(props.name)}</span>
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
