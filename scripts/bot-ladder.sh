#!/usr/bin/env bash
# The computer's rating list (BENCHMARKS.md, "The computer's strength"): the frozen anchors of
# crates/bot/src/anchors/ played in duplicate pairs, cheap matches on more pairs, then one
# Bradley-Terry fit of every pair anchored at random = 0. Iteration budgets only: every figure
# but the times is a pure function of the seeds. One worker, at the lowest priority (the machine
# is shared): 35 minutes on the 2-core VM at load average 2-5 (2026-11-28).
#
#   bash scripts/bot-ladder.sh [OUT.jsonl] [CHEAP_PAIRS] [PAIRS]
#
# OUT defaults to bench/ladder/anchors.jsonl, beside the other matches kept in the repository, so
# that a later fit (`evr-arena rate bench/ladder/*.jsonl --anchor random`) has every pair.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-bench/ladder/anchors.jsonl}"
cheap="${2:-300}"
pairs="${3:-80}"
cargo build --release --locked -p evr-bot --bin evr-arena
arena() { nice -n 19 target/release/evr-arena match "$@" --threads 1 --out "$out"; }
: >"$out"
arena frozen-easy random --pairs "$cheap" --seed 101
arena greedy random --pairs "$cheap" --seed 102
arena greedy frozen-easy --pairs "$cheap" --seed 103
arena frozen-normal frozen-easy --pairs "$cheap" --seed 104
arena frozen-normal greedy --pairs "$cheap" --seed 105
arena flatmc greedy --pairs "$pairs" --seed 106
arena flatmc frozen-normal --pairs "$pairs" --seed 107
arena frozen-hard frozen-normal --pairs "$pairs" --seed 108
arena frozen-hard flatmc --pairs "$pairs" --seed 109
nice -n 19 target/release/evr-arena rate "$out" --anchor random
