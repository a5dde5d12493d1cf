#!/bin/bash
# A comparison on a machine whose speed drifts: two trees' servers measured at the
# same time by benchmarks/load.py, each with its generator pinned to one core (taskset),
# the cores swapped every round, so that whatever the host does falls on both alike.
#
#   benchmarks/paired_load.sh BEFORE_TREE OUT_DIR [ROUNDS]
#
# BEFORE_TREE is a worktree of the older commit (git worktree add --detach DIR COMMIT); the
# script runs its server from inside it (python -m puts the working folder first on the
# path), with this tree's load.py less --connections-per-peer (which a0c1c5f's server lacks).
# Each run writes OUT_DIR/ROW.TREE.ROUND.json; read cpu_ms_per_move.servers from them.
set -eu
BEFORE=$(cd "$1" && pwd); OUT=$(mkdir -p "$2" && cd "$2" && pwd); ROUNDS=${3:-4}
MAIN=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-$MAIN/.venv/bin/python}
PG=${PG_URL:-postgresql+psycopg://postgres@127.0.0.1:5432/postgres}
sed 's/, "--connections-per-peer", "0"//' "$MAIN/benchmarks/load.py" > "$BEFORE/benchmarks/load_paired.py"
one() {  # core tree name args...
  local core=$1 tree=$2 name=$3; shift 3
  if [ "$tree" = before ]; then dir=$BEFORE; load=benchmarks/load_paired.py
  else dir=$MAIN; load=benchmarks/load.py; fi
  (cd "$dir" && taskset -c "$core" "$PY" "$load" "$@" --json "$OUT/$name.json" \
     > "$OUT/$name.log" 2>&1)
}
pair() {  # round row args...
  local r=$1 row=$2; shift 2
  local cb=$(( r % 2 )) cm=$(( 1 - r % 2 ))
  one $cb before "$row.before.$r" "$@" & one $cm main "$row.main.$r" "$@" & wait
  echo "$(date +%T) $row round $r (before on core $cb)" >> "$OUT/progress"
}
for r in $(seq 1 "$ROUNDS"); do
  pair "$r" sqlite_full --tables 50 --pace 0 --seconds 20 --warmup 4
  pair "$r" pg_full --tables 50 --pace 0 --seconds 20 --warmup 4 --database-url "$PG"
  pair "$r" sqlite_paced --tables 250 --pace 1 --seconds 20 --warmup 5
  pair "$r" pg_paced --tables 250 --pace 1 --seconds 20 --warmup 5 --database-url "$PG"
done
rm -f "$BEFORE/benchmarks/load_paired.py"
