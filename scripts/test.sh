#!/usr/bin/env bash
# Runs every test suite of the project. This is the README's test command; .ci/run calls it.
# Needs the Rust toolchain and Node.js with npm (both on every machine of this kind); installs the
# npm packages itself, Debian's chromium and CJK fonts (apt-get) for the end-to-end test, and
# PostgreSQL and HAProxy (apt-get) for the store contract and the cluster tests: it starts a
# throwaway PostgreSQL cluster on loopback (scripts/cluster/services.sh) and stops it at the end,
# and aiosmtpd (PyPI, in a venv) for an SMTP server on loopback for the mail tests (scripts/mail/).
#
#   bash scripts/test.sh           everything (what CI runs)
#   bash scripts/test.sh --quick   daily work: formatting, lints, unit and integration tests;
#                                  skips the release build, the load smoke and the browser test
#
# Every step runs even when an earlier one failed, so one run reports everything; the last line
# is the total over all of them, alone on its line: `N passed, M failed` (a test runner's steps
# count their tests, a check such as formatting counts as one). The exit status is 0 only when
# nothing failed.
set -uo pipefail
cd "$(dirname "$0")/.."

# The suite's release builds leave out the debug line tables that Cargo.toml's release profile keeps
# for a production build's backtraces: nothing here reads them, and every build and link of the run
# is shorter without them.
export CARGO_PROFILE_RELEASE_DEBUG=false

QUICK=0
for arg in "$@"; do
  case "$arg" in
    --quick) QUICK=1 ;;
    *) echo "usage: bash scripts/test.sh [--quick]" >&2; exit 2 ;;
  esac
done

PASSED=0
FAILED=0
# each step's time, listed at the end (the suite must stay well inside CI's limit)
TIMES=()
LOG="$(mktemp "${TMPDIR:-/tmp}/evr-test.XXXXXX")"
SERVICES_DIR="$(mktemp -d "${TMPDIR:-/tmp}/evr-services.XXXXXX")"
# PostgreSQL runs as another user when this runs as root: it must reach its directory inside
chmod 711 "$SERVICES_DIR"
# shellcheck source=cluster/services.sh
source scripts/cluster/services.sh
# shellcheck source=mail/sink.sh
source scripts/mail/sink.sh
trap 'services_stop; smtp_sink_stop_dir "$SERVICES_DIR/smtp"; rm -rf "$LOG" "$SERVICES_DIR"' EXIT

# The number after `word` on the summary lines of a step's output, summed ("test result: ok. 12
# passed; 0 failed" from cargo, "Tests  76 passed (76)" from vitest, "ℹ pass 3" from node --test).
sum_after() {
  sed 's/\x1b\[[0-9;]*m//g' "$LOG" | grep -oE "$1" | grep -oE '[0-9]+' | awk '{ s += $1 } END { print s + 0 }'
}

# step KIND NAME COMMAND...: runs COMMAND, shows its output, and adds its result to the totals.
# KIND is `check` (one pass or fail), `cargo`, `vitest` or `node` (count the runner's tests).
step() {
  local kind="$1" name="$2"
  shift 2
  echo "== $name"
  local started=$SECONDS
  "$@" 2>&1 | tee "$LOG"
  local status=${PIPESTATUS[0]}
  local passed=0 failed=0
  case "$kind" in
    cargo)
      passed=$(sum_after '[0-9]+ passed;')
      failed=$(sum_after '[0-9]+ failed;')
      ;;
    vitest)
      passed=$(sed 's/\x1b\[[0-9;]*m//g' "$LOG" | grep -oE 'Tests +.*' | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+' | awk '{ s += $1 } END { print s + 0 }')
      failed=$(sed 's/\x1b\[[0-9;]*m//g' "$LOG" | grep -oE 'Tests +.*' | grep -oE '[0-9]+ failed' | grep -oE '[0-9]+' | awk '{ s += $1 } END { print s + 0 }')
      ;;
    node)
      passed=$(sum_after '^ℹ pass [0-9]+')
      failed=$(sum_after '^ℹ fail [0-9]+')
      ;;
  esac
  if [ "$kind" = check ] || [ $((passed + failed)) -eq 0 ]; then
    # A check, or a runner that stopped before reporting (it did not build, it crashed).
    if [ "$status" -eq 0 ]; then passed=1; else failed=1; fi
  elif [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
    # The runner failed after its tests passed (a crash, a failing build of another target).
    failed=1
  fi
  PASSED=$((PASSED + passed))
  FAILED=$((FAILED + failed))
  local took=$((SECONDS - started))
  TIMES+=("$(printf '%5d s  %s' "$took" "$name")")
  if [ "$status" -eq 0 ]; then echo "-- $name: ok ($took s)"; else echo "-- $name: FAILED (exit $status, $took s)"; fi
}

