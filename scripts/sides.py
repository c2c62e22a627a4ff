#!/usr/bin/env python3
"""Which side is favoured: the `hard` computer (at 2,000 iterations, as when this began) against
itself, in batches of 50 games that add up across runs (and sessions) in bench/sides.csv, one line
per batch with its seed, so that every batch is reproducible (`evr-tournament hard hard --games 50
--seed SEED --threads 1 --iters 2000 --split-levels 0 --value-rounds 0` plays the same games) and none is counted twice.

    python3 scripts/sides.py run [--batches N] [--from SEED] [--binary PATH]
                                                 play N more batches (default: until stopped), their
                                                 seeds the first ones not played from SEED on (two
                                                 runs at once, one per core, each from its own SEED);
                                                 --binary: a copy of evr-tournament to play with, so
                                                 that a rebuild of the bot while it runs does not
                                                 change the player mid-measurement
    python3 scripts/sides.py sum                 the totals, the Rebel's score with its 95% Wilson
                                                 interval, and the edge in rating points
    python3 scripts/sides.py sum --seeds 568-632,700-764
                                                 the same over those batches only (BENCHMARKS'
                                                 rows, one per stop)
    python3 scripts/sides.py cost --last N       CPU seconds a game over the file's last N batches
                                                 (today's cost: the early rows hold wall time)

The first batches' seeds start at 302 (seed 301 was the first look's 200 games, listed first).
`seconds` is the batch's CPU time from seeds 372 and 418 on; before, it was the batch's wall time,
which overstates the cost of the batches played at nice 19 beside other work (368-370, 414-416).
`run` needs `target/measure/evr-tournament` (cargo build --profile measure -p evr-bot --bin
evr-tournament: the release build optimized as one unit, 5% faster; the same decisions)."""

import csv
import math
import pathlib
import re
import resource
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CSV = ROOT / "bench" / "sides.csv"
# Hard's search as the measurement began (2,000 iterations; the level searches 8,000 since stop 44;
# no kept tree, `--split-levels 0`: the level keeps one since stop 45; playouts to the end of the
# game, `--value-rounds 0`: the level's stop after a round since stop 46): every batch plays the same
# player, so the batches add up, and a game costs a quarter of today's.
ITERATIONS = 2000
FIELDS = ["seed", "games", "rebel_wins", "imperial_wins", "draws", "seconds"]
GAMES = 50


def rows():
    if not CSV.exists():
        return []
    with CSV.open() as f:
        return list(csv.DictReader(f))


def run(batches, first=302, binary=ROOT / "target/measure/evr-tournament"):
    done = {int(r["seed"]) for r in rows()}
    seed, played = first, 0
    while batches is None or played < batches:
        while seed in done:
            seed += 1
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run(
            [str(binary), "hard", "hard", "--games", str(GAMES),
             "--seed", str(seed), "--threads", "1", "--iters", str(ITERATIONS), "--split-levels", "0", "--value-rounds", "0"],
            check=True, capture_output=True, text=True).stdout
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        sides = re.search(r"sides: Rebel (\d+) wins, Imperial (\d+) wins, (\d+) draws", out)
        # CPU seconds of the batch, not its wall time (a run at nice 19 beside other work waits).
        secs = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        new = not CSV.exists()
        with CSV.open("a", newline="") as f:
            w = csv.writer(f)
            if new:
                w.writerow(FIELDS)
            w.writerow([seed, GAMES, sides[1], sides[2], sides[3], f"{secs:.1f}"])
        print(f"seed {seed}: Rebel {sides[1]}, Imperial {sides[2]}, draws {sides[3]}", flush=True)
        done.add(seed)
        played += 1


def wilson(score, n, z=1.959964):
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def edge(p):
    return 400 * math.log10(p / (1 - p))


def in_ranges(seed, ranges):
    """`ranges` as "568-632,700-764" (a bare seed is a range of one)."""
    for part in ranges.split(","):
        low, _, high = part.partition("-")
        if int(low) <= seed <= int(high or low):
            return True
    return False


def summary(ranges=None):
    rs = [r for r in rows() if ranges is None or in_ranges(int(r["seed"]), ranges)]
    if not rs:
        sys.exit("no batch with those seeds")
    games = sum(int(r["games"]) for r in rs)
    rebel = sum(int(r["rebel_wins"]) for r in rs)
    imperial = sum(int(r["imperial_wins"]) for r in rs)
    draws = sum(int(r["draws"]) for r in rs)
    seconds = sum(float(r["seconds"]) for r in rs)
    score = rebel + draws / 2
    p = score / games
    low, high = wilson(score, games)
    print(f"{games} games ({len(rs)} batches), Rebel {rebel}, Imperial {imperial}, draws {draws}")
    print(f"Rebel score {100 * p:.1f}% [95% Wilson {100 * low:.1f}%, {100 * high:.1f}%]; "
          f"edge {edge(p):+.0f} [{edge(low):+.0f}, {edge(high):+.0f}] rating points")
    print(f"{seconds / 3600:.1f} core-hours, {seconds / games:.2f} s a game")
    print(f"evr-ratings MEASURED: games {games}, rebel_wins {rebel}, draws {draws}")


def cost(last):
    rs = rows()[-last:]
    if last < 1 or not rs:
        sys.exit("--last needs a positive number of batches, and the file some")
    seconds = sum(float(r["seconds"]) for r in rs)
    games = sum(int(r["games"]) for r in rs)
    print(f"last {len(rs)} batches (seeds {rs[0]['seed']}..{rs[-1]['seed']}): {seconds / games:.2f} s a game")


if __name__ == "__main__":
    if sys.argv[1:2] == ["run"]:
        opts = dict(zip(sys.argv[2::2], sys.argv[3::2]))
        run(int(opts["--batches"]) if "--batches" in opts else None, int(opts.get("--from", 302)),
            pathlib.Path(opts.get("--binary", ROOT / "target/measure/evr-tournament")))
    elif sys.argv[1:] == ["sum"]:
        summary()
    elif sys.argv[1:3] == ["sum", "--seeds"] and len(sys.argv) == 4:
        summary(sys.argv[3])
    elif sys.argv[1:3] == ["cost", "--last"] and len(sys.argv) == 4:
        cost(int(sys.argv[3]))
    else:
        print(__doc__)
        sys.exit(2)
