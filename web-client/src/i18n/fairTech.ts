// How the fair shuffles work and how to check them by hand (the fairness panel's inner drawer), one
// file per language (i18n/fairTech/), loaded when a fairness panel is first shown in that language
// (i18n/onDemand.ts): a page shows one at a game's end or in a replay, never before its first render.
import { textsOnDemand } from "./onDemand";

export type FairTechText = {
  /** While the game is played: what the commitment promises. */
  readonly during: string;
  /** Once it is over: what the seed and salt are for. */
  readonly after: string;
  readonly commitment: string;
  readonly seed: string;
  readonly salt: string;
  /** This browser's check of the seed and salt against the commitment. */
  readonly check: { readonly pending: string; readonly ok: string; readonly bad: string; readonly unavailable: string };
  readonly how: string;
};

const texts = textsOnDemand<FairTechText>({
  en: () => import("./fairTech/en").then((m) => m.text),
  "zh-Hant": () => import("./fairTech/zhHant").then((m) => m.text),
  ja: () => import("./fairTech/ja").then((m) => m.text),
});

export const loadFairTech = texts.load;
export const fairTechIn = texts.in;
