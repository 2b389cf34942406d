"""The progress store: schema, one answer per drill in one transaction, sprints and the queries."""

import json
import random
import sqlite3
import threading
from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trainer.drills.base import REGISTRY, AnswerError, AnswerFormat, AnswerKind, DrillKind, issue, prompt
from trainer.engine.explain import step
from trainer.store import AlreadyAnsweredError, NotFoundError, Store, StoreError, open_db, stats
from trainer.store.schema import MIGRATIONS


def _generate(rng: random.Random, level: int, rules: str | None) -> dict:
    a, b = rng.randint(1, 99), rng.randint(1, 99)
    return prompt({"a": a, "b": b}, step("Add {a} and {b}.", a=a, b=b))


def _solve(data):
    total = data["a"] + data["b"]
    return total, str(total), (step("{a} + {b} = {t}", a=data["a"], b=data["b"], t=total),)


def _kind(kind_id):
    return DrillKind(
        kind_id, "test", kind_id, 1, (1, 2, 3), _generate, lambda d: AnswerFormat(AnswerKind.AMOUNT), _solve
    )


@pytest.fixture(autouse=True)
def toy_kinds():
    kinds = [_kind(k) for k in ("test.a", "test.b", "test.c", "test.d")]
    for kind in kinds:
        REGISTRY[kind.id] = kind
    yield
    for kind in kinds:
        del REGISTRY[kind.id]


class Clock:
    def __init__(self, start=datetime(2026, 3, 2, 9, 0, tzinfo=UTC)):
        self.now = start

    def __call__(self):
        return self.now

    def advance(self, **delta):
        self.now += timedelta(**delta)


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def store(tmp_path, clock):
    return Store(open_db(tmp_path / "progress.sqlite"), clock=clock)


def _right(situation):
    return situation.data["a"] + situation.data["b"]


def _count(store, table):
    return store.db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def test_schema_wal_foreign_keys_and_idempotent_migrations(tmp_path):
    path = tmp_path / "p.sqlite"
    db = open_db(path)
    assert db.journal_mode == "wal"
    assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    again = open_db(path)
    assert [m.name for m in MIGRATIONS.applied(again)][:3] == [
        "m001_progress",
        "m002_attempt_mistakes",
        "m003_practice_cards",
    ]
    assert not MIGRATIONS.pending(again)
    assert "STRICT" in again.table("attempts").schema
    with pytest.raises(sqlite3.IntegrityError):
        db.table("drills").insert(
            {
                "trainee_id": 999,
                "kind": "x",
                "level": 1,
                "seed": 1,
                "version": 1,
                "situation": "{}",
                "mode": "practice",
                "issued_at": "2026-01-01",
                "answered": 0,
            }
        )


def test_trainees_by_name_and_anonymous(store):
    one = store.trainee_named("  Trainee   One ")
    assert one["name"] == "Trainee One"
    assert store.trainee_named("TRAINEE ONE")["id"] == one["id"]
    assert store.trainee_named("Trainee Two")["id"] != one["id"]
    first, second = store.new_anonymous_trainee(), store.new_anonymous_trainee()
    assert first["id"] != second["id"] and first["name"] is None
    for bad in ("", "   ", None, 7, "x" * 61, "tab\x07bell"):
        with pytest.raises(StoreError):
            store.trainee_named(bad)
    with pytest.raises(NotFoundError):
        store.trainee(12345)


def test_a_name_created_by_a_racing_request_is_reused(tmp_path, clock):
    first = Store(open_db(tmp_path / "race.sqlite"), clock=clock)
    second = Store(open_db(tmp_path / "race.sqlite"), clock=clock)
    made = first.trainee_named("Trainee Three")
    real_query = second.db.query
    calls = []

    def stale_query(sql, params=()):
        calls.append(sql)
        if len(calls) == 1:  # the racing request's first look found nobody yet
            return iter([])
        return real_query(sql, params)

    second.db.query = stale_query
    assert second.trainee_named("trainee three")["id"] == made["id"]
    assert len(list(first.db.query("SELECT * FROM trainees"))) == 1


