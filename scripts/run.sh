#!/usr/bin/env bash
# Starts EvR Online: builds the browser client, then runs the server (which embeds the client) on
# 127.0.0.1:8080 with its data in ./data (SQLite). This is the README's run command.
# Extra arguments go to the server: bash scripts/run.sh --bind 0.0.0.0:8080
set -euo pipefail
cd "$(dirname "$0")/.."

(cd web-client && npm ci --no-audit --no-fund && npm run build)
exec cargo run --release --locked -p evr-server -- "$@"
