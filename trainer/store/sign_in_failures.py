"""Failed password checks, counted in the database so that every worker of a server (and every
server on the same file) counts the same failures: a per-process counter made each worker's limit a
separate one, four workers allowing four times the failures.

Each failure is one row (`sign_in_failures`: a key such as "username:nino" or "address:10.0.0.7",
and when, in seconds since the epoch); a count is the rows of a key in the last window. Rows older
than the longest window anyone asks about are deleted as new failures come in.

>>> from trainer.store.schema import open_db
>>> failures = SignInFailures(open_db(":memory:"), clock=lambda: 1000.0)
>>> failures.record(["username:nino", "address:10.0.0.7"])
>>> failures.count("username:nino", 60), failures.count("username:lasha", 60)
(1, 0)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from sqlite_utils import Database

from trainer.store.schema import writing

KEEP_S = 24 * 3600  # no limit looks further back than a day


class SignInFailures:
    """The failures of password checks per key, over one sqlite-utils `Database`."""

    def __init__(self, db: Database, *, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.clock = clock

    def record(self, keys: Iterable[str]) -> None:
        """One failure against each key (one short transaction; old rows go in the same one)."""
        now = self.clock()
        with writing(self.db):
            self.db.conn.executemany(
                "INSERT INTO sign_in_failures (key, at) VALUES (?, ?)", [(key, now) for key in keys]
            )
            self.db.execute("DELETE FROM sign_in_failures WHERE at < ?", [now - KEEP_S])

    def count(self, key: str, window_s: float) -> int:
        """How many failures of `key` in the last `window_s` seconds."""
        rows = self.db.execute(
            "SELECT count(*) FROM sign_in_failures WHERE key = ? AND at > ?", [key, self.clock() - window_s]
        )
        return int(rows.fetchone()[0])

    def retry_after(self, key: str, window_s: float, allowed: int) -> int:
        """Seconds until `key` has fewer than `allowed` failures in the window again (at least 1)."""
        rows = self.db.execute(
            "SELECT at FROM sign_in_failures WHERE key = ? AND at > ? ORDER BY at DESC LIMIT 1 OFFSET ?",
            [key, self.clock() - window_s, max(allowed - 1, 0)],
        ).fetchone()
        if rows is None:
            return 1
        return max(1, int(rows[0] + window_s - self.clock()) + 1)
