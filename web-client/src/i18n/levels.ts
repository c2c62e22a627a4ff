// What each level of the computer opponent is, from its measured strength (BENCHMARKS.md, "The
// computer's strength": the ladder's ratings, random play = 0, and each level's score against the
// one below), one file per language (i18n/levels/), loaded when a computer opponent is first picked
// on the landing page (i18n/onDemand.ts): most rooms are a friend's.
import { textsOnDemand } from "./onDemand";

export type LevelsText = {
  readonly easy: string;
  readonly normal: string;
  readonly hard: string;
};

const texts = textsOnDemand<LevelsText>({
  en: () => import("./levels/en").then((m) => m.text),
  "zh-Hant": () => import("./levels/zhHant").then((m) => m.text),
  ja: () => import("./levels/ja").then((m) => m.text),
});

export const loadLevels = texts.load;
export const levelsIn = texts.in;
