#!/usr/bin/env bash
# What one archive or replay request costs the server (BENCHMARKS.md, "What a replay costs"): a
# server of our own (target/release, built by the test command or `cargo build --release -p
# evr-server -p evr-loadgen`), 10 games played to their end by evr-loadgen, then 200 requests of each
# kind over one kept-alive connection (curl); the server's CPU time per request from /proc and the
# median wall time. /healthz is the floor of a request.
set -euo pipefail
cd "$(dirname "$0")/.."
for bin in target/release/evr-server target/release/evr-loadgen; do
  [ -x "$bin" ] || { echo "$bin not found: cargo build --release -p evr-server -p evr-loadgen"; exit 1; }
done
WORK="$(mktemp -d /tmp/evr-bench-replays.XXXXXX)"
PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')"
# limits lifted: the point is each request's cost, not the limit that bounds them
target/release/evr-server --bind "127.0.0.1:$PORT" --data-dir "$WORK/data" --rooms-per-minute 1000000 \
  --messages-per-second 1000 --max-connections-per-client 1000000 --replays-per-minute 1000000 \
  >"$WORK/server.log" 2>&1 &
PID=$!
trap 'kill "$PID" 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 200); do curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null && break; sleep 0.05; done
target/release/evr-loadgen --addr "127.0.0.1:$PORT" --server-pid "$PID" --matches 10 --think-min-ms 0 \
  --think-max-ms 0 --reveal-at-end --rooms-file "$WORK/rooms.jsonl" >"$WORK/loadgen.log" 2>&1
mapfile -t CODES < <(python3 -c 'import json,sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("over"): print(r["code"])' "$WORK/rooms.jsonl")
echo "games played to their end: ${#CODES[@]}"
ticks() { awk '{print $14 + $15}' "/proc/$PID/stat"; }
hz="$(getconf CLK_TCK)"
for kind in healthz games games/1/replay games/1/steps "games/1/steps?eyes=spectator"; do
  : >"$WORK/curl.cfg"
  for code in "${CODES[@]}"; do
    for _ in $(seq 20); do
      if [ "$kind" = healthz ]; then url="http://127.0.0.1:$PORT/healthz"
      else url="http://127.0.0.1:$PORT/api/rooms/$code/$kind"; fi
      printf 'url = "%s"\noutput = "/dev/null"\n' "$url" >>"$WORK/curl.cfg"
    done
  done
  n=$(( ${#CODES[@]} * 20 ))
  before="$(ticks)"
  curl -s -K "$WORK/curl.cfg" -w '%{time_total}\n' >"$WORK/times"
  after="$(ticks)"
  python3 - "$WORK/times" "$kind" "$n" "$before" "$after" "$hz" <<'PY'
import statistics, sys
times, kind, n, before, after, hz = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
wall = statistics.median(float(l) for l in open(times)) * 1000
cpu = (after - before) / hz / n * 1e6
print(f"{kind:32} {n} requests: server CPU {cpu:5.0f} µs each, wall median {wall:.2f} ms")
PY
done