def test_drill_round_trip_keeps_everything_needed_to_grade(store):
    trainee = store.trainee_named("T")
    situation = issue("test.a", 2, seed=77, rules="cis")
    drill_id = store.save_drill(trainee["id"], situation)
    row = store.drill(drill_id)
    assert row["situation"] == situation
    assert (row["kind"], row["level"], row["seed"], row["version"], row["rules"]) == (
        "test.a",
        2,
        77,
        1,
        "cis",
    )
    assert row["answered"] is False and row["mode"] == "practice"
    with pytest.raises(NotFoundError):
        store.drill(drill_id + 1)


def test_a_row_stored_before_the_typed_situation_loads_and_grades(store):
    """Databases in use hold situations whose question is an English template with `prompt_params`
    (written before `Situation`): they load, show their question and grade as before."""
    trainee = store.trainee_named("T")
    data = {"rules": "cis", "ante": 10, "player": ["Jh", "Jd", "4s", "4c", "9h"]}
    data["dealer"] = ["As", "Kd", "7c", "5h", "2d"]
    data["prompt"] = "Ante {ante}. The player holds {player}; the dealer has {dealer}. What is paid?"
    data["prompt_params"] = {"ante": 10, "player": "Jh Jd 4s 4c 9h", "dealer": "As Kd 7c 5h 2d"}
    old_format = {"kind": "amount", "choices": [], "labels": []}
    store.db.table("drills").insert(
        {
            "trainee_id": trainee["id"],
            "kind": "rp.bet_payout",
            "level": 1,
            "seed": 5,
            "version": 1,
            "rules": None,
            "situation": json.dumps({"data": data, "answer_format": old_format}),
            "mode": "practice",
            "issued_at": "2026-01-01T00:00:00.000000+00:00",
            "answered": 0,
        }
    )
    drill_id = next(store.db.query("SELECT max(id) AS id FROM drills"))["id"]
    situation = store.drill(drill_id)["situation"]
    assert [str(m) for m in situation.prompt] == [
        "Ante 10. The player holds Jh Jd 4s 4c 9h; the dealer has As Kd 7c 5h 2d. What is paid?"
    ]
    graded, attempt = store.answer(drill_id, "40")
    assert graded.correct and attempt["answer"] == 40 and attempt["expected"] == 40


def test_answer_right_wrong_and_timed(store, clock):
    trainee = store.trainee_named("T")
    situation = issue("test.a", 1, seed=1)
    right_id = store.save_drill(trainee["id"], situation)
    clock.advance(seconds=4, milliseconds=250)
    grade, attempt = store.answer(right_id, f" {_right(situation)} ")
    assert grade.correct and attempt["correct"] is True
    assert attempt["time_ms"] == 4250
    assert attempt["answer"] == attempt["expected"] == _right(situation)
    assert attempt["raw"] == f" {_right(situation)} "
    assert store.drill(right_id)["answered"] is True
    wrong_id = store.save_drill(trainee["id"], issue("test.a", 1, seed=2))
    grade, attempt = store.answer(wrong_id, "-1", time_ms=900)
    assert not grade.correct and attempt["correct"] is False and attempt["time_ms"] == 900


def test_malformed_answer_writes_nothing_and_the_drill_stays_open(store):
    trainee = store.trainee_named("T")
    situation = issue("test.a", 1, seed=3)
    drill_id = store.save_drill(trainee["id"], situation)
    with pytest.raises(AnswerError):
        store.answer(drill_id, "a lot")
    assert _count(store, "attempts") == 0 and store.drill(drill_id)["answered"] is False
    assert store.answer(drill_id, str(_right(situation)))[0].correct


def test_second_answer_conflicts_and_changes_nothing(store):
    trainee = store.trainee_named("T")
    situation = issue("test.a", 1, seed=4)
    drill_id = store.save_drill(trainee["id"], situation)
    _, first = store.answer(drill_id, "0")
    with pytest.raises(AlreadyAnsweredError):
        store.answer(drill_id, str(_right(situation)))
    assert _count(store, "attempts") == 1
    assert store.attempt(drill_id) == first


def test_racing_answer_is_refused_by_the_guarded_update(store, monkeypatch):
    trainee = store.trainee_named("T")
    drill_id = store.save_drill(trainee["id"], issue("test.a", 1, seed=5))
    stale = store._drill_and_card(drill_id)
    store.answer(drill_id, "1")
    # A second request that read the drill (and its card) before the first one wrote.
    monkeypatch.setattr(store, "_drill_and_card", lambda _id: stale)
    with pytest.raises(AlreadyAnsweredError):
        store.answer(drill_id, "2")
    assert _count(store, "attempts") == 1


