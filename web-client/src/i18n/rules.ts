// The reference panel's summary of the rules, one file per language (i18n/rules/), loaded the first
// time the panel is opened in that language: the Rules drawer is opened in few visits, and its
// summary was the largest part of a language pack that a page fetches before its first render.
import { signal } from "@preact/signals";
import type { Lang } from "./langs";
import type { RulesSection } from "./pack";

const LOADERS: { readonly [L in Lang]: () => Promise<{ rules: readonly RulesSection[] }> } = {
  en: () => import("./rules/en"),
  "zh-Hant": () => import("./rules/zhHant"),
  ja: () => import("./rules/ja"),
};

const loaded = signal<Partial<Record<Lang, readonly RulesSection[]>>>({});

/** Fetches the summary in `l` (once; a failed fetch, offline, is tried again at the next call). */
export async function loadRules(l: Lang): Promise<readonly RulesSection[]> {
  const have = loaded.value[l];
  if (have) return have;
  const { rules } = await LOADERS[l]();
  loaded.value = { ...loaded.value, [l]: rules };
  return rules;
}

/** The summary in `l`, or `null` until it has arrived (a component that read it renders again then). */
export const rulesIn = (l: Lang): readonly RulesSection[] | null => loaded.value[l] ?? null;
