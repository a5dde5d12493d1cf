"""benchmarks/load.py, the load generator the capacity figures come from, runs end to end.

The figures themselves belong to benchmarks (docs/performance.md); here a tiny run shows the
tool measures what it says: moves applied over real sockets, none lost, and its own loop's
lateness reported beside the latencies.  At full speed every table has a move out when the
counting begins and when it ends: the moves counted are the very ones the servers stored
between the CPU's two readings, or the CPU a move would be divided by the wrong count.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_small_run_plays_moves_and_reports_every_figure(tmp_path: Path) -> None:
    out = tmp_path / "load.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "load.py"), "--tables", "3",
         "--pace", "0", "--spread", "5", "--seconds", "3", "--warmup", "2", "--json", str(out)],
        capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(out.read_text())
    assert figures["tables"] == 3 and figures["database"] == "sqlite"
    assert figures["moves"] > 0 and figures["moves_per_s"] > 0
    assert figures["stored_moves"] == figures["moves"]
    assert figures["tables_made"] >= 0 and figures["database_connections"] is None
    assert figures["errors"] == 0 and figures["lost"] == 0, figures["error_reasons"]
    assert figures["mover_p50_ms"] <= figures["mover_p99_ms"]
    assert figures["generator_lag_p99_ms"] is not None
    assert figures["generator_lag_p99_ms"] <= figures["generator_lag_max_ms"]
    assert 0 <= figures["steal_pct"] <= 100
    assert set(figures["cpu_ms_per_move"]) == {"servers", "generator", "services",
                                               "postgres", "redis"}
    assert all(ms >= 0 for ms in figures["cpu_ms_per_move"].values())
