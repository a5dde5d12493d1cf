"""nginx in front of several server processes, with the repository's own configuration.

``deploy/nginx/cardtable.conf`` is the file an operator puts in nginx's http block; this
module runs that very file (its upstream's ``server`` lines and its ``listen`` replaced by
the ports of a run) in a folder of its own, as the user running it, in the foreground.
``benchmarks/load.py --proxy`` and the suite's rolling-restart test use it.  With ``tls``,
the file's ``#tls`` lines (TLS and HTTP/2) take the place of its plain listen line, with a
self-signed certificate made for the run (``openssl``), as a public site would run it.

>>> text = render(["127.0.0.1:9001", "127.0.0.1:9002"], "127.0.0.1:9000", Path("/tmp/x"))
>>> "server 127.0.0.1:9002 max_fails=0;" in text, "8001" in text
(True, False)
>>> "listen 127.0.0.1:9000;" in text, "access_log /tmp/x/access.log cardtable;" in text
(True, True)
"""

from __future__ import annotations

import re
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

__all__ = ["CONFIG", "Nginx", "render"]

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "deploy" / "nginx" / "cardtable.conf"

_SERVER = re.compile(r"^(\s*)server 127\.0\.0\.1:\d+ (max_fails=.*)$", re.MULTILINE)
_LISTEN = re.compile(r"^(\s*)listen 127\.0\.0\.1:\d+;$", re.MULTILINE)
_ACCESS_LOG = re.compile(r"^(\s*)access_log /\S+ ", re.MULTILINE)
_TLS = re.compile(r"^(\s*)#tls (.*)$", re.MULTILINE)


def tls_lines(site: str, listen: str, certificate: Path, key: Path) -> str:
    r"""The site file with its ``#tls`` lines in force (on ``listen``, this certificate)
    in place of its plain listen line.

    >>> site = ("    listen 127.0.0.1:8080;\n    #tls listen 443 ssl http2;\n"
    ...         "    #tls listen [::]:443 ssl http2;\n    #tls ssl_certificate /x.pem;\n")
    >>> print(tls_lines(site, "127.0.0.1:9443", Path("/c.pem"), Path("/k.pem")).rstrip())
        listen 127.0.0.1:9443 ssl http2;
        ssl_certificate /c.pem;
    """
    def line(match: re.Match[str]) -> str:
        indent, text = match.groups()
        if text.startswith("listen [::]"):
            return ""
        text = re.sub(r"^listen 443 ", f"listen {listen} ", text)
        text = re.sub(r"^ssl_certificate\s+\S+;", f"ssl_certificate {certificate};", text)
        text = re.sub(r"^ssl_certificate_key\s+\S+;", f"ssl_certificate_key {key};", text)
        return f"{indent}{text}"

    site = _LISTEN.sub("", site)
    return "\n".join(part for part in _TLS.sub(line, site).split("\n") if part != "")


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and its key, made by ``openssl`` for one run."""
    certificate, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(certificate)],
                   check=True, capture_output=True)
    return certificate, key


def render(upstreams: list[str], listen: str, folder: Path, tls: bool = False) -> str:
    """A whole nginx.conf around the shipped site file, for these processes and address
    (TLS and HTTP/2 on it with ``tls``: the file's ``#tls`` lines)."""
    site = CONFIG.read_text(encoding="utf-8")
    found = _SERVER.findall(site)
    if not found or len(_LISTEN.findall(site)) != 1:
        raise ValueError(f"{CONFIG} has no upstream server lines or no single listen line")
    indent, options = found[0]
    lines = "\n".join(f"{indent}server {address} {options}" for address in upstreams)
    site = _SERVER.sub("", site, count=len(found) - 1) if len(found) > 1 else site
    site = _SERVER.sub(lambda _: lines, site, count=1)
    if tls:
        site = tls_lines(site, listen, *self_signed(folder))
    else:
        site = _LISTEN.sub(lambda m: f"{m.group(1)}listen {listen};", site)
    site = _ACCESS_LOG.sub(lambda m: f"{m.group(1)}access_log {folder / 'access.log'} ", site)
    temp = folder / "temp"
    return (f"worker_processes 1;\nerror_log {folder / 'error.log'} warn;\n"
            f"pid {folder / 'nginx.pid'};\n"
            "events { worker_connections 16384; }\n"
            "worker_rlimit_nofile 40000;\n"
            "http {\n    access_log off;\n"
            f"    client_body_temp_path {temp}/body;\n    proxy_temp_path {temp}/proxy;\n"
            f"    fastcgi_temp_path {temp}/fastcgi;\n    uwsgi_temp_path {temp}/uwsgi;\n"
            f"    scgi_temp_path {temp}/scgi;\n"
            + site + "\n}\n")


class Nginx:
    """nginx on ``listen`` in front of ``upstreams`` ("host:port" each), until ``stop``."""

    def __init__(self, upstreams: list[str], port: int, folder: Path, tls: bool = False) -> None:
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        if not Path(binary).exists():
            raise FileNotFoundError("nginx is not installed (Debian: apt-get install nginx)")
        self.port = port
        self.base = f"{'https' if tls else 'http'}://127.0.0.1:{port}"
        self.folder = folder
        (folder / "temp").mkdir(parents=True, exist_ok=True)
        conf = folder / "nginx.conf"
        conf.write_text(render(upstreams, f"127.0.0.1:{port}", folder, tls), encoding="utf-8")
        self.process = subprocess.Popen(
            [binary, "-p", str(folder), "-c", str(conf), "-e", str(folder / "error.log"),
             "-g", "daemon off;"], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 20
        while True:
            if self.process.poll() is not None:
                raise RuntimeError("nginx did not start:\n" + self.log())
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", port)) == 0:
                    return
            if time.monotonic() > deadline:
                raise RuntimeError("nginx did not listen within 20 s:\n" + self.log())
            time.sleep(0.05)

    def log(self) -> str:
        path = self.folder / "error.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def pids(self) -> list[int]:
        """The master's and its workers' process ids (their CPU is the proxy's)."""
        found = [self.process.pid]
        for child in Path("/proc").iterdir():
            if child.name.isdigit():
                try:
                    fields = (child / "stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                if int(fields[1]) == self.process.pid:
                    found.append(int(child.name))
        return found

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)   # graceful: workers finish, then go
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
