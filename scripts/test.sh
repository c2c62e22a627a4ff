#!/usr/bin/env bash
# Runs every test suite of the project. This is the README's test command; .ci/run calls it.
# Needs only the Rust toolchain, which every machine of this kind has.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== formatting"
cargo fmt --all -- --check

echo "== build (release)"
cargo build --release --locked -p evr-server -p evr-loadgen

echo "== load smoke: 100 concurrent matches against the real server binary (must end with zero errors)"
target/release/evr-loadgen --matches 100 --think-min-ms 1 --think-max-ms 10 --deadline-secs 300

echo "== Rust tests (release: the property tests play thousands of games)"
cargo test --workspace --release --locked
