// One or more entries of every kind of log entry, so the translation checks read every log sentence.
// Keyed by the entry's type: a new kind of entry fails `npm run typecheck` here until it has a sample.
import type { LogEntry, RoundResult } from "../src/net/protocol";

type Samples = { readonly [T in LogEntry["type"]]: readonly Extract<LogEntry, { type: T }>[] };

const RESULT: RoundResult = {
  round: 3,
  event: "Battle of Hoth",
  objective: 17,
  strategies: ["support", "bureaucracy"],
  totals_at_reveal: [15, 12],
  eligible: [true, true],
  direct_assault: [false, false],
  totals: [15, 12],
  bust: [false, false],
  would_be_winner: "rebel",
  deception: false,
  winner: "rebel",
  reason: "higher_total",
  vp_after: [4, 2],
};

export const LOG_SAMPLES: Samples = {
  game_started: [{ type: "game_started", mode: "full", balance: "rebel" }],
  characters_chosen: [
    { type: "characters_chosen", faction: "rebel", characters: null },
    { type: "characters_chosen", faction: "rebel", characters: ["Yoda", "Han Solo", "Chewbacca", "Leia Organa"] },
  ],
  deck_shuffled: [{ type: "deck_shuffled", faction: "imperial", reason: "cleanup" }],
  round_started: [{ type: "round_started", round: 4, event: "Battle of Yavin" }],
  strategy_chosen: [
    { type: "strategy_chosen", target: "rebel", chooser: "owner", strategy: null, revealed: false },
    { type: "strategy_chosen", target: "imperial", chooser: "opponent", strategy: "deception", revealed: true },
  ],
  struggle_started: [{ type: "struggle_started", first: "imperial" }],
  card_played: [{ type: "card_played", faction: "rebel", card: "Military 3" }],
  discard_pile_under_deck: [{ type: "discard_pile_under_deck", faction: "rebel", cards: 5 }],
  power_used: [
    { type: "power_used", faction: "imperial", card: "Darth Vader", banned: false },
    { type: "power_used", faction: "rebel", card: "Diplomacy 4", banned: true },
  ],
  card_discarded: [
    { type: "card_discarded", card: { owner: "rebel", card: "Recon 2" }, from: "play_area", by: "imperial" },
  ],
  card_exhausted: [{ type: "card_exhausted", card: { owner: "imperial", card: "IG-88" }, by: "rebel" }],
  card_readied: [{ type: "card_readied", faction: "rebel", card: "Luke Skywalker", influence_left: 1 }],
  passed: [{ type: "passed", faction: "imperial" }],
  influence_gained: [{ type: "influence_gained", faction: "rebel", amount: 2, total: 5 }],
  influence_lost: [{ type: "influence_lost", faction: "imperial", amount: 2, total: 1 }],
  deck_looked: [
    { type: "deck_looked", by: "rebel", deck: "imperial", count: 2, cards: null },
    { type: "deck_looked", by: "rebel", deck: "rebel", count: 2, cards: ["Military 5", "The Force 2"] },
  ],
  deck_searched: [{ type: "deck_searched", by: "rebel", deck: "rebel" }],
  card_on_top: [
    { type: "card_on_top", by: "imperial", deck: "rebel", card: "Recon 4", from: "discard_pile" },
    { type: "card_on_top", by: "imperial", deck: "imperial", card: null, from: "deck" },
  ],
  card_to_play_area: [{ type: "card_to_play_area", faction: "rebel", card: "Obi-Wan Kenobi", from: "reserve" }],
  character_to_reserve: [
    { type: "character_to_reserve", faction: "rebel", card: "Yoda", from: "play_area", by: "imperial" },
    { type: "character_to_reserve", faction: "imperial", card: null, from: "deck", by: "imperial" },
  ],
  reserve_to_deck: [{ type: "reserve_to_deck", faction: "rebel", card: null }],
  strategy_discarded: [{ type: "strategy_discarded", faction: "imperial", strategy: "support", by: "rebel" }],
  strategies_retrieved: [{ type: "strategies_retrieved", faction: "rebel" }],
  new_strategy_chosen: [
    { type: "new_strategy_chosen", faction: "rebel", strategy: null },
    { type: "new_strategy_chosen", faction: "rebel", strategy: "infiltration" },
  ],
  struggle_ended: [
    { type: "struggle_ended", reason: "both_passed" },
    { type: "struggle_ended", reason: "action_limit" },
  ],
  strategies_revealed: [
    { type: "strategies_revealed", strategies: ["support", "deception"], totals: [14, 11], eligible: [false, true] },
    { type: "strategies_revealed", strategies: ["deception", "deception"], totals: [9, 11], eligible: [true, true] },
  ],
  direct_assault: [{ type: "direct_assault", faction: "imperial", total: 13 }],
  round_decided: [
    { type: "round_decided", result: RESULT },
    { type: "round_decided", result: { ...RESULT, winner: null, would_be_winner: null, reason: "both_bust" } },
  ],
  event_won: [{ type: "event_won", faction: "rebel", event: "Battle of Hoth", vp: 3, influence: 0 }],
  event_to_bottom: [{ type: "event_to_bottom", event: "Control of Endor" }],
  events_reordered: [{ type: "events_reordered", by: "imperial", count: 3, order: null }],
  modifier_set: [
    { type: "modifier_set", faction: "rebel", modifier: "infiltrated" },
    { type: "modifier_set", faction: "imperial", modifier: "diversion" },
    { type: "modifier_set", faction: "imperial", modifier: "located" },
  ],
  balance_token: [
    { type: "balance_token", faction: "rebel", moved: true },
    { type: "balance_token", faction: "imperial", moved: false },
  ],
  strategy_used: [{ type: "strategy_used", faction: "rebel", strategy: "bureaucracy" }],
  game_over: [
    { type: "game_over", outcome: { winner: "imperial", reason: "victory_points", vp: [5, 7] } },
    { type: "game_over", outcome: { winner: null, reason: "round_limit", vp: [6, 6] } },
  ],
};
