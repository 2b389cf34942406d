"""Backups of the class's database: `trainer.store.backup` and `python3 -m trainer backup`."""

import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from trainer.store import Store, backup, open_db

ROOT = Path(__file__).resolve().parents[1]


def _count(path, table="trainees"):
    with sqlite3.connect(path) as connection:
        return connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def test_a_backup_taken_while_trainees_write_is_whole_and_consistent(tmp_path):
    path = tmp_path / "class.sqlite"
    open_db(path).conn.close()
    stop, written = threading.Event(), []

    def write():
        store = Store(open_db(path, migrate=False))
        while not stop.is_set():
            written.append(store.trainee_named(f"Trainee {len(written)}")["id"])
        store.db.conn.close()

    writer = threading.Thread(target=write)
    writer.start()
    while len(written) < 20:
        time.sleep(0.01)
    before = len(written)
    try:
        assert backup(path, tmp_path / "copy.sqlite") == "ok"
    finally:
        stop.set()
        writer.join()
    copied = _count(tmp_path / "copy.sqlite")
    assert before <= copied <= len(written)  # every row committed before it, none half-written
    assert Store(open_db(tmp_path / "copy.sqlite", migrate=False)).find_trainee_named("Trainee 0")


def test_a_backup_never_overwrites_and_never_creates_the_source(tmp_path):
    path = tmp_path / "class.sqlite"
    open_db(path).conn.close()
    (tmp_path / "there.sqlite").write_bytes(b"keep me")
    with pytest.raises(FileExistsError):
        backup(path, tmp_path / "there.sqlite")
    assert (tmp_path / "there.sqlite").read_bytes() == b"keep me"
    with pytest.raises(sqlite3.OperationalError):
        backup(tmp_path / "missing.sqlite", tmp_path / "copy.sqlite")
    assert not (tmp_path / "missing.sqlite").exists()


def test_the_backup_command_copies_the_configured_database(tmp_path):
    path = tmp_path / "class.sqlite"
    Store(open_db(path)).trainee_named("Trainee A")
    env = {**os.environ, "TRAINER_DATABASE": str(path), "TRAINER_SECRET_KEY": "backup"}

    def run(*args):
        return subprocess.run(
            [sys.executable, "-m", "trainer", *args], cwd=ROOT, env=env, capture_output=True, text=True
        )

    done = run("backup", str(tmp_path / "copy.sqlite"))
    assert done.returncode == 0 and "integrity_check ok" in done.stdout, done.stderr
    assert _count(tmp_path / "copy.sqlite") == 1
    again = run("backup", str(tmp_path / "copy.sqlite"))
    assert again.returncode == 1 and "never overwrites" in again.stderr
    assert "backup" in run("--help").stdout
