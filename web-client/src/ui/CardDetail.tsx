import { signal } from "@preact/signals";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { cardInfo } from "../data/cards";
import { cardName, colon, lang, powerText, sideName, t } from "../i18n";
import type { Card, Faction, View } from "../net/protocol";

/** The card being inspected. `pinned`: opened by a tap or click, stays until closed; otherwise it
 *  follows the pointer or the keyboard focus and hides when they leave. Its state in play is read
 *  from the current view when shown, so a pinned card never shows a stale state. */
export interface Inspected {
  name: Card;
  owner: Faction;
  pinned: boolean;
  /** Where its card is on screen (the details open beside it), when known. */
  anchor?: Anchor | null;
}

/** A card's box on screen, and where the cards of its row or grid start and end. */
interface Anchor {
  card: DOMRect;
  row: { left: number; right: number };
}

/** The anchor of the element a pointer or focus reached (a card, or a button on it). */
function anchorOf(el: EventTarget | null): Anchor | null {
  if (!(el instanceof Element)) return null;
  const card = el.closest(".card-slot, .pick, .card") ?? el;
  const cards = [...(card.closest(".cards-row, .pick-grid")?.children ?? [card])].map((c) => c.getBoundingClientRect());
  const row = { left: Math.min(...cards.map((r) => r.left)), right: Math.max(...cards.map((r) => r.right)) };
  return { card: card.getBoundingClientRect(), row };
}

export const inspected = signal<Inspected | null>(null);

type Shown = Omit<Inspected, "pinned" | "anchor">;

const same = (a: Shown, b: Shown) => a.name === b.name && a.owner === b.owner;

function show(card: Shown, anchor: Anchor | null) {
  const cur = inspected.value;
  if (cur && (cur.pinned || same(cur, card))) return; // a pinned card stays until it is closed
  inspected.value = { name: card.name, owner: card.owner, pinned: false, anchor };
}

function hide(card: Shown) {
  const cur = inspected.value;
  if (cur && !cur.pinned && same(cur, card)) inspected.value = null;
}

/** A tap or click: pin the card's details, or close them when they are already pinned. */
function toggle(card: Shown, anchor: Anchor | null) {
  const cur = inspected.value;
  inspected.value =
    cur?.pinned && same(cur, card) ? null : { name: card.name, owner: card.owner, pinned: true, anchor };
}

/** Whether the last pointer was a finger or a pen. Reading and selecting are separate gestures on a
 *  touch screen: a tap that focuses a card to select it must not also open its details over the
 *  grid (the ⓘ button is for reading there); a mouse hover and keyboard focus still show them. */
let touching = false;

function noteInput(e: PointerEvent | KeyboardEvent) {
  touching = "pointerType" in e && e.pointerType !== "mouse";
}

/** Event handlers that make an element show `card`'s details on mouse hover and keyboard focus.
 *  With `tap`, a click pins or closes them (for elements that do nothing else when clicked). The
 *  element is marked `data-inspects`, so a tap on it is not a tap outside the pinned details. */
export function inspectHandlers(card: Shown, tap: boolean) {
  return {
    "data-inspects": "",
    onPointerEnter: (e: PointerEvent) => e.pointerType === "mouse" && show(card, anchorOf(e.currentTarget)),
    onPointerLeave: (e: PointerEvent) => e.pointerType === "mouse" && hide(card),
    onFocus: (e: FocusEvent) => !touching && show(card, anchorOf(e.currentTarget)),
    onBlur: () => hide(card),
    ...(tap ? { onClick: (e: MouseEvent) => toggle(card, anchorOf(e.currentTarget)) } : {}),
  };
}

/** A small ⓘ button beside a card whose own tap does something else (selecting it): tapping it
 *  pins the card's details, tapping it again closes them. */
export function InfoButton({ card }: { card: Shown }) {
  const cur = inspected.value;
  const open = cur?.pinned === true && same(cur, card);
  return (
    <button
      type="button"
      class="info-btn"
      aria-label={t("detail.show", { card: cardName(card.name) })}
      aria-expanded={open}
      data-inspects=""
      onClick={(e) => toggle(card, anchorOf(e.currentTarget))}
    >
      ⓘ
    </button>
  );
}

