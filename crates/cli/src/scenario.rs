//! Scripted games: the scenario file format and its runner.
//!
//! ```json
//! { "name": "…", "description": "…",
//!   "setup": { "mode": "full", "seed": 7, "start": "planning", … },
//!   "actions": [ {"seat": "rebel", "action": {"type": "play_card"}}, … ],
//!   "expect": { "vp": {"rebel": 1}, … } }
//! ```
//!
//! The runner builds the game with [`Game::from_setup`], applies the actions in order until one is
//! rejected, and reports the result, the omniscient final state, every viewer's final view and every
//! viewer's projection of the whole log. `proto/SCENARIOS.md` documents the format.

use std::path::Path;

use anyhow::{Context, Result, anyhow};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use evr_rules::{Action, Event, Faction, Game, LogEntry, Setup, View, Viewer, catalog};

use crate::dump::{self, StateDump};
use crate::expect::Expect;

/// Exit status of `evr scenario`: the run matched its expectations (or had none).
pub const EXIT_OK: i32 = 0;
/// Exit status of `evr scenario`: an expectation did not hold.
pub const EXIT_MISMATCH: i32 = 1;
/// Exit status of `evr`: the input could not be used (unreadable, invalid JSON or setup, bad usage).
pub const EXIT_BAD_INPUT: i32 = 2;

/// A parsed scenario file.
#[derive(Clone, Debug)]
pub struct Scenario {
    pub name: String,
    pub description: String,
    pub setup: Setup,
    pub actions: Vec<ScriptedAction>,
    /// `None`: no `expect` block, the run always passes.
    pub expect: Option<Expect>,
}

/// One scripted action: who takes it and the action itself (the wire form).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScriptedAction {
    pub seat: Faction,
    pub action: Action,
}

/// The file as written. `setup` and the actions are parsed separately for precise messages.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioFile {
    name: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    setup: Option<Value>,
    #[serde(default)]
    actions: Vec<Value>,
    #[serde(default)]
    expect: Option<Value>,
}

/// An action line as written: `note` is free text for the reader, ignored by the runner.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActionLine {
    seat: Faction,
    action: Action,
    #[serde(default, rename = "note")]
    _note: Option<String>,
}

impl Scenario {
    /// Reads and parses a scenario file.
    pub fn load(path: &Path) -> Result<Scenario> {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        Scenario::parse(&text).with_context(|| format!("{} is not a valid scenario", path.display()))
    }

