"""Server processes for the tests, forked from a process that has imported the server.

``python -m cardtable.server`` spends about 1.6 s of CPU importing FastAPI, SQLAlchemy and
the server before it reads a flag, and the suite starts a hundred or so of them (kills,
restarts, two processes behind nginx).  A starter process, one for each test process,
imports them once and forks every server from there: the child runs the same
``cardtable.server.__main__.main(argv)`` in a process of its own, with the asking test's
environment and working directory, its output in the log file, so a kill -9 is a kill -9.

The starter is the servers' parent: it reaps them and tells how each ended, so
:class:`Forked` answers as ``subprocess.Popen`` does (``pid``, ``poll``, ``wait``,
``kill``, ``terminate``, ``send_signal``, ``returncode``).  A test that changes one of the
engine's or Python's own variables (``CARDTABLE_*`` read at import, ``PYTHON*``) gets a
plain ``python -m cardtable.server`` instead, since the starter imported under its own.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

_IMPORTED_UNDER = ("CARDTABLE_", "PYTHON")


def _serve() -> None:
    """The starter: one request a line on stdin, one answer a line on stdout."""
    import cardtable.server.web.app  # noqa: F401  (the point: imported once, here)
    from cardtable.server.__main__ import main

    requests, answers = sys.stdin.buffer, sys.stdout.buffer
    ended: dict[int, int] = {}
    for line in requests:
        asked = json.loads(line)
        if "start" in asked:
            pid = os.fork()
            if pid == 0:
                _child(asked, main)
            answer: dict[str, object] = {"pid": pid}
        else:
            pid = asked["poll"]
            if pid not in ended:
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    ended[pid] = os.waitstatus_to_exitcode(status)
            answer = {"code": ended.get(pid)}
        answers.write(json.dumps(answer).encode() + b"\n")
        answers.flush()


def _child(asked: dict, main) -> None:  # type: ignore[no-untyped-def]
    """In the forked server: the asker's world, then the server's main; never returns."""
    code = 1
    try:
        log = os.open(asked["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        nothing = os.open(os.devnull, os.O_RDONLY)
        os.dup2(nothing, 0)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(log)
        os.close(nothing)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        os.chdir(asked["cwd"])
        os.environ.clear()
        os.environ.update(asked["env"])
        sys.argv = ["python -m cardtable.server", *asked["start"]]
        main(asked["start"])
        code = 0
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    except BaseException:   # the traceback goes to the log, as python's own would
        import traceback
        traceback.print_exc()
    finally:
        import atexit
        atexit._run_exitfuncs()   # what python would do at its end (os._exit skips it)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


class Starter:
    """This test process's starter, made at the first server asked of it."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--serve"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=dict(os.environ))
        self.env = {k: v for k, v in os.environ.items() if k.startswith(_IMPORTED_UNDER)}
        self.lock = threading.Lock()

    def ask(self, request: dict) -> dict:
        assert self.process.stdin is not None and self.process.stdout is not None
        with self.lock:
            self.process.stdin.write(json.dumps(request).encode() + b"\n")
            self.process.stdin.flush()
            line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("the server starter has gone")
        return json.loads(line)

    def fits(self, env: dict[str, str]) -> bool:
        """Whether a server under ``env`` imports what the starter imported."""
        return {k: v for k, v in env.items() if k.startswith(_IMPORTED_UNDER)} == self.env


class Forked:
    """A server forked by the starter, handled as a ``subprocess.Popen``."""

    def __init__(self, starter: Starter, pid: int, args: list[str]) -> None:
        self.starter, self.pid, self.args = starter, pid, args
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self.starter.ask({"poll": self.pid})["code"]
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(self.args, timeout or 0)
            time.sleep(0.02)
        assert self.returncode is not None
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:   # never a signal to a pid the system may have given again
            os.kill(self.pid, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)


_starter: Starter | None = None
_starter_lock = threading.Lock()


def start_server(argv: list[str], *, cwd: Path, log: Path) -> Forked | subprocess.Popen:
    """``python -m cardtable.server *argv`` in ``cwd``, its output added to ``log``."""
    global _starter
    env = dict(os.environ)
    command = [sys.executable, "-m", "cardtable.server", *argv]
    with _starter_lock:
        if _starter is None or _starter.process.poll() is not None:
            _starter = Starter()
        starter = _starter
    if not starter.fits(env):
        with log.open("ab") as output:
            return subprocess.Popen(command, cwd=cwd, stdout=output,
                                    stderr=subprocess.STDOUT)
    pid = starter.ask({"start": argv, "cwd": str(cwd), "log": str(log), "env": env})["pid"]
    return Forked(starter, pid, command)


if __name__ == "__main__" and sys.argv[1:] == ["--serve"]:
    _serve()
