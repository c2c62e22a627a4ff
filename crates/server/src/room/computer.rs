//! The computer opponent: in a room created against the computer it holds the guest seat. It
//! decides from its seat's own view (never the full game), off the room's task, and acts after a
//! humane delay through the same commit-then-broadcast path as a person.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use evr_bot::{Bot, BotConfig, Level};
use evr_protocol::ComputerLevel;
use evr_rules::{Action, Viewer};

use super::seat::Seat;
use super::{Command, Room};

/// The computer's seat.
pub(super) struct ComputerSeat {
    bot: Arc<Mutex<Bot>>,
    /// A decision is being computed; there is at most one at a time.
    pub(super) thinking: bool,
}

impl ComputerSeat {
    pub(super) fn new(level: ComputerLevel, seed: u64) -> ComputerSeat {
        let level = match level {
            ComputerLevel::Easy => Level::Easy,
            ComputerLevel::Normal => Level::Normal,
            ComputerLevel::Hard => Level::Hard,
        };
        ComputerSeat {
            bot: Arc::new(Mutex::new(Bot::new(BotConfig::new(level, seed)))),
            thinking: false,
        }
    }
}

impl Room {
    /// Starts the computer's next decision if it has one to make: its own moves, simultaneous
    /// choices and answers to its pending choices, and accepting a rematch the person asked for.
    pub(super) fn schedule_computer(&mut self) {
        let Some(seat) = &mut self.computer else { return };
        if seat.thinking || self.current.is_over() {
            return;
        }
        let Some(tx) = self.self_tx.as_ref().and_then(|w| w.upgrade()) else {
            return;
        };
        let faction = self.current.faction_of(Seat::Guest);
        let viewer = Viewer::Seat(faction);
        let view = self.current.game.view(viewer);
        if view.legal_actions.is_empty() {
            return;
        }
        seat.thinking = true;
        let bot = seat.bot.clone();
        let based_on = self.seq;
        // With a clock the computer spends at most a fortieth of its time left on a decision,
        // thinking and waiting together, so it never runs out.
        let budget = self
            .clock
            .as_ref()
            .map(|c| c.remaining_at(Instant::now())[faction] / 40);
        let delay = budget.map_or(self.config.computer_delay(), |b| {
            self.config.computer_delay().min(b / 2)
        });
        let think = budget.map(|b| b / 2);
        tokio::spawn(async move {
            let started = Instant::now();
            let decided = tokio::task::spawn_blocking(move || {
                bot.lock().ok().and_then(|mut b| b.try_decide_within(&view, think))
            });
            let action = decided.await.ok().flatten();
            if let Some(rest) = delay.checked_sub(started.elapsed()) {
                tokio::time::sleep(rest).await;
            }
            let _ = tx.send(Command::ComputerAction { based_on, action }).await;
        });
    }

    /// The computer decided `action` on update `based_on`.
    pub(super) async fn computer_action(&mut self, based_on: u32, action: Option<Action>) {
        if let Some(seat) = &mut self.computer {
            seat.thinking = false;
        }
        if self.check_clocks().await || self.current.is_over() {
            return;
        }
        match action {
            // The game moved on while it thought (the person acted in a simultaneous phase).
            Some(_) if based_on != self.seq => {}
            Some(action) => {
                let seat = self.current.faction_of(Seat::Guest);
                let action_id = format!("computer-{}", self.seq + 1);
                match self.commit_action(seat, action_id, action).await {
                    Ok(move_) => self.broadcast_update(&move_),
                    Err((code, message)) => {
                        // Never expected (it picks among legal actions); do not retry in a loop.
                        tracing::error!(room = %self.code, code = code.as_str(), message, "the computer's action was refused");
                        return;
                    }
                }
            }
            None => return,
        }
        self.schedule_computer();
    }
}
