// Card, event and strategy names in the language of a pack (pack.ts: where the names come from).
import { type Character, cardInfo } from "../data/cards";
import type { Card, EventCard, Strategy } from "../net/protocol";
import type { Lang } from "./langs";
import { packOf } from "./packs";

/** A card's name in `lang` (the English name when this build does not know the card). */
export function cardIn(lang: Lang, card: Card): string {
  const names = packOf(lang).names;
  if (!names) return card;
  if (Object.hasOwn(names.characters, card)) return names.characters[card as Character];
  // a basic card: its kind and its value ("Military 3" → "軍事 3")
  const info = cardInfo(card);
  if (info.kind === "character") return card;
  return `${names.basicKinds[info.kind]} ${card.slice(card.lastIndexOf(" ") + 1)}`;
}

/** An event's name in `lang` (the English name for an event a newer server knows and this build does not). */
export function eventIn(lang: Lang, event: EventCard): string {
  return packOf(lang).names?.events[event] ?? event;
}

export function strategyIn(lang: Lang, s: Strategy): string {
  return packOf(lang).strategies[s] ?? s;
}
