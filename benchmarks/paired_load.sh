#!/bin/bash
# A comparison on a machine whose speed drifts: two trees' servers measured at the
# same time by benchmarks/load.py, each with its generator pinned to one core (taskset),
# the cores swapped every round, so that whatever the host does falls on both alike.
#
#   benchmarks/paired_load.sh BEFORE OUT_DIR [ROUNDS]
#
# BEFORE is a commit (a detached worktree of it is made under OUT_DIR and removed after)
# or a folder holding an older tree.  Both trees run with this tree's venv (make
# .venv/.installed-dev first, in a fresh clone too); a tree's compiled cores are built
# in place when missing (in either tree), so both run the same engine.  Each server runs
# from inside its tree (python -m puts the working folder first on the path), driven by
# its own tree's load.py, which speaks its protocol (a seat's key moved from the URL to
# the subprotocol, for one); a tree without one gets this tree's, less
# --connections-per-peer.  ROWS picks rows (default: all four); AFTER=COMMIT measures
# that commit (a worktree of it) in place of this tree, so one change can be paired with
# its parent (BEFORE=COMMIT^).
# Each run writes OUT_DIR/ROW.TREE.ROUND.json; at the end benchmarks/paired_ratio.py prints
# each row's ratio (this tree's servers' CPU a move over the older one's).  Run it nice'd
# on the quietest machine you have, and give the load average beside the figures.
set -eu
OUT=$(mkdir -p "$2" && cd "$2" && pwd); ROUNDS=${3:-4}
MAIN=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-$MAIN/.venv/bin/python}
PG=${PG_URL:-postgresql+psycopg://postgres@127.0.0.1:5432/postgres}
SCRIPTS=$MAIN
MADE=""
if [ -d "$1" ]; then
  BEFORE=$(cd "$1" && pwd)
else
  BEFORE=$OUT/before-tree
  git -C "$SCRIPTS" worktree add --detach "$BEFORE" "$1" > /dev/null
  MADE=$BEFORE
fi
if [ -n "${AFTER:-}" ]; then
  MAIN=$OUT/after-tree
  git -C "$SCRIPTS" worktree add --detach "$MAIN" "$AFTER" > /dev/null
  MADE="$MADE $MAIN"
fi
cleanup() {
  rm -f "$BEFORE/benchmarks/load_paired.py"
  for tree in $MADE; do git -C "$SCRIPTS" worktree remove --force "$tree"; done
}
trap cleanup EXIT
for tree in "$BEFORE" "$MAIN"; do   # pip builds as make does; the cores are copied in
  if ! ls "$tree"/cardtable/durak/_core*.so > /dev/null 2>&1 \
      && ls "$SCRIPTS"/cardtable/*/_core*.so > /dev/null 2>&1 \
      && git -C "$SCRIPTS" diff --quiet "$(git -C "$tree" rev-parse HEAD)" -- '*.c' '*.h' setup.py; then
    for core in "$SCRIPTS"/cardtable/*/_core*.so; do   # the same sources: the same cores
      cp "$core" "$tree/${core#"$SCRIPTS"/}"
    done
  fi
  if ! ls "$tree"/cardtable/durak/_core*.so > /dev/null 2>&1; then
    rm -rf "$OUT/wheel" && "$PY" -m pip wheel --no-deps -q -w "$OUT/wheel" "$tree" \
      >> "$OUT/build.log" 2>&1
    (cd "$tree" && "$PY" -c 'import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as wheel:
    for name in wheel.namelist():
        if name.endswith(".so"):
            wheel.extract(name, ".")' "$OUT"/wheel/*.whl)
  fi
done
for tree in "$BEFORE" "$MAIN"; do
  echo "$tree: $(cd "$tree" && "$PY" -c 'from cardtable._engine import describe; print(describe())')"
done | tee "$OUT/engines"
if [ -f "$BEFORE/benchmarks/load.py" ]; then
  cp "$BEFORE/benchmarks/load.py" "$BEFORE/benchmarks/load_paired.py"
else
  mkdir -p "$BEFORE/benchmarks"
  sed 's/, "--connections-per-peer", "0"//' "$SCRIPTS/benchmarks/load.py" \
    > "$BEFORE/benchmarks/load_paired.py"
fi
ROWS=${ROWS:-sqlite_full pg_full sqlite_paced pg_paced}
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
row() {  # round row
  case $2 in
    sqlite_full) pair "$1" "$2" --tables 50 --pace 0 --seconds 20 --warmup 4 ;;
    pg_full) pair "$1" "$2" --tables 50 --pace 0 --seconds 20 --warmup 4 --database-url "$PG" ;;
    sqlite_paced) pair "$1" "$2" --tables 250 --pace 1 --seconds 20 --warmup 5 ;;
    pg_paced) pair "$1" "$2" --tables 250 --pace 1 --seconds 20 --warmup 5 \
                --database-url "$PG" ;;
    *) echo "no row $2" >&2; exit 2 ;;
  esac
}
for r in $(seq 1 "$ROUNDS"); do
  for name in $ROWS; do row "$r" "$name"; done
done
"$PY" "$SCRIPTS/benchmarks/paired_ratio.py" "$OUT" | tee "$OUT/ratio"
