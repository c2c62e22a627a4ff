//! Why an action was refused. Each reason has a stable machine code for the wire.

/// A refused action. [`crate::Game::apply`] leaves the game untouched when it returns one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("the game is over")]
    GameOver,
    #[error("that action does not belong to this phase of the game")]
    WrongPhase,
    #[error("it is not your turn")]
    NotYourTurn,
    #[error("a choice must be answered first")]
    ChoicePending,
    #[error("there is no choice to answer")]
    NoPendingChoice,
    #[error("that choice is not yours to make")]
    NotYourChoice,
    #[error("that answer is not among the options offered")]
    ChoiceNotOffered,
    #[error("your play area is full (the event's capacity)")]
    CapacityFull,
    #[error("your deck and discard pile are empty")]
    DeckEmpty,
    #[error("your play area is empty: you must play a card")]
    MustPlayCard,
    #[error("that card is not yours")]
    UnknownCard,
    #[error("that card is not in your play area")]
    CardNotInPlayArea,
    #[error("that card is not ready")]
    CardNotReady,
    #[error("that card is not exhausted")]
    CardNotExhausted,
    #[error("you have no influence")]
    NoInfluence,
    #[error("choose exactly 4 of your own characters")]
    InvalidCharacterChoice,
    #[error("already chosen")]
    AlreadyChosen,
    #[error("the other strategy must be chosen and revealed first")]
    WaitForLocatedStrategy,
    #[error("that strategy is not among the unused strategies")]
    StrategyNotAvailable,
}

impl RuleError {
    /// Stable machine code (snake_case), never renamed once published.
    pub fn code(self) -> &'static str {
        match self {
            RuleError::GameOver => "game_over",
            RuleError::WrongPhase => "wrong_phase",
            RuleError::NotYourTurn => "not_your_turn",
            RuleError::ChoicePending => "choice_pending",
            RuleError::NoPendingChoice => "no_pending_choice",
            RuleError::NotYourChoice => "not_your_choice",
            RuleError::ChoiceNotOffered => "choice_not_offered",
            RuleError::CapacityFull => "capacity_full",
            RuleError::DeckEmpty => "deck_empty",
            RuleError::MustPlayCard => "must_play_card",
            RuleError::UnknownCard => "unknown_card",
            RuleError::CardNotInPlayArea => "card_not_in_play_area",
            RuleError::CardNotReady => "card_not_ready",
            RuleError::CardNotExhausted => "card_not_exhausted",
            RuleError::NoInfluence => "no_influence",
            RuleError::InvalidCharacterChoice => "invalid_character_choice",
            RuleError::AlreadyChosen => "already_chosen",
            RuleError::WaitForLocatedStrategy => "wait_for_located_strategy",
            RuleError::StrategyNotAvailable => "strategy_not_available",
        }
    }

    /// Every error, for documentation and exhaustive tests.
    pub const ALL: [RuleError; 19] = [
        RuleError::GameOver,
        RuleError::WrongPhase,
        RuleError::NotYourTurn,
        RuleError::ChoicePending,
        RuleError::NoPendingChoice,
        RuleError::NotYourChoice,
        RuleError::ChoiceNotOffered,
        RuleError::CapacityFull,
        RuleError::DeckEmpty,
        RuleError::MustPlayCard,
        RuleError::UnknownCard,
        RuleError::CardNotInPlayArea,
        RuleError::CardNotReady,
        RuleError::CardNotExhausted,
        RuleError::NoInfluence,
        RuleError::InvalidCharacterChoice,
        RuleError::AlreadyChosen,
        RuleError::WaitForLocatedStrategy,
        RuleError::StrategyNotAvailable,
    ];
}
