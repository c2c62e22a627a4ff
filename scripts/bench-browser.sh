#!/usr/bin/env bash
# Browser benchmark of the table: from a move arriving on the WebSocket to the painted frame that
# shows it, and the layout shift during whole games, in Debian's chromium (tests/e2e/bench-frames.mjs
# says how). Figures in BENCHMARKS.md. Not part of the test suite: a benchmark, run on a quiet machine.
#
#   bash scripts/bench-browser.sh [--games N] [--first-seed S] [--pace-ms MS] [--seat rebel|imperial]
#
# Builds what is missing (web-client/dist, the `evr` CLI), installs tests/e2e's npm packages and, if
# needed, Debian's chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in -h|--help) sed -n '2,9p' "$0"; exit 0 ;; esac
CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$CHROMIUM_PATH" ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null && SUDO="sudo"
  $SUDO apt-get update && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y chromium
fi
(cd tests/e2e && npm ci --no-audit --no-fund >/dev/null)
[ -f web-client/dist/index.html ] || (cd web-client && npm ci --no-audit --no-fund && npm run build)
[ -x target/release/evr ] || cargo build --release --locked -p evr-cli
cd tests/e2e && CHROMIUM_PATH="$CHROMIUM_PATH" node bench-frames.mjs "$@"
