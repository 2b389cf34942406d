"""Connections to one database file kept open between requests.

Opening a connection is cheap; its first statement is not: SQLite reads and parses the whole schema
(about 50 KB of tables, indexes and triggers here), 1.9 ms on this machine, and `open_db` then sets two
pragmas. Every request paid that before it read a row, several times the cost of a page's own queries.
A connection handed back is kept for the next request instead, with its schema parsed.

A kept connection is handed out again only while it is still a connection to the file at `path`, as a
new one would be: the file must be the same file (not deleted, not replaced by a restored copy) and
as writable as when it was opened (a file made read-only answers every write with a storage fault, as a
fresh connection would, instead of going on writing through the old descriptor). Otherwise it is closed
and a new one opened, which raises as `open_db` does (a vanished file is never recreated).

Only a connection with no transaction open is kept; one handed back after a storage fault is closed.
Connections never cross a fork: a child process (gunicorn's workers) starts with none.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path

from sqlite_utils import Database

from trainer.store.schema import BUSY_TIMEOUT_S, open_db

KEPT = 8  # idle connections kept per file: a server's threads at once, beyond that they are closed
_INHERITED: list[object] = []  # connections a forked child must neither use nor close


@dataclass(frozen=True)
class _FileState:
    device: int
    inode: int
    writable: bool


def _file_state(path: str) -> _FileState | None:
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return _FileState(stat.st_dev, stat.st_ino, os.access(path, os.W_OK))


class Connections:
    """Open connections to the database at `path`, handed out one per request (`take`) and kept when
    handed back (`give_back`). Thread-safe; each connection is used by one request at a time.

    >>> import tempfile
    >>> path = str(Path(tempfile.mkdtemp()) / "trainer.sqlite")
    >>> open_db(path).conn.close()  # created and migrated once, at start-up
    >>> kept = Connections(path)
    >>> first = kept.take(); kept.give_back(first)
    >>> kept.take() is first
    True
    """

    def __init__(
        self, path: str | Path, *, timeout: float = BUSY_TIMEOUT_S, synchronous: str = "NORMAL"
    ) -> None:
        self.path, self.timeout, self.synchronous = str(path), timeout, synchronous
        self._idle: list[tuple[Database, _FileState | None]] = []
        self._lock = threading.Lock()
        self._pid = os.getpid()

    def take(self) -> Database:
        """A connection to the file as it is now: a kept one if it still fits, else a new one."""
        if self.path == ":memory:":  # each connection is its own database: nothing to keep
            return self._open()
        state = _file_state(self.path)
        while True:
            with self._lock:
                self._forget_after_fork()
                if not self._idle:
                    break
                db, opened_on = self._idle.pop()
            if state is not None and opened_on == state:
                return db
            db.conn.close()  # the file was replaced, removed or changed its permissions since
        return self._open()

    def give_back(self, db: Database, *, broken: bool = False) -> None:
        """Keep `db` for the next request, or close it: after a storage fault (`broken`), with a
        transaction still open, in another process, or with enough kept already."""
        keep = not broken and self.path != ":memory:" and not db.conn.in_transaction
        if keep:
            with self._lock:
                self._forget_after_fork()
                if os.getpid() == self._pid and len(self._idle) < KEPT:
                    self._idle.append((db, getattr(db, "opened_on", None)))
                    return
        db.conn.close()

    def close(self) -> None:
        """Close every kept connection (a server shutting down, a test's app done with its file)."""
        with self._lock:
            idle, self._idle = self._idle, []
        for db, _state in idle:
            db.conn.close()

    def _open(self) -> Database:
        state = _file_state(self.path)
        db = open_db(self.path, migrate=False, timeout=self.timeout, synchronous=self.synchronous)
        db.opened_on = state  # type: ignore[attr-defined]  # what `take` compares the file with
        return db

    def _forget_after_fork(self) -> None:
        # A connection inherited across fork() must not be used, nor closed (closing would release
        # the parent's locks): the child drops the list and opens its own.
        if os.getpid() != self._pid:
            _INHERITED.append(self._idle)
            self._idle, self._pid = [], os.getpid()