def test_answer_is_one_transaction(store):
    trainee = store.trainee_named("T")
    drill_id = store.save_drill(trainee["id"], issue("test.a", 1, seed=6))
    store.db.execute(
        "CREATE TRIGGER refuse BEFORE INSERT ON attempts BEGIN SELECT RAISE(ABORT, 'disk full'); END"
    )
    with pytest.raises(sqlite3.IntegrityError, match="disk full"):
        store.answer(drill_id, "1")
    assert store.drill(drill_id)["answered"] is False
    store.db.execute("DROP TRIGGER refuse")
    store.answer(drill_id, "1")
    assert _count(store, "attempts") == 1


def test_modes_are_checked(store):
    trainee = store.trainee_named("T")
    with pytest.raises(StoreError, match="mode"):
        store.save_drill(trainee["id"], issue("test.a", 1, seed=1), mode="exam")
    with pytest.raises(StoreError, match="sprint"):
        store.save_drill(trainee["id"], issue("test.a", 1, seed=1), mode="sprint")
    quiz_id = store.save_drill(trainee["id"], issue("test.a", 1, seed=1), mode="quiz")
    assert store.answer(quiz_id, "3")[1]["mode"] == "quiz"


def _play(store, clock, trainee_id, kind, results, *, seconds=5, **save):
    """Answer one drill of `kind` per entry of `results` (True = right), `seconds` apart."""
    for index, right in enumerate(results):
        situation = issue(kind, 1, seed=len(kind) * 1000 + index)
        drill_id = store.save_drill(trainee_id, situation, **save)
        clock.advance(seconds=seconds)
        store.answer(drill_id, str(_right(situation) if right else -1))


def test_kind_summary_trend_and_weakest(store, clock):
    me = store.trainee_named("Me")["id"]
    other = store.trainee_named("Other")["id"]
    _play(store, clock, me, "test.a", [True, True, True, False, True], seconds=2)  # 80 %, median 2 s
    _play(store, clock, me, "test.b", [True, False, False, True, False, True], seconds=7)  # 50 %
    clock.advance(days=1)
    _play(store, clock, me, "test.c", [False] * 5, seconds=3)  # 0 %
    _play(store, clock, me, "test.d", [False] * 4, seconds=1)  # too few to judge
    _play(store, clock, other, "test.a", [False] * 9)
    summary = {row["kind"]: row for row in stats.kind_summary(store.db, me)}
    assert summary["test.a"] == {
        "kind": "test.a",
        "attempts": 5,
        "correct": 4,
        "accuracy": 0.8,
        "median_ms": 2000,
    }
    assert summary["test.b"]["accuracy"] == 0.5 and summary["test.b"]["median_ms"] == 7000
    assert summary["test.d"]["attempts"] == 4
    # Most needed first: 0 of 4 and 0 of 5 show nothing for sure (fewer answers first), then 3 of 6, 4 of 5.
    assert [row["kind"] for row in stats.needs(store.db, me, count=4)] == [
        "test.d",
        "test.c",
        "test.b",
        "test.a",
    ]
    assert [row["kind"] for row in stats.needs(store.db, me, kinds=["test.a", "test.b"])] == [
        "test.b",
        "test.a",
    ]
    assert stats.needs(store.db, me, count=1)[0] | {"sure": 0} == {
        "kind": "test.d",
        "level": 1,
        "attempts": 4,
        "correct": 0,
        "sure": 0,
    }
    trend = stats.trend_by_day(store.db, me)
    assert [(d["day"], d["attempts"], d["correct"]) for d in trend] == [
        ("2026-03-02", 11, 7),
        ("2026-03-03", 9, 0),
    ]
    assert stats.trend_by_day(store.db, me, kind="test.c")[0]["median_ms"] == 3000
    assert stats.kind_summary(store.db, me, mode="quiz") == []


