//! The TypeScript types in `proto/ts/` are generated from the Rust types; this test fails when
//! they drift. To regenerate after changing a message: `EVR_UPDATE_PROTO=1 cargo test -p evr-protocol
//! --test typescript`.

// Test code: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn read_tree(dir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            if name.ends_with(".ts") {
                out.insert(name, std::fs::read_to_string(e.path()).unwrap_or_default());
            }
        }
    }
    out
}

#[test]
fn typescript_types_in_proto_match_the_rust_types() {
    let committed = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../proto/ts");
    let fresh = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("proto-ts-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&fresh);
    evr_protocol::typescript::export(&fresh).expect("export the protocol");
    let generated = read_tree(&fresh);
    assert!(
        generated.contains_key("ServerMsg.ts") && generated.contains_key("View.ts"),
        "{:?}",
        generated.keys()
    );

    if std::env::var("EVR_UPDATE_PROTO").is_ok_and(|v| v == "1") {
        let _ = std::fs::remove_dir_all(&committed);
        std::fs::create_dir_all(&committed).expect("create proto/ts");
        for (name, text) in &generated {
            std::fs::write(committed.join(name), text).expect("write proto/ts");
        }
        return;
    }
    let existing = read_tree(&committed);
    let missing: Vec<_> = generated.keys().filter(|k| !existing.contains_key(*k)).collect();
    let stale: Vec<_> = existing.keys().filter(|k| !generated.contains_key(*k)).collect();
    let changed: Vec<_> = generated
        .iter()
        .filter(|(k, v)| existing.get(*k).is_some_and(|e| e != *v))
        .map(|(k, _)| k)
        .collect();
    assert!(
        missing.is_empty() && stale.is_empty() && changed.is_empty(),
        "proto/ts is out of date (missing {missing:?}, stale {stale:?}, changed {changed:?}); \
         regenerate with EVR_UPDATE_PROTO=1 cargo test -p evr-protocol --test typescript"
    );
}
