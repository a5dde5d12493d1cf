"""Lighthouse's scores for the lobby and a table, on its mobile profile, in Debian's Chromium.

Lighthouse (the npm package, pinned in ``tools/lighthouse/package-lock.json``, installed
there by ``npm ci`` on the first run) opens each page in ``/usr/bin/chromium`` with its
default mobile profile (a phone's screen, 4x slower CPU, simulated slow 4G) and scores
performance, accessibility and best practices.  A page opened by Lighthouse is a first
visit (a new profile: nothing kept), so it gets the page with its script inside
(``web/assets``).  The table is a new table of a person against a bot, watched.

    .venv/bin/python benchmarks/lighthouse.py                # starts `cardtable serve`
    .venv/bin/python benchmarks/lighthouse.py --url http://127.0.0.1:8000/ --runs 3

Each page is measured ``--runs`` times; the median of each score is printed, with each
performance metric's median, the spread (lowest-highest) of the performance score and the
load average before each run.  Performance on a busy machine is mostly its blocking time:
say the load average beside the figures.

``--calibrate`` follows Lighthouse's own advice on CPU throttling (its docs/throttling.md,
"Calibrating the CPU slowdown"): the 4x slowdown takes a high-end desktop (a
``benchmarkIndex`` of 1500-2000) to a mid-tier phone; a slower host should be slowed less.
Each load of the page is then scored twice from the same trace (Lighthouse's ``-GA``,
then ``-A`` on the artifacts it kept): once as Lighthouse does by default, and once with
the slowdown scaled to the ``benchmarkIndex`` Lighthouse measured during that load,
``4 x index / 1750`` (at least 1, at most 4): the phone Lighthouse means, made from the
machine as loaded as it was then.  On a shared machine the index falls with the load, and
so does the slowdown; the waits for a core inside a task are not taken out this way (the
index is measured once, just before the page loads, not during each task).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from page_load import free_port, primed, start_server, wait_up

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ROOT / "tools" / "lighthouse"
LIGHTHOUSE = TOOLS / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = ("performance", "accessibility", "best-practices")
DESKTOP_INDEX = 1750
"""The middle of Lighthouse's "high-end desktop" range (1500-2000), which its default 4x
slowdown takes to a mid-tier phone."""
METRICS = ("first-contentful-paint", "largest-contentful-paint", "total-blocking-time",
           "cumulative-layout-shift", "speed-index")


def installed() -> Path:
    if not LIGHTHOUSE.exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                       cwd=TOOLS, check=True)
    return LIGHTHOUSE


def a_table(url: str) -> str:
    """A new table of a person against a bot (its page, watched)."""
    request = urllib.request.Request(
        url + "api/tables", method="POST", headers={"Content-Type": "application/json"},
        data=json.dumps({"game": "pasur", "seats": ["human", "bot:random"]}).encode())
    with urllib.request.urlopen(request, timeout=10) as answer:
        return f"{url}table/{json.load(answer)['table']}"


def slowdown(index: float) -> float:
    """The CPU slowdown that takes a host of this ``benchmarkIndex`` to the phone Lighthouse's
    4x takes a high-end desktop to.

    >>> slowdown(1750), slowdown(875), slowdown(200), slowdown(2600)
    (4.0, 2.0, 1.0, 4.0)
    """
    return round(min(4.0, max(1.0, 4 * index / DESKTOP_INDEX)), 2)


def run(binary: Path, page: str, folder: Path, calibrate: bool = False) -> list[dict[str, Any]]:
    """One load of ``page`` scored as Lighthouse does by default; if ``calibrate``, the
    same load (its saved trace and artifacts: ``-GA`` then ``-A``) scored again with the
    CPU slowdown scaled to the ``benchmarkIndex`` measured during it."""
    load = os.getloadavg()[0]
    artifacts = folder / "artifacts"
    flags = ["--quiet", "--output=json", "--only-categories=" + ",".join(CATEGORIES),
             "--save-assets", "--chrome-flags=--headless=new --no-sandbox"]
    env = {**os.environ, "CHROME_PATH": "/usr/bin/chromium"}
    out = folder / "report.json"
    for tries_left in (2, 1, 0):
        # a loaded machine sometimes loses the trace's start (NO_NAVSTART): load again
        done = subprocess.run([str(binary), page, *flags, f"--output-path={out}",
                               f"-GA={artifacts}"], env=env)
        if done.returncode == 0 or not tries_left:
            done.check_returncode()
            break
    runs = [scored(json.loads(out.read_text()), folder, page, load)]
    if calibrate:
        # Lighthouse refuses to audit with other settings than it gathered with; its
        # simulated throttling gathers without any CPU slowdown (it applies the slowdown
        # in the simulation only), so the kept settings are told the new one
        multiplier = slowdown(runs[0]["index"])
        kept = artifacts / "artifacts.json"
        saved = json.loads(kept.read_text())
        saved["settings"]["throttling"]["cpuSlowdownMultiplier"] = multiplier
        kept.write_text(json.dumps(saved))
        out = folder / "calibrated.json"
        subprocess.run([str(binary), page, *flags, f"--output-path={out}", f"-A={artifacts}",
                        f"--throttling.cpuSlowdownMultiplier={multiplier}"],
                       check=True, env=env)
        runs.append(scored(json.loads(out.read_text()), folder, page, load))
    return runs


def scored(report: dict[str, Any], folder: Path, page: str, load: float) -> dict[str, Any]:
    """What the report says (and the blocking time its trace's CPU times give)."""
    trace = json.loads((folder / "report-0.trace.json").read_text())
    return {"load": load, "index": report["environment"]["benchmarkIndex"],
            "multiplier": report["configSettings"]["throttling"]["cpuSlowdownMultiplier"],
            "cpu": cpu_blocking(trace["traceEvents"], page,
                                report["audits"]["first-contentful-paint"]["numericValue"],
                                report["configSettings"]["throttling"]["cpuSlowdownMultiplier"]),
            "scores": {name: report["categories"][name]["score"] for name in CATEGORIES},
            "metrics": {name: report["audits"][name]["numericValue"] for name in METRICS},
            "long": [(round(item["startTime"]), round(item["duration"]), item["url"][-40:])
                     for item in report["audits"]["long-tasks"].get("details", {})
                     .get("items", [])],
            "work": {item["group"]: round(item["duration"])
                     for item in report["audits"]["mainthread-work-breakdown"]
                     .get("details", {}).get("items", [])},
            "failed": sorted(ref["id"] for cat in report["categories"].values()
                             for ref in cat["auditRefs"] if ref.get("weight")
                             and report["audits"][ref["id"]].get("score") is not None
                             and report["audits"][ref["id"]]["score"] < 0.9)}


def cpu_blocking(events: list[dict[str, Any]], page: str, fcp_ms: float,
                 multiplier: float = 4.0) -> float:
    """The blocking time Lighthouse's simulation would find on an idle machine: each of the
    page's main-thread tasks after its first paint counted by the CPU time its thread had
    (``tdur``: no time spent waiting for a core another process held), times Lighthouse's
    CPU slowdown (``multiplier``), less the 50 ms a task may take.  On a shared machine
    Lighthouse's own figure counts the waits for a core too, and moves with the load."""
    parses = [e for e in events if e.get("name") == "ParseHTML"
              and str(e.get("args", {}).get("beginData", {}).get("url", "")).startswith(page)]
    if not parses:
        return float("nan")
    pid, tid = parses[0]["pid"], parses[0]["tid"]
    paints = [e["ts"] for e in events if e.get("name") == "firstContentfulPaint"
              and e.get("pid") == pid]
    start = min(paints) if paints else min(e["ts"] for e in parses) + fcp_ms * 1000
    return sum(max(0.0, multiplier * e["tdur"] / 1000 - 50) for e in events
               if e.get("name") == "RunTask" and e.get("ph") == "X" and "tdur" in e
               and (e["pid"], e["tid"]) == (pid, tid) and e["ts"] >= start)


def report(name: str, runs: list[dict[str, Any]], details: bool) -> None:
    """The medians of ``runs`` of one page, with the performance score's spread and the
    load average, benchmarkIndex and CPU slowdown of each run."""
    scores = "  ".join(
        f"{c} {round(100 * statistics.median(r['scores'][c] for r in runs))}" for c in CATEGORIES)
    each = ", ".join(str(round(100 * r["scores"]["performance"])) for r in runs)
    metrics = "  ".join(
        f"{m.replace('-', ' ')} {statistics.median(r['metrics'][m] for r in runs):.3g}"
        for m in METRICS)
    cpu = statistics.median(r["cpu"] for r in runs)
    loads = ", ".join(f"{r['load']:.1f}" for r in runs)
    print(f"{name}: {scores}\n       performance of each run: {each}"
          f"\n       load average: {loads};"
          f" benchmarkIndex: {', '.join(str(round(r['index'])) for r in runs)};"
          f" CPU slowdown: {', '.join(str(r['multiplier']) for r in runs)}"
          f"\n       {metrics} (ms; the layout shift is a fraction)"
          f"\n       blocking time from CPU time (x the slowdown, after the first paint):"
          f" {cpu:.0f} ms"
          f"\n       below 0.9: {sorted({a for r in runs for a in r['failed']})}", flush=True)
    if details:
        for one in runs:
            print(f"       long tasks: {one['long']}\n       work: {one['work']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="a running server (else one is started)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pages", default="lobby,table", help="lobby, table or both")
    parser.add_argument("--calibrate", action="store_true",
                        help="each load scored again with the CPU slowdown scaled to the "
                        "machine's benchmarkIndex measured then (the module's text says how)")
    parser.add_argument("--details", action="store_true",
                        help="each run's long tasks (start, length in ms, script) and main-"
                        "thread work by kind: where the blocking time goes")
    args = parser.parse_args()
    binary = installed()
    folder = Path(tempfile.mkdtemp(prefix="cardtable-lighthouse-"))
    server = None
    try:
        url = args.url
        if url is None:
            port = free_port()
            server = start_server(folder, port)
            url = f"http://127.0.0.1:{port}/"
            wait_up(url)
        url = url if url.endswith("/") else url + "/"
        primed(url)
        wanted = args.pages.split(",")
        for name in wanted:
            page = url if name == "lobby" else a_table(url)
            runs, calibrated = [], []
            for _ in range(args.runs):
                one = run(binary, page, folder, args.calibrate)
                runs.append(one[0])
                calibrated.extend(one[1:])
            report(name, runs, args.details)
            if calibrated:
                report(name + " (calibrated)", calibrated, args.details)
    finally:
        if server is not None:
            server.send_signal(signal.SIGINT)
            server.wait(20)


if __name__ == "__main__":
    main()
