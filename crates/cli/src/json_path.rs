//! Dotted paths into JSON values (`state.rebel.play_area.0.card`, `state.rounds.-1.winner`) and
//! the comparisons `expect` uses. Every named expectation is a path plus one of these comparisons.

use anyhow::{Result, bail};
use serde_json::Value;

/// A dotted path. A segment is an object key, or an array index when the value there is an array
/// (negative indexes count from the end: `-1` is the last element).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonPath {
    text: String,
    segments: Vec<String>,
}

impl JsonPath {
    pub fn parse(text: &str) -> Result<JsonPath> {
        let segments: Vec<String> = text.split('.').map(str::to_owned).collect();
        if segments.iter().any(String::is_empty) {
            bail!("path {text:?}: empty segment (write dotted keys like state.rebel.vp)");
        }
        Ok(JsonPath {
            text: text.to_owned(),
            segments,
        })
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The value at this path, or why there is none.
    pub fn resolve<'a>(&self, root: &'a Value) -> Result<&'a Value, String> {
        let mut here = root;
        let mut walked = String::new();
        for seg in &self.segments {
            let next = match here {
                Value::Object(map) => map.get(seg),
                Value::Array(items) => seg
                    .parse::<i64>()
                    .ok()
                    .and_then(|i| {
                        if i < 0 {
                            items.len().checked_sub(i.unsigned_abs() as usize)
                        } else {
                            Some(i as usize)
                        }
                    })
                    .and_then(|i| items.get(i)),
                _ => None,
            };
            let Some(next) = next else {
                let at = if walked.is_empty() {
                    "the output".to_owned()
                } else {
                    walked
                };
                return Err(match here {
                    Value::Object(_) => format!("{at} has no field {seg:?}"),
                    Value::Array(items) => format!("{at} has no element {seg} (it has {})", items.len()),
                    other => format!("{at} is {}, not an object or array", short(other)),
                });
            };
            if !walked.is_empty() {
                walked.push('.');
            }
            walked.push_str(seg);
            here = next;
        }
        Ok(here)
    }
}

/// How an expected value is compared with the actual one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compare {
    /// [`matches()`]: objects partially, arrays element by element, scalars by equality.
    Match,
    /// The expected array matches the first elements of the actual array.
    Prefix,
    /// The same elements in any order (a multiset).
    SameItems,
}

impl Compare {
    pub fn check(self, expected: &Value, actual: &Value) -> Result<(), String> {
        match self {
            Compare::Match => matches(expected, actual),
            Compare::Prefix => {
                let (Value::Array(want), Value::Array(got)) = (expected, actual) else {
                    return Err(format!("expected a prefix {}, got {}", short(expected), short(actual)));
                };
                if want.len() > got.len() {
                    return Err(format!(
                        "expected to start with {}, got {}",
                        short(expected),
                        short(actual)
                    ));
                }
                for (i, (w, g)) in want.iter().zip(got).enumerate() {
                    matches(w, g).map_err(|e| format!("element {i}: {e} (whole value {})", short(actual)))?;
                }
                Ok(())
            }
            Compare::SameItems => {
                let (Value::Array(want), Value::Array(got)) = (expected, actual) else {
                    return Err(format!("expected the items {}, got {}", short(expected), short(actual)));
                };
                let mut left: Vec<&Value> = got.iter().collect();
                for w in want {
                    match left.iter().position(|g| matches(w, g).is_ok()) {
                        Some(i) => {
                            left.remove(i);
                        }
                        None => {
                            return Err(format!(
                                "expected the items {} in any order, got {} ({} missing)",
                                short(expected),
                                short(actual),
                                short(w)
                            ));
                        }
                    }
                }
                if !left.is_empty() {
                    return Err(format!(
                        "expected the items {} in any order, got {} (extra: {})",
                        short(expected),
                        short(actual),
                        short(&Value::Array(left.into_iter().cloned().collect()))
                    ));
                }
                Ok(())
            }
        }
    }
}

/// Whether `actual` matches `expected`:
/// - an object matches when every key it names matches (other keys of `actual` are ignored);
/// - an array matches an array of the same length, element by element;
/// - numbers compare by value, other scalars by equality;
/// - a one-key object whose key starts with `$` is an operator: `{"$one_of": [a, b]}`,
///   `{"$not": v}`, `{"$contains": v}` (an array with a matching element, or a string with that
///   substring), `{"$len": n}` (array, object or string length).
pub fn matches(expected: &Value, actual: &Value) -> Result<(), String> {
    if let Some((op, arg)) = operator(expected) {
        return match_operator(op, arg, actual);
    }
    match (expected, actual) {
        (Value::Object(want), Value::Object(got)) => {
            for (k, w) in want {
                let Some(g) = got.get(k) else {
                    return Err(format!("field {k:?} is missing in {}", short(actual)));
                };
                matches(w, g).map_err(|e| format!("{k}: {e}"))?;
            }
            Ok(())
        }
        (Value::Array(want), Value::Array(got)) => {
            if want.len() != got.len() {
                return Err(format!(
                    "expected {} ({} items), got {} ({} items)",
                    short(expected),
                    want.len(),
                    short(actual),
                    got.len()
                ));
            }
            for (i, (w, g)) in want.iter().zip(got).enumerate() {
                matches(w, g).map_err(|e| format!("element {i}: {e}"))?;
            }
            Ok(())
        }
        (Value::Number(w), Value::Number(g)) if w.as_f64() == g.as_f64() => Ok(()),
        _ if expected == actual => Ok(()),
        _ => Err(format!("expected {}, got {}", short(expected), short(actual))),
    }
}

