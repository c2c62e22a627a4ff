// A replay's round jumps, as a music player's previous / next track.
import { describe, expect, it } from "vitest";
import { nextRoundStep, previousRoundStep } from "../src/ui/replayNav";

// the round of each step: character choice (round 1), round 1's steps, round 2's, round 3's
const ROUNDS = [1, 1, 1, 2, 2, 2, 3];

describe("a replay's round jumps", () => {
  it("next round: the first step of the next round, else the last step", () => {
    expect(nextRoundStep(ROUNDS, 0)).toBe(3);
    expect(nextRoundStep(ROUNDS, 2)).toBe(3);
    expect(nextRoundStep(ROUNDS, 3)).toBe(6);
    expect(nextRoundStep(ROUNDS, 6)).toBe(6);
    expect(nextRoundStep([], 0)).toBe(0);
  });

  it("previous round: the start of the round shown, or from its start the round before", () => {
    expect(previousRoundStep(ROUNDS, 5)).toBe(3);
    expect(previousRoundStep(ROUNDS, 3)).toBe(0);
    expect(previousRoundStep(ROUNDS, 6)).toBe(3);
    expect(previousRoundStep(ROUNDS, 1)).toBe(0);
    expect(previousRoundStep(ROUNDS, 0)).toBe(0);
  });
});
