// A replay's navigation beyond one step: whole rounds, and playing the game on by itself (a 7-round
// game is ~200 steps: one press a step was the only way through it).
import { useEffect, useState } from "preact/hooks";

/** How long each step stays on screen while the replay plays. */
export const PLAY_STEP_MS = 800;

/** The first step of the round shown at step `at` (`rounds[i]`: the round of step i). */
function roundStart(rounds: readonly number[], at: number): number {
  let j = at;
  while (j > 0 && rounds[j - 1] === rounds[at]) j--;
  return j;
}

/** "Previous round", as a music player's previous track: the start of the round shown, or when the
 *  replay is already there, the start of the round before. */
export function previousRoundStep(rounds: readonly number[], at: number): number {
  const start = roundStart(rounds, at);
  return start < at || start === 0 ? start : roundStart(rounds, start - 1);
}

/** "Next round": the first step of the next round, else the last step. */
export function nextRoundStep(rounds: readonly number[], at: number): number {
  for (let j = at + 1; j < rounds.length; j++) if (rounds[j] !== rounds[at]) return j;
  return Math.max(0, rounds.length - 1);
}

/** Playing: one step every PLAY_STEP_MS until the last, then it stops by itself. */
export function usePlayback(at: number, last: number, go: (i: number) => void): [boolean, (on: boolean) => void] {
  const [playing, setPlaying] = useState(false);
  useEffect(() => {
    if (!playing) return;
    if (at >= last) {
      setPlaying(false);
      return;
    }
    const timer = setTimeout(() => go(at + 1), PLAY_STEP_MS);
    return () => clearTimeout(timer);
  }, [playing, at, last, go]);
  return [playing, setPlaying];
}
