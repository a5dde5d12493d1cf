#!/bin/bash
# A comparison on a machine whose speed drifts: two trees' servers measured at the
# same time by benchmarks/load.py, each with its generator pinned to one core (taskset),
# the cores swapped every round, so that whatever the host does falls on both alike.
#
#   benchmarks/paired_load.sh BEFORE OUT_DIR [ROUNDS]
#
# BEFORE is a commit (a detached worktree of it is made under OUT_DIR and removed after)
# or a folder holding an older tree.  Both trees run with this tree's venv (make
# .venv/.installed-dev first, in a fresh clone too); the older tree's compiled cores are
# built in place when missing, so both run the same engine.  The older server runs from
# inside its tree (python -m puts the working folder first on the path), with this tree's
# load.py less --connections-per-peer (which servers before a0c1c5f's successor lack).
# Each run writes OUT_DIR/ROW.TREE.ROUND.json; at the end benchmarks/paired_ratio.py prints
# each row's ratio (this tree's servers' CPU a move over the older one's).  Run it nice'd
# on the quietest machine you have, and give the load average beside the figures.
set -eu
OUT=$(mkdir -p "$2" && cd "$2" && pwd); ROUNDS=${3:-4}
MAIN=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-$MAIN/.venv/bin/python}
PG=${PG_URL:-postgresql+psycopg://postgres@127.0.0.1:5432/postgres}
MADE=""
if [ -d "$1" ]; then
  BEFORE=$(cd "$1" && pwd)
else
  BEFORE=$OUT/before-tree
  git -C "$MAIN" worktree add --detach "$BEFORE" "$1" > /dev/null
  MADE=$BEFORE
fi
cleanup() {
  rm -f "$BEFORE/benchmarks/load_paired.py"
  if [ -n "$MADE" ]; then git -C "$MAIN" worktree remove --force "$MADE"; fi
}
trap cleanup EXIT
if ! ls "$BEFORE"/cardtable/durak/_core*.so > /dev/null 2>&1; then
  (cd "$BEFORE" && "$PY" setup.py -q build_ext --inplace > "$OUT/build.log" 2>&1)
fi
for tree in "$BEFORE" "$MAIN"; do
  echo "$tree: $(cd "$tree" && "$PY" -c 'from cardtable._engine import describe; print(describe())')"
done | tee "$OUT/engines"
sed 's/, "--connections-per-peer", "0"//' "$MAIN/benchmarks/load.py" > "$BEFORE/benchmarks/load_paired.py"
one() {  # core tree name args...
  local core=$1 tree=$2 name=$3; shift 3
  if [ "$tree" = before ]; then dir=$BEFORE; load=benchmarks/load_paired.py
  else dir=$MAIN; load=benchmarks/load.py; fi
  (cd "$dir" && taskset -c "$core" "$PY" "$load" "$@" --json "$OUT/$name.json" \
     > "$OUT/$name.log" 2>&1) || true
}
pair() {  # round row args...
  local r=$1 row=$2; shift 2
  local cb=$(( r % 2 )) cm=$(( 1 - r % 2 ))
  one $cb before "$row.before.$r" "$@" & one $cm main "$row.main.$r" "$@" & wait
  echo "$(date +%T) $row round $r (before on core $cb) load $(cut -d' ' -f1-3 /proc/loadavg)" \
    | tee -a "$OUT/progress"
}
for r in $(seq 1 "$ROUNDS"); do
  pair "$r" sqlite_full --tables 50 --pace 0 --seconds 20 --warmup 4
  pair "$r" pg_full --tables 50 --pace 0 --seconds 20 --warmup 4 --database-url "$PG"
  pair "$r" sqlite_paced --tables 250 --pace 1 --seconds 20 --warmup 5
  pair "$r" pg_paced --tables 250 --pace 1 --seconds 20 --warmup 5 --database-url "$PG"
done
"$PY" "$MAIN/benchmarks/paired_ratio.py" "$OUT" | tee "$OUT/ratio"