fn operator(v: &Value) -> Option<(&str, &Value)> {
    match v {
        Value::Object(map) if map.len() == 1 => map
            .iter()
            .next()
            .filter(|(k, _)| k.starts_with('$'))
            .map(|(k, v)| (k.as_str(), v)),
        _ => None,
    }
}

fn match_operator(op: &str, arg: &Value, actual: &Value) -> Result<(), String> {
    match op {
        "$one_of" => {
            let Value::Array(options) = arg else {
                return Err("$one_of needs an array".into());
            };
            if options.iter().any(|o| matches(o, actual).is_ok()) {
                Ok(())
            } else {
                Err(format!("expected one of {}, got {}", short(arg), short(actual)))
            }
        }
        "$not" => match matches(arg, actual) {
            Ok(()) => Err(format!("expected anything but {}, got {}", short(arg), short(actual))),
            Err(_) => Ok(()),
        },
        "$contains" => {
            let found = match (actual, arg) {
                (Value::Array(items), _) => items.iter().any(|i| matches(arg, i).is_ok()),
                (Value::String(s), Value::String(part)) => s.contains(part.as_str()),
                _ => false,
            };
            if found {
                Ok(())
            } else {
                Err(format!("expected {} to contain {}", short(actual), short(arg)))
            }
        }
        "$len" => {
            let len = match actual {
                Value::Array(items) => items.len(),
                Value::Object(map) => map.len(),
                Value::String(s) => s.chars().count(),
                _ => return Err(format!("$len: {} has no length", short(actual))),
            };
            if arg.as_u64() == Some(len as u64) {
                Ok(())
            } else {
                Err(format!("expected length {}, got {len}: {}", short(arg), short(actual)))
            }
        }
        _ => Err(format!(
            "unknown operator {op:?} (use $one_of, $not, $contains or $len)"
        )),
    }
}

/// A value for an error message, shortened when long.
pub fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 300 {
        let cut: String = s.chars().take(300).collect();
        format!("{cut}…")
    } else {
        s
    }
}

/// Checks `expected`'s operators for typos before a run (so a misspelt operator is bad input, not
/// a silent mismatch).
pub fn validate_operators(expected: &Value) -> Result<()> {
    if let Some((op, arg)) = operator(expected) {
        match op {
            "$one_of" if !arg.is_array() => bail!("$one_of needs an array"),
            "$len" if !arg.is_u64() => bail!("$len needs a non-negative integer"),
            "$one_of" | "$not" | "$contains" | "$len" => {}
            _ => bail!("unknown operator {op:?} (use $one_of, $not, $contains or $len)"),
        }
        return validate_operators(arg);
    }
    match expected {
        Value::Object(map) => map.values().try_for_each(validate_operators),
        Value::Array(items) => items.iter().try_for_each(validate_operators),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_resolve_keys_and_indexes() {
        let v = json!({"a": {"b": [1, 2, {"c": "x"}]}});
        assert_eq!(JsonPath::parse("a.b.2.c").unwrap().resolve(&v), Ok(&json!("x")));
        assert_eq!(JsonPath::parse("a.b.-3").unwrap().resolve(&v), Ok(&json!(1)));
        assert!(JsonPath::parse("a.b.3").unwrap().resolve(&v).is_err());
        assert!(JsonPath::parse("a.b.-4").unwrap().resolve(&v).is_err());
        assert!(JsonPath::parse("a..b").is_err());
    }

    #[test]
    fn partial_matching() {
        let actual = json!({"winner": "rebel", "vp": [7, 2], "reason": "victory_points"});
        assert!(matches(&json!({"winner": "rebel"}), &actual).is_ok());
        assert!(matches(&json!({"vp": [7, 2]}), &actual).is_ok());
        assert!(matches(&json!({"vp": [7]}), &actual).is_err());
        assert!(matches(&json!({"winner": "imperial"}), &actual).is_err());
        assert!(matches(&json!({"loser": null}), &actual).is_err());
        assert!(matches(&json!(3), &json!(3.0)).is_ok());
    }

    #[test]
    fn operators() {
        assert!(matches(&json!({"$one_of": ["rebel", "imperial"]}), &json!("rebel")).is_ok());
        assert!(matches(&json!({"$one_of": ["rebel", "imperial"]}), &json!(null)).is_err());
        assert!(matches(&json!({"$not": null}), &json!("x")).is_ok());
        assert!(
            matches(
                &json!({"$contains": {"card": "Yoda"}}),
                &json!([{"card": "Yoda", "ready": true}])
            )
            .is_ok()
        );
        assert!(matches(&json!({"$contains": "lo W"}), &json!("Hello World")).is_ok());
        assert!(matches(&json!({"$len": 2}), &json!([1, 2])).is_ok());
        assert!(matches(&json!({"$len": 2}), &json!([1])).is_err());
        assert!(validate_operators(&json!({"a": {"$lenn": 2}})).is_err());
    }

    #[test]
    fn prefix_and_same_items() {
        assert!(Compare::Prefix.check(&json!(["a"]), &json!(["a", "b"])).is_ok());
        assert!(Compare::Prefix.check(&json!(["b"]), &json!(["a", "b"])).is_err());
        assert!(Compare::SameItems.check(&json!(["b", "a"]), &json!(["a", "b"])).is_ok());
        assert!(Compare::SameItems.check(&json!(["a"]), &json!(["a", "b"])).is_err());
        assert!(
            Compare::SameItems
                .check(&json!(["a", "a"]), &json!(["a", "b"]))
                .is_err()
        );
    }
}
