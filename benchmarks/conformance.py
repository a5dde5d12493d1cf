"""The whole HTTP API against its own OpenAPI schema: schemathesis ``--checks all``.

One server process (``python -m cardtable.server``) on a fresh PostgreSQL database made
beside ``--database-url`` (or SQLite in a fresh folder without it), its per-address limits
raised so that the run's thousands of requests from one address are judged on what they
say rather than refused as a flood (the limits' own tests are elsewhere), then
``schemathesis run --checks all`` (every check, positive and negative cases, every
phase) against ``/openapi.json``, with ``conformance_hooks`` saying what the schema's own
formats (a name, a username, a new password) look like.  It prints schemathesis's summary
and exits with its code; the database is dropped after.

    python benchmarks/conformance.py --database-url \\
        postgresql+psycopg://postgres@127.0.0.1:5432/postgres --max-examples 100
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from load import drop_database, free_port, fresh_database

ROOT = Path(__file__).resolve().parents[1]
UNLIMITED = ["--login-per-address", "100000/minute",
             "--login-per-account-address", "100000/minute",
             "--register-per-address", "100000/minute",
             "--guests-per-address", "100000/minute",
             "--reset-per-address", "100000/minute",
             "--reports-per-address", "100000/minute",
             "--tables-per-address", "", "--bot-tables-per-address", "1000",
             "--ws-messages-per-second", "0"]


def start(folder: Path, port: int, extra: list[str]) -> subprocess.Popen[bytes]:
    log = (folder / "server.log").open("ab")
    process = subprocess.Popen(
        [sys.executable, "-m", "cardtable.server", "--port", str(port), "--data-dir",
         str(folder), "--log-level", "warning", *UNLIMITED, *extra],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit("the server did not start: see " + str(folder / "server.log"))
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=2).status_code == 200:
                return process
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    process.kill()
    raise SystemExit("the server did not answer within 300 s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=None,
                        help="PostgreSQL: a fresh database is made beside this one")
    parser.add_argument("--max-examples", type=int, default=100,
                        help="cases an operation and phase")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", default="1")
    parser.add_argument("--extra", default="",
                        help="more schemathesis options, e.g. '--phases coverage "
                             "--include-path /api/account/register'")
    parser.add_argument("--report", default=None,
                        help="a folder for schemathesis's JUnit report")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="cardtable-conformance-"))
    extra: list[str] = []
    made = None
    if args.database_url:
        url, made = fresh_database(args.database_url)
        extra = ["--database-url", url]
    port = free_port()
    process = start(folder, port, extra)
    try:
        command = [str(Path(sys.executable).with_name("schemathesis")), "run",
                   f"http://127.0.0.1:{port}/openapi.json", "--checks", "all",
                   "--max-examples", str(args.max_examples), "--seed", str(args.seed),
                   "--workers", args.workers, "--no-color", *args.extra.split()]
        if args.report:
            command += ["--report", "junit", "--report-dir", args.report]
        hooks = Path(__file__).with_name("conformance_hooks.py")
        return subprocess.call(command, cwd=folder,
                               env={**os.environ, "SCHEMATHESIS_HOOKS": str(hooks)})
    finally:
        process.terminate()
        process.wait(30)
        if made is not None and args.database_url:
            drop_database(args.database_url, made)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
