// The rating's history on a player's page as a small line chart (ui/social/Ratings.tsx): the rated
// games oldest first, x by game (equal steps: the games, not the calendar, move a rating), y scaled to
// the ratings shown with some room above and below, so a flat history is a line in the middle rather
// than a division by zero.

export type ChartBox = { readonly width: number; readonly height: number; readonly pad: number };

/** The points of the line, in SVG units (y grows downwards), from ratings oldest first; the range
 *  shown is [min, max] of the ratings widened to at least `minSpan` points. */
export function chartPoints(
  ratings: readonly number[],
  box: ChartBox,
  minSpan = 50,
): { points: [number, number][]; low: number; high: number } {
  if (ratings.length === 0) return { points: [], low: 0, high: 0 };
  let low = Math.min(...ratings);
  let high = Math.max(...ratings);
  if (high - low < minSpan) {
    const mid = (high + low) / 2;
    low = mid - minSpan / 2;
    high = mid + minSpan / 2;
  }
  const w = box.width - 2 * box.pad;
  const h = box.height - 2 * box.pad;
  const step = ratings.length > 1 ? w / (ratings.length - 1) : 0;
  const points = ratings.map((r, i): [number, number] => [
    round(box.pad + (ratings.length > 1 ? i * step : w / 2)),
    round(box.pad + ((high - r) / (high - low)) * h),
  ]);
  return { points, low: Math.round(low), high: Math.round(high) };
}

const round = (v: number) => Math.round(v * 10) / 10;

/** The ratings a history gives, oldest first: the rating before the oldest game, then after each. */
export function ratingsOverTime(history: readonly { rating_after: number; change: number }[]): number[] {
  if (history.length === 0) return [];
  const oldestFirst = [...history].reverse();
  return [oldestFirst[0]!.rating_after - oldestFirst[0]!.change, ...oldestFirst.map((g) => g.rating_after)];
}
