// Sounds at the table, made with Web Audio (nothing to download): a soft knock when a card enters a
// play area, a rising flourish when the strategies are revealed, a falling one when a round is
// decided. Only for what the page's own view just received (never for a replay's steps, never while
// the page is hidden: the background has its own "your turn" alert), and only when the person left
// them on (Settings).
import { effect } from "@preact/signals-core";
import { useEffect } from "preact/hooks";
import type { LogEntry } from "../net/protocol";
import { prefs } from "../state/prefs";
import type { GameStore } from "../state/store";

export type Cue = "card" | "reveal" | "decided";

/** The one cue a batch of new log entries sounds (the most telling one: a batch holds a whole
 *  action's consequences, and three sounds at once are noise). */
export function cueFor(events: readonly LogEntry[]): Cue | null {
  const types = new Set(events.map((e) => e.type));
  if (types.has("strategies_revealed")) return "reveal";
  if (types.has("round_decided")) return "decided";
  if (types.has("card_played") || types.has("card_to_play_area")) return "card";
  return null;
}

/** Each cue's notes: frequency (Hz), start (s), length (s), peak gain. */
const NOTES: Readonly<Record<Cue, readonly (readonly [number, number, number, number])[]>> = {
  card: [[180, 0, 0.09, 0.12]],
  reveal: [
    [392, 0, 0.16, 0.09],
    [523, 0.12, 0.16, 0.09],
    [784, 0.24, 0.3, 0.08],
  ],
  decided: [
    [659, 0, 0.14, 0.08],
    [494, 0.13, 0.24, 0.08],
  ],
};

let ctx: AudioContext | null = null;

function play(cue: Cue): void {
  const Ctx = globalThis.AudioContext;
  if (!Ctx) return;
  try {
    ctx ??= new Ctx();
    // a page that has had no click or key yet may not sound (the browser's rule): nothing is lost
    if (ctx.state === "suspended") void ctx.resume().catch(() => {});
    const now = ctx.currentTime;
    for (const [freq, at, length, peak] of NOTES[cue]) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = cue === "card" ? "triangle" : "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(peak, now + at + 0.015);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + length);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + at);
      osc.stop(now + at + length + 0.02);
    }
  } catch {
    // no audio here: the table shows everything the sounds say
  }
}

/** Sounds the cue of each batch of events this page's view receives from now on (`sound`: replaced
 *  in tests). Subscribed to the events alone: switching a setting sounds nothing. */
export function useTableSounds(store: GameStore, sound: (cue: Cue) => void = play): void {
  useEffect(() => {
    let first = true;
    return effect(() => {
      const events = store.lastEvents.value;
      // what was there when the page opened (a reload's missed events) is not news
      if (first) {
        first = false;
        return;
      }
      if (!prefs.peek().tableSounds || store.replaying.peek() || document.visibilityState === "hidden") return;
      const cue = cueFor(events);
      if (cue) sound(cue);
    });
  }, [store, sound]);
}
