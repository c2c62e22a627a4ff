// Card movements the DOM cannot show by itself: a card that leaves a play area (discarded, back to
// the deck or the reserve, swept at the end of a struggle) is removed from the view at once, so it
// is kept for a moment as a faceless ghost that slides away. The ghost carries no name (it must not
// show a card to anyone after the view stopped showing it) and no control.
import { effect } from "@preact/signals-core";
import { useEffect, useRef, useState } from "preact/hooks";
import type { Card } from "../net/protocol";
import { prefs } from "../state/prefs";

/** Keeps the page's `data-motion` (moments.css: full, fast, off) on the person's setting. */
export function startMotionPref(root: HTMLElement = document.documentElement): () => void {
  return effect(() => {
    root.dataset.motion = prefs.value.motion;
  });
}

/** How long a ghost stays: the CSS `card-out` animation's length. */
const LEAVE_MS = 200;

/** The cards that have just left `cards` (empty again after LEAVE_MS). */
export function useLeavingCards(cards: readonly Card[]): Card[] {
  const previous = useRef<readonly Card[]>(cards);
  const [leaving, setLeaving] = useState<Card[]>([]);
  const key = cards.join("|");
  useEffect(() => {
    const gone = previous.current.filter((c) => !cards.includes(c));
    previous.current = cards;
    if (gone.length === 0) return;
    setLeaving(gone);
    const id = setTimeout(() => setLeaving([]), LEAVE_MS);
    return () => clearTimeout(id);
  }, [key]);
  return leaving;
}
