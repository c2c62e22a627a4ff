// Powers, strategies and event effects in the language of a pack (pack.ts). The lookups tolerate what
// a newer server may send and this build does not know.
import type { PowerKey } from "../data/cards";
import type { EventEffect, Strategy } from "../net/protocol";
import type { Lang } from "./langs";
import { packOf } from "./packs";

/** A card's power (`null`: a card this build does not know). */
export function powerIn(lang: Lang, key: PowerKey | null): string {
  return key === null ? "" : (packOf(lang).powers[key] ?? "");
}

export function strategyTextIn(lang: Lang, s: Strategy): string {
  return packOf(lang).strategyTexts[s] ?? "";
}

export function effectIn(lang: Lang, e: EventEffect): string {
  return packOf(lang).effects[e] ?? e;
}
