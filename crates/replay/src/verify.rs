//! Checking a replay: the commitment first (step 0), then every action (step k is the k-th action,
//! from 1), then the result (step = the number of actions).

use crate::{Replay, commitment, hex};
use evr_protocol::ForfeitReason;
use evr_rules::{Game, GameSeed, Outcome, Viewer};

/// A replay that checked out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    pub actions: usize,
    pub outcome: Option<Outcome>,
}

/// The first thing in a replay that does not hold.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Mismatch {
    #[error("not a replay file: {0}")]
    Malformed(String),
    #[error(
        "step 0 (commitment): SHA-256(salt ‖ seed) is {computed}, the commitment published at the start is {published}"
    )]
    Commitment { computed: String, published: String },
    #[error("step 0 (commitment): {0}")]
    Secret(String),
    #[error("step {step} (seq {seq}): expected seq {expected}")]
    Seq { step: usize, seq: u32, expected: u32 },
    #[error("step {step} (seq {seq}): the rules refuse this action: {reason}")]
    Refused { step: usize, seq: u32, reason: String },
    #[error("step {step} (result): the replayed game ends with {replayed}, the file says {recorded}")]
    Result {
        step: usize,
        replayed: String,
        recorded: String,
    },
}

impl Mismatch {
    /// The step it concerns (`None` for a file that is not a replay at all).
    pub fn step(&self) -> Option<usize> {
        match self {
            Mismatch::Malformed(_) => None,
            Mismatch::Commitment { .. } | Mismatch::Secret(_) => Some(0),
            Mismatch::Seq { step, .. } | Mismatch::Refused { step, .. } | Mismatch::Result { step, .. } => Some(*step),
        }
    }
}

fn unhex<const N: usize>(s: &str, what: &str) -> Result<[u8; N], Mismatch> {
    let bad = || Mismatch::Secret(format!("{what} is not {N} bytes of lowercase hex"));
    if s.len() != 2 * N || !s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) {
        return Err(bad());
    }
    let mut out = [0u8; N];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(s.get(2 * i..2 * i + 2).ok_or_else(bad)?, 16).map_err(|_| bad())?;
    }
    Ok(out)
}

fn describe(outcome: &Option<Outcome>) -> String {
    match outcome {
        None => "no result".into(),
        Some(o) => format!(
            "{} ({:?}, VP {}–{})",
            o.winner.map_or("a draw".to_string(), |w| format!("a {w:?} win")),
            o.reason,
            o.vp.rebel,
            o.vp.imperial
        ),
    }
}

/// Checks `replay`: its commitment, each action against the rules engine, its result.
pub fn verify(replay: &Replay) -> Result<Verified, Mismatch> {
    let f = &replay.fairness;
    let seed: [u8; 32] = unhex(
        f.seed
            .as_deref()
            .ok_or(Mismatch::Secret("no seed: the game is not over".into()))?,
        "seed",
    )?;
    let salt: [u8; 16] = unhex(
        f.salt
            .as_deref()
            .ok_or(Mismatch::Secret("no salt: the game is not over".into()))?,
        "salt",
    )?;
    let computed = hex(&commitment(&seed, &salt));
    if computed != f.commitment {
        return Err(Mismatch::Commitment {
            computed,
            published: f.commitment.clone(),
        });
    }
    let mut game = Game::with_seed(replay.mode, GameSeed::Key(seed)).map_err(|e| Mismatch::Malformed(e.to_string()))?;
    for (i, a) in replay.actions.iter().enumerate() {
        let step = i + 1;
        let expected = replay.start_seq + step as u32;
        if a.seq != expected {
            return Err(Mismatch::Seq {
                step,
                seq: a.seq,
                expected,
            });
        }
        game.apply(a.seat, a.action).map_err(|e| Mismatch::Refused {
            step,
            seq: a.seq,
            reason: e.to_string(),
        })?;
    }
    let replayed = game.view(Viewer::Spectator).outcome;
    // A win outside the rules (claimed, or on time), or both out of time, ends a game the rules
    // had not ended; otherwise the rules' result must be the file's.
    let both_out_of_time = replay.forfeit_reason == Some(ForfeitReason::BothOutOfTime);
    let consistent = match replay.forfeit_winner {
        Some(_) => replay.outcome.is_none() && replayed.is_none(),
        None if both_out_of_time => replay.outcome.is_none() && replayed.is_none(),
        None => replayed.is_some() && replayed == replay.outcome,
    };
    if !consistent {
        return Err(Mismatch::Result {
            step: replay.actions.len(),
            replayed: describe(&replayed),
            recorded: match replay.forfeit_winner {
                Some(w) => format!("a win outside the rules by the {w:?}"),
                None if both_out_of_time => "both out of time".to_string(),
                None => describe(&replay.outcome),
            },
        });
    }
    Ok(Verified {
        actions: replay.actions.len(),
        outcome: replayed,
    })
}
