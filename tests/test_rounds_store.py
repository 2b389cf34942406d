"""The live table in the store: rounds recorded as what deals them again, one answer per step in one
transaction (also with many threads on a real database file), results, and the table test's pass mark
(accuracy and time) kept where the instructor's desk reads it."""

import threading
from datetime import UTC, datetime, timedelta

import pytest
from conftest import memory_db

from trainer.drills.answers import AnswerError
from trainer.drills.rounds import RoundError, deal, expected_answer
from trainer.store import AlreadyAnsweredError, NotFoundError, Store, StoreError, open_db
from trainer.store.tables import TableStore, exam_settings


class Clock:
    def __init__(self):
        self.now = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)

    def __call__(self):
        return self.now

    def tick(self, seconds):
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def db():
    return memory_db()


@pytest.fixture
def tables(db, clock):
    return TableStore(db, clock=clock)


@pytest.fixture
def trainee(db):
    return Store(db).trainee_named("Table Trainee")["id"]


def play(tables, round_id, clock, *, wrong=(), seconds=3):
    dealt = tables.dealt(round_id)
    for i in range(len(dealt.steps)):
        clock.tick(seconds)
        want = expected_answer(dealt, i)
        if i in wrong:
            fmt = dealt.steps[i].answer_format
            if fmt.kind == "choice":
                want = next(c for c in (ch.value for ch in fmt.choices) if c != want)
            elif isinstance(want, int):
                want += 5
            elif isinstance(want, list):
                want = ["2c"] if want != ["2c"] else ["3c"]
            else:
                first = next(iter(want))
                want = {**want, first: want[first] + 5}
        tables.answer(round_id, i, want)
    return dealt


def test_a_round_is_kept_as_what_deals_it(tables, trainee, db):
    round_id = tables.start_round(trainee, "omaha", 2, seed=9, seats=7)
    row = tables.round(round_id)
    assert (row["game"], row["level"], row["seed"], row["seats"], row["rules"]) == (
        "omaha",
        2,
        9,
        7,
        "standard",
    )
    assert tables.dealt(round_id) == deal("omaha", 2, 9, seats=7)
    assert row["step"] == 0 and row["steps"] == len(deal("omaha", 2, 9, seats=7).steps)
    stored = str(list(db.query("SELECT * FROM rounds")))
    for s in tables.dealt(round_id).steps:
        assert s.kind not in stored  # no step, let alone an answer, is stored with the round


def test_answers_time_and_result(tables, trainee, clock):
    round_id = tables.start_round(trainee, "painted_poker", 1, seed=4, seats=4)
    dealt = play(tables, round_id, clock, wrong={0}, seconds=4)
    row = tables.round(round_id)
    assert row["finished_at"] is not None and row["step"] == len(dealt.steps)
    summary = tables.result(round_id)
    assert summary["right"] == len(dealt.steps) - 1 and summary["time_ms"] == 4000 * len(dealt.steps)
    assert summary["step_times_ms"] == [4000] * len(dealt.steps)
    answered = tables.answered(round_id)
    assert [a["correct"] for a in answered][:1] == [False]
    with pytest.raises(AlreadyAnsweredError):
        tables.answer(round_id, 0, "1")


def test_steps_in_order_and_unreadable_answers(tables, trainee):
    round_id = tables.start_round(trainee, "russian_poker", 2, seed=1, seats=6)
    with pytest.raises(StoreError):
        tables.answer(round_id, 2, "1")  # not reached yet
    with pytest.raises(AnswerError):
        tables.answer(round_id, 0, "a lot")
    assert tables.round(round_id)["step"] == 0 and tables.answered(round_id) == []
    with pytest.raises(NotFoundError):
        tables.round(10**6)
    with pytest.raises(NotFoundError):
        tables.round(2**70)
    with pytest.raises(RoundError):
        tables.start_round(trainee, "omaha", 4)


