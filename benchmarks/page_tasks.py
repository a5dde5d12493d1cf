"""The page's main-thread tasks after its first paint, by the CPU time their thread had.

Lighthouse scores a page's blocking time from each task's wall time (times its CPU
slowdown), so on a shared machine its figure is mostly the waits for a core.  This script
opens each page in ``/usr/bin/chromium`` (Playwright, a phone's screen: 412x823 at 1.75),
records Chromium's trace of the load, and reads the renderer's main-thread tasks by their
thread time (``tdur``): what the page itself asked of the CPU, whatever the load.  For each
page, over ``--loads`` loads (the pages taken in turn, so two servers can be compared in
one sitting), the median and range of:

- ``after``: the CPU time of every task from the first paint on (ms);
- ``largest``: the longest of those tasks (ms);
- ``blocking4x``: the blocking time they would make at Lighthouse's 4x slowdown, less the
  50 ms a task may take (the sum of ``4 x tdur - 50`` over the tasks), as
  ``benchmarks/lighthouse.py`` counts it;
- ``over12``: how many took more than 12.5 ms (50 ms at 4x).

    .venv/bin/python benchmarks/page_tasks.py http://127.0.0.1:8000/ http://127.0.0.1:8001/
    .venv/bin/python benchmarks/page_tasks.py --table http://127.0.0.1:8000/   # a new table

With ``--table`` each server gets a new Pasur table of a person against a bot, watched (the
table Lighthouse's benchmark opens); an old table may have moved on and draw more.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
from pathlib import Path
from typing import Any

from lighthouse import a_table

CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "loading"]
FIGURES = ("after", "largest", "blocking4x", "over12")


def tasks_after_paint(events: list[dict[str, Any]], page: str) -> dict[str, float]:
    """The figures of one load's trace (the renderer that parsed ``page``)."""
    parses = [e for e in events if e.get("name") == "ParseHTML"
              and str(e.get("args", {}).get("beginData", {}).get("url", "")).startswith(page)]
    pid, tid = parses[0]["pid"], parses[0]["tid"]
    paints = [e["ts"] for e in events if e.get("name") == "firstContentfulPaint"
              and e.get("pid") == pid]
    start = min(paints) if paints else parses[0]["ts"]
    cpu = [e["tdur"] / 1000 for e in events
           if e.get("name") == "RunTask" and e.get("ph") == "X" and "tdur" in e
           and (e["pid"], e["tid"]) == (pid, tid) and e["ts"] >= start]
    return {"after": sum(cpu), "largest": max(cpu, default=0.0),
            "blocking4x": sum(max(0.0, 4 * one - 50) for one in cpu),
            "over12": float(sum(1 for one in cpu if one > 12.5))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("urls", nargs="+", help="the servers (their lobbies)")
    parser.add_argument("--loads", type=int, default=6)
    parser.add_argument("--table", action="store_true", help="a new table on each, not the lobby")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    pages = [a_table(url if url.endswith("/") else url + "/") if args.table else url
             for url in args.urls]
    runs: dict[str, list[dict[str, float]]] = {page: [] for page in pages}
    print(f"load average before: {os.getloadavg()[0]:.1f}", flush=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
        for _ in range(args.loads):
            for page_url in pages:
                context = browser.new_context(viewport={"width": 412, "height": 823},
                                              device_scale_factor=1.75, is_mobile=True,
                                              has_touch=True)
                page = context.new_page()
                path = Path(tempfile.mkdtemp(prefix="cardtable-tasks-")) / "trace.json"
                browser.start_tracing(page=page, path=str(path), categories=CATEGORIES)
                page.goto(page_url)
                page.wait_for_timeout(3000)
                browser.stop_tracing()
                trace = json.loads(path.read_text())
                events = trace["traceEvents"] if isinstance(trace, dict) else trace
                path.unlink()
                path.parent.rmdir()
                origin = page_url.split("/table/")[0]
                runs[page_url].append(tasks_after_paint(events, origin))
                context.close()
        browser.close()
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    for page_url, each in runs.items():
        print(page_url + "  " + "  ".join(
            f"{name} {statistics.median(r[name] for r in each):.1f}"
            f" ({min(r[name] for r in each):.1f}-{max(r[name] for r in each):.1f})"
            for name in FIGURES))


if __name__ == "__main__":
    main()
