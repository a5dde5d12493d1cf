"""The HTTP API fuzzed by schemathesis on PostgreSQL: the same checks
as ``test_server_schemathesis`` (no 5xx, every answer described), with the app on a
PostgreSQL database of the module's own, where a NUL byte or a number past a column's
range is the database's refusal rather than SQLite's shrug.

CI starts PostgreSQL, so there an unreachable server fails the module; elsewhere it skips.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.util
import os
import secrets
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.python import asgi
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    positive_data_acceptance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from tablekit import MACHINE_SPEED

from cardtable.server import create_app

pytestmark = pytest.mark.services

ADMIN = "postgresql://postgres@127.0.0.1:5432/test"
NAME = f"cardtable_fuzz_{secrets.token_hex(4)}"
EXAMPLES = int(os.environ.get("CARDTABLE_FUZZ_EXAMPLES", "30"))
"""Cases per operation (as ``test_server_schemathesis``: CARDTABLE_FUZZ_EXAMPLES for more)."""
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_headers_conformance, response_schema_conformance, negative_data_rejection,
          positive_data_acceptance]
"""As ``test_server_schemathesis``'s, and what the schema allows is accepted (the schema
states the server's rules: ``web.spec``; the formats it names are drawn as
``benchmarks/conformance_hooks.py`` says)."""

_HOOKS = importlib.util.spec_from_file_location(
    "conformance_hooks", Path(__file__).parents[2] / "benchmarks" / "conformance_hooks.py")
assert _HOOKS is not None and _HOOKS.loader is not None
_HOOKS.loader.exec_module(importlib.util.module_from_spec(_HOOKS))


def _drop_database() -> None:
    import psycopg

    with psycopg.connect(ADMIN, autocommit=True, connect_timeout=5) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{NAME}" WITH (FORCE)')


def _drop_quietly() -> None:
    with contextlib.suppress(Exception):
        _drop_database()


def _database() -> str:
    """A new, empty database for this module (dropped when it ends)."""
    psycopg = pytest.importorskip("psycopg")
    try:
        with psycopg.connect(ADMIN, autocommit=True, connect_timeout=5) as admin:
            admin.execute(f'CREATE DATABASE "{NAME}"')
        atexit.register(_drop_quietly)   # collected but never run (-k, another worker)
    except psycopg.OperationalError as error:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip(f"PostgreSQL is not reachable at 127.0.0.1:5432: {error}",
                    allow_module_level=True)
    return f"postgresql+psycopg://postgres@127.0.0.1:5432/{NAME}"


DATA = tempfile.mkdtemp(prefix="cardtable-schemathesis-pg-")
atexit.register(shutil.rmtree, DATA, ignore_errors=True)
APP = create_app(data_dir=DATA, static_dir=DATA, database_url=_database(), bot_delay=600,
                 grace=600, **MACHINE_SPEED)
SCHEMA = schemathesis.openapi.from_dict(APP.openapi())
SCHEMA.app = APP
SCHEMA.config.generation.update(modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE])


@pytest.fixture(scope="session", autouse=True)
def _the_app_stops() -> Iterator[None]:
    """The app stops and its folder and database go when the worker's session ends, not
    the module: xdist may hand a worker more of this module's cases after others'."""
    yield
    asgi.shutdown_lifespans()
    shutil.rmtree(DATA, ignore_errors=True)
    _drop_database()


@SCHEMA.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_no_request_gets_a_5xx_on_postgresql(case: schemathesis.Case) -> None:
    case.call_and_validate(checks=CHECKS)
