"""Times in the database: timestamps with a time zone (``timestamptz`` on PostgreSQL),
always in UTC; in Python an aware ``datetime`` in UTC (``Stamp``).

SQLite has no time type: SQLAlchemy's ``DateTime`` keeps a time there as text without its
offset and gives back a naive ``datetime``, whatever zone it was written in.  ``Stamp``
therefore turns every time to UTC before it is stored and marks what comes back as UTC, so
both databases hold and give the same moments (PostgreSQL answers in the session's zone:
that is turned to UTC too).  A naive ``datetime`` is refused: its zone is unknown.

The API and the page show a time as the ISO text ``text_of`` makes, as they always have
(``2026-12-03T15:36:54.026+00:00``).  The live tables (``play``) still carry their times
as that text: their columns (``tables.created`` and ``finished``, ``moves.at``,
``chat_messages.at``) are ``StampText``, the same timestamp in the database and that text
in Python, so the conversion is here at the storage's edge.
"""

from __future__ import annotations

import datetime as _dt

from sqlalchemy import DateTime
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

__all__ = ["Stamp", "StampText", "moment_of", "stamp", "text_of"]

UTC = _dt.UTC


def stamp() -> _dt.datetime:
    """Now, in UTC, to the millisecond (the precision the page shows).

    >>> stamp().tzinfo is UTC and stamp().microsecond % 1000 == 0
    True
    """
    moment = _dt.datetime.now(UTC)
    return moment.replace(microsecond=moment.microsecond // 1000 * 1000)


def text_of(moment: _dt.datetime) -> str:
    """A time as the API shows it: ISO 8601 in UTC, to the millisecond.

    >>> text_of(_dt.datetime(2026, 12, 3, 18, 6, 54, 26000, tzinfo=_dt.timezone(
    ...     _dt.timedelta(hours=2, minutes=30))))
    '2026-12-03T15:36:54.026+00:00'
    """
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


def moment_of(text: str) -> _dt.datetime:
    """The time an ISO text with an offset names, in UTC (``ValueError`` without one).

    >>> moment_of("2026-12-03T15:36:54.026+00:00")
    datetime.datetime(2026, 12, 3, 15, 36, 54, 26000, tzinfo=datetime.timezone.utc)
    """
    moment = _dt.datetime.fromisoformat(text)
    if moment.tzinfo is None:
        raise ValueError(f"the time {text!r} has no offset: in which zone is it?")
    return moment.astimezone(UTC)


class Stamp(TypeDecorator[_dt.datetime]):
    """A timestamp with a time zone; an aware ``datetime`` in UTC (see the module)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: _dt.datetime | None,
                           dialect: Dialect) -> _dt.datetime | None:
        if value is None:
            return None
        if not isinstance(value, _dt.datetime) or value.tzinfo is None:
            raise ValueError(f"a time to store needs its zone: {value!r}")
        value = value.astimezone(UTC)
        # SQLite's DateTime writes the digits and drops the zone: they are UTC's
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: object, dialect: Dialect) -> _dt.datetime | None:
        if value is None:
            return None
        assert isinstance(value, _dt.datetime)
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class StampText(TypeDecorator[str]):
    """The same timestamp in the database; in Python the ISO text ``text_of`` makes (the
    live tables' times), taken as that text or as an aware ``datetime``."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: str | _dt.datetime | None,
                           dialect: Dialect) -> _dt.datetime | None:
        if isinstance(value, str):
            value = moment_of(value)
        return Stamp().process_bind_param(value, dialect)

    def process_result_value(self, value: object, dialect: Dialect) -> str | None:
        moment = Stamp().process_result_value(value, dialect)
        return None if moment is None else text_of(moment)