# The engine's testing accessors live in the evr-rules-testkit build of the engine; no server
# binary may link it (the server also refuses it at compile time, see crates/server/src/lib.rs).
no_testkit_in_production() {
  local crate tree found=0
  for crate in evr-server evr-loadgen evr-bot-client; do
    # (a crate name cargo does not know must fail the check, not pass it unseen)
    tree="$(cargo tree --locked -p "$crate" -e normal,build --prefix none)" || { echo "cargo tree -p $crate failed"; return 1; }
    if grep -q '^evr-rules-testkit ' <<<"$tree"; then
      echo "$crate links evr-rules-testkit"
      found=1
    fi
  done
  [ "$found" -eq 0 ] && echo "no production binary links evr-rules-testkit"
}

# The release server has no test-only day length: `--day-secs` exists only with the `test-days`
# feature (crates/server/README.md), which every step after the load smoke builds the server with.
release_has_no_test_days() {
  local out
  out="$(target/release/evr-server --day-secs 5 --help 2>&1)" && { echo "the release server took --day-secs"; return 1; }
  grep -q "unexpected argument '--day-secs'" <<<"$out" && echo "the release server refuses --day-secs"
}
# Every cargo step after the release build and the load smoke builds the server with the feature,
# so the server is compiled twice in a run (the release build, then once with the feature), not
# once per step.
TEST_DAYS=(--features evr-server/test-days)
# The crates every Rust test step tests. evr-protocol's own tests run in a step of their own: its
# tests turn on its `ts` feature (TypeScript declarations), and with it evr-rules', which would make
# every crate above the engine a different build from the release build's (compiled twice).
TESTED=(--workspace --exclude evr-protocol)

# The release build and the release test build resolve every crate they share with the same features
# (the tests' dependencies can turn on more, e.g. proptest's): otherwise cargo compiles that crate and
# every crate above it twice in a run, minutes of it. evr-server differs by `test-days` alone.
same_features() {
  local build tests differ
  build="$(cargo tree --locked -p evr-server -p evr-loadgen -p evr-cli -e normal,build -f '{p} [{f}]' --prefix none)" || return 1
  tests="$(cargo tree --locked "${TESTED[@]}" "${TEST_DAYS[@]}" -e normal,build,dev -f '{p} [{f}]' --prefix none)" || return 1
  differ="$(comm -23 <(sed 's/ (\*)$//' <<<"$build" | sort -u) <(sed 's/ (\*)$//' <<<"$tests" | sort -u) | grep -v '^evr-server ')"
  if [ -n "$differ" ]; then
    printf 'the tests build these crates with other features than the release build:\n%s\n' "$differ"
    return 1
  fi
  echo "the release build and the test build share every crate"
}

web_client() (
  cd web-client && npm ci --no-audit --no-fund && npm run typecheck && npm run lint
)

step check "formatting (cargo fmt --check)" cargo fmt --all -- --check
step check "lints (cargo clippy, warnings are errors)" \
  cargo clippy --workspace --all-targets --locked -- -D warnings
