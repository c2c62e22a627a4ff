import { useRef } from "preact/hooks";
import type { Card } from "../net/protocol";

/** A place in a play area's row: a card, or the hole a card left (as wide as that card was). */
export type Place = { card: Card; hole: boolean; sideways: boolean };

/**
 * The row's places after a change to the play area (`now`, the engine's cards): a card keeps its place
 * while it stays; a card that goes leaves its place empty, a hole as wide as it was, and the next
 * card played takes the first hole (or the end of the row). The cards beside a discarded card do not
 * move: closing its gap moved every card after it (layout shift, each time an opponent's card
 * discarded one). Holes at the row's end go (nothing follows them); an empty area has no places.
 * The order of a play area has no meaning in the rules, so the row's order is the screen's own.
 */
export function placeCards(before: readonly Place[], now: readonly { card: Card; ready: boolean }[]): Place[] {
  if (now.length === 0) return [];
  const ready = new Map(now.map((c) => [c.card, c.ready]));
  const places = before.map((p) => {
    const r = ready.get(p.card);
    return r === undefined || p.hole ? { ...p, hole: true } : { card: p.card, hole: false, sideways: !r };
  });
  const placed = new Set(places.filter((p) => !p.hole).map((p) => p.card));
  for (const c of now) {
    if (placed.has(c.card)) continue;
    const place = { card: c.card, hole: false, sideways: !c.ready };
    const i = places.findIndex((p) => p.hole);
    if (i >= 0) places[i] = place;
    else places.push(place);
  }
  while (places.length > 0 && places[places.length - 1]!.hole) places.pop();
  return places;
}

/** `placeCards` kept across renders for one play area. */
export function useRowPlaces(now: readonly { card: Card; ready: boolean }[]): Place[] {
  const places = useRef<Place[]>([]);
  places.current = placeCards(places.current, now);
  return places.current;
}
