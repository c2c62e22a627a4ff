// A rated game's change as it reads (the game-over panel, a player's page): its sign always written,
// the minus a real minus sign (U+2212) so it lines up with the plus; no change is "±0".

/** "+12", "−12" or "±0": a game's change always shows which way it went. */
export function changeText(change: number): string {
  if (change > 0) return `+${change}`;
  if (change < 0) return `\u2212${-change}`;
  return "\u00b10";
}
