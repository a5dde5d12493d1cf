"""What playing the computer offline would cost: the engine in the browser, on Pyodide.

The page has no engine of its own: a table's moves, the bots and the rules are the
server's Python.  Offline, the browser would need that Python itself.  Pyodide (CPython
compiled to WebAssembly; the npm package, pinned in ``tools/pyodide/``, installed there by
``npm ci`` on the first run) runs the engine unchanged, since it uses the standard library
only.  This script measures, on this machine:

- the bytes a phone would fetch once: Pyodide's runtime and standard library, and the
  engine's own modules (``cardtable`` as the bots import it), raw and compressed, and the
  time they take at the page's two slow links (``page_load.PROFILES``);
- Pyodide's start in Node (the same WebAssembly a browser runs) and the engine's import;
- the same work in Pyodide and in CPython (the pure engine, ``CARDTABLE_PURE=1``, as
  Pyodide would have no compiled core), in the same run: random Pasur hands, random Durak
  games and a ``medium`` bot's move at a fixed number of iterations, as a ratio.

A phone is about four times slower than this machine's core (Lighthouse's mobile
profile), so its times are those here times four.  Say the load average beside them.

    .venv/bin/python benchmarks/offline_engine.py
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from page_load import PROFILES

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ROOT / "tools" / "pyodide"
PYODIDE = TOOLS / "node_modules" / "pyodide"
RUNTIME = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
           "pyodide-lock.json")

WORK = '''
import json, os, random, sys, time
os.environ["CARDTABLE_PURE"] = "1"
t0 = time.perf_counter()
from cardtable import bots, games
bots.make("medium", seed=1)
imported = time.perf_counter() - t0

def random_play(game, count):
    spec = games.get(game)
    rng = random.Random(7)
    decisions = 0
    start = time.perf_counter()
    for i in range(count):
        state = spec.start(spec.rules(), players=2, seed=random.Random(i))
        while not state.is_over():
            state.push(rng.choice(state.legal_moves()))
            decisions += 1
    return decisions, time.perf_counter() - start

def bot_moves(game, count):
    spec = games.get(game)
    rng = random.Random(3)
    state = spec.start(spec.rules(), players=2, seed=random.Random(3))
    bot = bots.make("medium:iterations=300,seconds=600", seed=1)
    start = time.perf_counter()
    for _ in range(count):
        if state.is_over():
            break
        state.push(bot.choose(state))
        if not state.is_over():
            state.push(rng.choice(state.legal_moves()))
    return count, time.perf_counter() - start

pasur = random_play("pasur", HANDS)
durak = random_play("durak", HANDS)
medium = bot_moves("pasur", MOVES)
print(json.dumps({"import": imported, "pasur": pasur, "durak": durak, "medium": medium,
                  "python": sys.version.split()[0]}))
'''

NODE = '''
import { loadPyodide } from "%(pyodide)s/pyodide.mjs";
import { readFileSync } from "node:fs";
const t0 = performance.now();
const py = await loadPyodide({ indexURL: "%(pyodide)s/" });
const started = performance.now() - t0;
const engine = new Uint8Array(readFileSync("%(engine)s"));
py.unpackArchive(engine, "zip", { extractDir: "/home/pyodide" });
py.runPython("import sys; sys.path.insert(0, '/home/pyodide')");
let out = "";
py.setStdout({ batched: (line) => { out += line; } });
await py.runPythonAsync(readFileSync("%(work)s", "utf8"));
const result = JSON.parse(out);
result.start = started / 1000;
console.log(JSON.stringify(result));
'''


def installed() -> Path:
    if not (PYODIDE / "pyodide.asm.wasm").exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                       cwd=TOOLS, check=True)
    return PYODIDE


def engine_zip(work: str) -> bytes:
    """The ``cardtable`` modules the work below imports (the engines and the bots, as a
    game against the computer needs them), as a zip of their sources."""
    lister = work.replace("HANDS", "1").replace("MOVES", "1") + (
        "\nprint('\\n'.join(m.__file__ for n, m in list(sys.modules.items())"
        " if n.startswith('cardtable') and getattr(m, '__file__', None)))\n")
    listing = subprocess.run([sys.executable, "-c", lister], check=True, capture_output=True,
                             text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}
                             ).stdout.splitlines()[1:]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(set(listing)):
            path = Path(name)
            archive.write(path, path.relative_to(ROOT).as_posix())
    return buffer.getvalue()


def compressed(body: bytes) -> tuple[int, int | None]:
    try:
        import brotli
    except ImportError:
        return len(gzip.compress(body, 9)), None
    return len(gzip.compress(body, 9)), len(brotli.compress(body, quality=11))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=40, help="random hands/games of each")
    parser.add_argument("--moves", type=int, default=6, help="medium bot moves (300 iterations)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="cardtable-offline-"))
    pyodide = installed()
    engine = engine_zip(WORK)
    (folder / "engine.zip").write_bytes(engine)
    work = WORK.replace("HANDS", str(args.hands)).replace("MOVES", str(args.moves))
    (folder / "work.py").write_text(work)
    (folder / "run.mjs").write_text(NODE % {"pyodide": pyodide, "engine": folder / "engine.zip",
                                            "work": folder / "work.py"})

    total = [0, 0, 0]
    print(f"{'file':22} {'raw kB':>9} {'gzip kB':>9} {'brotli kB':>9}")
    files: list[tuple[str, bytes]] = [(name, (pyodide / name).read_bytes()) for name in RUNTIME]
    files.append(("engine (cardtable) zip", engine))
    for name, body in files:
        packed, squeezed = compressed(body)
        smallest = squeezed if squeezed is not None else packed
        total = [total[0] + len(body), total[1] + packed, total[2] + smallest]
        print(f"{name:22} {len(body) / 1000:9.0f} {packed / 1000:9.0f} "
              f"{'-' if squeezed is None else f'{squeezed / 1000:.0f}':>9}")
    print(f"{'all':22} {total[0] / 1000:9.0f} {total[1] / 1000:9.0f} {total[2] / 1000:9.0f}")
    for name, shape in PROFILES.items():
        seconds = total[2] / shape["download"] + shape["latency"] / 1000
        print(f"download at {name} ({shape['download'] * 8 / 1000:.0f} kbit/s, "
              f"{shape['latency']:.0f} ms round trip): {seconds:.0f} s")

    env = {**os.environ, "CARDTABLE_PURE": "1", "PYTHONPATH": str(ROOT)}
    native: dict[str, Any] = json.loads(subprocess.run(
        [sys.executable, str(folder / "work.py")], check=True, capture_output=True, text=True,
        env=env).stdout)
    wasm: dict[str, Any] = json.loads(subprocess.run(
        ["node", str(folder / "run.mjs")], check=True, capture_output=True, text=True).stdout)
    print(f"\nPyodide {wasm['python']} start in Node: {wasm['start']:.2f} s; the engine's "
          f"import: {wasm['import']:.2f} s (CPython {native['python']}: {native['import']:.2f} s)")
    for key, what in (("pasur", "random Pasur decisions"), ("durak", "random Durak decisions"),
                      ("medium", "medium bot moves (300 iterations)")):
        count, here = native[key]
        _, there = wasm[key]
        print(f"{what}: CPython {count / here:8.1f}/s, Pyodide {count / there:8.1f}/s, "
              f"Pyodide takes {there / here:.2f}x CPython's time")


if __name__ == "__main__":
    main()
