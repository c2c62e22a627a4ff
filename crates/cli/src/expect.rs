//! A scenario's `expect` block: checks on the run's output JSON.
//!
//! Every named check is a dotted path into the output (`state.rebel.vp`) and a comparison
//! ([`Compare`]); per-faction checks take `{"rebel": …, "imperial": …}` and expand to one path per
//! faction given. `paths` checks any path directly. The log checks search the English log of one
//! viewer (or `all` three). The table `NAMED` is the whole vocabulary; `proto/SCENARIOS.md`
//! documents it.

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::json_path::{Compare, JsonPath, short, validate_operators};

/// Whether a named check reads one path or one path per faction (`{f}` stands for the faction).
#[derive(Clone, Copy, Debug)]
enum Scope {
    Whole,
    PerFaction,
}

/// One named check: `key` in the `expect` block, the path it reads and how it compares.
struct Named {
    key: &'static str,
    scope: Scope,
    path: &'static str,
    compare: Compare,
}

const fn whole(key: &'static str, path: &'static str, compare: Compare) -> Named {
    Named {
        key,
        scope: Scope::Whole,
        path,
        compare,
    }
}

const fn per_faction(key: &'static str, path: &'static str, compare: Compare) -> Named {
    Named {
        key,
        scope: Scope::PerFaction,
        path,
        compare,
    }
}

/// The named checks. Paths are into the runner's output (`result`, `applied`, `rejected`,
/// `state`, `views`, `events`).
const NAMED: &[Named] = &[
    whole("result", "result", Compare::Match),
    whole("applied", "applied", Compare::Match),
    whole("rejected", "rejected", Compare::Match),
    whole("winner", "state.outcome.winner", Compare::Match),
    whole("outcome", "state.outcome", Compare::Match),
    whole("phase", "state.phase", Compare::Match),
    whole("round", "state.round", Compare::Match),
    whole("turn", "state.turn", Compare::Match),
    whole("balance", "state.balance", Compare::Match),
    whole("event", "state.event.event", Compare::Match),
    whole("event_deck_top", "state.event_deck", Compare::Prefix),
    whole("pending", "state.pending", Compare::Match),
    whole("round_winner", "state.last_round.winner", Compare::Match),
    whole("last_round", "state.last_round", Compare::Match),
    per_faction("vp", "state.{f}.vp", Compare::Match),
    per_faction("influence", "state.{f}.influence", Compare::Match),
    per_faction("totals", "state.{f}.total", Compare::Match),
    per_faction("round_totals", "state.last_round.totals.{i}", Compare::Match),
    per_faction("play_area", "state.{f}.play_area", Compare::Match),
    per_faction("deck_top", "state.{f}.deck", Compare::Prefix),
    per_faction("deck_size", "state.{f}.deck_size", Compare::Match),
    per_faction("discard", "state.{f}.discard", Compare::SameItems),
    per_faction("reserve", "state.{f}.reserve", Compare::SameItems),
    per_faction("characters", "state.{f}.characters", Compare::SameItems),
    per_faction("unused_strategies", "state.{f}.unused_strategies", Compare::SameItems),
    per_faction("used_strategies", "state.{f}.used_strategies", Compare::SameItems),
    per_faction("chosen_strategy", "state.{f}.chosen_strategy", Compare::Match),
    per_faction("won_events", "state.{f}.won_events", Compare::SameItems),
    per_faction("modifiers", "state.{f}.modifiers", Compare::Match),
    per_faction("next_modifiers", "state.{f}.next_modifiers", Compare::Match),
];

/// Keys handled outside the table.
const SPECIAL: &[&str] = &["paths", "log_contains", "log_excludes", "view_excludes"];

const VIEWERS: [&str; 3] = ["rebel", "imperial", "spectator"];

/// One path check.
#[derive(Clone, Debug)]
struct PathCheck {
    label: String,
    path: JsonPath,
    compare: Compare,
    expected: Value,
}

/// What a log or view check looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TextCheck {
    /// Some sentence of the viewer's log contains the text.
    LogContains,
    /// No sentence nor structured entry of the viewer's log contains the text.
    LogExcludes,
    /// The viewer's final view (its JSON) does not contain the text.
    ViewExcludes,
}

