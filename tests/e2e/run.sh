#!/usr/bin/env bash
# End-to-end browser test of EvR Online: builds the client and the server (quick when already
# built), starts the server on a free port with a fresh data dir, runs the Playwright test in
# Debian's chromium, stops the server. Exit status: the test's.
#   EVR_E2E_SKIP_BUILD=1   use the existing web-client/dist and target/release/evr-server
#   E2E_SEED=<n>           the seed of the players' random choices (default 20261122)
#   E2E_DEAL_SEED=<n>      the seed of every game's deal (the server's --test-fixed-seed, default
#                          20261126): a run in CI plays the same deals every time; a failure prints
#                          both seeds, and other seeds are explored apart (never in CI)
#   EVR_E2E_ONLY=main|accounts|friends|correspondence|layout   run one of the five test files (default: all); the
#                          layout property test (layout-states.test.mjs) needs no server: it serves
#                          web-client/dist itself and plays target/release/evr's games into the page
#                          the accounts test (accounts.test.mjs: passkeys in DevTools' virtual
#                          authenticator, the account's email address, a second device by passkey, a
#                          third by an email sign-in link, signing out, the data, deletion) starts its
#                          own server on http://localhost:PORT and its own SMTP sink; the friends test
#                          (friends.test.mjs: three accounts, friends, a rated challenge played to its
#                          end, ratings, the head to head, a stranger who sees nothing) its own server
# The correspondence test (a game over days played from reminder mails) needs the server built with
# the test-only `test-days` feature (`--day-secs`): target/release/evr-server when it is such a build
# (scripts/test.sh builds it so), else target/release/evr-server-test-days, which this script builds
# first (only the evr-server crate is compiled twice). It and the accounts test need the SMTP sink
# scripts/mail/smtp_sink.py (Python, aiosmtpd; tests/e2e/mail.mjs starts it and reads its mails).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"
say() { echo "[e2e run.sh] $*"; }

