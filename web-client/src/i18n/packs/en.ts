// Every text of the client in English: one of the language packs (i18n/pack.ts says what a pack
// holds, i18n/packs.ts loads it only when a player reads the language). The names follow the
// glossary (docs/spec/glossary.md); the powers, strategies and effects paraphrase docs/spec/rules.md.
import { cardsIn } from "../../data/cards";
import { en as messages } from "../en";
import { bothDeception, type Fmt, revealedSides } from "../log";
import type { Pack } from "../pack";

const log: Fmt = (e, h) => {
  switch (e.type) {
    case "game_started":
      return "The game starts.";
    case "characters_chosen":
      return `${h.side(e.faction)} chose characters${e.characters ? `: ${cardsIn(e.characters).map(h.card).join(", ")}` : ""}.`;
    case "deck_shuffled":
      return `${h.side(e.faction)} deck shuffled.`;
    case "round_started":
      return `Round ${e.round}: ${h.event(e.event)}.`;
    case "strategy_chosen":
      return `${h.side(e.target)} strategy chosen${e.strategy ? `: ${h.strategy(e.strategy)}` : ""}.`;
    case "struggle_started":
      return `The struggle begins; ${h.side(e.first)} acts first.`;
    case "card_played":
      return `${h.side(e.faction)} played ${h.card(e.card)}.`;
    case "discard_pile_under_deck":
      return `${h.side(e.faction)} discard pile (${e.cards}) goes under the deck.`;
    case "power_used":
      return `${h.side(e.faction)} used ${h.card(e.card)}${e.banned ? " (banned: no effect)" : ""}.`;
    case "card_discarded":
      return `${h.side(e.by)} discarded ${h.card(e.card.card)} (${h.side(e.card.owner)}).`;
    case "card_exhausted":
      return `${h.side(e.by)} exhausted ${h.card(e.card.card)} (${h.side(e.card.owner)}).`;
    case "card_readied":
      return `${h.side(e.faction)} spent influence to ready ${h.card(e.card)}.`;
    case "passed":
      return `${h.side(e.faction)} passed.`;
    case "influence_gained":
      return `${h.side(e.faction)} gains ${e.amount} influence (${e.total}).`;
    case "influence_lost":
      return `${h.side(e.faction)} loses ${e.amount} influence (${e.total}).`;
    case "deck_looked":
      return `${h.side(e.by)} looked at ${e.count} cards of the ${h.side(e.deck)} deck${e.cards ? `: ${cardsIn(e.cards).map(h.card).join(", ")}` : ""}.`;
    case "deck_searched":
      return `${h.side(e.by)} searched the ${h.side(e.deck)} deck.`;
    case "card_on_top":
      return `${h.side(e.by)} put ${h.card(e.card)} on the ${h.side(e.deck)} deck.`;
    case "card_to_play_area":
      return `${h.card(e.card)} enters the ${h.side(e.faction)} play area.`;
    case "character_to_reserve":
      return `${h.card(e.card)} goes to the ${h.side(e.faction)} reserve.`;
    case "reserve_to_deck":
      return `${h.card(e.card)} goes from the ${h.side(e.faction)} reserve into the deck.`;
    case "strategy_discarded":
      return `${h.side(e.by)} discarded the ${h.side(e.faction)} strategy ${h.strategy(e.strategy)}.`;
    case "strategies_retrieved":
      return `${h.side(e.faction)} takes back all strategies.`;
    case "new_strategy_chosen":
      return `${h.side(e.faction)} chose a new strategy${e.strategy ? `: ${h.strategy(e.strategy)}` : ""}.`;
    case "struggle_ended":
      return e.reason === "both_passed" ? "Both passed: the struggle ends." : "The struggle ends (action limit).";
    case "strategies_revealed":
      return `Strategies revealed: ${revealedSides(e, h, " ", " (over the objective: it does not resolve)").join(", ")}.${
        bothDeception(e) ? ` Both chose ${h.strategy("deception")}: neither resolves.` : ""
      }`;
    case "direct_assault":
      return `Direct Assault: ${h.side(e.faction)} total is ${e.total}.`;
    case "round_decided":
      return e.result.winner
        ? `${h.side(e.result.winner)} wins round ${e.result.round}.`
        : `Nobody wins round ${e.result.round}.`;
    case "event_won":
      return `${h.side(e.faction)} wins ${h.event(e.event)}: ${e.vp} VP, ${e.influence} influence.`;
    case "event_to_bottom":
      return `${h.event(e.event)} goes to the bottom of the event deck.`;
    case "events_reordered":
      return `${h.side(e.by)} reordered the top ${e.count} events.`;
    case "modifier_set":
      return `${h.side(e.faction)}: ${h.modifier(e.modifier)} next round.`;
    case "balance_token":
      return e.moved
        ? `The balance token moves to the ${h.side(e.faction)} side.`
        : `The balance token stays with the ${h.side(e.faction)} side.`;
    case "strategy_used":
      // R-5.10: the chosen strategy goes to the used ones, whether or not it resolved (R-5.1, R-7.1).
      return `${h.side(e.faction)}: ${h.strategy(e.strategy)} goes to the used strategies.`;
    case "game_over":
      return e.outcome.winner ? `Game over: ${h.side(e.outcome.winner)} wins.` : "Game over: draw.";
  }
};

