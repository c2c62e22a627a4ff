// The reference panel's summary of the rules, one file per language (i18n/rules/), loaded the first
// time the panel is opened in that language (i18n/onDemand.ts): the Rules drawer is opened in few
// visits, and its summary was the largest part of a language pack that a page fetches before its
// first render.
import { textsOnDemand } from "./onDemand";
import type { RulesSection } from "./pack";

const rules = textsOnDemand<readonly RulesSection[]>({
  en: () => import("./rules/en").then((m) => m.rules),
  "zh-Hant": () => import("./rules/zhHant").then((m) => m.rules),
  ja: () => import("./rules/ja").then((m) => m.rules),
});

export const loadRules = rules.load;
export const rulesIn = rules.in;
