"""How soon a new player can press "Play the computer" on a slow link.

Chromium (``/usr/bin/chromium``, driven by Playwright) opens the lobby under the DevTools
protocol's network emulation: every request waits the round trip, and all of them share
the bandwidth.  Two profiles: ``slow`` (2 s round trip, 400 kbit/s each way: DevTools'
"Slow 3G") and ``3g`` (562.5 ms, 1.44 Mbit/s down, 675 kbit/s up: its "Fast 3G").

For each, a ``cold`` visit (a new browser profile: nothing cached, no service worker) and
a ``warm`` one (the same profile opening the page again, once the device keeps the page's
script: a first visit gets the script inside the page, and the page sets a cookie when the
service worker has kept the file).  The service worker's own requests (it asks the network
for the page first) pass through its own DevTools target, which is given the same
emulation (``Target.sendMessageToTarget``): without it a warm visit would look 2 s faster
than a phone would see it.  Measured in the page, from the
navigation's start: the first paint (the header) and the moment the first "Play the
computer" button is in the page and enabled ("usable"); counted: the requests and the
bytes they carried (as sent, compressed or not).

    .venv/bin/python benchmarks/page_load.py                 # starts `cardtable serve`
    .venv/bin/python benchmarks/page_load.py --url http://127.0.0.1:8080/   # a running one
    .venv/bin/python benchmarks/page_load.py --nginx         # through deploy/nginx
    .venv/bin/python benchmarks/page_load.py --locale fa-IR  # a Persian reader

The server is started as ``make run`` starts it (a fresh data folder).  Each round opens a
new browser profile; the figures are the median and the range of ``--rounds`` rounds.
Screenshots of each profile's last visit go to ``--shots`` when given.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
_UNVERIFIED = ssl._create_unverified_context()   # --tls: the run's self-signed certificate

PROFILES = {
    "slow": {"latency": 2000, "download": 400_000 / 8, "upload": 400_000 / 8},
    "3g": {"latency": 562.5, "download": 1_440_000 / 8, "upload": 675_000 / 8},
}

USABLE = "button.play-computer"

PROBE = """
(() => {
  const seen = {};
  const look = () => {
    const button = document.querySelector(USABLE);
    if (button && !button.disabled && !seen.usable) {
      seen.usable = performance.now();
      seen.text = button.textContent;
    }
  };
  new MutationObserver(look).observe(document, { childList: true, subtree: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (entry.name === "first-contentful-paint") seen.paint = entry.startTime;
  }).observe({ type: "paint", buffered: true });
  window.__loadProbe = seen;
})();
""".replace("USABLE", json.dumps(USABLE))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_up(url: str, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with urllib.request.urlopen(url + "api/health", timeout=2, context=_UNVERIFIED):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"the server at {url} did not answer")


def primed(url: str, timeout: float = 120.0) -> None:
    """Wait until the server sends its script in brotli (made seconds after it starts,
    gzip meanwhile): the figures are those of a server that has been up a while."""
    import re

    with urllib.request.urlopen(url, timeout=10, context=_UNVERIFIED) as answer:
        # the short page names its script; a first visit's carries it, and its name
        found = re.search(rb'(?:src="/assets/|data-script=")(app\.[0-9a-f]+\.js)"',
                          answer.read())
    if not found:
        return
    script = url.rstrip("/") + "/assets/" + found.group(1).decode()
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        request = urllib.request.Request(script, headers={"Accept-Encoding": "br"})
        with urllib.request.urlopen(request, timeout=10, context=_UNVERIFIED) as answer:
            if answer.headers.get("Content-Encoding") == "br":
                return
        time.sleep(0.5)


def start_server(folder: Path, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "CARDTABLE_DATA_DIR": str(folder)}
    return subprocess.Popen([sys.executable, "-m", "cardtable", "serve", "--host", "127.0.0.1",
                             "--port", str(port)], env=env, cwd=folder,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def visit(page: Any, cdp: Any, url: str, timeout: float) -> dict[str, Any]:
    """One navigation: when the header painted, when the button was usable, what it cost."""
    requests: list[dict[str, Any]] = []

    def finished(params: dict[str, Any]) -> None:
        requests.append(params)

    cdp.on("Network.loadingFinished", finished)
    page.goto(url, wait_until="commit")
    page.wait_for_function("() => window.__loadProbe && window.__loadProbe.usable",
                           timeout=timeout * 1000)
    page.wait_for_timeout(300)
    probe = page.evaluate("""() => ({ ...window.__loadProbe,
      html: performance.getEntriesByType("navigation")[0].responseEnd,
      protocol: performance.getEntriesByType("navigation")[0].nextHopProtocol,
      files: performance.getEntriesByType("resource").map((e) => [e.name, e.responseEnd]) })""")
    cdp.remove_listener("Network.loadingFinished", finished)
    return {"paint": probe.get("paint", 0) / 1000, "usable": probe["usable"] / 1000,
            "html": probe["html"] / 1000, "protocol": probe["protocol"],
            "files": {name.rsplit("/", 1)[-1]: round(end / 1000, 2)
                      for name, end in probe["files"]},
            "requests": len(requests),
            "bytes": int(sum(r.get("encodedDataLength", 0) for r in requests))}


def throttle_worker(browser: Any, url: str, shape: dict[str, float], timeout: float) -> None:
    """Give the page's service worker (once it runs) the page's network emulation: its
    requests are its own target's, which the page's DevTools session does not reach."""
    session = browser.new_browser_cdp_session()
    end = time.monotonic() + timeout
    try:
        while True:
            workers = [target for target in session.send("Target.getTargets")["targetInfos"]
                       if target["type"] == "service_worker" and target["url"].startswith(url)]
            if workers:
                break
            if time.monotonic() > end:
                raise SystemExit("the page's service worker did not start")
            time.sleep(0.2)
        for worker in workers:
            attached = session.send("Target.attachToTarget", {"targetId": worker["targetId"],
                                                              "flatten": False})
            for number, (method, params) in enumerate([
                    ("Network.enable", {}),
                    ("Network.emulateNetworkConditions", {
                        "offline": False, "latency": shape["latency"],
                        "downloadThroughput": shape["download"],
                        "uploadThroughput": shape["upload"]})], start=1):
                session.send("Target.sendMessageToTarget", {
                    "sessionId": attached["sessionId"],
                    "message": json.dumps({"id": number, "method": method, "params": params})})
    finally:
        time.sleep(0.5)   # the messages are read before the session goes


def measure(url: str, profiles: list[str], rounds: int, timeout: float,
            shots: Path | None,
            locale: str = "en-US") -> dict[str, dict[str, list[dict[str, Any]]]]:
    from playwright.sync_api import sync_playwright

    results: dict[str, dict[str, list[dict[str, Any]]]] = {
        name: {"cold": [], "warm": []} for name in profiles}
    with sync_playwright() as play:
        browser = play.chromium.launch(executable_path="/usr/bin/chromium",
                                       args=["--ignore-certificate-errors"])
        for _ in range(rounds):
            for name in profiles:
                context = browser.new_context(viewport={"width": 412, "height": 860},
                                              ignore_https_errors=True, locale=locale)
                context.add_init_script(PROBE)
                page = context.new_page()
                cdp = context.new_cdp_session(page)
                cdp.send("Network.enable")
                shape = PROFILES[name]
                cdp.send("Network.emulateNetworkConditions", {
                    "offline": False, "latency": shape["latency"],
                    "downloadThroughput": shape["download"],
                    "uploadThroughput": shape["upload"]})
                for kind in ("cold", "warm"):
                    results[name][kind].append(visit(page, cdp, url, timeout))
                    if shots is not None:
                        page.screenshot(path=str(shots / f"{name}-{kind}.png"))
                    if kind == "cold":
                        throttle_worker(browser, url, shape, timeout)
                        page.wait_for_function(
                            "() => document.cookie.includes('cardtable_assets=')",
                            timeout=timeout * 1000)
                context.close()
        browser.close()
    return results


def summary(values: list[float]) -> str:
    return f"{statistics.median(values):6.2f} s ({min(values):.2f}-{max(values):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="a running server (else one is started)")
    parser.add_argument("--nginx", action="store_true",
                        help="through deploy/nginx/cardtable.conf in front of the server")
    parser.add_argument("--tls", action="store_true",
                        help="with --nginx: over TLS and HTTP/2 (the file's #tls lines, a "
                             "self-signed certificate)")
    parser.add_argument("--profiles", default="slow,3g")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--shots", type=Path)
    parser.add_argument("--json", action="store_true", help="the raw figures as JSON")
    parser.add_argument("--locale", default="en-US",
                        help="the browser's language (fa-IR: the page's words in Persian)")
    args = parser.parse_args()
    if args.shots:
        args.shots.mkdir(parents=True, exist_ok=True)

    stops: list[Any] = []
    folder = Path(tempfile.mkdtemp(prefix="cardtable-pageload-"))
    try:
        url = args.url
        if url is None:
            port = free_port()
            server = start_server(folder, port)
            stops.append(lambda: (server.send_signal(signal.SIGINT), server.wait(20)))
            url = f"http://127.0.0.1:{port}/"
            wait_up(url)
            if args.nginx:
                sys.path.insert(0, str(ROOT / "benchmarks"))
                from proxy import Nginx

                front = free_port()
                nginx = Nginx([f"127.0.0.1:{port}"], front, folder / "nginx", tls=args.tls)
                stops.append(nginx.stop)
                url = nginx.base + "/"
                wait_up(url)
        if not url.endswith("/"):
            url += "/"
        primed(url)
        results = measure(url, args.profiles.split(","), args.rounds, args.timeout, args.shots,
                          args.locale)
    finally:
        for stop in reversed(stops):
            stop()
    if args.json:
        print(json.dumps(results, indent=1))
        return
    print(f"{url}  ({args.rounds} rounds; median (range))")
    for name, kinds in results.items():
        for kind, runs in kinds.items():
            print(f"{name:5} {kind:5} header {summary([r['paint'] for r in runs])}"
                  f"  usable {summary([r['usable'] for r in runs])}"
                  f"  requests {statistics.median([r['requests'] for r in runs]):.0f}"
                  f"  bytes {statistics.median([r['bytes'] for r in runs]) / 1000:.1f} kB"
                  f"  {runs[-1]['protocol']}")


if __name__ == "__main__":
    main()