/// A parsed `expect` block.
#[derive(Clone, Debug, Default)]
pub struct Expect {
    paths: Vec<PathCheck>,
    texts: Vec<(TextCheck, &'static str, String)>,
}

impl Expect {
    /// Parses an `expect` object. A block without `rejected` expects every action to be accepted.
    pub fn parse(block: &Value) -> Result<Expect> {
        let Value::Object(block) = block else {
            bail!("\"expect\" must be an object, got {}", short(block));
        };
        let mut out = Expect::default();
        for (key, value) in block {
            validate_operators(value).with_context(|| format!("expect.{key}"))?;
            if let Some(named) = NAMED.iter().find(|n| n.key == key) {
                out.add_named(named, value)?;
            } else if key == "paths" {
                let Value::Object(paths) = value else {
                    bail!("expect.paths must be an object of \"dotted.path\": expected value");
                };
                for (p, expected) in paths {
                    out.paths.push(PathCheck {
                        label: format!("paths[{p}]"),
                        path: JsonPath::parse(p).context("expect.paths")?,
                        compare: Compare::Match,
                        expected: expected.clone(),
                    });
                }
            } else if let Some(kind) = match key.as_str() {
                "log_contains" => Some(TextCheck::LogContains),
                "log_excludes" => Some(TextCheck::LogExcludes),
                "view_excludes" => Some(TextCheck::ViewExcludes),
                _ => None,
            } {
                out.add_texts(key, kind, value)?;
            } else {
                bail!("unknown expectation {key:?}; known: {}", named_keys().join(", "));
            }
        }
        if !block.contains_key("rejected") {
            out.paths.push(PathCheck {
                label: "rejected (implicit: every action accepted)".into(),
                path: JsonPath::parse("rejected")?,
                compare: Compare::Match,
                expected: Value::Null,
            });
        }
        Ok(out)
    }

    fn add_named(&mut self, named: &Named, value: &Value) -> Result<()> {
        match named.scope {
            Scope::Whole => self.paths.push(PathCheck {
                label: named.key.to_owned(),
                path: JsonPath::parse(named.path)?,
                compare: named.compare,
                expected: value.clone(),
            }),
            Scope::PerFaction => {
                let Value::Object(per) = value else {
                    bail!(
                        "expect.{} takes {{\"rebel\": …, \"imperial\": …}}, got {}",
                        named.key,
                        short(value)
                    );
                };
                for (faction, expected) in per {
                    let index = match faction.as_str() {
                        "rebel" => "0",
                        "imperial" => "1",
                        other => bail!("expect.{}: {other:?} is not a faction (rebel, imperial)", named.key),
                    };
                    let path = named.path.replace("{f}", faction).replace("{i}", index);
                    self.paths.push(PathCheck {
                        label: format!("{}.{faction}", named.key),
                        path: JsonPath::parse(&path)?,
                        compare: named.compare,
                        expected: expected.clone(),
                    });
                }
            }
        }
        Ok(())
    }

    fn add_texts(&mut self, key: &str, kind: TextCheck, value: &Value) -> Result<()> {
        let Value::Object(per) = value else {
            bail!("expect.{key} takes {{\"rebel\"|\"imperial\"|\"spectator\"|\"all\": [texts]}}");
        };
        for (viewer, texts) in per {
            let viewers: Vec<&'static str> = match viewer.as_str() {
                "all" => VIEWERS.to_vec(),
                v => match VIEWERS.iter().find(|x| **x == v) {
                    Some(x) => vec![*x],
                    None => bail!("expect.{key}: {v:?} is not a viewer (rebel, imperial, spectator, all)"),
                },
            };
            let texts: Vec<String> = match texts {
                Value::String(s) => vec![s.clone()],
                Value::Array(items) => items
                    .iter()
                    .map(|t| t.as_str().map(str::to_owned))
                    .collect::<Option<_>>()
                    .with_context(|| format!("expect.{key}.{viewer}: a list of strings"))?,
                _ => bail!("expect.{key}.{viewer}: a string or a list of strings"),
            };
            for v in &viewers {
                for t in &texts {
                    self.texts.push((kind, v, t.clone()));
                }
            }
        }
        Ok(())
    }

