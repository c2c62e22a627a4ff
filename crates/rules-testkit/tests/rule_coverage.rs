//! Every rule id of `docs/spec/rules.md` has a test named after it in `tests/rules/`, and the
//! "Rule coverage" table of the engine's README (`crates/rules/README.md`) lists every id with tests that exist.

// Test code: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// A rule id: `R-5.3` is `(5, Some(3))`, a standalone section rule `R-5` is `(5, None)`.
type RuleId = (u32, Option<u32>);

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn show(id: RuleId) -> String {
    match id {
        (n, Some(m)) => format!("R-{n}.{m}"),
        (n, None) => format!("R-{n}"),
    }
}

/// The test-name prefix for an id: `R-5.3` → `r5_3_`.
fn prefix(id: RuleId) -> String {
    match id {
        (n, Some(m)) => format!("r{n}_{m}_"),
        (n, None) => format!("r{n}_"),
    }
}

fn digits(s: &str) -> (Option<u32>, &str) {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    (s[..end].parse().ok(), &s[end..])
}

/// Parses `R-<n>.<m>` or `R-<n>` at the start of `s`.
fn parse_id(s: &str) -> Option<(RuleId, &str)> {
    let rest = s.strip_prefix("R-")?;
    let (n, rest) = digits(rest);
    let n = n?;
    if let Some(after_dot) = rest.strip_prefix('.')
        && let (Some(m), rest) = digits(after_dot)
    {
        return Some(((n, Some(m)), rest));
    }
    Some(((n, None), rest))
}

/// Every `R-<n>.<m>` mentioned anywhere in the spec, and every `R-<n>` that is a bullet of its own
/// (section headings like `## R-5 Dominance` are sections, not rules).
fn spec_ids(spec: &str) -> BTreeSet<RuleId> {
    let mut ids = BTreeSet::new();
    for line in spec.lines() {
        if let Some(bullet) = line.trim_start().strip_prefix("- ")
            && let Some((id @ (_, None), _)) = parse_id(bullet)
        {
            ids.insert(id);
        }
        let mut rest = line;
        while let Some(i) = rest.find("R-") {
            rest = &rest[i..];
            match parse_id(rest) {
                Some((id @ (_, Some(_)), after)) => {
                    ids.insert(id);
                    rest = after;
                }
                _ => rest = &rest[2..],
            }
        }
    }
    ids
}

/// The names of the functions defined in `tests/rules/*.rs`.
fn test_functions() -> BTreeSet<String> {
    let dir = crate_dir().join("tests/rules");
    let mut names = BTreeSet::new();
    let entries = fs::read_dir(&dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_some_and(|e| e == "rs") {
            for line in read(&path).lines() {
                let line = line.trim_start();
                let Some(rest) = line.strip_prefix("fn ") else { continue };
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                names.insert(name);
            }
        }
    }
    names
}

/// The README's "## Rule coverage" table: id → test names.
fn readme_table(readme: &str) -> BTreeMap<RuleId, Vec<String>> {
    let start = readme
        .find("## Rule coverage")
        .expect("the README has a \"## Rule coverage\" section");
    let mut table = BTreeMap::new();
    for line in readme[start..].lines().skip(1) {
        let line = line.trim();
        if line.starts_with("## ") {
            break;
        }
        if !line.starts_with('|') {
            continue;
        }
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        let first = cells[0].trim_matches('`');
        let Some((id, rest)) = parse_id(first) else {
            continue; // the header and separator rows
        };
        assert!(rest.is_empty(), "malformed rule id {first:?} in the README table");
        assert_eq!(cells.len(), 2, "a coverage row is | rule | tests |: {line}");
        let tests: Vec<String> = cells[1]
            .split(',')
            .map(|t| t.trim().trim_matches('`').to_string())
            .filter(|t| !t.is_empty())
            .collect();
        assert!(
            table.insert(id, tests).is_none(),
            "{} is listed twice in the README table",
            show(id)
        );
    }
    table
}

#[test]
fn every_rule_id_has_a_test() {
    let spec = read(&crate_dir().join("../../docs/spec/rules.md"));
    let ids = spec_ids(&spec);
    assert!(ids.len() > 50, "only {} rule ids found: is this rules.md?", ids.len());
    let functions = test_functions();
    let missing: Vec<String> = ids
        .iter()
        .filter(|id| {
            let p = prefix(**id);
            !functions.iter().any(|f| f.starts_with(&p))
        })
        .map(|id| format!("{} (a test named {}…)", show(*id), prefix(*id)))
        .collect();
    assert!(missing.is_empty(), "rules without a test:\n{}", missing.join("\n"));
}

#[test]
fn the_readme_coverage_table_lists_every_rule_and_existing_tests() {
    let spec = read(&crate_dir().join("../../docs/spec/rules.md"));
    let ids = spec_ids(&spec);
    let table = readme_table(&read(&crate_dir().join("../rules/README.md")));
    let functions = test_functions();

    let mut problems: Vec<String> = ids
        .iter()
        .filter(|id| !table.contains_key(id))
        .map(|id| format!("{} is missing", show(*id)))
        .collect();
    for (id, tests) in &table {
        if !ids.contains(id) {
            problems.push(format!("{} is not a rule of the spec", show(*id)));
        }
        if tests.is_empty() {
            problems.push(format!("{} lists no test", show(*id)));
        }
        for t in tests {
            if !functions.contains(t) {
                problems.push(format!("{}: no test named {t}", show(*id)));
            } else if !t.starts_with(&prefix(*id)) {
                problems.push(format!("{}: {t} is not named after it", show(*id)));
            }
        }
    }
    assert!(problems.is_empty(), "README coverage table:\n{}", problems.join("\n"));
}

#[test]
fn rule_ids_parse() {
    assert_eq!(parse_id("R-5.3 Would-be"), Some(((5, Some(3)), " Would-be")));
    assert_eq!(parse_id("R-5.11."), Some(((5, Some(11)), ".")));
    assert_eq!(parse_id("R-6 Powers"), Some(((6, None), " Powers")));
    assert_eq!(parse_id("R-x"), None);
    let ids = spec_ids("## R-5 Dominance\n- R-5.1 **Reveal** (R-4.9)\n- R-5 standalone\ntext R-7 and R-2.10.");
    let expected: BTreeSet<RuleId> = [(5, Some(1)), (4, Some(9)), (5, None), (2, Some(10))]
        .into_iter()
        .collect();
    assert_eq!(ids, expected);
    assert_eq!(prefix((6, Some(19))), "r6_19_");
}
