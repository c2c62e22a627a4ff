// Sounds at the table, made with Web Audio (nothing to download): a soft knock for the opponent's
// move, a rising flourish when the strategies are revealed, a chime when it becomes your turn. Only
// for what the page's own view just received (never for a replay's steps, never while the page is
// hidden: the background has its own "your turn" alert), and only once switched on (Settings; off
// until then).
import { effect } from "@preact/signals-core";
import { useEffect } from "preact/hooks";
import { type Faction, type LogEntry, otherFaction } from "../net/protocol";
import { prefs } from "../state/prefs";
import type { GameStore } from "../state/store";

export type Cue = "reveal" | "turn" | "move";

/** What a player does on their own initiative (not what follows from it). */
const MOVES = new Set<LogEntry["type"]>(["card_played", "passed", "power_used", "card_readied"]);

/** The one cue a batch of new log entries sounds, the most telling first: the reveal, then your
 *  turn arriving (`turnArrived`), then a move of the other side (of either, for a spectator: `me`
 *  null). A batch holds a whole action's consequences, and three sounds at once are noise. */
export function cueFor(events: readonly LogEntry[], me: Faction | null, turnArrived: boolean): Cue | null {
  if (events.some((e) => e.type === "strategies_revealed")) return "reveal";
  if (turnArrived) return "turn";
  const mover = (e: LogEntry) => ("faction" in e ? e.faction : null);
  if (events.some((e) => MOVES.has(e.type) && mover(e) !== null && (me === null || mover(e) === otherFaction(me))))
    return "move";
  return null;
}

/** Each cue's notes: frequency (Hz), start (s), length (s), peak gain. */
const NOTES: Readonly<Record<Cue, readonly (readonly [number, number, number, number])[]>> = {
  move: [[180, 0, 0.09, 0.12]],
  reveal: [
    [392, 0, 0.16, 0.09],
    [523, 0.12, 0.16, 0.09],
    [784, 0.24, 0.3, 0.08],
  ],
  turn: [
    [523, 0, 0.12, 0.07],
    [784, 0.1, 0.22, 0.07],
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
      osc.type = cue === "move" ? "triangle" : "sine";
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
    let wasMyTurn = store.myTurn.peek();
    return effect(() => {
      const events = store.lastEvents.value;
      const myTurn = store.myTurn.peek();
      const turnArrived = myTurn && !wasMyTurn;
      wasMyTurn = myTurn;
      // what was there when the page opened (a reload's missed events) is not news
      if (first) {
        first = false;
        return;
      }
      if (!prefs.peek().tableSounds || store.replaying.peek() || document.visibilityState === "hidden") return;
      const cue = cueFor(events, store.me.peek(), turnArrived);
      if (cue) sound(cue);
    });
  }, [store, sound]);
}