def test_streaks(store, clock):
    me = store.trainee_named("Me")["id"]
    assert stats.streaks(store.db, me, today=clock.now.date()) == {
        "current_days": 0,
        "longest_days": 0,
        "current_correct": 0,
        "longest_correct": 0,
    }
    for results in ([True, True], [True, False, True, True, True], [True]):  # three days in a row
        _play(store, clock, me, "test.a", results)
        clock.advance(days=1)
    clock.advance(days=2)  # a gap: no practice on 2026-03-05 and 06
    _play(store, clock, me, "test.a", [True, False])
    today = clock.now.date()
    assert stats.streaks(store.db, me, today=today) == {
        "current_days": 1,
        "longest_days": 3,
        "current_correct": 0,
        "longest_correct": 5,  # three on day 2, one on day 3, one today
    }
    assert stats.streaks(store.db, me, today=today + timedelta(days=1))["current_days"] == 1
    assert stats.streaks(store.db, me, today=today + timedelta(days=2))["current_days"] == 0


def test_day_streaks_count_the_days_of_the_trainees_time_zone(store, clock):
    """Tbilisi is UTC+4. Answers at 02:00 and 10:00 there on 3 March are on two UTC days (the 2nd and
    the 3rd) but one day there; an answer at 23:30 there on the 4th is the 4th's, not the 5th's."""
    me = store.trainee_named("Me")["id"]
    for moment in (datetime(2026, 3, 2, 22, 0, tzinfo=UTC), datetime(2026, 3, 3, 6, 0, tzinfo=UTC)):
        clock.now = moment
        _play(store, clock, me, "test.a", [True])
    assert stats.streaks(store.db, me, today=date(2026, 3, 3))["longest_days"] == 2  # the UTC days
    in_tbilisi = stats.streaks(store.db, me, today=date(2026, 3, 3), zone="Asia/Tbilisi")
    assert (in_tbilisi["longest_days"], in_tbilisi["current_days"]) == (1, 1)
    clock.now = datetime(2026, 3, 4, 19, 30, tzinfo=UTC)  # 23:30 on the 4th in Tbilisi
    _play(store, clock, me, "test.a", [True])
    in_tbilisi = stats.streaks(store.db, me, today=date(2026, 3, 5), zone="Asia/Tbilisi")
    assert (in_tbilisi["longest_days"], in_tbilisi["current_days"]) == (2, 2)
    assert stats.streaks(store.db, me, today=date(2026, 3, 7), zone="Asia/Tbilisi")["current_days"] == 0


def test_sprints_score_within_their_time_and_keep_personal_bests(store, clock):
    me = store.trainee_named("Me")["id"]
    first = store.start_sprint(me, "test.a", 1, 60)
    _play(store, clock, me, "test.a", [True, True, False], seconds=10, mode="sprint", sprint_id=first)
    clock.advance(seconds=31)  # this answer comes 61 s in: too late to count
    _play(store, clock, me, "test.a", [True], seconds=0, mode="sprint", sprint_id=first)
    done = store.finish_sprint(first)
    assert (done["answered"], done["correct"]) == (3, 2)
    assert store.finish_sprint(first) == done
    with pytest.raises(StoreError, match="over"):
        store.save_drill(me, issue("test.a", 1, seed=1), mode="sprint", sprint_id=first)
    second = store.start_sprint(me, "test.a", 1, 60)
    _play(
        store,
        clock,
        me,
        "test.a",
        [True, True, True, False, False],
        seconds=5,
        mode="sprint",
        sprint_id=second,
    )
    store.finish_sprint(second)
    third = store.start_sprint(me, "test.a", 1, 60)  # equal score, more mistakes: not a record
    _play(store, clock, me, "test.a", [True] * 3 + [False] * 4, seconds=5, mode="sprint", sprint_id=third)
    store.finish_sprint(third)
    other_scope = store.start_sprint(me, "test", 2, 120)
    store.finish_sprint(other_scope)
    store.start_sprint(me, "test", 3, 120)  # never finished: no record
    bests = {(b["scope"], b["level"], b["duration_s"]): b for b in stats.sprint_bests(store.db, me)}
    assert set(bests) == {("test.a", 1, 60), ("test", 2, 120)}
    assert bests[("test.a", 1, 60)]["id"] == second
    assert (bests[("test", 2, 120)]["answered"], bests[("test", 2, 120)]["correct"]) == (0, 0)
    with pytest.raises(StoreError):
        store.start_sprint(me, "test.a", 1, 0)
    stranger = store.trainee_named("Stranger")["id"]
    open_sprint = store.start_sprint(me, "test.a", 1, 60)
    with pytest.raises(NotFoundError):
        store.save_drill(stranger, issue("test.a", 1, seed=1), mode="sprint", sprint_id=open_sprint)


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.tuples(st.sampled_from(["test.a", "test.b"]), st.booleans(), st.integers(0, 60_000)), max_size=25
    )
)
def test_summary_matches_a_plain_count(tmp_path_factory, answers):
    clock = Clock()
    store = Store(open_db(tmp_path_factory.mktemp("h") / "p.sqlite"), clock=clock)
    me = store.trainee_named("Me")["id"]
    for index, (kind, right, ms) in enumerate(answers):
        situation = issue(kind, 1, seed=index)
        drill_id = store.save_drill(me, situation)
        store.answer(drill_id, str(_right(situation) if right else -1), time_ms=ms)
    summary = {row["kind"]: row for row in stats.kind_summary(store.db, me)}
    for kind in ("test.a", "test.b"):
        mine = [(right, ms) for k, right, ms in answers if k == kind]
        if not mine:
            assert kind not in summary
            continue
        times = sorted(ms for _, ms in mine)
        middle = len(times) // 2
        median = times[middle] if len(times) % 2 else (times[middle - 1] + times[middle]) / 2
        assert summary[kind]["attempts"] == len(mine)
        assert summary[kind]["correct"] == sum(right for right, _ in mine)
        assert summary[kind]["median_ms"] == median
    assert stats.streaks(store.db, me, today=date(2026, 3, 2))["longest_correct"] == max(
        (len(run) for run in "".join("1" if r else "0" for _, r, _ in answers).split("0")), default=0
    )


