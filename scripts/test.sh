#!/usr/bin/env bash
# Runs every test suite of the project. This is the README's test command; .ci/run calls it.
# Needs the Rust toolchain and Node.js with npm (both on every machine of this kind); installs the
# npm packages itself, and Debian's chromium and CJK fonts (apt-get) for the end-to-end test.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== formatting"
cargo fmt --all -- --check

echo "== browser client: install, typecheck, unit tests, build (the server embeds web-client/dist)"
(cd web-client && npm ci --no-audit --no-fund && npm run typecheck && npm test && npm run build)

echo "== build (release)"
cargo build --release --locked -p evr-server -p evr-loadgen

echo "== load smoke: 100 concurrent matches against the real server binary (must end with zero errors)"
target/release/evr-loadgen --matches 100 --think-min-ms 1 --think-max-ms 10 --deadline-secs 300

echo "== end-to-end: two players and a spectator in Debian's chromium against the real server (installs chromium if missing)"
EVR_E2E_SKIP_BUILD=1 bash tests/e2e/run.sh

echo "== Rust tests (release: the property tests play thousands of games)"
cargo test --workspace --release --locked
