//! `evr`: argument handling only; the work is in the `evr_cli` library.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};

use evr_cli::random::RandomGame;
use evr_cli::scenario::{self, EXIT_BAD_INPUT, EXIT_MISMATCH};
use evr_cli::views::ViewGames;
use evr_rules::{Faction, Mode, Viewer};

const USAGE: &str = "\
evr — the Empire vs. Rebellion rules engine on the command line

USAGE:
    evr scenario FILE.json
        Play a scripted game and print, as JSON: the result, the omniscient final state (hidden
        zones included: for the scenario author only), every viewer's view and every viewer's log.
        Exit status: 0 when the run matches the file's \"expect\" block (or it has none),
        1 when an expectation does not hold (listed on stderr), 2 on bad input.
        Format: proto/SCENARIOS.md.

    evr random --seed N [--mode full|tutorial] [--viewer spectator|rebel|imperial]
        Play a random legal game and print its log in English, as the viewer sees it
        (default: full game, spectator).

    evr views --games N [--first-seed S] [--mode full|tutorial] [--fields F1,F2,…]
        Play N random legal games (seeds S, S+1, …; default S = 1) and print, one JSON line per
        game and viewer (rebel seat, imperial seat, spectator), what the server would send that
        viewer: the view as the game starts, then for every action the view's changed fields and
        the action's events as that viewer may know them. For testing clients against the engine.
        --fields keeps only those top-level fields of the view (e.g. rounds,pending): less output.

    evr verify REPLAY.json
        Check a finished game's replay file (downloaded from its game page; proto/REPLAY.md):
        SHA-256(salt ‖ seed) must be the commitment published at the game's start, the rules
        engine, started from that seed, must accept every recorded action in order, and the game
        must end with the recorded result. Prints \"verified\" or the first step that does not match.
        Exit status: 0 verified, 1 mismatch, 2 not a readable replay file.

    evr --help
        Print this text.
";

/// A validated command line.
enum Command {
    Help,
    Scenario(PathBuf),
    Random(RandomGame),
    Views(ViewGames),
    Verify(PathBuf),
}

fn parse_args(args: &[String]) -> Result<Command> {
    match args.first().map(String::as_str) {
        None => bail!("no command given"),
        Some("-h" | "--help" | "help") => Ok(Command::Help),
        Some("scenario") => match &args[1..] {
            [file] if !file.starts_with('-') => Ok(Command::Scenario(PathBuf::from(file))),
            [] => bail!("evr scenario needs a FILE.json"),
            _ => bail!("evr scenario takes exactly one FILE.json"),
        },
        Some("random") => parse_random(&args[1..]).map(Command::Random),
        Some("views") => parse_views(&args[1..]).map(Command::Views),
        Some("verify") => match &args[1..] {
            [file] if !file.starts_with('-') => Ok(Command::Verify(PathBuf::from(file))),
            [] => bail!("evr verify needs a REPLAY.json"),
            _ => bail!("evr verify takes exactly one REPLAY.json"),
        },
        Some(other) => bail!("unknown command {other:?}"),
    }
}

fn parse_random(args: &[String]) -> Result<RandomGame> {
    let mut seed = None;
    let mut mode = Mode::Full;
    let mut viewer = Viewer::Spectator;
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().with_context(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--seed" => seed = Some(parse_number(flag, value()?)?),
            "--mode" => mode = parse_mode(value()?)?,
            "--viewer" => {
                viewer = match value()?.as_str() {
                    "spectator" => Viewer::Spectator,
                    "rebel" => Viewer::Seat(Faction::Rebel),
                    "imperial" => Viewer::Seat(Faction::Imperial),
                    v => bail!("--viewer {v:?}: use spectator, rebel or imperial"),
                }
            }
            other => bail!("evr random: unknown option {other:?}"),
        }
    }
    let seed = seed.context("evr random needs --seed N")?;
    Ok(RandomGame { seed, mode, viewer })
}

fn parse_mode(v: &str) -> Result<Mode> {
    match v {
        "full" => Ok(Mode::Full),
        "tutorial" => Ok(Mode::Tutorial),
        v => bail!("--mode {v:?}: use full or tutorial"),
    }
}

fn parse_number(flag: &str, v: &str) -> Result<u64> {
    v.parse::<u64>().with_context(|| format!("{flag} {v:?}: not a number"))
}

