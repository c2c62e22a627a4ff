//! # evr-cli — the `evr` command
//!
//! A developer tool around the rules engine: it plays scripted games (scenarios) and random games.
//! The logic lives here, in small modules; `main.rs` only turns arguments into calls.
//!
//! ```
//! let report = evr_cli::scenario::run_text(r#"{
//!     "name": "tutorial opening",
//!     "setup": {"mode": "tutorial", "seed": 1, "rebel": {"deck": ["Military 3"]}},
//!     "actions": [{"seat": "rebel", "action": {"type": "play_card"}}],
//!     "expect": {"totals": {"rebel": 3}, "turn": "imperial"}
//! }"#).unwrap();
//! assert!(report.failures.is_empty(), "{:?}", report.failures);
//! ```
//!
//! - [`scenario`]: the scenario file format, the runner and its output;
//! - [`expect`]: the checks of a scenario's `expect` block;
//! - [`json_path`]: dotted paths and the comparisons the checks use;
//! - [`dump`]: the omniscient state dump (hidden zones included — for scenario authors only);
//! - [`random`]: a random legal game, told in English;
//! - [`views`]: random games as each viewer receives them (JSON lines, for client tests).

pub mod dump;
pub mod expect;
pub mod json_path;
pub mod random;
pub mod scenario;
pub mod views;
