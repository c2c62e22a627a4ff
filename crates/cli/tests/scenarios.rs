//! Runs every scenario under `tests/scenarios/` (repository root) and checks the `evr` command's
//! contract: deterministic output, exit statuses 0 / 1 / 2.

// Test code: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

use evr_cli::scenario::{EXIT_BAD_INPUT, EXIT_MISMATCH, Scenario, run_file};

fn scenario_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/scenarios")
}

/// Every `.json` file under `dir`, sorted.
fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("cannot read {}: {e}", d.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "json") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn relative(path: &Path) -> String {
    path.strip_prefix(scenario_root()).unwrap_or(path).display().to_string()
}

#[test]
fn every_scenario_meets_its_expectations() {
    let files = json_files(&scenario_root());
    assert!(files.len() >= 80, "only {} scenario files found", files.len());
    let mut failed = Vec::new();
    for file in &files {
        match run_file(file) {
            Ok(report) if report.failures.is_empty() => {}
            Ok(report) => failed.push(format!("{}:\n    {}", relative(file), report.failures.join("\n    "))),
            Err(e) => failed.push(format!("{}: bad input: {e:#}", relative(file))),
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} scenarios failed:\n{}",
        failed.len(),
        files.len(),
        failed.join("\n")
    );
}

#[test]
fn every_scenario_has_expectations_and_a_description_citing_its_rule() {
    let mut bad = Vec::new();
    for file in json_files(&scenario_root()) {
        let s = Scenario::load(&file).unwrap_or_else(|e| panic!("{}: {e:#}", relative(&file)));
        if s.expect.is_none() {
            bad.push(format!("{}: no \"expect\" block", relative(&file)));
        }
        let d = &s.description;
        let cites = d.contains("R-") || d.contains("ruling") || d.contains("FAQ");
        if s.name.is_empty() || !cites {
            bad.push(format!(
                "{}: the description must cite a rule id, ruling or FAQ",
                relative(&file)
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_demo_and_one_scenario_per_folder_exist() {
    let root = scenario_root();
    assert!(root.join("rulebook/first-round.json").is_file());
    assert!(root.join("rulebook/tutorial-escape-from-tatooine.json").is_file());
    for folder in ["rulebook", "rulings", "rules", "errors"] {
        assert!(!json_files(&root.join(folder)).is_empty(), "{folder}/ has no scenario");
    }
}

fn evr(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_evr"))
        .args(args)
        .output()
        .expect("run the evr binary")
}

#[test]
fn output_is_deterministic() {
    let file = scenario_root().join("rulebook/first-round.json");
    let file = file.to_str().unwrap();
    let a = evr(&["scenario", file]);
    let b = evr(&["scenario", file]);
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    assert!(!a.stdout.is_empty());
    assert_eq!(
        a.stdout, b.stdout,
        "two runs of the same scenario printed different bytes"
    );
    // The library gives the same bytes as the binary.
    let report = run_file(Path::new(file)).unwrap();
    assert_eq!(report.json.as_bytes(), &a.stdout[..]);
}

/// A scratch file in the target directory, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str, content: &str) -> Scratch {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
        let path = dir.join(format!("{}-{name}", std::process::id()));
        std::fs::write(&path, content).unwrap();
        Scratch(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn malformed_input_exits_with_2_and_says_why() {
    let cases = [
        ("not-json.json", "{ \"name\": \"broken\", ", "invalid scenario JSON"),
        (
            "bad-setup.json",
            r#"{"name": "x", "setup": {"mode": "full", "sed": 1}}"#,
            "unknown field `sed`",
        ),
        (
            "bad-card.json",
            r#"{"name": "x", "setup": {"start": "planning", "rebel": {"deck": ["Hans Solo"]}}}"#,
            "unknown card \"Hans Solo\"",
        ),
        (
            "invalid-setup.json",
            r#"{"name": "x", "setup": {"start": "planning", "rebel": {"deck": ["Darth Vader"]}}}"#,
            "cannot be in the deck",
        ),
        (
            "bad-action.json",
            r#"{"name": "x", "actions": [{"seat": "rebel", "action": {"type": "dance"}}]}"#,
            "actions[0]",
        ),
        (
            "bad-expect.json",
            r#"{"name": "x", "expect": {"vps": {"rebel": 1}}}"#,
            "unknown expectation \"vps\"",
        ),
    ];
    for (name, content, message) in cases {
        let file = Scratch::new(name, content);
        let out = evr(&["scenario", file.path()]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(EXIT_BAD_INPUT), "{name}: {stderr}");
        assert!(stderr.contains(message), "{name}: expected {message:?} in {stderr:?}");
        assert!(out.stdout.is_empty(), "{name}: nothing on stdout");
    }
    let out = evr(&["scenario", "/nonexistent/scenario.json"]);
    assert_eq!(out.status.code(), Some(EXIT_BAD_INPUT));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
}

#[test]
fn a_failed_expectation_exits_with_1_and_lists_it() {
    let file = Scratch::new(
        "mismatch.json",
        r#"{"name": "wrong on purpose", "setup": {"mode": "tutorial", "rebel": {"deck": ["Military 3"]}},
            "actions": [{"seat": "rebel", "action": {"type": "play_card"}}, {"seat": "imperial", "action": {"type": "pass"}}],
            "expect": {"totals": {"rebel": 4}}}"#,
    );
    let out = evr(&["scenario", file.path()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(EXIT_MISMATCH), "{stderr}");
    assert!(stderr.contains("totals.rebel"), "{stderr}");
    assert!(stderr.contains("expected 4, got 3"), "{stderr}");
    // The refused pass (the Imperial's play area is empty) is reported too: `expect` without
    // `rejected` means every action must be accepted.
    assert!(stderr.contains("must_play_card"), "{stderr}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["result"], "rejected");
    assert_eq!(json["rejected"]["index"], 1);
}

#[test]
fn usage_and_random_games() {
    let help = evr(&["--help"]);
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).contains("evr scenario FILE.json"));
    let bad = evr(&["frobnicate"]);
    assert_eq!(bad.status.code(), Some(EXIT_BAD_INPUT));
    let game = evr(&["random", "--seed", "5", "--mode", "tutorial"]);
    assert!(game.status.success());
    let text = String::from_utf8_lossy(&game.stdout);
    assert!(text.starts_with("A tutorial game started"), "{text}");
    assert!(
        text.trim_end().ends_with(").") || text.contains("without a winner"),
        "{text}"
    );
    let again = evr(&["random", "--seed", "5", "--mode", "tutorial"]);
    assert_eq!(game.stdout, again.stdout);
    let full = evr(&["random", "--seed", "9"]);
    assert!(full.status.success());
    let text = String::from_utf8_lossy(&full.stdout);
    assert!(
        text.contains("wins the game") || text.contains("without a winner"),
        "{text}"
    );
}

// ---- evr verify

fn example_replay() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../proto/examples/replay-v1.json");
    std::fs::read_to_string(path).expect("proto/examples/replay-v1.json")
}

#[test]
fn verify_says_verified_for_an_intact_replay() {
    let file = Scratch::new("replay-ok.json", &example_replay());
    let out = evr(&["verify", file.path()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.starts_with("verified: room KJCHM97E game 2: the seed opens the commitment 88bd77f1"),
        "{stdout}"
    );
    assert!(stdout.contains("actions replayed"), "{stdout}");
}

#[test]
fn verify_names_the_first_step_that_does_not_match() {
    // the salt changed: the commitment does not open (step 0)
    let text = example_replay().replace("a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1", "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a0");
    let file = Scratch::new("replay-salt.json", &text);
    let out = evr(&["verify", file.path()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("mismatch: step 0 (commitment)"));

    // the first action given to the other side: refused at step 1
    let text = example_replay().replacen("\"seat\": \"rebel\"", "\"seat\": \"nobody\"", 1);
    let file = Scratch::new("replay-bad-seat.json", &text);
    let out = evr(&["verify", file.path()]);
    assert_eq!(out.status.code(), Some(2), "an unknown seat is not a replay file");

    let mut replay: serde_json::Value = serde_json::from_str(&example_replay()).unwrap();
    let first = &mut replay["actions"][0]["seat"];
    *first = serde_json::json!(if first == "rebel" { "imperial" } else { "rebel" });
    let file = Scratch::new("replay-action.json", &replay.to_string());
    let out = evr(&["verify", file.path()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.starts_with("mismatch: step 1 (seq 11)"), "{stdout}");
}

#[test]
fn verify_refuses_what_is_not_a_replay() {
    let file = Scratch::new("not-a-replay.json", "{\"format\": \"something else\"}");
    let out = evr(&["verify", file.path()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a replay file"));
    let out = evr(&["verify", "/no/such/replay.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
}
