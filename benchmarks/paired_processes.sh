#!/bin/bash
# One server process against two behind nginx (deploy/nginx/cardtable.conf, Redis between
# them), the servers' CPU a move of each, in one sitting: ROUNDS rounds, each running both
# (one then two in odd rounds, two then one in even ones), on PostgreSQL, 100 tables at full
# speed, 60 s counted (COUNTED=SECONDS for another; at 15 s the runs of a round held 2.5
# to 8.1 new tables a thousand moves, at 60 s 7.9 to 8.9) after at least 20 s of warm-up in which each table's first game is
# resigned after a random number of moves below 110 (load.py --spread; counting waits
# until every first game has ended), so that the games end spread out: started together,
# they ended in waves, and a run counted from 0.2 to 16.5 new tables a thousand moves,
# each new table 10 to 50 ms of the servers' CPU (the count of each run is printed beside
# its ratio; a random game lasts 113 moves on average, 43 to 216), a 2 ms commit window
# (docs/deploy.md; WINDOW=SECONDS
# for another).  Each run writes OUT/one.N.json or OUT/two.N.json (benchmarks/load.py's
# figures) and OUT/loads.txt the load average at each start and end; the ratio of a round
# is two's servers' CPU a move over one's (nginx's own is beside it, as "proxy"), and the
# same over the load generator's CPU a move (the same work in both runs: a measure of how
# fast the machine ran each one).
#
#   nice benchmarks/paired_processes.sh OUT [ROUNDS]
set -eu
OUT=$(mkdir -p "$1" && cd "$1" && pwd); ROUNDS=${2:-4}
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
PG=${PG_URL:-postgresql+psycopg://postgres@127.0.0.1:5432/postgres}
REDIS=${REDIS_URL:-redis://127.0.0.1:6379/0}
for r in $(seq 1 "$ROUNDS"); do
  order="one two"; [ $(( r % 2 )) = 0 ] && order="two one"
  for kind in $order; do
    extra=""; [ "$kind" = two ] && extra="--processes 2 --proxy --redis-url $REDIS"
    echo "$r $kind start $(cat /proc/loadavg)" >> "$OUT/loads.txt"
    # shellcheck disable=SC2086
    "$PY" benchmarks/load.py --tables 100 --pace 0 --seconds "${COUNTED:-60}" --warmup 20 --spread 110 \
      --commit-window "${WINDOW:-0.002}" --database-url "$PG" $extra --json "$OUT/$kind.$r.json" \
      > "$OUT/$kind.$r.log" 2>&1
    echo "$r $kind end $(cat /proc/loadavg)" >> "$OUT/loads.txt"
  done
done
"$PY" - "$OUT" "$ROUNDS" <<'PYTHON'
import json, math, sys
out, rounds = sys.argv[1], int(sys.argv[2])
ratios, loop_ratios = [], []


def loops(run):
    """The servers' event loops' CPU a move (their threads' other work and the kernel's
    left out): the part a move costs whatever the tables' turnover."""
    return sum(ms for threads in run["thread_cpu_ms_per_move"]
               for name, ms in threads.items() if "event loop" in name)


for r in range(1, rounds + 1):
    runs = [json.load(open(f"{out}/{kind}.{r}.json")) for kind in ("one", "two")]
    one, two = (run["cpu_ms_per_move"] for run in runs)
    made = [1000 * run["tables_made"] / max(1, run["moves"]) for run in runs]
    loop_ratios.append(loops(runs[1]) / max(1e-9, loops(runs[0])))
    ratios.append(two["servers"] / one["servers"])
    scaled = (two["servers"] / two["generator"]) / (one["servers"] / one["generator"])
    print(f"round {r}: one {one['servers']:.3f} ms, two {two['servers']:.3f} ms "
          f"(nginx {two.get('proxy', 0):.3f}), ratio {ratios[-1]:.3f}; generator "
          f"{one['generator']:.3f} / {two['generator']:.3f} ms, ratio over it {scaled:.3f}; "
          f"new tables a thousand moves {made[0]:.1f} / {made[1]:.1f}; the event loops "
          f"{loops(runs[0]):.3f} / {loops(runs[1]):.3f} ms, ratio {loop_ratios[-1]:.3f}")
mean = math.exp(sum(map(math.log, ratios)) / len(ratios))
print(f"geometric mean {mean:.3f}, rounds {min(ratios):.3f} to {max(ratios):.3f}")
loop_mean = math.exp(sum(map(math.log, loop_ratios)) / len(loop_ratios))
print(f"the event loops alone: geometric mean {loop_mean:.3f}, rounds "
      f"{min(loop_ratios):.3f} to {max(loop_ratios):.3f}")
PYTHON