    /// Parses a scenario from JSON text.
    pub fn parse(text: &str) -> Result<Scenario> {
        let file: ScenarioFile = serde_json::from_str(text).context("invalid scenario JSON")?;
        let setup: Setup = match file.setup {
            Some(v) => serde_json::from_value(v).context("invalid \"setup\"")?,
            None => Setup::default(),
        };
        let actions = file
            .actions
            .into_iter()
            .enumerate()
            .map(|(i, v)| {
                let line: ActionLine = serde_json::from_value(v).with_context(|| {
                    format!("invalid actions[{i}] (write {{\"seat\": \"rebel\", \"action\": {{\"type\": …}}}})")
                })?;
                Ok(ScriptedAction {
                    seat: line.seat,
                    action: line.action,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let expect = match file.expect {
            None | Some(Value::Null) => None,
            Some(v) => Some(Expect::parse(&v).context("invalid \"expect\"")?),
        };
        Ok(Scenario {
            name: file.name,
            description: file.description,
            setup,
            actions,
            expect,
        })
    }

    /// Plays the scenario. Fails only when the setup does not describe a game.
    pub fn run(&self) -> Result<RunOutput> {
        let cat = catalog().map_err(|e| anyhow!("{e}"))?;
        let mut game = Game::from_setup(&self.setup).map_err(|e| anyhow!("invalid \"setup\": {e}"))?;
        let mut log = EventLog::default();
        // What the setup itself logged (the game start, a round already begun…).
        for event in game.round_log() {
            log.push(None, event, cat);
        }
        let mut rejected = None;
        let mut applied = 0;
        for (index, step) in self.actions.iter().enumerate() {
            match game.apply(step.seat, step.action) {
                Ok(events) => {
                    applied += 1;
                    for event in &events {
                        log.push(Some(index), event, cat);
                    }
                }
                Err(e) => {
                    rejected = Some(Rejection {
                        index,
                        seat: step.seat,
                        action: step.action,
                        code: e.code(),
                        message: e.to_string(),
                    });
                    break;
                }
            }
        }
        Ok(RunOutput {
            name: self.name.clone(),
            result: if rejected.is_some() {
                RunResult::Rejected
            } else {
                RunResult::Ok
            },
            applied,
            rejected,
            state: dump::state(&game),
            views: PerViewer {
                rebel: game.view(Viewer::Seat(Faction::Rebel)),
                imperial: game.view(Viewer::Seat(Faction::Imperial)),
                spectator: game.view(Viewer::Spectator),
            },
            events: log.0,
        })
    }
}

/// Whether every scripted action was accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RunResult {
    Ok,
    Rejected,
}

/// The first refused action; the run stops there.
#[derive(Clone, Debug, Serialize)]
pub struct Rejection {
    /// Index into `actions`, from 0.
    pub index: usize,
    pub seat: Faction,
    pub action: Action,
    /// `RuleError::code()`.
    pub code: &'static str,
    pub message: String,
}

/// The same thing for each of the three viewers.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PerViewer<T> {
    pub rebel: T,
    pub imperial: T,
    pub spectator: T,
}

/// One log entry as one viewer may see it, with its English sentence.
#[derive(Clone, Debug, Serialize)]
pub struct LoggedEvent {
    /// Index of the scripted action that caused it; `null` for what the setup logged.
    pub action: Option<usize>,
    pub text: String,
    pub entry: LogEntry,
}

#[derive(Default)]
struct EventLog(PerViewer<Vec<LoggedEvent>>);

impl EventLog {
    fn push(&mut self, action: Option<usize>, event: &Event, cat: &evr_rules::Catalog) {
        for (viewer, out) in [
            (Viewer::Seat(Faction::Rebel), &mut self.0.rebel),
            (Viewer::Seat(Faction::Imperial), &mut self.0.imperial),
            (Viewer::Spectator, &mut self.0.spectator),
        ] {
            let entry = event.project(viewer);
            out.push(LoggedEvent {
                action,
                text: entry.describe(cat),
                entry,
            });
        }
    }
}

/// What `evr scenario` prints.
#[derive(Clone, Debug, Serialize)]
pub struct RunOutput {
    pub name: String,
    pub result: RunResult,
    /// How many actions were accepted.
    pub applied: usize,
    pub rejected: Option<Rejection>,
    /// The omniscient final state (hidden zones included): for the scenario author only.
    pub state: StateDump,
    /// Each viewer's final view, exactly as the engine builds it for that viewer.
    pub views: PerViewer<View>,
    /// Every event of the run, projected per viewer.
    pub events: PerViewer<Vec<LoggedEvent>>,
}

/// A finished scenario run and its verdict.
#[derive(Clone, Debug)]
pub struct Report {
    pub scenario: Scenario,
    pub output: RunOutput,
    /// The printed output: pretty JSON and a final newline.
    pub json: String,
    /// Expectations that did not hold (empty when they all held or there were none).
    pub failures: Vec<String>,
}

impl Report {
    pub fn exit_code(&self) -> i32 {
        if self.failures.is_empty() {
            EXIT_OK
        } else {
            EXIT_MISMATCH
        }
    }
}

/// Loads, runs and checks a scenario file. `Err` means bad input (exit status 2).
pub fn run_file(path: &Path) -> Result<Report> {
    let scenario = Scenario::load(path)?;
    check(scenario).with_context(|| format!("{}", path.display()))
}

/// Runs and checks a scenario given as JSON text. `Err` means bad input.
pub fn run_text(text: &str) -> Result<Report> {
    check(Scenario::parse(text)?)
}

fn check(scenario: Scenario) -> Result<Report> {
    let output = scenario.run()?;
    let value = serde_json::to_value(&output).context("cannot serialize the output")?;
    let failures = match &scenario.expect {
        Some(expect) => expect.failures(&value),
        None => Vec::new(),
    };
    let mut json = serde_json::to_string_pretty(&output).context("cannot serialize the output")?;
    json.push('\n');
    Ok(Report {
        scenario,
        output,
        json,
        failures,
    })
}
