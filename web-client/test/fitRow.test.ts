// A desktop play area is one row: rowScale gives the factor its cards grow or shrink by so that the
// row never wraps (a second row pushed Pass below a 1366×768 screen), never scrolls while it can be
// read, and a few cards are large enough to read.
import { describe, expect, it } from "vitest";
import { MAX_SCALE, MIN_SCALE, rowGap, rowScale } from "../src/ui/fitRow";

const REM = 16;
/** the row's width at a factor: the slots (112 px, 150 px sideways) and gaps (0.6rem) scaled, the padding (1.2rem) not */
const used = (s: number, upright: number, sideways: number) =>
  s * (112 * upright + 150 * sideways + 0.6 * REM * (upright + sideways - 1)) + 1.2 * REM;

describe("a play area's row of cards", () => {
  it("a few cards are as large as they may be", () => {
    expect(rowScale(680, 2, 1, REM)).toBe(MAX_SCALE);
    expect(rowScale(680, 0, 0, REM)).toBe(MAX_SCALE);
  });

  it("grows or shrinks up to six cards to exactly the row's width, never wider", () => {
    for (const width of [560, 610, 680, 720, 900]) {
      for (const [upright, sideways] of [
        [6, 0],
        [5, 0],
        [4, 2],
        [3, 3],
        [1, 5],
      ] as const) {
        const s = rowScale(width, upright, sideways, REM);
        if (s === MIN_SCALE) continue;
        expect(s).toBeLessThanOrEqual(MAX_SCALE);
        expect(used(s, upright, sideways)).toBeLessThanOrEqual(width);
        // and not needlessly small: a hundredth more would not fit (or the cards are at their largest)
        if (s < MAX_SCALE) expect(used(s + 0.01, upright, sideways)).toBeGreaterThan(width);
      }
    }
  });

  it("stops at the smallest readable size", () => {
    expect(rowScale(300, 0, 6, REM)).toBe(MIN_SCALE);
  });

  it("keeps the usual gap while the cards fit, and past the smallest size has them overlap to the row's width", () => {
    const s = rowScale(680, 4, 2, REM);
    expect(rowGap(680, 4, 2, REM, s)).toBe(0.6 * REM * s);
    // one upright and five sideways cards in a 520 px row: too wide even at the smallest size (the
    // row scrolled sideways); the gaps give the difference up and the cards overlap a little
    const width = 520;
    expect(rowScale(width, 1, 5, REM)).toBe(MIN_SCALE);
    const gap = rowGap(width, 1, 5, REM, MIN_SCALE);
    expect(gap).toBeLessThan(0.6 * REM * MIN_SCALE);
    expect(MIN_SCALE * (112 + 150 * 5) + 5 * gap + 1.2 * REM).toBeLessThanOrEqual(width);
    // never more than 40% of a card over its neighbour
    expect(rowGap(200, 6, 0, REM, MIN_SCALE)).toBe(-0.4 * 112 * MIN_SCALE);
  });
});