def test_many_threads_answer_one_step_on_a_real_file(tmp_path, trainee):
    path = tmp_path / "table.sqlite"
    first = open_db(path)
    owner = Store(first).trainee_named("Racer")["id"]
    round_id = TableStore(first).start_round(owner, "omaha", 3, seed=2, seats=9)
    dealt = deal("omaha", 3, 2, seats=9)
    outcomes = []

    def answer():
        db = open_db(path, migrate=False)
        try:
            TableStore(db).answer(round_id, 0, expected_answer(dealt, 0))
            outcomes.append("ok")
        except AlreadyAnsweredError:
            outcomes.append("refused")
        finally:
            db.conn.close()

    threads = [threading.Thread(target=answer) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["ok"] + ["refused"] * 11
    assert len(TableStore(first).answered(round_id)) == 1
    assert TableStore(first).round(round_id)["step"] == 1


def test_many_trainees_play_rounds_at_once_on_a_real_file(tmp_path):
    path = tmp_path / "class.sqlite"
    open_db(path).conn.close()
    errors = []

    def trainee_plays(n):
        db = open_db(path, migrate=False)
        try:
            store, tables = Store(db), TableStore(db)
            me = store.trainee_named(f"Trainee {n}")["id"]
            round_id = tables.start_round(me, "painted_poker", 1, seed=n, seats=3)
            dealt = tables.dealt(round_id)
            for i in range(len(dealt.steps)):
                tables.answer(round_id, i, expected_answer(dealt, i))
            assert tables.result(round_id)["right"] == len(dealt.steps)
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)
        finally:
            db.conn.close()

    threads = [threading.Thread(target=trainee_plays, args=(n,)) for n in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_a_table_test_passes_with_the_pass_mark_in_time(tables, trainee, clock):
    test_id = tables.start_test(trainee, "painted_poker", 1)
    settings = exam_settings()["painted_poker"]
    for _ in range(settings["rounds"]):
        round_id = tables.next_test_round(test_id)
        assert tables.round(round_id)["test_id"] == test_id
        assert tables.next_test_round(test_id) == round_id  # the open round, not a new one
        play(tables, round_id, clock, seconds=2)
    assert tables.next_test_round(test_id) is None
    result = tables.finish_test(test_id)
    assert result["passed"] and result["rounds_done"] == settings["rounds"] and result["accuracy"] == 100.0
    assert tables.finish_test(test_id) == result  # scored once
    listed = tables.table_test_results(trainee)
    assert [r["id"] for r in listed] == [test_id] and listed[0]["trainee"] == "Table Trainee"
    assert tables.table_test_results()[0]["passed"] is True  # every trainee's, for the desk


def test_a_table_test_fails_below_the_pass_mark(tables, trainee, clock):
    test_id = tables.start_test(trainee, "russian_poker", 2)
    mark = exam_settings()["russian_poker"]["pass_accuracy"]
    for _ in range(exam_settings()["russian_poker"]["rounds"]):
        round_id = tables.next_test_round(test_id)
        steps = len(tables.dealt(round_id).steps)
        play(tables, round_id, clock, wrong=set(range(0, steps, 2)), seconds=1)
    result = tables.finish_test(test_id)
    assert result["accuracy"] < mark and not result["passed"]


def test_a_table_test_fails_out_of_time(tables, trainee, clock):
    test_id = tables.start_test(trainee, "painted_poker", 1)
    limit = exam_settings()["painted_poker"]["time_limit_s"]
    round_id = tables.next_test_round(test_id)
    play(tables, round_id, clock, seconds=1)
    clock.tick(limit)  # the time is up before the next round
    assert tables.next_test_round(test_id) is None
    result = tables.finish_test(test_id)
    assert result["rounds_done"] == 1 and not result["passed"]
    with pytest.raises(StoreError):
        tables.start_round(trainee, "painted_poker", 1, test_id=test_id)


def test_answers_after_the_deadline_do_not_count(tables, trainee, clock):
    test_id = tables.start_test(trainee, "painted_poker", 1)
    limit = exam_settings()["painted_poker"]["time_limit_s"]
    round_id = tables.next_test_round(test_id)
    dealt = tables.dealt(round_id)
    tables.answer(round_id, 0, expected_answer(dealt, 0))
    clock.tick(limit + 1)
    for i in range(1, len(dealt.steps)):
        tables.answer(round_id, i, expected_answer(dealt, i))
    result = tables.finish_test(test_id)
    assert result["answered"] == 1 and result["rounds_done"] == 0 and not result["passed"]


def test_bad_table_test_requests(tables, trainee):
    with pytest.raises(RoundError):
        tables.start_test(trainee, "blackjack", 1)
    with pytest.raises(RoundError):
        tables.start_test(trainee, "omaha", 7)
    other = Store(tables.db).trainee_named("Someone Else")["id"]
    test_id = tables.start_test(trainee, "omaha", 1)
    with pytest.raises(NotFoundError):
        tables.start_round(other, "omaha", 1, test_id=test_id)
