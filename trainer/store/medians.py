"""`median(x)`, an SQL aggregate on a connection: the median of a group's values as
`statistics.median` gives it (of whole numbers: the middle one, or the mean of the two middle ones),
as a float. SQLite has none built in; the desk counts each member's drill kinds in one GROUP BY, read
in index order, instead of sending every answer to Python.

>>> import sqlite3
>>> conn = sqlite3.connect(":memory:")
>>> add_median(conn)
>>> conn.execute("SELECT median(x) FROM (SELECT 3 AS x UNION ALL SELECT 1 UNION ALL SELECT 8)").fetchone()
(3.0,)
>>> conn.execute("SELECT median(x) FROM (SELECT 3 AS x UNION ALL SELECT 2)").fetchone()
(2.5,)
"""

from __future__ import annotations

import sqlite3


class _Median:
    __slots__ = ("step", "values")

    def __init__(self) -> None:
        self.values: list[int] = []
        self.step = self.values.append

    def finalize(self) -> float | None:
        values = self.values
        if not values:
            return None
        values.sort()
        half = len(values) // 2
        return float(values[half]) if len(values) % 2 else (values[half - 1] + values[half]) / 2


def add_median(conn: sqlite3.Connection) -> None:
    """Make `median(x)` callable in this connection's SQL."""
    conn.create_aggregate("median", 1, _Median)  # type: ignore[arg-type]