/** The details of the inspected card: full name (and the printed English one), kind, both values,
 *  its state in play and the whole power text, which the small card faces cut short or hide. */
export function CardDetail({ view }: { view: View | null }) {
  const c = inspected.value;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      noteInput(e);
      if (e.key === "Escape" && inspected.value) inspected.value = null;
    };
    // A tap or click outside pinned details closes them (one on a card or an ⓘ toggles them itself).
    const onDown = (e: PointerEvent) => {
      noteInput(e);
      const target = e.target instanceof Element ? e.target : null;
      if (inspected.value?.pinned && !target?.closest(".card-detail, [data-inspects]")) inspected.value = null;
    };
    document.addEventListener("keydown", onKey, true);
    document.addEventListener("pointerdown", onDown, true);
    return () => {
      document.removeEventListener("keydown", onKey, true);
      document.removeEventListener("pointerdown", onDown, true);
    };
  }, []);
  const box = useRef<HTMLElement>(null);
  const place = usePlacement(box, c?.anchor ?? null, c);
  if (!c) return null;
  const info = cardInfo(c.name);
  const local = cardName(c.name);
  const kind = info.kind === "character" ? t("card.character") : t(`kind.${info.kind}`);
  const inPlay = view?.[c.owner].play_area.find((p) => p.card === c.name);
  return (
    <aside
      ref={box}
      style={place ?? undefined}
      class={`card-detail ${c.owner}${c.pinned ? " pinned" : ""}${place ? " anchored" : ""}`}
      aria-label={t("detail.title")}
      aria-live="polite"
    >
      <h2>
        {local}
        {lang.value !== "en" && local !== c.name && (
          <span class="muted small" lang="en">
            {" "}
            {c.name}
          </span>
        )}
      </h2>
      <p class="small">
        {sideName(c.owner)} · {kind}
      </p>
      <p>{t("detail.values", { ready: info.ready, exhausted: info.exhausted })}</p>
      {inPlay && (
        <p>
          <span class={`state ${inPlay.ready ? "is-ready" : "is-exhausted"}`}>
            {inPlay.ready ? t("card.ready") : t("card.exhausted")}
          </span>{" "}
          {t("detail.now")}
          {colon()}
          {inPlay.value}
        </p>
      )}
      <p class="power-full">
        <strong>{t("detail.power")}</strong>
        {colon()}
        {powerText(info.power)}
      </p>
      {c.pinned && (
        <button type="button" class="close" onClick={() => (inspected.value = null)}>
          {t("common.close")}
        </button>
      )}
    </aside>
  );
}

/** Room kept between the details and the screen's edges or its card, in px. */
const MARGIN = 8;

/** Where the details go beside their card (a desktop; a phone shows them as a sheet at the bottom):
 *  after the end of the card's row if there is room (covering no other card), else before its start,
 *  else beside the card itself; top-aligned with the card, kept on screen. `null` without an anchor. */
function usePlacement(
  box: { current: HTMLElement | null },
  anchor: Anchor | null,
  key: unknown,
): Record<string, string> | null {
  const [place, setPlace] = useState<Record<string, string> | null>(null);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el || !anchor || matchMedia("(max-width: 700px)").matches) return setPlace(null);
    const { width, height } = el.getBoundingClientRect();
    const W = document.documentElement.clientWidth;
    const H = innerHeight;
    const fits = (x: number) => x >= MARGIN && x + width <= W - MARGIN;
    const { card, row } = anchor;
    const x =
      [row.right + MARGIN, row.left - MARGIN - width, card.right + MARGIN, card.left - MARGIN - width].find(fits) ??
      Math.min(Math.max(card.right + MARGIN, MARGIN), W - MARGIN - width);
    const y = Math.min(Math.max(card.top, MARGIN + 48), H - MARGIN - height);
    setPlace({ left: `${Math.round(x)}px`, top: `${Math.round(Math.max(y, MARGIN))}px` });
  }, [key, anchor, box]);
  return place;
}
