"""Failed password checks, counted in the database so that every worker of a server (and every
server on the same file) counts the same failures: a per-process counter made each worker's limit a
separate one, four workers allowing four times the failures.

Each failure is one row (`sign_in_failures`: a key such as "username:trainee.one" or "address:10.0.0.7",
and when, in seconds since the epoch); a count is the rows of a key in the last window. A check is
counted as a failure in advance, in the same transaction that looks at the counts (`attempt`), and
taken back when it succeeds, so that concurrent checks see each other. Rows older than a day are
deleted as new ones come in.

>>> from trainer.store.schema import open_db
>>> failures = SignInFailures(open_db(":memory:"), clock=lambda: 1000.0)
>>> budgets = {"username:trainee.one": [(3, 60)], "address:10.0.0.7": [(30, 60)]}
>>> [failures.attempt(budgets, ceiling=2).refused_for for _ in range(7)]
[None, None, None, None, None, None, 60]
>>> failures.count("username:trainee.one", 60), failures.count("username:trainee.two", 60)
(6, 0)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from sqlite_utils import Database

from trainer.store.schema import insert, writing

KEEP_S = 24 * 3600  # no limit looks further back than a day

Budgets = Mapping[str, Sequence[tuple[int, int]]]  # key -> (failures allowed, window in seconds)


@dataclass(frozen=True)
class Attempt:
    """A password check let through (`refused_for` None) or not, by `SignInFailures.attempt`."""

    failure_ids: tuple[int, ...]  # the failures written in advance, taken back if it succeeds
    refused_for: int | None  # refused unchecked: seconds to wait
    beyond_for: int | None  # let through, but a budget was used already: a failure gets 429 this long


class SignInFailures:
    """The failures of password checks per key, over one sqlite-utils `Database`."""

    def __init__(self, db: Database, *, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.clock = clock

    def attempt(self, budgets: Budgets, ceiling: int) -> Attempt:
        """Before a password is checked, in one write transaction: refuse it when some key has used
        `ceiling` times a budget already; else write its failure in advance (so concurrent checks
        count each other, and no burst gets past the ceiling) and say whether a budget was used."""
        now = self.clock()
        with writing(self.db):
            wait = self._beyond(budgets, ceiling)
            if wait is not None:
                return Attempt((), wait, None)
            beyond = self._beyond(budgets, 1)
            ids = tuple(insert(self.db, "sign_in_failures", {"key": key, "at": now}) for key in budgets)
            self.db.execute("DELETE FROM sign_in_failures WHERE at < ?", [now - KEEP_S])
        return Attempt(ids, None, beyond)

    def succeeded(self, attempt: Attempt) -> None:
        """The check passed: its failures written in advance are taken back."""
        if attempt.failure_ids:
            marks = ", ".join("?" for _ in attempt.failure_ids)
            with writing(self.db):
                self.db.execute(
                    f"DELETE FROM sign_in_failures WHERE id IN ({marks})", list(attempt.failure_ids)
                )

    def _beyond(self, budgets: Budgets, times: int) -> int | None:
        """Seconds to wait when some key has used `times` a budget, else None."""
        waits = [
            self.retry_after(key, window, allowed * times)
            for key, limits in budgets.items()
            for allowed, window in limits
            if self.count(key, window) >= allowed * times
        ]
        return max(waits) if waits else None

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
        return max(1, math.ceil(rows[0] + window_s - self.clock()))
