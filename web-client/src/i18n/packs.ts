// Loads each language's pack (pack.ts) on demand, as its own file of the build: the page fetches only
// the language it shows, before its first render (main.tsx) and when the player picks another one.
import type { Lang } from "./langs";
import type { Pack } from "./pack";

const LOADERS: { readonly [L in Lang]: () => Promise<{ pack: Pack }> } = {
  en: () => import("./packs/en"),
  "zh-Hant": () => import("./packs/zhHant"),
  ja: () => import("./packs/ja"),
};

const loaded: Partial<Record<Lang, Pack>> = {};

export async function loadPack(l: Lang): Promise<Pack> {
  loaded[l] ??= (await LOADERS[l]()).pack;
  return loaded[l];
}

export const isLoaded = (l: Lang): boolean => loaded[l] !== undefined;

/** The pack of `l`. The language signal only ever names a loaded language (index.ts); a lookup in a
 *  language not loaded (a bug) reads another loaded pack rather than break the page. */
export function packOf(l: Lang): Pack {
  const pack = loaded[l] ?? Object.values(loaded)[0];
  if (!pack) throw new Error("no language pack is loaded: await loadPack first");
  return pack;
}