step check "API docs (cargo doc, warnings are errors: no broken link, none to a private item)" \
  env RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked
step check "production builds carry no testing accessors" no_testkit_in_production
step check "the release build and the release test build compile every shared crate once" same_features
step check "browser client: install, typecheck, lint (Biome, knip)" web_client
step vitest "browser client: unit tests" bash -c 'cd web-client && npm test'

if [ "$QUICK" -eq 0 ]; then
  step check "browser client: build (the server embeds web-client/dist)" bash -c 'cd web-client && npm run build'
  step check "browser client: a page downloads at most 60 KB (Brotli) before its first render, in every language" \
    node web-client/scripts/budget.mjs
  step check "build (release)" cargo build --release --locked -p evr-server -p evr-loadgen -p evr-cli
  step check "load smoke: 100 concurrent matches against the real server binary (zero errors)" \
    target/release/evr-loadgen --matches 100 --think-min-ms 1 --think-max-ms 10 --deadline-secs 300
  step check "the release server has no test-only day length (--day-secs)" release_has_no_test_days
  step check "build (release, with the test-only day length for the tests: feature test-days)" \
    cargo build --release --locked -p evr-server "${TEST_DAYS[@]}"
  step node "end-to-end: two players and a spectator in Debian's chromium against the real server; a game over days played from reminder mails" \
    env EVR_E2E_SKIP_BUILD=1 bash tests/e2e/run.sh
fi

# PostgreSQL for the store contract (run against SQLite and PostgreSQL) and the cluster tests
# (runs in the step's subshell: the URL comes back through a file)
postgres_up() {
  services_install && postgres_start "$SERVICES_DIR/pg" && echo "$EVR_TEST_POSTGRES" >"$SERVICES_DIR/pg/url"
}
step check "PostgreSQL and HAProxy: installed, a throwaway PostgreSQL started on loopback" postgres_up
[ -f "$SERVICES_DIR/pg/url" ] && EVR_TEST_POSTGRES="$(cat "$SERVICES_DIR/pg/url")" && export EVR_TEST_POSTGRES
# (the started cluster's directory, for services_stop in this shell)
PG_DIR="$SERVICES_DIR/pg"; PG_USER=nobody; [ "$(id -u)" -ne 0 ] && PG_USER="$(id -un)"
PG_BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"

# A second PostgreSQL with ssl=on and a certificate from a CA made for the run, for the TLS tests
# among the cluster tests (tests/cluster/tls.rs); its URL and CAs come back through a file too
postgres_tls_up() {
  postgres_tls_start "$SERVICES_DIR/pgtls" &&
    printf 'export %s=%q\n' EVR_TEST_POSTGRES_TLS "$EVR_TEST_POSTGRES_TLS" \
      EVR_TEST_POSTGRES_TLS_CA "$EVR_TEST_POSTGRES_TLS_CA" \
      EVR_TEST_POSTGRES_TLS_OTHER_CA "$EVR_TEST_POSTGRES_TLS_OTHER_CA" >"$SERVICES_DIR/pgtls.env"
}
step check "PostgreSQL with TLS: a test CA and a second throwaway PostgreSQL with ssl=on" postgres_tls_up
# shellcheck disable=SC1091
[ -f "$SERVICES_DIR/pgtls.env" ] && . "$SERVICES_DIR/pgtls.env"
PG_TLS_DIR="$SERVICES_DIR/pgtls"

# The later cargo steps (backups, mail, cluster) pass the same crates (TESTED), though they run one
# test target: cargo then resolves the same features as here and reuses these builds.
step cargo "Rust tests (release: the property tests play thousands of games)" \
  cargo test "${TESTED[@]}" --release --locked --no-fail-fast "${TEST_DAYS[@]}"
