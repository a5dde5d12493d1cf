"""Which engine runs, and the compiled cores' build: ``CARDTABLE_PURE`` and the C warnings."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORES = sorted((ROOT / "cardtable").glob("*/_core.c"))


def _engine_in_a_new_process(**env: str) -> str:
    done = subprocess.run([sys.executable, "-c", "import cardtable; print(cardtable.ENGINE)"],
                          env={**os.environ, **env}, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_cardtable_pure_makes_import_cardtable_use_the_pure_engine():
    assert _engine_in_a_new_process(CARDTABLE_PURE="1") == "pure"


def test_engine_names_one_of_the_two_engines():
    assert _engine_in_a_new_process(CARDTABLE_PURE="0") in ("compiled", "pure")


@pytest.mark.skipif(shutil.which("gcc") is None, reason="no gcc on this machine")
@pytest.mark.parametrize("source", CORES, ids=lambda path: path.parent.name)
def test_the_compiled_core_builds_clean_with_every_warning_on(source):
    include = sysconfig.get_paths()["include"]
    done = subprocess.run(["gcc", "-fsyntax-only", "-std=c11", "-Wall", "-Wextra", "-Werror",
                           f"-I{include}", str(source)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""


def test_the_engine_line_says_why_the_pure_engine_runs():
    done = subprocess.run([sys.executable, "-c",
                           "from cardtable._engine import describe; print(describe())"],
                          env={**os.environ, "CARDTABLE_PURE": "1"},
                          capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "cardtable: the pure-Python engine (CARDTABLE_PURE is set)"
