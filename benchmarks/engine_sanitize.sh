#!/bin/sh
# The differential tests (Pasur's, then Durak's) under AddressSanitizer (and
# UndefinedBehaviorSanitizer): the compiled cores are built again with
# -fsanitize=address,undefined into a scratch copy of the tree and run against the pure
# engine there; then the cores' own tests (Pasur's exact endgame search, playouts and whole
# ISMCTS search, refused input, a million pushes and pops; Durak's playouts and exact
# endgame search; the research episodes' steps, tensors and the vector's batched step)
# under the same build.  Too slow for make test.
#
#     sh benchmarks/engine_sanitize.sh [positions]      (default 100000)
#
# Any memory error (a read or write out of bounds, a use after free, a leak of the core's
# own buffers) or undefined behaviour stops the run with the sanitizer's report.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PYTHON=${PYTHON:-$ROOT/.venv/bin/python}
POSITIONS=${1:-100000}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cp -r "$ROOT/cardtable" "$ROOT/tests" "$ROOT/benchmarks" "$ROOT/pyproject.toml" "$WORK/"
find "$WORK/cardtable" -name '_core*.so' -delete
INCLUDE=$("$PYTHON" -c "import sysconfig; print(sysconfig.get_paths()['include'])")
SUFFIX=$("$PYTHON" -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))")
for source in "$WORK"/cardtable/*/_core.c; do
    gcc -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all \
        -Wall -Wextra -std=c11 -fPIC -shared -I"$INCLUDE" \
        "$source" -o "${source%.c}$SUFFIX"
done
START=$(date +%s)
# (Python itself is not built with the sanitizer: its runtime is preloaded, and leaks are
# not looked for, since the interpreter keeps much alive at exit on purpose)
LD_PRELOAD=$(gcc -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0 \
    PYTHONPATH="$WORK" "$PYTHON" "$WORK/benchmarks/engine_differential.py" \
    --positions "$POSITIONS"
echo "pasur under AddressSanitizer: $(( $(date +%s) - START )) s"
START=$(date +%s)
LD_PRELOAD=$(gcc -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0 \
    PYTHONPATH="$WORK" "$PYTHON" "$WORK/benchmarks/engine_differential_durak.py" \
    --positions "$POSITIONS"
echo "durak under AddressSanitizer: $(( $(date +%s) - START )) s"
START=$(date +%s)
(cd "$WORK" && LD_PRELOAD=$(gcc -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0 \
    PYTHONPATH="$WORK" "$PYTHON" -m pytest -q -p no:cacheprovider -p no:randomly \
    tests/pasur/test_pasur_core.py tests/pasur/test_pasur_compiled.py \
    tests/bots/test_bots_fast.py \
    tests/bots/test_durak_fast_playout.py tests/bots/test_durak_fast_solve.py \
    tests/adapters/test_core_episode.py tests/adapters/test_vector.py \
    tests/adapters/test_tensors.py)
echo "the cores' tests under AddressSanitizer: $(( $(date +%s) - START )) s"