# The computer's ladder (crates/bot/README.md), a smoke only: a short sequential test of today's Hard
# against the frozen one on a few duplicate pairs at a reduced budget (~15 s). It checks that the
# arena plays, pairs and scores without error; it asserts nothing about strength (the real runs are
# benchmarks, BENCHMARKS.md). The build is the test step's (same crates and features): no rebuild.
step check "the computer's ladder: a smoke SPRT of Hard against the frozen Hard (4 duplicate pairs, nothing asserted about strength)" \
  bash -c 'cargo build "$@" --bin evr-arena && target/release/evr-arena sprt hard@i500 frozen-hard@i500 --elo0 0 --elo1 50 --max-pairs 4 --seed 1' \
  _ "${TESTED[@]}" --release --locked "${TEST_DAYS[@]}"
# (a debug build: these tests are quick, and the lints' step has built the macros they need, ~25 s
# against ~50 s in release)
step cargo "protocol: the documented messages and the generated TypeScript declarations (proto/ts) match the code" \
  cargo test -p evr-protocol --locked --no-fail-fast

# The browser client's round results against the engine: `evr views` (target/release/evr, built by
# the step above for crates/cli's integration tests) plays 200 random games and writes what each
# viewer receives; the client replays them through its store and derived state
# (web-client/engine/roundOutcome.test.tsx). Only the fields that test reads: ~28 MB, ~10 s.
step vitest "browser client: round results against the engine over 200 random games" bash -c '
  views="$(realpath "$1")/views.jsonl"
  target/release/evr views --games 200 --fields viewer,mode,phase,round,rounds,pending,outcome,log >"$views" &&
    cd web-client && EVR_ENGINE_VIEWS="$views" npx vitest run -c vitest.engine.config.ts' _ "$SERVICES_DIR"

# Backups that restore (SQLite): evr-loadgen plays 200 games against a real evr-server while the real
# `evr-server backup` copies its database three times; each copy restored (`evr-server restore`)
# starts a server on which every finished game's replay passes `evr verify` and every game in
# progress resumes (~20 s). It runs the load generator and `evr` built beside the server (built here
# also in --quick mode; the cluster step's restore.rs, the same check with pg_dump, needs them too).
step cargo "backups: three taken while 200 games are played, each restored, every game checked" \
  bash -c 'cargo build --release --locked -p evr-server -p evr-loadgen -p evr-cli --features evr-server/test-days &&
    cargo test --workspace --exclude evr-protocol --release --locked --features evr-server/test-days --test server backup:: -- --ignored'

# Reminders by email against a real SMTP server: scripts/mail/smtp_sink.py (aiosmtpd from PyPI, in a
# venv it keeps in ~/.cache) on loopback, started and stopped inside the step; the server's mail
# tests (tests/server/mail/) read the mails it stores (~10 s with aiosmtpd installed, ~20 s the
# first time).
mail_tests() {
  smtp_sink_start "$SERVICES_DIR/smtp" || return 1
  cargo test "${TESTED[@]}" --release --locked "${TEST_DAYS[@]}" --test server mail:: -- --ignored
  local status=$?
  smtp_sink_stop
  return "$status"
}
step cargo "reminders by email: confirmation, reminders, unsubscribe, limits, purge against a real SMTP server (aiosmtpd)" \
  mail_tests

# The rolling restart (tests/cluster/roll.rs) plays 300 human-paced matches through the roll: ~70 s of
# this step (the benchmark's run without the roll, EVR_ROLL_BASELINE=1, is not a check and not run). The correspondence deadlines through two kills (deadlines.rs):
# ~35 s.
step cargo "cluster: three nodes on PostgreSQL behind HAProxy, nodes killed with SIGKILL, a cut-off node fenced, TLS to PostgreSQL, a pg_dump restored, a rolling restart, correspondence deadlines through kills" \
  cargo test "${TESTED[@]}" --release --locked "${TEST_DAYS[@]}" --test cluster -- --ignored

echo
echo "time per step (whole run: $SECONDS s):"
printf '%s\n' "${TIMES[@]}"
echo
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
