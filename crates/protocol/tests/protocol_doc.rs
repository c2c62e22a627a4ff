//! `proto/PROTOCOL.md` explains the wire for people; its table of error codes must say exactly what
//! the Rust table says (code, HTTP status, fatality), so a reader never trusts a stale copy.

// Test code: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::path::Path;

use evr_protocol::ErrorCode;

/// `code → (status, fatal)` from the rows of the "Error codes" table.
fn documented() -> BTreeMap<String, (u16, bool)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../proto/PROTOCOL.md");
    let text = std::fs::read_to_string(&path).expect("proto/PROTOCOL.md");
    let section = text
        .split("### Error codes")
        .nth(1)
        .expect("PROTOCOL.md has an \"Error codes\" section");
    let mut rows = BTreeMap::new();
    for line in section.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let code = cells[1].trim_matches('`').to_string();
        let status: u16 = cells[2].parse().unwrap_or_else(|_| panic!("status of {code}: {line}"));
        let fatal = match cells[3] {
            "yes" => true,
            "no" => false,
            other => panic!("fatal of {code} is {other:?}, not yes or no"),
        };
        assert!(rows.insert(code.clone(), (status, fatal)).is_none(), "{code} twice");
    }
    rows
}

#[test]
fn the_documented_error_table_is_the_protocols() {
    let expected: BTreeMap<String, (u16, bool)> = ErrorCode::PROTOCOL
        .iter()
        .map(|c| (c.as_str().to_string(), (c.http_status(), c.is_fatal())))
        .collect();
    assert_eq!(
        documented(),
        expected,
        "proto/PROTOCOL.md's error table differs from crates/protocol/src/error_code.rs"
    );
}
