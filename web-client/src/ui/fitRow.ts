import type { RefObject } from "preact";
import { useLayoutEffect } from "preact/hooks";

/** A desktop play area is one row of cards, always: a second row pushed the action bar (Pass, the
 *  turn line) below a 1366×768 screen in ordinary games. Instead of wrapping, the row's cards shrink
 *  together to the row's width — and grow, up to MAX_SCALE, while it has room, so that a card's name
 *  and power read at a glance: this module computes the factor and writes it as `--s` on the row,
 *  which styles/table.css uses for the cards' size, type and gaps (only above 900 px: a phone's row
 *  scrolls sideways). The widths below are styles/cards.css's and table.css's, at scale 1. */
const SLOT_PX = 112;
const GAP_REM = 0.6;
/** the row's inline padding (1rem each side: a first or last card lying sideways reaches past its
 *  slot), which does not shrink */
const PADDING_REM = 2;
/** Below this a card's words are too small to read; a row that would need less has its cards overlap a
 *  little (rowGap), then scrolls sideways. */
export const MIN_SCALE = 0.6;
/** The largest: a card 125 × 174 px (153 px tall on a laptop's shorter table), its power in 13 px type;
 *  taller would push a laptop's action bar down (the side's panel beside it is about as tall). */
export const MAX_SCALE = 1.3;
const TIGHT_SCALE = 0.8;

/** The gap between two slots at scale 1, in px: the usual 0.6rem, or more where a card lying
 *  sideways is wider than its slot (`lie`, table.css' --lie: on a tall screen a sideways card is
 *  134 px wide in a 112 px slot). Every card has the same slot whichever way it lies, so that a
 *  card turning sideways or back moves none of the others (layout shift) and the factor with it. */
const gapAt1 = (rem: number, lie: number) => Math.max(GAP_REM * rem, lie);

/** The factor that fits `cards` cards in a row `width` px wide (`rem` px to the rem): at most
 *  MAX_SCALE, at least MIN_SCALE, rounded down so that rounding never overflows the row. */
export function rowScale(width: number, cards: number, rem: number, lie = 0): number {
  if (cards === 0 || width <= 0) return MAX_SCALE;
  const need = SLOT_PX * cards + gapAt1(rem, lie) * (cards - 1);
  const room = width - PADDING_REM * rem;
  return Math.max(MIN_SCALE, Math.min(MAX_SCALE, Math.floor((room / need) * 1000) / 1000));
}

/** The most a card may lie over its neighbour, as a share of a card's slot. */
const MAX_OVERLAP = 0.4;

/** The gap between two cards of a row at factor `scale`, in px: the usual one (gapAt1, scaled) while
 *  the cards fit; below it, then negative, when they fit only at MIN_SCALE — the cards then lie over
 *  each other a little (as in a hand of cards) rather than make the row scroll; never more than
 *  MAX_OVERLAP of a card. */
export function rowGap(width: number, cards: number, rem: number, scale: number, lie = 0): number {
  const usual = gapAt1(rem, lie) * scale;
  if (cards < 2 || scale > MIN_SCALE) return usual;
  const room = width - PADDING_REM * rem - scale * SLOT_PX * cards;
  const gap = Math.floor((room / (cards - 1)) * 10) / 10;
  return Math.max(-MAX_OVERLAP * SLOT_PX * scale, Math.min(usual, gap));
}

/** Keeps `--s` on the row `ref` right for its `cards` places, at every render and whenever its width
 *  changes. `shown`: whether the row is in the page (an empty area has none, and the row its first
 *  card brings needs its factor at once: sized for the event's capacity, the count did not change with
 *  it, and the row showed at factor 1 until a card was exhausted, then every card of it grew). */
export function useRowFit(ref: RefObject<HTMLElement | null>, cards: number, shown: boolean): void {
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const apply = () => {
      const rem = Number.parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
      const lie = Number.parseFloat(getComputedStyle(el).getPropertyValue("--lie")) || 0;
      const s = rowScale(el.clientWidth, cards, rem, lie);
      el.style.setProperty("--s", String(s));
      el.style.setProperty("--gap", `${rowGap(el.clientWidth, cards, rem, s, lie)}px`);
      // below TIGHT_SCALE a laptop's card has room for two lines of power, not three (its padding
      // and borders do not shrink with it)
      el.toggleAttribute("data-tight", s < TIGHT_SCALE);
    };
    apply();
    // the row's width comes from the page's grid, never from its cards: writing --s cannot loop
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(apply);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, cards, shown]);
}