export const pack: Pack = {
  messages,
  // the names on the wire are the English names
  names: null,
  strategies: {
    deception: "Deception",
    direct_assault: "Direct Assault",
    infiltration: "Infiltration",
    bureaucracy: "Bureaucracy",
    support: "Support",
  },
  powers: {
    military: "Discard a card from the opponent's play area.",
    diplomacy: "Discard a card from your own play area.",
    recon: "Look at the top 2 cards of either deck: discard one, put the other back on top.",
    the_force: "Exhaust a ready card in either play area; its power does not resolve.",
    Chewbacca: "Exhaust up to 2 ready opposing cards; their powers do not resolve.",
    "Han Solo": "Search your deck for a card and put it into your play area; shuffle your deck.",
    "Lando Calrissian": "Discard any number of your cards, then play that many from your deck.",
    "Leia Organa": "Put a reserve character into your play area, or shuffle it into your deck.",
    "Luke Skywalker": "Discard one of your cards, one of the opponent's, or both.",
    "Obi-Wan Kenobi": "Put a card from your discard pile into your play area.",
    "R2-D2 and C-3PO": "Discard your chosen strategy and secretly choose a new one.",
    Yoda: "Gain 1 influence.",
    "Admiral Piett": "Put a card from either discard pile on top of its owner's deck.",
    "Boba Fett": "Discard an opposing card, exhaust a ready card, or both.",
    "Darth Vader": "Discard an exhausted card from either play area; a character goes to its owner's reserve instead.",
    "Emperor Palpatine": "The opponent discards their chosen strategy and secretly chooses a new one.",
    "General Veers": "Discard your top card; discard all opposing cards worth less than it.",
    "Grand Moff Tarkin": "The opponent loses 2 influence.",
    "IG-88": "Pick 2 cards from either deck: discard one, shuffle, put the other on top.",
    "Jabba the Hutt": "Look at your top card; you may discard one of your cards, then you may play the top card.",
  },
  strategyTexts: {
    deception: "If neither is bust, the would-be loser wins instead.",
    direct_assault: "Add 2 to your total.",
    infiltration: "Next round you choose the opponent's strategy.",
    bureaucracy: "If you lose the round, gain 2 influence.",
    support: "You may shuffle a reserve character into your deck.",
  },
  effects: {
    none: "No effect.",
    ban_diplomacy: "Diplomacy powers do not resolve.",
    ban_recon: "Recon powers do not resolve.",
    ban_military: "Military powers do not resolve.",
    ban_the_force: "The Force powers do not resolve.",
    ban_characters_except_luke_and_vader: "Only Luke Skywalker and Darth Vader powers resolve among characters.",
    loser_loses_two_influence: "The loser loses 2 influence.",
    winner_reorders_top_three_events: "The winner may reorder the top 3 events.",
    loser_strategy_random_next_round: "Next round the loser's strategy is drawn at random.",
    winner_discards_loser_unused_strategy: "The winner discards one of the loser's unused strategies.",
    loser_moves_character_to_reserve: "The loser moves one of their characters to their reserve.",
    winner_moves_character_to_reserve: "The winner moves one of their characters to their reserve.",
    loser_strategy_first_next_round: "Next round the loser chooses and reveals their strategy first.",
    winner_may_add_reserve_character: "The winner may shuffle a reserve character into their deck.",
    winner_retrieves_all_strategies: "The winner takes back all their used strategies.",
  },
  errors: {
    // protocol and rooms (proto/PROTOCOL.md)
    bad_message: "The server did not understand a message.",
    frame_too_large: "A message was too large.",
    version_mismatch: "This page is out of date: reload it.",
    hello_expected: "The connection was not set up correctly.",
    hello_repeated: "This connection was already set up.",
    room_not_found: "This room does not exist (or has expired).",
    too_many_rooms: "Too many rooms created: wait a minute.",
    bad_token: "Your seat link is not valid for this room.",
    seat_taken: "Both seats are already taken.",
    bad_join_code: "That join code is not this room's. Ask the room's creator for it (6 digits).",
    too_many_join_attempts:
      "Too many join codes were tried. Wait a minute, or ask the room's creator for the invite link or a new join code.",
    bad_name: "A name is 1 to 24 characters on one line.",
    transfer_link_invalid:
      "This link was used already, has expired, or was replaced by a newer one. Make a new one on the device that has the seat.",
    too_many_devices: "This seat is already played on 8 devices.",
    not_room_creator: "Only the room's creator can make a new invite.",
    spectators_not_allowed: "This room does not allow spectators.",
    spectator_cannot_act: "Spectators cannot act.",
    stale_action: "The game moved on: decide again.",
    bad_action_id: "Bad action id.",
    rate_limited: "Too many requests: slow down.",
    waiting_for_opponent: "Wait for your opponent to join.",
    game_not_over: "The game is not over.",
    game_not_found: "This room has no game with that number.",
    replay_not_revealed: "The replay shows everything: both players must agree to reveal it first.",
    replay_unavailable: "This game was played before verifiable replays existed.",
    chat_not_allowed: "You cannot write in that chat.",
    bad_chat: "The message was not sent: write 1 to 300 characters (spectators need a name).",
    chat_rate_limited: "Too many messages: wait a moment.",
    cannot_claim_win: "You cannot claim the win now.",
    not_found: "Nothing is at this address.",
    method_not_allowed: "The server does not take this request here.",
    websocket_required: "This address is for the game's live connection only.",
    origin_not_allowed: "This page may not connect to the game server: open the game from its own site.",
    storage_failed: "The server could not save: try again.",
    shutting_down: "Reconnecting to the game server…",
    // the rules engine's (proto/ACTIONS.md)
    game_over: "The game is over.",
    wrong_phase: "That does not belong to this phase.",
    not_your_turn: "It is not your turn.",
    choice_pending: "A choice must be answered first.",
    no_pending_choice: "There is no choice to answer.",
    not_your_choice: "That choice is not yours.",
    choice_not_offered: "That answer is not offered.",
    capacity_full: "Your play area is full.",
    deck_empty: "Your deck and discard pile are empty.",
    must_play_card: "Your play area is empty: play a card.",
    unknown_card: "That card is not yours.",
    card_not_in_play_area: "That card is not in your play area.",
    card_not_ready: "That card is not ready.",
    card_not_exhausted: "That card is not exhausted.",
    no_influence: "You have no influence.",
    invalid_character_choice: "Choose exactly 4 of your characters.",
    already_chosen: "Already chosen.",
    wait_for_located_strategy: "The other strategy must be chosen and revealed first.",
    strategy_not_available: "That strategy is not available.",
    mail_disabled: "This server sends no reminders by email.",
    bad_email: "That is not an email address reminders can be sent to.",
    mail_not_sent: "The confirmation mail could not be sent. Try again later.",
    // the client's own
    network: "The server cannot be reached.",
    bad_response: "The server's answer could not be read.",
  },
  log,
};
