// Texts in a file per language that the page fetches the first time something shows them (the
// summary of the rules, the "Another device" panel, how the fair shuffles are checked): few visits
// read them, and every visit would otherwise download them before its first render
// (scripts/budget.mjs). Such a file imports nothing the page has: a shared import would split the
// page's own script in two, which costs more than the texts.
import { signal } from "@preact/signals";
import type { Lang } from "./langs";

export type TextsOnDemand<T> = {
  /** Fetches the texts in `l` (once; a failed fetch, offline, is tried again at the next call). */
  readonly load: (l: Lang) => Promise<T>;
  /** The texts in `l`, or `null` until they have arrived (a component that read them renders again then). */
  readonly in: (l: Lang) => T | null;
};

export function textsOnDemand<T>(loaders: { readonly [L in Lang]: () => Promise<T> }): TextsOnDemand<T> {
  const loaded = signal<Partial<Record<Lang, T>>>({});
  return {
    load: async (l) => {
      const have = loaded.value[l];
      if (have) return have;
      const texts = await loaders[l]();
      loaded.value = { ...loaded.value, [l]: texts };
      return texts;
    },
    in: (l) => loaded.value[l] ?? null,
  };
}
