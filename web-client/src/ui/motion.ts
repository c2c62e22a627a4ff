// Movement on the table: the motion setting, totals that count to their new value. A card that leaves
// a play area leaves an empty place (rowPlaces.ts) while a faceless card flies from there to its pile
// (travel.ts); neither carries a name (it must not show a card to anyone after the view stopped
// showing it) nor a control.
import { effect } from "@preact/signals-core";
import { useEffect, useRef, useState } from "preact/hooks";
import { prefs } from "../state/prefs";

/** Keeps the page's `data-motion` (moments.css: full, fast, off) on the person's setting. */
export function startMotionPref(root: HTMLElement = document.documentElement): () => void {
  return effect(() => {
    root.dataset.motion = prefs.value.motion;
  });
}

/** How long a number takes to count to its new value, by the motion setting (ms). */
const COUNT_MS = { full: 450, fast: 150, off: 0 } as const;

/** How long a movement of `durations` (by the motion setting) takes now: 0 under
 *  `prefers-reduced-motion`, in a hidden tab, and where the page cannot draw frames. */
export function movementMs(durations: { readonly full: number; readonly fast: number; readonly off: number }): number {
  const reduced = typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
  const hidden = typeof document !== "undefined" && document.visibilityState === "hidden";
  if (reduced || hidden || typeof requestAnimationFrame !== "function") return 0;
  return durations[prefs.value.motion];
}

const countMs = (): number => movementMs(COUNT_MS);

/**
 * The number to show for `target`, a total that the engine decided: when it changes it counts there
 * (ease-out, a frame at a time, over COUNT_MS), so that a reveal's +2 or a played card's value reads
 * as it lands. The first value shows at once, and so does every value with motion off, under
 * `prefers-reduced-motion` and in a hidden tab; it never shows a number outside the old and the new.
 */
export function useCountTo(target: number): number {
  const shown = useRef(target);
  const [, frame] = useState(0);
  const ms = countMs();
  useEffect(() => {
    const from = shown.current;
    if (ms === 0 || from === target) {
      shown.current = target;
      return;
    }
    const t0 = performance.now();
    let id = requestAnimationFrame(function step(now) {
      const k = Math.min(1, Math.max(0, (now - t0) / ms));
      shown.current = Math.round(from + (target - from) * (1 - (1 - k) ** 3));
      frame((n) => n + 1);
      if (k < 1) id = requestAnimationFrame(step);
    });
    return () => {
      cancelAnimationFrame(id);
    };
  }, [target, ms]);
  return ms === 0 ? target : shown.current;
}
