// Card data for display: names in catalog order (the server's order), kinds, printed values, events.
// The values come from the engine's card data, the one place they are corrected (bundled at build time);
// docs/spec/cards.md gives their sources.
import data from "../../../crates/rules/data/cards.json";
import type { Card, CardMask, EventCard, EventEffect, EventOrder, Faction, Strategy } from "../net/protocol";

/** The four kinds of basic card, each with its power. */
export type BasicKind = "military" | "diplomacy" | "recon" | "the_force";
export type CardKind = BasicKind | "character";
/** The 16 basic cards, "Military 2" … "The Force 5". */
type BasicCard = Extract<Card, `${"Military" | "Diplomacy" | "Recon" | "The Force"} ${number}`>;
/** The 16 characters: every card that is not a basic card. A new one fails `typecheck` until it has
 *  names and a power text in every language pack (i18n/packs/). */
export type Character = Exclude<Card, BasicCard>;
/** What a power text is keyed by: the kind of a basic card, the name of a character. */
export type PowerKey = BasicKind | Character;

export interface CardInfo {
  name: Card;
  kind: CardKind;
  /** printed ready value */
  ready: number;
  /** printed exhausted value */
  exhausted: number;
  /** characters only */
  faction?: Faction;
  /** its power text's key; `null` for a card this build does not know (see `cardInfo`) */
  power: PowerKey | null;
}

export interface EventInfo {
  name: EventCard;
  capacity: number;
  objective: number;
  vp: number;
  influence: number;
  effect: EventEffect;
}

/** The shape of cards.json. Its names are the generated `Card` and `EventCard` unions (crates/protocol
 *  generates them from this file), so the names are typed here, where the file is read. */
interface CardData {
  basic_cards: { name: BasicCard; power: BasicKind; ready_value: number; exhausted_value: number }[];
  characters: Record<Faction, { name: Character; ready_value: number; exhausted_value: number }[]>;
  events: EventInfo[];
}
const cards = data as CardData;

const basicCards: CardInfo[] = cards.basic_cards.map((c) => ({
  name: c.name,
  kind: c.power,
  ready: c.ready_value,
  exhausted: c.exhausted_value,
  power: c.power,
}));

const characters = (f: Faction): CardInfo[] =>
  cards.characters[f].map((c) => ({
    name: c.name,
    kind: "character",
    ready: c.ready_value,
    exhausted: c.exhausted_value,
    faction: f,
    power: c.name,
  }));

export const REBEL_CHARACTERS: readonly Character[] = cards.characters.rebel.map((c) => c.name);
export const IMPERIAL_CHARACTERS: readonly Character[] = cards.characters.imperial.map((c) => c.name);

/** All 32 cards in catalog order (basic cards first), as the server orders sets. */
export const CARDS: readonly CardInfo[] = [...basicCards, ...characters("rebel"), ...characters("imperial")];

export const EVENT_INFO: readonly EventInfo[] = cards.events.map((e) => ({ ...e }));

export const EVENTS: readonly EventCard[] = EVENT_INFO.map((e) => e.name);

export const STRATEGIES: readonly Strategy[] = [
  "deception",
  "direct_assault",
  "infiltration",
  "bureaucracy",
  "support",
];

const BY_NAME: ReadonlyMap<string, CardInfo & { index: number }> = new Map(
  CARDS.map((c, i) => [c.name, { ...c, index: i }]),
);

/** A card of cards.json (false for a name this build does not know). */
function isCard(name: string): name is Card {
  return BY_NAME.has(name);
}

function isEventCard(name: string): name is EventCard {
  return EVENTS.some((e) => e === name);
}

/** The cards of a `CardMask`, which the generator types `string[]` (not `Card[]`); a name this build
 *  does not know is left out. */
export function cardsIn(mask: CardMask): Card[] {
  return mask.filter(isCard);
}

/** The events of an `EventOrder`, which the generator types `string[]` (not `EventCard[]`). */
export function eventsIn(order: EventOrder): EventCard[] {
  return order.filter(isEventCard);
}

/** A card's data. Every `Card` is in cards.json; a card from a newer server than this build (a page
 *  left open across an upgrade) shows its name with no values or power rather than failing. */
export function cardInfo(name: Card): CardInfo {
  return BY_NAME.get(name) ?? { name, kind: "character", ready: 0, exhausted: 0, power: null };
}

export function catalogIndex(name: Card): number {
  return BY_NAME.get(name)?.index ?? 999;
}
