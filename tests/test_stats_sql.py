"""The progress figures aggregated in SQLite give exactly what the Python computation they replaced
gave, on generated answers: per kind and per day (attempts, correct, accuracy, the median time, of
the same type: an int for an odd count, a float for an even one), the home page's last days, the
streaks and each kind's last answers. The Python computation is kept here as the reference."""

from __future__ import annotations

import statistics
from collections import defaultdict
from datetime import date, timedelta
from functools import cache
from typing import Any

from conftest import memory_db
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.store import stats

KINDS = ["rp.qualify", "om.high", "pp.score", "gone.kind"]
MODES = ["practice", "sprint", "quiz"]
FIRST_DAY = date(2026, 3, 1)


# The reference: the Python computation the SQL replaced ------------------------------------------


def _rows(db, trainee_id, kind=None, mode=None):
    sql = (
        "SELECT kind, correct, time_ms, substr(answered_at, 1, 10) AS day FROM attempts WHERE trainee_id = ?"
    )
    params: list[Any] = [trainee_id]
    if kind is not None:
        sql += " AND kind = ?"
        params.append(kind)
    if mode is not None:
        sql += " AND mode = ?"
        params.append(mode)
    return list(db.query(sql, params))


def _summary(times, correct):
    return {
        "attempts": len(times),
        "correct": correct,
        "accuracy": correct / len(times),
        "median_ms": statistics.median(times),
    }


def reference_grouped(db, trainee_id, key, kind=None, mode=None):
    times: dict[str, list[int]] = defaultdict(list)
    correct: dict[str, int] = defaultdict(int)
    for row in _rows(db, trainee_id, kind, mode):
        times[row[key]].append(row["time_ms"])
        correct[row[key]] += row["correct"]
    return [{key: value, **_summary(times[value], correct[value])} for value in sorted(times)]


def reference_recent_by_kind(db, trainee_id, since):
    found = {}
    for row in reference_grouped(db, trainee_id, "kind"):
        recent = [d for d in reference_grouped(db, trainee_id, "day", kind=row["kind"]) if d["day"] >= since]
        if recent:
            found[row["kind"]] = {
                "attempts": sum(d["attempts"] for d in recent),
                "correct": sum(d["correct"] for d in recent),
            }
    return found


def reference_correct_runs(db, trainee_id):
    longest = current = 0
    for row in db.query(
        "SELECT correct FROM attempts WHERE trainee_id = ? ORDER BY answered_at, id", [trainee_id]
    ):
        current = current + 1 if row["correct"] else 0
        longest = max(longest, current)
    return {"current_correct": current, "longest_correct": longest}


def reference_recent_answers(db, trainee_id, window, kinds):
    allowed = None if kinds is None else set(kinds)
    recent: dict[str, list[tuple[bool, int]]] = defaultdict(list)
    rows = db.query(
        """SELECT a.kind, a.correct, d.level FROM attempts a JOIN drills d ON d.id = a.drill_id
           WHERE a.trainee_id = ? ORDER BY a.answered_at DESC, a.id DESC""",
        [trainee_id],
    )
    for row in rows:
        if (allowed is None or row["kind"] in allowed) and len(recent[row["kind"]]) < window:
            recent[row["kind"]].append((bool(row["correct"]), row["level"]))
    tallies = {}
    for kind, answers in recent.items():
        correct = sum(right for right, _level in answers)
        tallies[kind] = {
            "kind": kind,
            "level": max(level for _right, level in answers),
            "attempts": len(answers),
            "correct": correct,
            "sure": stats.sure_accuracy(correct, len(answers)),
            "weak": stats.is_weak(correct, len(answers)),
        }
    return tallies


# Generated answers ------------------------------------------------------------------------------


@cache
def _db():
    db = memory_db()
    db["trainees"].insert_all([{"id": 1, "created_at": "x"}, {"id": 2, "created_at": "x"}])
    return db


answers = st.lists(
    st.tuples(
        st.sampled_from([1, 1, 1, 2]),  # the trainee (mostly the one measured)
        st.sampled_from(KINDS),
        st.integers(1, 3),  # level
        st.booleans(),
        st.integers(0, 40) | st.integers(0, 10**6),  # time in ms: ties and a wide range
        st.sampled_from(MODES),
        st.integers(0, 20),  # day
        st.integers(0, 3),  # second of the day: answers at the same moment (ties broken by id)
    ),
    max_size=120,
)


