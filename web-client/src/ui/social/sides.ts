// A side's name and a player's, as i18n/index.ts's `sideName` and `playerName` give them, and a
// replay's address as state/route.ts's `replayPage` makes it, written again here: every name this part
// takes from the page's own script is one more that script exports, and its download budget
// (scripts/budget.mjs) has a few bytes left in Japanese. Keep them in step.
import { t } from "../../i18n";
import type { Faction } from "../../net/protocol";

export const sideName = (f: Faction): string => t(f === "rebel" ? "factionShort.rebel" : "factionShort.imperial");

/** The player's name at that seat, or the side's when none was given (shown inside `<bdi>`). */
export const playerName = (f: Faction, names: readonly (string | null)[]): string =>
  names[f === "rebel" ? 0 : 1] ?? sideName(f);

/** Game `game`'s replay page in room `code`. */
export const replayPage = (code: string, game: number): string => `/r/${code}/games/${game}`;
