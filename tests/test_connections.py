"""Connections kept between requests (`trainer.store.connections`): handed out again only while they are
what a new connection would be, never two requests on one at once, never across a fork."""

from __future__ import annotations

import os
import sqlite3
import threading

import pytest

from trainer.store import open_db
from trainer.store.connections import KEPT, Connections


@pytest.fixture
def path(tmp_path):
    made = tmp_path / "trainer.sqlite"
    open_db(made).conn.close()
    return made


def test_a_connection_handed_back_is_handed_out_again_with_its_pragmas(path):
    kept = Connections(path)
    first = kept.take()
    kept.give_back(first)
    again = kept.take()
    assert again is first
    assert again.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_a_replaced_file_is_read_through_a_new_connection(path, tmp_path):
    kept = Connections(path)
    db = kept.take()
    _add_user(db, "before")
    kept.give_back(db)
    restored = tmp_path / "restored.sqlite"
    open_db(restored).conn.close()  # a copy without that user, put in its place (a restore)
    os.replace(restored, path)
    for suffix in ("-wal", "-shm"):
        (tmp_path / f"trainer.sqlite{suffix}").unlink(missing_ok=True)
    fresh = kept.take()
    assert fresh is not db
    assert fresh.execute("SELECT count(*) FROM users WHERE username = 'before'").fetchone()[0] == 0


def test_a_vanished_file_is_not_recreated(path):
    kept = Connections(path)
    kept.give_back(kept.take())
    for suffix in ("", "-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)
    with pytest.raises(sqlite3.OperationalError):
        kept.take()
    assert not path.exists()


def test_a_file_made_read_only_is_not_written_through_an_old_connection(path, monkeypatch):
    kept = Connections(path)
    db = kept.take()
    kept.give_back(db)
    real_access = os.access
    # As root the file stays writable whatever its mode: the check itself is what is tested.
    monkeypatch.setattr(os, "access", lambda p, mode: False if str(p) == str(path) else real_access(p, mode))
    assert kept.take() is not db


def test_an_open_transaction_or_a_fault_is_never_kept(path):
    kept = Connections(path)
    db = kept.take()
    db.execute("BEGIN IMMEDIATE")
    kept.give_back(db)
    with pytest.raises(sqlite3.ProgrammingError):  # closed, not kept with its write lock
        db.execute("SELECT 1")
    other = kept.take()
    kept.give_back(other, broken=True)
    with pytest.raises(sqlite3.ProgrammingError):
        other.execute("SELECT 1")
    assert kept.take() not in (db, other)


def test_no_more_than_kept_are_held_and_close_closes_them(path):
    kept = Connections(path)
    taken = [kept.take() for _ in range(KEPT + 2)]
    for db in taken:
        kept.give_back(db)
    open_ones = [db for db in taken if _is_open(db)]
    assert len(open_ones) == KEPT
    kept.close()
    assert not any(_is_open(db) for db in taken)


def test_threads_never_share_a_connection_at_once(path):
    kept = Connections(path)
    in_use: set[int] = set()
    guard = threading.Lock()
    clashes: list[int] = []

    def work() -> None:
        for _ in range(200):
            db = kept.take()
            with guard:
                if id(db) in in_use:
                    clashes.append(id(db))
                in_use.add(id(db))
            db.execute("SELECT count(*) FROM users").fetchone()
            with guard:
                in_use.discard(id(db))
            kept.give_back(db)

    threads = [threading.Thread(target=work) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert clashes == []


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork() here")
def test_a_forked_child_opens_its_own(path):
    kept = Connections(path)
    parent = kept.take()
    kept.give_back(parent)
    pid = os.fork()
    if pid == 0:  # the child: exit status 0 only if it was handed a connection of its own
        try:
            mine = kept.take()
            ok = mine is not parent and mine.execute("SELECT count(*) FROM users").fetchone()[0] == 0
        finally:
            os._exit(0 if ok else 1)
    _pid, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert kept.take() is parent  # the parent's own is still kept, and still open


def test_a_memory_database_is_never_kept():
    kept = Connections(":memory:")
    db = kept.take()
    kept.give_back(db)
    assert kept.take() is not db


def test_the_app_keeps_a_requests_connection_for_the_next(app, client):
    opened = []
    from trainer.store import connections

    real_open = connections.open_db

    def counting(*args, **kwargs):
        opened.append(args[0])
        return real_open(*args, **kwargs)

    connections.open_db = counting
    try:
        for _ in range(5):
            assert client.get("/progress/").status_code == 200
    finally:
        connections.open_db = real_open
    assert len(opened) <= 1, opened


def _add_user(db, name: str) -> None:
    from trainer.store.accounts import FAST_HASHER, Accounts

    Accounts(db, hasher=FAST_HASHER).create_user(name, "a long enough password")


def _is_open(db) -> bool:
    try:
        db.execute("SELECT 1")
    except sqlite3.ProgrammingError:
        return False
    return True


def test_copying_the_file_under_kept_connections_copies_what_was_committed(path, tmp_path):
    """A kept connection keeps the WAL from being folded in at close: a copy made with SQLite's backup
    (`trainer backup`) still holds every committed row."""
    from trainer.store import backup

    kept = Connections(path)
    db = kept.take()
    _add_user(db, "kept")
    kept.give_back(db)
    copy = tmp_path / "copy.sqlite"
    assert backup(path, copy) == "ok"
    assert (
        sqlite3.connect(copy).execute("SELECT count(*) FROM users WHERE username = 'kept'").fetchone()[0] == 1
    )
