#!/usr/bin/env bash
# Starts EvR Online: builds the browser client, then runs the server (which embeds the client) on
# 127.0.0.1:8080 with its data in ./data (SQLite). This is the README's run command.
# Extra arguments go to the server: bash scripts/run.sh --bind 0.0.0.0:8080
set -euo pipefail
cd "$(dirname "$0")/.."

# --help answers at once, before any build: this script's usage, then the server's own settings when
# a build of it is there (the first start makes one)
for arg in "$@"; do
  if [ "$arg" = "--help" ] || [ "$arg" = "-h" ]; then
    echo "bash scripts/run.sh [SERVER SETTINGS...]: builds the browser client, then runs the server on"
    echo "127.0.0.1:8080 with its data in ./data (SQLite); settings go to the server, e.g. --bind 0.0.0.0:8080."
    echo "The first start compiles the server and the client (a few minutes); later starts take seconds."
    echo
    if [ -x target/release/evr-server ]; then
      exec target/release/evr-server --help
    fi
    echo "The server's settings (each a flag and an EVR_... environment variable) are listed here once the"
    echo "first start has built the server; crates/server/README.md describes them."
    exit 0
  fi
done

(cd web-client && npm ci --no-audit --no-fund && npm run build)
exec cargo run --release --locked -p evr-server -- "$@"