# Debian's chromium, and CJK fonts so the Chinese and Japanese screenshots show text, not boxes
MISSING=()
[ -x "$CHROMIUM_PATH" ] || MISSING+=(chromium)
# (no grep -q: it would stop reading, fc-list would die of SIGPIPE and pipefail would report a miss)
fc-list 2>/dev/null | grep "Noto Sans CJK" >/dev/null || MISSING+=(fonts-noto-cjk)
if [ "${#MISSING[@]}" -gt 0 ]; then
  say "installing ${MISSING[*]} (apt-get)"
  SUDO=""; [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null && SUDO="sudo"
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y "${MISSING[@]}"
fi

say "npm ci (tests/e2e)"
(cd "$HERE" && npm ci --no-audit --no-fund)

if [ "${EVR_E2E_SKIP_BUILD:-0}" != "1" ]; then
  (
    cd "$ROOT/web-client"
    # rebuild dist/ only when an input changed: a new dist/ makes cargo re-embed it (~30 s)
    if [ ! -f dist/index.html ] || [ -n "$(find src index.html package.json package-lock.json vite.config.ts tsconfig.json \
        ../proto/ts ../crates/rules/data/cards.json -newer dist/index.html -print -quit 2>/dev/null)" ]; then
      say "building the web client"
      if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then npm ci --no-audit --no-fund; fi
      npm run build
    else
      say "web-client/dist is up to date"
    fi
  )
  if [ "${EVR_E2E_ONLY:-correspondence}" = "correspondence" ]; then
    say "building the server with the test-only feature test-days (for the correspondence test)"
    (cd "$ROOT" && cargo build --release -p evr-server --features evr-server/test-days \
      && cp target/release/evr-server target/release/evr-server-test-days)
  fi
  say "building the server (embeds web-client/dist)"
  (cd "$ROOT" && cargo build --release -p evr-server -p evr-cli)
fi
BIN="$ROOT/target/release/evr-server"
[ -x "$BIN" ] || { say "missing $BIN"; exit 1; }

export E2E_DEAL_SEED="${E2E_DEAL_SEED:-20261126}"
PORT="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
DATA_DIR="$(mktemp -d "${TMPDIR:-/tmp}/evr-e2e-data.XXXXXX")"
mkdir -p "$HERE/artifacts"
SERVER_LOG="$HERE/artifacts/server.log"
say "starting $BIN on 127.0.0.1:$PORT (data $DATA_DIR, log $SERVER_LOG, deal seed $E2E_DEAL_SEED)"
"$BIN" --bind "127.0.0.1:$PORT" --data-dir "$DATA_DIR" --messages-per-second 1000 --test-fixed-seed "$E2E_DEAL_SEED" >"$SERVER_LOG" 2>&1 &
SERVER_PID=$!
stop_server() {
  if kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$SERVER_PID" 2>/dev/null || true
  fi
  wait "$SERVER_PID" 2>/dev/null || true
  rm -rf "$DATA_DIR"
}
# (and a correspondence test still running, when this script stops early)
# (under `set -e` a failing command here would become the script's exit status: none may fail)
trap 'stop_server; if [ -n "${CORR_PID:-}" ]; then kill "$CORR_PID" 2>/dev/null || true; fi' EXIT

for _ in $(seq 200); do
  node -e 'fetch(process.argv[1]).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "http://127.0.0.1:$PORT/healthz" && break
  kill -0 "$SERVER_PID" 2>/dev/null || { say "server exited:"; cat "$SERVER_LOG"; exit 1; }
  sleep 0.1
done

cd "$HERE"
status=0
if [ "${EVR_E2E_ONLY:-main}" = "main" ]; then
  say "running the test"
  EVR_BASE_URL="http://127.0.0.1:$PORT" CHROMIUM_PATH="$CHROMIUM_PATH" \
    node --test --test-reporter=spec e2e.test.mjs || status=$?
fi
# The accounts and correspondence tests start their own SMTP sink (tests/e2e/mail.mjs) on a Python
# with aiosmtpd that the mail tests' scripts/mail/sink.sh finds or makes (a venv from PyPI, else
# Debian's package)
SINK_PYTHON=""
if [ "${EVR_E2E_ONLY:-accounts}" = "accounts" ] || [ "${EVR_E2E_ONLY:-correspondence}" = "correspondence" ]; then
  # shellcheck source=../../scripts/mail/sink.sh
  source "$ROOT/scripts/mail/sink.sh"
  SINK_PYTHON="$(cd "$ROOT" && smtp_sink_python)" || { say "no Python with aiosmtpd for the SMTP sink"; exit 1; }
fi
if [ "${EVR_E2E_ONLY:-accounts}" = "accounts" ]; then
  say "running the accounts test (its own server, public origin http://localhost:PORT, and SMTP sink)"
  EVR_ACCOUNTS_SERVER_BIN="$BIN" EVR_SINK_PYTHON="$SINK_PYTHON" CHROMIUM_PATH="$CHROMIUM_PATH" \
    node --test --test-reporter=spec accounts.test.mjs || status=$?
fi
if [ "${EVR_E2E_ONLY:-friends}" = "friends" ]; then
  say "running the friends test (its own server, public origin http://localhost:PORT)"
  EVR_FRIENDS_SERVER_BIN="$BIN" CHROMIUM_PATH="$CHROMIUM_PATH" \
    node --test --test-reporter=spec friends.test.mjs || status=$?
fi
stop_server
# The correspondence test spends most of its ~90 s waiting for a real deadline to pass: it runs beside
# the layout test (which keeps both cores busy), its output shown when both are done.
CORR_PID=""
if [ "${EVR_E2E_ONLY:-correspondence}" = "correspondence" ]; then
  # starts its own server (the test-days build) and SMTP sink (SINK_PYTHON, above)
  say "running the correspondence test (its output follows the layout test's)"
  # the test-days server: scripts/test.sh's release binary is built with the feature; a build by
  # this script keeps it beside the release binary as evr-server-test-days
  CORR_BIN="${EVR_CORR_SERVER_BIN:-}"
  if [ -z "$CORR_BIN" ]; then
    CORR_BIN="$ROOT/target/release/evr-server-test-days"
    "$BIN" --day-secs 1 --version >/dev/null 2>&1 && CORR_BIN="$BIN"
  fi
  CORR_LOG="$HERE/artifacts/correspondence.log"
  EVR_CORR_SERVER_BIN="$CORR_BIN" EVR_SINK_PYTHON="$SINK_PYTHON" \
    CHROMIUM_PATH="$CHROMIUM_PATH" node --test --test-reporter=spec correspondence.test.mjs >"$CORR_LOG" 2>&1 &
  CORR_PID=$!
fi
if [ "${EVR_E2E_ONLY:-layout}" = "layout" ]; then
  say "running the layout property test (every decision on screen over thousands of engine states)"
  CHROMIUM_PATH="$CHROMIUM_PATH" node --test --test-reporter=spec layout-states.test.mjs || status=$?
fi
if [ -n "$CORR_PID" ]; then
  wait "$CORR_PID" || status=$?
  CORR_PID=""
  say "the correspondence test:"
  cat "$CORR_LOG"
fi
if [ "$status" -ne 0 ]; then say "FAILED (exit $status); screenshots and server logs in $HERE/artifacts"; else say "passed"; fi
exit "$status"