def _fill(rows) -> Any:
    db = _db()
    with db.conn:
        db.execute("DELETE FROM attempts")
        db.execute("DELETE FROM drills")
        for n, (trainee, kind, level, right, time_ms, mode, day, second) in enumerate(rows, start=1):
            moment = f"{(FIRST_DAY + timedelta(days=day)).isoformat()}T10:00:0{second}.000000+00:00"
            db.execute(
                """INSERT INTO drills (id, trainee_id, kind, level, seed, version, situation, mode, issued_at,
                   answered) VALUES (?, ?, ?, ?, 0, 1, '{}', ?, ?, 1)""",
                [n, trainee, kind, level, mode, moment],
            )
            # Ids not in time order: the tie-break by id must come from the id, not the insertion.
            db.execute(
                """INSERT INTO attempts (id, drill_id, trainee_id, kind, answer, expected, correct, time_ms,
                   mode, answered_at) VALUES (?, ?, ?, ?, '1', '1', ?, ?, ?, ?)""",
                [(n * 7919) % 100_003, n, trainee, kind, int(right), time_ms, mode, moment],
            )
    return db


def _typed(value):
    """A value with the types of its numbers, so 3 and 3.0 differ (the JSON API would show them apart)."""
    if isinstance(value, dict):
        return {key: _typed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_typed(item) for item in value]
    return (type(value).__name__, value)


@settings(max_examples=120)
@given(answers, st.sampled_from([None, *MODES]), st.sampled_from([None, *KINDS]))
def test_kind_summary_and_trend_match_the_python_computation(rows, mode, kind):
    db = _fill(rows)
    for trainee in (1, 2):
        assert _typed(stats.kind_summary(db, trainee, mode=mode)) == _typed(
            reference_grouped(db, trainee, "kind", mode=mode)
        )
        assert _typed(stats.trend_by_day(db, trainee, kind=kind, mode=mode)) == _typed(
            reference_grouped(db, trainee, "day", kind=kind, mode=mode)
        )


@settings(max_examples=120)
@given(answers, st.integers(0, 22))
def test_recent_by_kind_matches_the_python_computation(rows, day):
    db = _fill(rows)
    since = (FIRST_DAY + timedelta(days=day)).isoformat()
    for trainee in (1, 2):
        assert _typed(stats.recent_by_kind(db, trainee, since=since)) == _typed(
            reference_recent_by_kind(db, trainee, since)
        )


@settings(max_examples=120)
@given(answers)
def test_correct_runs_match_the_python_computation(rows):
    db = _fill(rows)
    for trainee in (1, 2):
        found = stats.streaks(db, trainee, today=FIRST_DAY + timedelta(days=20))
        assert {k: found[k] for k in ("current_correct", "longest_correct")} == reference_correct_runs(
            db, trainee
        )


@settings(max_examples=120)
@given(answers, st.integers(1, 25), st.none() | st.sets(st.sampled_from([*KINDS, "never.answered"])))
def test_recent_answers_match_the_python_computation(rows, window, kinds):
    db = _fill(rows)
    for trainee in (1, 2):
        assert _typed(stats.recent_answers(db, trainee, window=window, kinds=kinds)) == _typed(
            reference_recent_answers(db, trainee, window, kinds)
        )


def test_the_generated_answers_reach_the_cases_that_matter():
    """A known case: an even count's median is the mean of the middle two (a float), an odd one's
    the middle value, runs are cut by a wrong answer, and a kind's window keeps its newest answers."""
    rows = [
        (1, "om.high", 1, True, 10, "practice", 0, 0),
        (1, "om.high", 2, True, 20, "practice", 0, 1),
        (1, "om.high", 3, False, 25, "practice", 1, 0),
        (1, "om.high", 1, True, 40, "practice", 1, 1),
        (1, "pp.score", 1, True, 7, "quiz", 2, 0),
    ]
    db = _fill(rows)
    summary = {row["kind"]: row for row in stats.kind_summary(db, 1)}
    assert _typed(summary["om.high"]["median_ms"]) == ("float", 22.5)
    assert _typed(summary["pp.score"]["median_ms"]) == ("int", 7)
    assert stats.streaks(db, 1, today=FIRST_DAY + timedelta(days=2))["longest_correct"] == 2
    assert stats.streaks(db, 1, today=FIRST_DAY + timedelta(days=2))["current_correct"] == 2
    recent = stats.recent_answers(db, 1, window=2)
    assert (recent["om.high"]["attempts"], recent["om.high"]["correct"], recent["om.high"]["level"]) == (
        2,
        1,
        3,
    )
