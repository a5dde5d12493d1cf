"""The HTTP API against its own OpenAPI description, fuzzed by schemathesis:
requests that fit the description and requests that do not, every operation,
in process (ASGI, no network).  No answer is a 5xx, and every answer is one the
description names, with the body and content type it says."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.python import asgi
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from tablekit import MACHINE_SPEED

from cardtable.server import create_app

DATA = tempfile.mkdtemp(prefix="cardtable-schemathesis-")
atexit.register(shutil.rmtree, DATA, ignore_errors=True)   # collected but never run
APP = create_app(data_dir=DATA, static_dir=DATA, bot_delay=600, grace=600,
                 **MACHINE_SPEED)
SCHEMA = schemathesis.openapi.from_dict(APP.openapi())
SCHEMA.app = APP   # called in process; its lifespan starts with the first request
SCHEMA.config.generation.update(modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE])

EXAMPLES = int(os.environ.get("CARDTABLE_FUZZ_EXAMPLES", "30"))
"""Cases per operation in every run (derandomized: the same cases each run).
CARDTABLE_FUZZ_EXAMPLES=100 or more for a longer hunt: docs/reliability.md gives the last
one's result."""

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_headers_conformance, response_schema_conformance, negative_data_rejection]


@pytest.fixture(scope="session", autouse=True)
def _the_app_stops() -> Iterator[None]:
    """The app stops and its folder goes when the worker's session ends, not the module:
    xdist may hand a worker more of this module's cases after others'."""
    yield
    asgi.shutdown_lifespans()
    shutil.rmtree(DATA, ignore_errors=True)


@SCHEMA.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_no_request_gets_a_5xx_and_every_answer_is_described(case: schemathesis.Case) -> None:
    case.call_and_validate(checks=CHECKS)
