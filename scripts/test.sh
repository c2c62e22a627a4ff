#!/usr/bin/env bash
# Runs every test suite of the project. This is the README's test command; .ci/run calls it.
# Installs nothing yet: the Rust toolchain is on every machine of this kind.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== formatting"
cargo fmt --all -- --check

echo "== Rust tests (release: the property tests play thousands of games)"
cargo test --workspace --release --locked
