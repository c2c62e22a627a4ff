// What a language pack holds: every text of the client in one language (packs/en.ts, packs/zhHant.ts,
// packs/ja.ts). A page loads only the pack of the language it shows (packs.ts), so a player downloads
// one language, not three. The tables are keyed by the generated unions (`Card`, `EventCard`,
// `Strategy`, `ErrorCode`, proto/ts) and by the English messages' keys: a new character, event,
// strategy, effect, error code or message fails `npm run typecheck` until every pack has its text.
//
// Names: where the rulebooks name something, the glossary (docs/spec/glossary.md) gives that name and
// we use it exactly; character names the rulebooks do not print follow the local Star Wars releases
// (glossary: "use the names the local Star Wars releases use"); the remaining game terms (basic card
// kinds, three strategies, most events) are our translations. The README lists the sources.
import type { BasicKind, Character, PowerKey } from "../data/cards";
import type { ClientErrorCode, EventCard, EventEffect, Strategy } from "../net/protocol";
import type { AccountErrorCode } from "./account";
import type { Messages } from "./en";
import type { Fmt } from "./log";

export interface RulesSection {
  title: string;
  points: string[];
}

/** Names in a language other than English (the English names are the ones on the wire). */
export interface LocalNames {
  readonly characters: { readonly [C in Character]: string };
  readonly events: { readonly [E in EventCard]: string };
  /** a basic card's name is "<Kind> <value>" */
  readonly basicKinds: { readonly [K in BasicKind]: string };
}

export interface Pack {
  readonly messages: Messages;
  /** `null` in English */
  readonly names: LocalNames | null;
  readonly strategies: { readonly [S in Strategy]: string };
  /** One-line paraphrases of powers (basic cards by their kind, characters by their name),
   *  strategies and event effects (docs/spec/rules.md R-6..R-8). */
  readonly powers: { readonly [K in PowerKey]: string };
  readonly strategyTexts: { readonly [S in Strategy]: string };
  readonly effects: { readonly [E in EventEffect]: string };
  /** every code of the protocol and the client's own (`LocalErrorCode`, net/protocol.ts), but the account
   *  routes' own: those are with the texts of accounts (account.ts), loaded when accounts are shown */
  readonly errors: { readonly [C in Exclude<ClientErrorCode, AccountErrorCode>]: string };
  /** plain sentences for log entries (ACTIONS.md "Log entries") */
  readonly log: Fmt;
}