def test_concurrent_answers_record_exactly_one(tmp_path, clock):
    path = tmp_path / "threads.sqlite"
    store = Store(open_db(path), clock=clock)
    trainee = store.trainee_named("T")
    drill_ids = [store.save_drill(trainee["id"], issue("test.a", 1, seed=n)) for n in range(20)]
    outcomes = []

    def worker(barrier):
        mine = Store(open_db(path, migrate=False), clock=clock)
        for drill_id in drill_ids:
            barrier.wait()
            try:
                mine.answer(drill_id, "1")
                outcomes.append((drill_id, "recorded"))
            except AlreadyAnsweredError:
                outcomes.append((drill_id, "conflict"))

    barrier = threading.Barrier(3)
    threads = [threading.Thread(target=worker, args=(barrier,)) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for drill_id in drill_ids:
        assert sorted(o for d, o in outcomes if d == drill_id) == ["conflict", "conflict", "recorded"]
    assert _count(store, "attempts") == len(drill_ids)


def test_trainees_overview_for_instructors(store, clock):
    a = store.trainee_named("Bravo")["id"]
    b = store.trainee_named("alpha")["id"]
    store.trainee_named("Charlie")  # never answered
    store.new_anonymous_trainee()
    _play(store, clock, a, "test.a", [True, False, True, True], seconds=4)
    clock.advance(seconds=1)
    cut = clock.now
    clock.advance(days=1)
    _play(store, clock, b, "test.b", [False, True], seconds=6)
    _play(store, clock, a, "test.b", [True], seconds=2)
    rows = stats.trainees_overview(store.db)
    assert [r["name"] for r in rows] == ["alpha", "Bravo", "Charlie"]
    alpha, bravo, charlie = rows
    assert (alpha["attempts"], alpha["correct"], alpha["accuracy"], alpha["median_ms"]) == (2, 1, 0.5, 6000)
    assert (bravo["attempts"], bravo["correct"], bravo["median_ms"]) == (5, 4, 4000)
    assert bravo["last_answer"] == clock.now.isoformat(timespec="microseconds")
    assert charlie["attempts"] == 0 and charlie["accuracy"] is None and charlie["last_answer"] is None
    recent = {r["name"]: r["attempts"] for r in stats.trainees_overview(store.db, since=cut)}
    assert recent == {"alpha": 2, "Bravo": 1, "Charlie": 0}


def test_ids_sqlite_cannot_hold_are_not_found(tmp_path):
    store = Store(open_db(tmp_path / "ids.sqlite"))
    for bad in (2**63, 10**30, 0, -1):
        with pytest.raises(NotFoundError):
            store.drill(bad)
        with pytest.raises(NotFoundError):
            store.sprint(bad)
        with pytest.raises(NotFoundError):
            store.trainee(bad)
        assert store.attempt(bad) is None
