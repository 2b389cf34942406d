"""The store's one clock and time format: a store object takes a `Clock` (a test passes its own) and
keeps every moment as UTC text to the microsecond, which sorts in SQL as the moments compare.

>>> from datetime import datetime, timedelta, timezone
>>> iso(datetime(2026, 12, 3, 12, 0, tzinfo=timezone(timedelta(hours=4))))
'2026-12-03T08:00:00.000000+00:00'
>>> parse_iso('2026-12-03T08:00:00.000000+00:00').hour
8
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def parse_iso(text: str) -> datetime:
    return datetime.fromisoformat(text)
