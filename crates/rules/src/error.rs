//! Why an action was refused. Each reason has a stable machine code for the wire.
//!
//! The table below is the one definition of every rule error: adding a line adds the variant, its
//! code, its message and its place in [`RuleError::ALL`] at once.

macro_rules! rule_errors {
    ($( $variant:ident = $code:literal, $message:literal; )*) => {
        /// A refused action. [`crate::Game::apply`] leaves the game untouched when it returns one.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
        pub enum RuleError {
            $( #[error($message)] $variant, )*
        }

        impl RuleError {
            /// Stable machine code (snake_case), never renamed once published.
            pub fn code(self) -> &'static str {
                match self {
                    $( RuleError::$variant => $code, )*
                }
            }

            /// Every error, for documentation, generated types and exhaustive tests.
            pub const ALL: &'static [RuleError] = &[ $( RuleError::$variant, )* ];
        }
    };
}

rule_errors! {
    GameOver = "game_over", "the game is over";
    WrongPhase = "wrong_phase", "that action does not belong to this phase of the game";
    NotYourTurn = "not_your_turn", "it is not your turn";
    ChoicePending = "choice_pending", "a choice must be answered first";
    NoPendingChoice = "no_pending_choice", "there is no choice to answer";
    NotYourChoice = "not_your_choice", "that choice is not yours to make";
    ChoiceNotOffered = "choice_not_offered", "that answer is not among the options offered";
    CapacityFull = "capacity_full", "your play area is full (the event's capacity)";
    DeckEmpty = "deck_empty", "your deck and discard pile are empty";
    MustPlayCard = "must_play_card", "your play area is empty: you must play a card";
    UnknownCard = "unknown_card", "that card is not yours";
    CardNotInPlayArea = "card_not_in_play_area", "that card is not in your play area";
    CardNotReady = "card_not_ready", "that card is not ready";
    CardNotExhausted = "card_not_exhausted", "that card is not exhausted";
    NoInfluence = "no_influence", "you have no influence";
    InvalidCharacterChoice = "invalid_character_choice", "choose exactly 4 of your own characters";
    AlreadyChosen = "already_chosen", "already chosen";
    WaitForLocatedStrategy = "wait_for_located_strategy", "the other strategy must be chosen and revealed first";
    StrategyNotAvailable = "strategy_not_available", "that strategy is not among the unused strategies";
}

impl RuleError {
    /// The error with this code, if there is one.
    pub fn from_code(code: &str) -> Option<RuleError> {
        RuleError::ALL.iter().copied().find(|e| e.code() == code)
    }
}
