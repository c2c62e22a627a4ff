// A desktop play area is one row: rowScale gives the factor its cards grow or shrink by so that the
// row never wraps (a second row pushed Pass below a 1366×768 screen), never scrolls while it can be
// read, and a few cards are large enough to read. Every card has the same slot whichever way it lies
// (a card turning sideways moved the others): the gaps make room for a sideways card's reach.
import { describe, expect, it } from "vitest";
import { MAX_SCALE, MIN_SCALE, rowGap, rowScale } from "../src/ui/fitRow";

const REM = 16;
/** the row's width at a factor: the slots (112 px) and gaps (0.6rem, or `lie` where wider) scaled, the padding (2rem) not */
const used = (s: number, cards: number, lie = 0) =>
  s * (112 * cards + Math.max(0.6 * REM, lie) * (cards - 1)) + 2 * REM;

describe("a play area's row of cards", () => {
  it("a few cards are as large as they may be", () => {
    expect(rowScale(680, 3, REM)).toBe(MAX_SCALE);
    expect(rowScale(680, 0, REM)).toBe(MAX_SCALE);
  });

  it("grows or shrinks up to six cards to exactly the row's width, never wider", () => {
    for (const width of [560, 610, 680, 720, 900]) {
      for (const cards of [6, 5, 4, 3]) {
        for (const lie of [0, 8, 24]) {
          const s = rowScale(width, cards, REM, lie);
          if (s === MIN_SCALE) continue;
          expect(s).toBeLessThanOrEqual(MAX_SCALE);
          expect(used(s, cards, lie)).toBeLessThanOrEqual(width);
          // and not needlessly small: a hundredth more would not fit (or the cards are at their largest)
          if (s < MAX_SCALE) expect(used(s + 0.01, cards, lie)).toBeGreaterThan(width);
        }
      }
    }
  });

  it("a sideways card's reach widens the gaps only where it is wider than the usual gap", () => {
    const s = rowScale(680, 6, REM, 24);
    expect(s).toBeLessThan(rowScale(680, 6, REM, 8));
    expect(rowGap(680, 6, REM, s, 24)).toBe(24 * s);
    expect(rowScale(680, 6, REM, 8)).toBe(rowScale(680, 6, REM));
  });

  it("stops at the smallest readable size", () => {
    expect(rowScale(300, 6, REM)).toBe(MIN_SCALE);
  });

  it("keeps the usual gap while the cards fit, and past the smallest size has them overlap to the row's width", () => {
    const s = rowScale(680, 6, REM);
    expect(rowGap(680, 6, REM, s)).toBe(0.6 * REM * s);
    // six cards in a 400 px row: too wide even at the smallest size (the row scrolled sideways); the
    // gaps give the difference up and the cards overlap a little
    const width = 400;
    expect(rowScale(width, 6, REM)).toBe(MIN_SCALE);
    const gap = rowGap(width, 6, REM, MIN_SCALE);
    expect(gap).toBeLessThan(0.6 * REM * MIN_SCALE);
    expect(MIN_SCALE * 112 * 6 + 5 * gap + 2 * REM).toBeLessThanOrEqual(width);
    // never more than 40% of a card over its neighbour
    expect(rowGap(200, 6, REM, MIN_SCALE)).toBe(-0.4 * 112 * MIN_SCALE);
  });
});
