// Card data for display: names in catalog order (the server's order), kinds, printed values, events.
// The values come from the engine's card data, the one place they are corrected (bundled at build time).
import data from "../../../crates/rules/data/cards.json";
import type { Faction } from "../net/protocol";

export type CardKind = "military" | "diplomacy" | "recon" | "the_force" | "character";

export interface CardInfo {
  name: string;
  kind: CardKind;
  /** printed ready value */
  ready: number;
  /** printed exhausted value */
  exhausted: number;
  /** characters only */
  faction?: Faction;
}

interface RawCard {
  name: string;
  power: string;
  ready_value: number;
  exhausted_value: number;
}
interface RawEvent {
  name: string;
  capacity: number;
  objective: number;
  vp: number;
  influence: number;
  effect: string;
}

const KINDS: Record<string, CardKind> = {
  military: "military",
  diplomacy: "diplomacy",
  recon: "recon",
  the_force: "the_force",
};

const basicCards: CardInfo[] = (data.basic_cards as RawCard[]).map((c) => ({
  name: c.name,
  kind: KINDS[c.power] ?? "military",
  ready: c.ready_value,
  exhausted: c.exhausted_value,
}));

const characters = (f: Faction): CardInfo[] =>
  (data.characters[f] as RawCard[]).map((c) => ({
    name: c.name,
    kind: "character",
    ready: c.ready_value,
    exhausted: c.exhausted_value,
    faction: f,
  }));

export const REBEL_CHARACTERS: readonly string[] = characters("rebel").map((c) => c.name);
export const IMPERIAL_CHARACTERS: readonly string[] = characters("imperial").map((c) => c.name);

/** All 32 card names in catalog order (basic cards first), as the server orders sets. */
export const CARDS: CardInfo[] = [...basicCards, ...characters("rebel"), ...characters("imperial")];

export interface EventInfo {
  name: string;
  capacity: number;
  objective: number;
  vp: number;
  influence: number;
  effect: string;
}
export const EVENT_INFO: EventInfo[] = (data.events as RawEvent[]).map((e) => ({ ...e }));
export const TUTORIAL_EVENT: string = data.tutorial_event;

const BY_NAME = new Map(CARDS.map((c, i) => [c.name, { ...c, index: i }]));

export function cardInfo(name: string): CardInfo {
  return BY_NAME.get(name) ?? { name, kind: "character", ready: 0, exhausted: 0 };
}

export function catalogIndex(name: string): number {
  return BY_NAME.get(name)?.index ?? 999;
}

export function isCharacter(name: string): boolean {
  return cardInfo(name).kind === "character";
}

/** "Military 3" → "military"; characters → their own name as the power key. */
export function powerKey(name: string): string {
  const c = cardInfo(name);
  return c.kind === "character" ? name : c.kind;
}

export const EVENTS: readonly string[] = EVENT_INFO.map((e) => e.name);

export const STRATEGIES = ["deception", "direct_assault", "infiltration", "bureaucracy", "support"] as const;
