"""The server is typed, not waved through: ``Any`` is counted and held under a budget.

The count is of the name ``Any`` in the server's code (Python's tokenizer's NAME tokens
under cardtable/server, so a word in a docstring or a comment does not count; the
``import`` of it does).  What is left is pydantic-settings' keyword arguments (a
settings field's value is any of its fields' types: ``create_app(data_dir=..., bot_delay=0)``).
The budget is the count: it is lowered as the count falls, so it never rises again.
"""

from __future__ import annotations

import io
import tokenize
from pathlib import Path

SERVER = Path(__file__).resolve().parents[1] / "cardtable" / "server"
ANY_BUDGET = 5


def any_count(code: str) -> int:
    """How many times the name ``Any`` appears in ``code`` (not in its words)."""
    tokens = tokenize.generate_tokens(io.StringIO(code).readline)
    return sum(1 for token in tokens if token.type == tokenize.NAME and token.string == "Any")


def test_any_is_counted_in_code_not_in_words() -> None:
    code = ('from typing import Any\n'
            'def f(x: Any) -> dict[str, Any]:  # Any in a comment\n'
            '    """Any in a docstring."""\n'
            '    return {"Any": AnyOther}\n')
    assert any_count(code) == 3


def test_the_server_stays_within_its_any_budget() -> None:
    counts = {path.relative_to(SERVER).as_posix(): any_count(path.read_text(encoding="utf-8"))
              for path in sorted(SERVER.rglob("*.py"))}
    total = sum(counts.values())
    worst = sorted(((n, name) for name, n in counts.items() if n), reverse=True)[:8]
    assert total <= ANY_BUDGET, (
        f"{total} Any in cardtable/server (budget {ANY_BUDGET}): type it as what it is "
        f"(object and narrowing, core.shapes.JSON, a TypedDict or a Protocol); most in "
        f"{worst}")
