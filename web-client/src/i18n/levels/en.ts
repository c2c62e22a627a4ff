// What each computer level is, in English (i18n/levels.ts): loaded when a computer opponent is picked.
import type { LevelsText } from "../levels";

export const text: LevelsText = {
  easy: "Plays by a quick rule of thumb: a good first opponent. Rated about 200 on our ladder, where random play is 0.",
  normal: "Weighs 100 possible continuations before each move. Rated about 500; it beats Easy in 86% of games.",
  hard: "Weighs 8,000 continuations before each move and mixes its secret choices, so it has no habit to read. Rated about 700; it beats Normal in 73% of games.",
};