fn parse_views(args: &[String]) -> Result<ViewGames> {
    let mut games = None;
    let mut first_seed = 1;
    let mut mode = Mode::Full;
    let mut fields: Option<Vec<String>> = None;
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let v = it.next().with_context(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--games" => games = Some(parse_number(flag, v)?),
            "--first-seed" => first_seed = parse_number(flag, v)?,
            "--mode" => mode = parse_mode(v)?,
            "--fields" => fields = Some(v.split(',').map(str::to_string).collect()),
            other => bail!("evr views: unknown option {other:?}"),
        }
    }
    let games = games.context("evr views needs --games N")?;
    if let Some(fields) = &fields {
        let known = evr_cli::views::view_fields()?;
        if let Some(unknown) = fields.iter().find(|f| !known.contains(f)) {
            bail!(
                "--fields: a view has no field {unknown:?} (it has {})",
                known.join(", ")
            );
        }
    }
    Ok(ViewGames {
        games,
        first_seed,
        mode,
        fields,
    })
}

fn run_verify(file: &Path) -> ExitCode {
    let replay = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))
        .and_then(|text| evr_replay::Replay::from_json(&text).map_err(|e| format!("{}: {e}", file.display())));
    let replay = match replay {
        Ok(r) => r,
        Err(e) => {
            eprintln!("evr: {e}");
            return ExitCode::from(EXIT_BAD_INPUT as u8);
        }
    };
    match evr_replay::verify(&replay) {
        Ok(v) => {
            write_stdout(&format!(
                "verified: room {} game {}: the seed opens the commitment {}, {} actions replayed, {}\n",
                replay.room,
                replay.game_number,
                replay.fairness.commitment,
                v.actions,
                match (&v.outcome, replay.forfeit_winner) {
                    (_, Some(w)) => format!("won outside the rules by the {}", w.name()),
                    (None, None) if replay.forfeit_reason.is_some() => "both out of time: no winner".to_string(),
                    (Some(o), None) => match o.winner {
                        Some(w) => format!("the {} won", w.name()),
                        None => "no winner".to_string(),
                    },
                    (None, None) => "no result".to_string(),
                }
            ));
            ExitCode::SUCCESS
        }
        Err(e) => {
            write_stdout(&format!("mismatch: {e}\n"));
            ExitCode::from(EXIT_MISMATCH as u8)
        }
    }
}

fn run_scenario(file: &Path) -> ExitCode {
    let report = match scenario::run_file(file) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("evr: {e:#}");
            return ExitCode::from(EXIT_BAD_INPUT as u8);
        }
    };
    write_stdout(&report.json);
    if let (Some(r), None) = (&report.output.rejected, &report.scenario.expect) {
        eprintln!(
            "evr: note: action {} ({} {}) was rejected: {} ({})",
            r.index,
            r.seat.name(),
            serde_json::to_string(&r.action).unwrap_or_default(),
            r.code,
            r.message
        );
    }
    if report.failures.is_empty() {
        return ExitCode::SUCCESS;
    }
    eprintln!(
        "evr: {}: {} expectation(s) of scenario {:?} did not hold:",
        file.display(),
        report.failures.len(),
        report.scenario.name
    );
    for f in &report.failures {
        eprintln!("  - {f}");
    }
    ExitCode::from(EXIT_MISMATCH as u8)
}

/// Writes to stdout; a closed pipe (`evr random … | head`) is not an error worth a panic.
fn write_stdout(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let command = match parse_args(&args) {
        Ok(c) => c,
        Err(e) if args.is_empty() => {
            eprintln!("evr: {e:#}\n\n{USAGE}");
            return ExitCode::from(EXIT_BAD_INPUT as u8);
        }
        Err(e) => {
            eprintln!("evr: {e:#}\nRun `evr --help` for usage.");
            return ExitCode::from(EXIT_BAD_INPUT as u8);
        }
    };
    match command {
        Command::Help => {
            write_stdout(USAGE);
            ExitCode::SUCCESS
        }
        Command::Scenario(file) => run_scenario(&file),
        Command::Verify(file) => run_verify(&file),
        Command::Views(games) => {
            // Buffered: a few hundred thousand short writes otherwise.
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            match games.write(&mut out) {
                Ok(_) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("evr: {e:#}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Random(game) => match game.play() {
            Ok(lines) => {
                let mut text = lines.join("\n");
                text.push('\n');
                write_stdout(&text);
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("evr: {e:#}");
                ExitCode::FAILURE
            }
        },
    }
}