    /// Every expectation that does not hold for `output` (the runner's output as JSON).
    pub fn failures(&self, output: &Value) -> Vec<String> {
        let mut out = Vec::new();
        for c in &self.paths {
            let result = c
                .path
                .resolve(output)
                .and_then(|actual| c.compare.check(&c.expected, actual));
            if let Err(why) = result {
                out.push(format!("{} ({}): {why}", c.label, c.path.as_str()));
            }
        }
        for (kind, viewer, text) in &self.texts {
            if let Err(why) = check_text(*kind, viewer, text, output) {
                out.push(why);
            }
        }
        out
    }
}

fn check_text(kind: TextCheck, viewer: &str, text: &str, output: &Value) -> Result<(), String> {
    let empty = Vec::new();
    let events = output
        .get("events")
        .and_then(|e| e.get(viewer))
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    let sentence = |e: &Value| e.get("text").and_then(Value::as_str).unwrap_or("").to_owned();
    match kind {
        TextCheck::LogContains => {
            if events.iter().any(|e| sentence(e).contains(text)) {
                Ok(())
            } else {
                Err(format!(
                    "log_contains.{viewer}: no sentence of the {viewer} log contains {text:?}"
                ))
            }
        }
        TextCheck::LogExcludes => {
            let hit = events.iter().find(|e| {
                sentence(e).contains(text) || e.get("entry").is_some_and(|entry| entry.to_string().contains(text))
            });
            match hit {
                None => Ok(()),
                Some(e) => Err(format!(
                    "log_excludes.{viewer}: the {viewer} log contains {text:?}: {}",
                    short(e)
                )),
            }
        }
        TextCheck::ViewExcludes => {
            let view = output
                .get("views")
                .and_then(|v| v.get(viewer))
                .map(Value::to_string)
                .unwrap_or_default();
            if view.contains(text) {
                Err(format!(
                    "view_excludes.{viewer}: the final {viewer} view contains {text:?}"
                ))
            } else {
                Ok(())
            }
        }
    }
}

/// The named keys, for documentation and usage text.
pub fn named_keys() -> Vec<&'static str> {
    let mut keys: Vec<&str> = NAMED.iter().map(|n| n.key).collect();
    keys.extend(SPECIAL);
    keys
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn output() -> Value {
        json!({
            "result": "ok",
            "applied": 2,
            "rejected": null,
            "state": {
                "phase": "planning",
                "rebel": {"vp": 1, "discard": ["Military 2", "Recon 3"], "deck": ["Yoda", "Recon 2"]},
                "imperial": {"vp": 0, "discard": [], "deck": []},
                "last_round": {"winner": "rebel", "totals": [9, 7]}
            },
            "views": {"imperial": {"rebel": {"deck_top": null}}},
            "events": {
                "rebel": [{"text": "Rebel played Yoda.", "entry": {"type": "card_played", "card": "Yoda"}}],
                "imperial": [{"text": "Rebel passed.", "entry": {"type": "passed"}}],
                "spectator": []
            }
        })
    }

    #[test]
    fn named_checks_pass_and_fail() {
        let ok = Expect::parse(&json!({
            "phase": "planning",
            "vp": {"rebel": 1},
            "discard": {"rebel": ["Recon 3", "Military 2"]},
            "deck_top": {"rebel": ["Yoda"]},
            "round_winner": "rebel",
            "round_totals": {"rebel": 9, "imperial": 7},
            "log_contains": {"rebel": "played Yoda"},
            "log_excludes": {"imperial": ["Yoda"]},
            "view_excludes": {"imperial": ["Yoda"]}
        }))
        .unwrap();
        assert_eq!(ok.failures(&output()), Vec::<String>::new());
        let bad = Expect::parse(&json!({
            "vp": {"imperial": 1},
            "deck_top": {"rebel": ["Recon 2"]},
            "log_excludes": {"rebel": "Yoda"},
            "rejected": {"index": 0}
        }))
        .unwrap();
        assert_eq!(bad.failures(&output()).len(), 4);
    }

    #[test]
    fn unknown_keys_are_bad_input() {
        assert!(Expect::parse(&json!({"vps": 1})).is_err());
        assert!(Expect::parse(&json!({"vp": {"rebels": 1}})).is_err());
        assert!(Expect::parse(&json!({"log_contains": {"nobody": "x"}})).is_err());
        assert!(Expect::parse(&json!({"paths": {"state..x": 1}})).is_err());
    }
}
