// Cards travel where they go: a card that comes into a play area arrives from the pile it came from (its
// side's deck, discard pile or reserve, as the side's counts show them), and a card that leaves flies to
// the pile it went to, as a faceless card: the view has stopped showing it, and a flight must not show
// a card to anyone who may not see it. Transforms only (the Web Animations API), so nothing else on the
// page moves; none with motion off, under `prefers-reduced-motion` or in a hidden tab (motion.ts).
import type { RefObject } from "preact";
import { useLayoutEffect, useRef } from "preact/hooks";
import type { Card, Faction, PlayerView } from "../net/protocol";
import { movementMs } from "./motion";

export type Pile = "deck" | "discard" | "reserve";

/** How long a flight takes, by the motion setting (ms). */
const FLY_MS = { full: 420, fast: 140, off: 0 } as const;

const flyMs = (): number => (typeof Element.prototype.animate === "function" ? movementMs(FLY_MS) : 0);

/** The pile a card that came into the area came from: one it was seen in before, else the deck. */
export function cameFrom(card: Card, before: PlayerView): Pile {
  if (before.discard_pile.includes(card)) return "discard";
  if (before.reserve_known.includes(card)) return "reserve";
  return "deck";
}

/** The pile a card that left the area went to: the discard pile when it lies there, the reserve when
 *  the reserve grew (a character goes back there), else the deck (the end of a round). */
export function wentTo(card: Card, before: PlayerView, after: PlayerView): Pile {
  if (after.discard_pile.includes(card)) return "discard";
  if (after.reserve_size > before.reserve_size || after.reserve_known.includes(card)) return "reserve";
  return "deck";
}

/** A rectangle in the document's coordinates (it stays right when the page scrolls). */
interface Place {
  x: number;
  y: number;
  w: number;
  h: number;
}

const placeOf = (el: Element): Place => {
  const r = el.getBoundingClientRect();
  return { x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height };
};

/** The move that takes a box at `to` to where `from` is, at `from`'s size (at least a fifth). */
function moveFrom(from: Place, to: Place): string {
  const s = to.w > 0 ? Math.max(0.2, Math.min(1, from.w / to.w)) : 1;
  const dx = from.x + from.w / 2 - (to.x + to.w / 2);
  const dy = from.y + from.h / 2 - (to.y + to.h / 2);
  return `translate(${dx}px, ${dy}px) scale(${s})`;
}

const EASE = "cubic-bezier(0.2, 0.7, 0.2, 1)";

/**
 * Makes the cards of side `f`'s play area (the list `row`, each card's item marked `data-card`) travel:
 * after a render that changed the area, in the next frame (one layout read for all of it), each card
 * that arrived moves in from its pile and each card that left flies from where it lay to its pile.
 */
export function useCardTravel(row: RefObject<HTMLElement | null>, f: Faction, p: PlayerView): void {
  const last = useRef<{ p: PlayerView; places: Map<Card, Place> } | null>(null);
  useLayoutEffect(() => {
    const before = last.current;
    const ms = flyMs();
    if (ms === 0) {
      last.current = { p, places: new Map() };
      return;
    }
    const id = requestAnimationFrame(() => {
      const pile = (which: Pile) => document.querySelector(`.strip.${f} [data-pile="${which}"]`);
      const cardEl = (c: Card) => row.current?.querySelector(`[data-card="${CSS.escape(c)}"] .card`) ?? null;
      // every place is read before any animation starts: one layout, and no card read mid-flight
      const places = new Map<Card, Place>();
      for (const c of p.play_area) {
        const el = cardEl(c.card);
        if (el) places.set(c.card, placeOf(el));
      }
      last.current = { p, places };
      if (!before) return;
      const had = new Set(before.p.play_area.map((c) => c.card));
      const arrived = p.play_area.filter((c) => !had.has(c.card)).map((c) => c.card);
      const now = new Set(p.play_area.map((c) => c.card));
      const left = before.p.play_area.map((c) => c.card).filter((c) => !now.has(c));
      const flights: [Element, Place, Place, Card | null][] = [];
      for (const c of arrived) {
        const el = cardEl(c);
        const from = pile(cameFrom(c, before.p));
        if (el && from) flights.push([el, placeOf(from), places.get(c)!, c]);
      }
      for (const c of left) {
        const at = before.places.get(c);
        const to = pile(wentTo(c, before.p, p));
        if (at && to) flights.push([document.body, at, placeOf(to), null]);
      }
      for (const [el, from, to, arriving] of flights) {
        if (arriving) {
          el.animate(
            [
              { transform: moveFrom(from, to), opacity: 0.4 },
              { transform: "none", opacity: 1 },
            ],
            {
              duration: ms,
              easing: EASE,
            },
          );
          continue;
        }
        // a faceless card where the card lay, flying to its pile
        const ghost = document.createElement("div");
        ghost.className = `card-flyer ${f}`;
        ghost.setAttribute("aria-hidden", "true");
        // fixed, placed in the viewport: a flight from a card scrolled out of a phone's row must not
        // widen the page (an absolute box past the right edge made the page scroll sideways)
        Object.assign(ghost.style, {
          left: `${from.x - scrollX}px`,
          top: `${from.y - scrollY}px`,
          width: `${from.w}px`,
          height: `${from.h}px`,
        });
        document.body.append(ghost);
        const flight = ghost.animate(
          [
            { transform: "none", opacity: 0.9 },
            { transform: moveFrom(to, from), opacity: 0.2 },
          ],
          {
            duration: ms,
            easing: EASE,
          },
        );
        flight.onfinish = flight.oncancel = () => ghost.remove();
      }
    });
    return () => cancelAnimationFrame(id);
  }, [p]);
}
