"""What the write lock is held for: the writes only (issue 25, item 14).

A class of 200 waited past the 5 s lock timeout because every commit waited for the disk (fsync) with
the lock held, and an answer's FSRS review was worked out inside its transaction. Commits now leave
the syncing to checkpoints (`PRAGMA synchronous = NORMAL`, `TRAINER_DATABASE_SYNCHRONOUS=FULL` to
sync every one), and the review is planned before the transaction and written inside it only if the
card has not changed. Speed is measured by bench/load.py (`--lock-profile` names what holds the lock).
"""

import sqlite3
import threading

import pytest
from conftest import make_app

from trainer.drills import issue
from trainer.store import Store, open_db, practice, writing
from trainer.web.core import db, settings


def answer_once(store, trainee_id, seed):
    drill_id = store.save_drill(trainee_id, issue("rp.bet_payout", 1, seed=seed))
    return store.answer(drill_id, "5")


def reviews(path, trainee_id):
    rows = open_db(path, migrate=False).execute(
        "SELECT reviews FROM cards WHERE trainee_id = ? AND kind = 'rp.bet_payout'", [trainee_id]
    )
    return [row[0] for row in rows]


def test_commits_do_not_wait_for_the_disk_unless_asked(tmp_path, monkeypatch):
    path = tmp_path / "t.sqlite"
    assert open_db(path).execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    assert open_db(path, synchronous="FULL").execute("PRAGMA synchronous").fetchone()[0] == 2
    with pytest.raises(ValueError, match="synchronous"):
        open_db(path, synchronous="OFF")  # never: a crash could damage the file
    for word, level in (("NORMAL", 1), ("FULL", 2)):
        app = make_app(DATABASE=str(path), DATABASE_SYNCHRONOUS=word)
        with app.test_request_context("/"):
            assert db.store().db.execute("PRAGMA synchronous").fetchone()[0] == level
    assert settings.from_environment({"TRAINER_DATABASE_SYNCHRONOUS": "full"}) == {
        "DATABASE_SYNCHRONOUS": "FULL"
    }
    with pytest.raises(settings.SettingError, match="TRAINER_DATABASE_SYNCHRONOUS"):
        settings.from_environment({"TRAINER_DATABASE_SYNCHRONOUS": "off"})


def test_an_answers_review_is_worked_out_before_its_write_transaction(tmp_path, monkeypatch):
    store = Store(open_db(tmp_path / "t.sqlite"))
    trainee = store.trainee_named("Trainee A")["id"]
    inside = []
    review = practice.review

    def watched(*args, **kwargs):
        inside.append(store.db.conn.in_transaction)
        return review(*args, **kwargs)

    monkeypatch.setattr(practice, "review", watched)
    for seed in range(3):
        answer_once(store, trainee, seed)
    assert inside == [False, False, False]
    assert reviews(tmp_path / "t.sqlite", trainee) == [3]


def test_a_planned_review_is_not_written_over_a_card_that_changed(tmp_path):
    path = tmp_path / "t.sqlite"
    store = Store(open_db(path))
    trainee = store.trainee_named("Trainee A")["id"]
    answer_once(store, trainee, 0)
    planned = practice.plan_review(
        store.db, trainee, "rp.bet_payout", 1, correct=True, time_ms=3000, when=store.clock()
    )
    answer_once(store, trainee, 1)  # comes between the plan and its write
    with store.db.conn:
        assert practice.apply_review(store.db, planned) is False
    assert reviews(path, trainee) == [2]


def test_concurrent_answers_of_one_card_each_review_it_once(tmp_path):
    """Eight threads, one trainee, one kind and level, on a real file: every answer is stored and the
    card counts every review (a plan overtaken by another answer is worked out again inside)."""
    path = tmp_path / "t.sqlite"
    trainee = Store(open_db(path)).trainee_named("Trainee A")["id"]
    errors = []

    def answering(n):
        store = Store(open_db(path, migrate=False))
        try:
            for i in range(6):
                answer_once(store, trainee, n * 100 + i)
        except Exception as error:  # reported below with the thread's number
            errors.append((n, repr(error)))

    threads = [threading.Thread(target=answering, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    counted = open_db(path, migrate=False).execute("SELECT count(*) FROM attempts").fetchone()[0]
    assert counted == 48 and reviews(path, trainee) == [48]


def test_a_writer_queued_behind_another_thread_gives_up_after_its_timeout(tmp_path):
    """The process's own queue of writers keeps the connection's timeout (then a 503), and the next
    writer goes ahead once the first is done."""
    path = tmp_path / "t.sqlite"
    Store(open_db(path)).trainee_named("Trainee A")
    first, second = open_db(path, migrate=False, timeout=0.3), open_db(path, migrate=False, timeout=0.3)
    inside, release = threading.Event(), threading.Event()

    def holding():
        with writing(first):
            first.execute("INSERT INTO trainees (name, created_at) VALUES ('Trainee B', '2026-12-02')")
            inside.set()
            release.wait(30)

    holder = threading.Thread(target=holding)
    holder.start()
    inside.wait(30)
    try:
        with pytest.raises(sqlite3.OperationalError, match="locked"), writing(second):
            pass
    finally:
        release.set()
        holder.join()
    with writing(second):
        second.execute("INSERT INTO trainees (name, created_at) VALUES ('Trainee C', '2026-12-02')")
    assert second.execute("SELECT count(*) FROM trainees").fetchone()[0] == 3


def test_the_threads_of_one_process_queue_for_the_lock_without_polling_sqlite(tmp_path):
    """A second thread's writer waits in the process's queue: it sends SQLite nothing (no BEGIN
    retried under the busy handler's sleeps) until the first has committed, then goes straight in."""
    path = tmp_path / "t.sqlite"
    Store(open_db(path)).trainee_named("Trainee A")
    first, second = open_db(path, migrate=False), open_db(path, migrate=False)
    sent: list[str] = []
    second.conn.set_trace_callback(sent.append)
    inside, release = threading.Event(), threading.Event()

    def holding():
        with writing(first):
            first.execute("INSERT INTO trainees (name, created_at) VALUES ('Trainee B', '2026-12-02')")
            inside.set()
            release.wait(30)

    def waiting():
        with writing(second):
            second.execute("INSERT INTO trainees (name, created_at) VALUES ('Trainee C', '2026-12-02')")

    holder = threading.Thread(target=holding)
    holder.start()
    inside.wait(30)
    waiter = threading.Thread(target=waiting)
    waiter.start()
    waiter.join(0.3)
    assert waiter.is_alive() and sent == []  # queued, not polling
    release.set()
    holder.join()
    waiter.join(30)
    assert "BEGIN IMMEDIATE" in sent and second.execute("SELECT count(*) FROM trainees").fetchone()[0] == 3
