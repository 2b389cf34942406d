"""An answer's writes: one transaction holding only the writes (the drill read, the grading and the
card's review are worked out before it), no sqlite-utils savepoints, the stored row returned without
a second read, and a card reviewed by two answers at once counting both (the guarded write)."""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.drills.base import REGISTRY, expected_of, issue
from trainer.store import Store, open_db, progress
from trainer.store.practice import apply_review, plan_review
from trainer.store.schema import writing

KIND = "rp.qualify"


@pytest.fixture
def path(tmp_path):
    target = tmp_path / "writes.sqlite"
    open_db(target).conn.close()
    return target


def _drill(store, trainee, seed, level=1):
    drill_id = store.save_drill(trainee, issue(REGISTRY[KIND], level, seed=seed))
    return drill_id, expected_of(store.drill(drill_id)["situation"])[0]


def test_an_answer_is_one_transaction_of_writes_only_without_savepoints(path):
    store = Store(open_db(path, migrate=False))
    trainee = store.trainee_named("Trainee")["id"]
    for seed in (1, 2):  # the second answer finds the card the first one made
        drill_id, right = _drill(store, trainee, seed)
        statements: list[str] = []
        store.db.conn.set_trace_callback(statements.append)
        store.answer(drill_id, right, time_ms=1200)
        store.db.conn.set_trace_callback(None)
        # The tracer reports each trigger program a statement runs (the desk's counts kept as an
        # answer is written, m022 and m023) again with the statement's own text: one statement.
        statements = [sql for n, sql in enumerate(statements) if n == 0 or sql != statements[n - 1]]
        words = [sql.split()[0].upper() for sql in statements]
        assert "SAVEPOINT" not in words and "RELEASE" not in words
        begin, commit = words.index("BEGIN"), words.index("COMMIT")
        assert words.count("BEGIN") == 1 and words.count("COMMIT") == 1
        # Inside: the guarded UPDATE of the drill, the attempt, the card; no read holds the lock.
        assert words[begin + 1 : commit] == ["UPDATE", "INSERT", "UPDATE" if seed == 2 else "INSERT"]
        # Before it, one read: the drill with its card (joined), nothing after the commit.
        assert words[:begin] == ["SELECT"] and "JOIN cards" in statements[0]
        assert len(statements) == 6 and commit == 5


def test_every_statement_of_an_answer_goes_through_sqlite_utils(path):
    store = Store(open_db(path, migrate=False))
    trainee = store.trainee_named("Trainee")["id"]
    drill_id, right = _drill(store, trainee, 4)
    executed: list[str] = []
    traced: list[str] = []
    store.db.conn.set_trace_callback(executed.append)
    with store.db.tracer(lambda sql, params: traced.append(sql)):
        store.answer(drill_id, right, time_ms=1200)
    store.db.conn.set_trace_callback(None)
    # The trace repeats a statement once per trigger program it runs (m022, m023): one statement.
    executed = [sql for n, sql in enumerate(executed) if n == 0 or sql != executed[n - 1]]
    # (SQLite's trace shows the statements with their parameters bound: compared by their first words)
    assert [sql.split()[:3] for sql in traced] == [sql.split()[:3] for sql in executed]
    assert len(traced) == len(executed) == 6


@settings(max_examples=60, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
        max_leaves=6,
    )
)
def test_an_answer_is_written_and_read_back_as_json_would(value):
    # The answer path writes its three JSON values and hands them back without json for plain ones.
    text = progress._json(value)
    assert text == json.dumps(value)
    assert progress._as_read(value, text) == json.loads(text)


def test_the_returned_attempt_is_the_stored_row(path):
    store = Store(open_db(path, migrate=False))
    trainee = store.trainee_named("Trainee")["id"]
    drill_id, right = _drill(store, trainee, 3)
    _grade, stored = store.answer(drill_id, right, time_ms=900)
    assert stored == store.attempt(drill_id)
    assert stored["raw"] == right and stored["correct"] is True and stored["time_ms"] == 900


def test_a_review_planned_from_a_card_that_changed_is_not_written(path):
    db = open_db(path, migrate=False)
    trainee = Store(db).trainee_named("Trainee")["id"]
    when = datetime(2026, 3, 1, tzinfo=UTC)
    first = plan_review(db, trainee, KIND, 1, correct=True, time_ms=1000, when=when)
    second = plan_review(db, trainee, KIND, 1, correct=False, time_ms=1000, when=when)
    with writing(db):
        assert apply_review(db, first)
        assert not apply_review(db, second)  # both were planned before the card existed
    third = plan_review(db, trainee, KIND, 1, correct=False, time_ms=1000, when=when)
    fourth = plan_review(db, trainee, KIND, 1, correct=True, time_ms=1000, when=when)
    with writing(db):
        assert apply_review(db, third)
        assert not apply_review(db, fourth)
    assert db.execute("SELECT reviews, lapses FROM cards").fetchall() == [(2, 1)]


def test_answers_of_one_card_from_many_threads_count_every_review(path):
    threads, answers = 12, 8
    setup = Store(open_db(path, migrate=False))
    trainee = setup.trainee_named("Trainee")["id"]
    work = [[_drill(setup, trainee, t * 100 + n) for n in range(answers)] for t in range(threads)]
    wrong = sum(1 for mine in work for n, _ in enumerate(mine) if n % 3 == 0)
    errors: list[BaseException] = []
    start = threading.Barrier(threads)

    def answer(mine):
        store = Store(open_db(path, migrate=False))
        start.wait()
        for n, (drill_id, right) in enumerate(mine):
            try:
                store.answer(drill_id, right if n % 3 else _wrong(right))
            except BaseException as error:
                errors.append(error)
        store.db.conn.close()

    running = [threading.Thread(target=answer, args=(mine,)) for mine in work]
    for thread in running:
        thread.start()
    for thread in running:
        thread.join()
    assert errors == []
    assert setup.db.execute(
        "SELECT reviews, lapses FROM cards WHERE trainee_id = ?", [trainee]
    ).fetchall() == [(threads * answers, wrong)]
    assert setup.db.execute("SELECT count(*) FROM attempts").fetchone()[0] == threads * answers


def _wrong(right):
    choices = [c.value for c in issue(REGISTRY[KIND], 1, seed=0).answer_format.choices]
    return next(c for c in choices if c != right)
