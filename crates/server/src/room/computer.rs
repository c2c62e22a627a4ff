//! The computer opponent: in a room created against the computer it holds the guest seat. It
//! decides from its seat's own view (never the full game), off the room's task, and acts after a
//! humane delay through the same commit-then-broadcast path as a person.
//!
//! The Hard computer also thinks while the person does (pondering): from its own view, during
//! the person's move, it searches on in slices, and its next decision starts from that tree
//! (`evr_bot::Bot::ponder`). Only while a core is spare, and never more than the configured
//! iterations per move of the person.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::Instant;

use evr_bot::{Bot, BotConfig, Level};
use evr_protocol::ComputerLevel;
use evr_rules::{Action, View, Viewer};
use tokio::sync::Semaphore;

use super::seat::Seat;
use super::{Command, Room};
use crate::metrics_names as m;

/// Rooms pondering at once in this process: one per core beyond the first, so that pondering
/// never takes the core that serves the players' moves; `None` on a single core (no pondering).
static PONDER_SLOTS: LazyLock<Option<Arc<Semaphore>>> = LazyLock::new(|| {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (cores > 1).then(|| Arc::new(Semaphore::new(cores - 1)))
});

/// Iterations per slice of pondering. The bot is locked for one slice at a time (a few ms), so a
/// decision that must start waits no longer than that.
const PONDER_SLICE: u32 = 256;

/// The computer's seat.
pub(super) struct ComputerSeat {
    bot: Arc<Mutex<Bot>>,
    level: Level,
    /// A decision is being computed; there is at most one at a time.
    pub(super) thinking: bool,
    /// Set to stop the pondering under way, if any.
    pondering: Option<Arc<AtomicBool>>,
}

impl ComputerSeat {
    /// Stops the pondering under way (it ends after its current slice).
    fn stop_pondering(&mut self) {
        if let Some(stop) = self.pondering.take() {
            stop.store(true, Ordering::Relaxed);
        }
    }

    /// Ponders up to `iterations` on `view` (the computer's, while the person moves), when it
    /// plays Hard, once a core is spare.
    fn start_pondering(&mut self, view: View, iterations: u32) {
        if self.level != Level::Hard || iterations == 0 || view.outcome.is_some() {
            return;
        }
        let Some(slots) = PONDER_SLOTS.clone() else { return };
        let stop = Arc::new(AtomicBool::new(false));
        self.pondering = Some(stop.clone());
        let bot = self.bot.clone();
        tokio::spawn(async move {
            // Waits for a spare core (this room's previous pondering may still end its slice);
            // stopped meanwhile, it gives the slot back at once.
            let Ok(slot) = slots.acquire_owned().await else {
                return;
            };
            if stop.load(Ordering::Relaxed) {
                return;
            }
            let _ = tokio::task::spawn_blocking(move || {
                let _slot = slot;
                let mut done = 0;
                while done < iterations && !stop.load(Ordering::Relaxed) {
                    let Ok(mut bot) = bot.lock() else { return };
                    let Some(stats) = bot.ponder(&view, PONDER_SLICE.min(iterations - done)) else {
                        return;
                    };
                    done += stats.iterations.max(1);
                    metrics::counter!(m::COMPUTER_PONDER_ITERATIONS).increment(u64::from(stats.iterations));
                }
            })
            .await;
        });
    }
}

impl Drop for ComputerSeat {
    fn drop(&mut self) {
        self.stop_pondering();
    }
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
            level,
            thinking: false,
            pondering: None,
        }
    }
}

impl Room {
    /// Starts the computer's next decision if it has one to make: its own moves, simultaneous
    /// choices and answers to its pending choices, and accepting a rematch the person asked for.
    /// While the person moves instead, the computer ponders on its new view.
    pub(super) fn schedule_computer(&mut self) {
        let Some(seat) = &mut self.computer else { return };
        // Whatever it pondered on is out of date: the game moved.
        seat.stop_pondering();
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
            seat.start_pondering(view, self.config.computer_ponder_iterations);
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
