#!/usr/bin/env bash
# The load generator through HAProxy against three nodes on PostgreSQL, beside one node on
# PostgreSQL and one on SQLite, in the same run (BENCHMARKS.md, "Scale-out"). Everything on
# loopback, started here and stopped at the end. Needs the release build:
#   cargo build --release -p evr-server -p evr-loadgen
#   bash scripts/cluster/bench.sh [MATCHES] [THINK_MIN_MS] [THINK_MAX_MS]
set -euo pipefail
cd "$(dirname "$0")/../.."
MATCHES="${1:-500}"; THINK_MIN="${2:-100}"; THINK_MAX="${3:-400}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/evr-bench.XXXXXX")"; chmod 711 "$WORK"
source scripts/cluster/services.sh
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; services_stop; rm -rf "$WORK"; }
trap cleanup EXIT
services_install
postgres_start "$WORK/pg"
URL_BASE="${EVR_TEST_POSTGRES%/*}"
db() { "$PG_BIN/psql" "$EVR_TEST_POSTGRES" -qc "DROP DATABASE IF EXISTS $1 WITH (FORCE)" -c "CREATE DATABASE $1" >/dev/null; echo "$URL_BASE/$1"; }
node() { # node PORT STORE-ARGS...
  local port="$1"; shift
  target/release/evr-server --bind "127.0.0.1:$port" --rooms-per-minute 1000000 --messages-per-second 1000 \
    --max-connections-per-client 1000000 --trusted-proxies 127.0.0.1 "$@" \
    >"$WORK/node-$port.log" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 200); do curl -fs "http://127.0.0.1:$port/readyz" >/dev/null && return; sleep 0.05; done
  echo "node on $port did not start"; cat "$WORK/node-$port.log"; exit 1
}
load() { # load ADDR LABEL [SERVER-PID]
  echo "== $2"
  target/release/evr-loadgen --addr "$1" ${3:+--server-pid "$3"} --matches "$MATCHES" \
    --think-min-ms "$THINK_MIN" --think-max-ms "$THINK_MAX" --deadline-secs 300
}
stop_nodes() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; PIDS=(); }

P1="$(free_port)"; node "$P1" --data-dir "$WORK/sqlite"
load "127.0.0.1:$P1" "one node, SQLite" "${PIDS[0]}"; stop_nodes

P1="$(free_port)"; node "$P1" --store "$(db single)"
load "127.0.0.1:$P1" "one node, PostgreSQL" "${PIDS[0]}"; stop_nodes

URL="$(db cluster)"
P1="$(free_port)"; P2="$(free_port)"; P3="$(free_port)"; FRONT="$(free_port)"
node "$P1" --store "$URL"; node "$P2" --store "$URL"; node "$P3" --store "$URL"
EVR_HAPROXY_BIND="127.0.0.1:$FRONT" EVR_NODE1="127.0.0.1:$P1" EVR_NODE2="127.0.0.1:$P2" EVR_NODE3="127.0.0.1:$P3" \
  haproxy -db -f docker/haproxy.cfg >"$WORK/haproxy.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$FRONT/readyz" >/dev/null && break; sleep 0.05; done
load "127.0.0.1:$FRONT" "three nodes on PostgreSQL behind HAProxy"
echo "rooms per node (evr_rooms_loaded_total + created):"
for p in "$P1" "$P2" "$P3"; do echo "  node $p: $(curl -fs "http://127.0.0.1:$p/metrics" | grep -E '^evr_actions_total' || echo 'no actions')"; done
