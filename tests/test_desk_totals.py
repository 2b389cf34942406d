"""The desk's totals kept as answers are written (`kind_totals`, migration m022) against the plain
counts from the answers: on generated histories (members since before their first answer, whose
rows the desk reads from the totals, beside every shape of membership period, whose members it
counts from the answers), after answers are removed and changed, filled by the migration from a
database of answers written before it, and written by many threads at once on a real file."""

from __future__ import annotations

import random
import statistics
import threading
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.test_desk_sql import _iso, make_group, old_item_analysis, old_report
from trainer.drills.base import REGISTRY, expected_of, issue
from trainer.store import Store, stats
from trainer.store.groups import Groups
from trainer.store.periods import each_select
from trainer.store.schema import MIGRATIONS, open_db


def recounted(db: Any) -> dict[tuple[int, str], tuple[Any, ...]]:
    """`kind_totals` as the plain count of `attempts` gives it."""
    answers: dict[tuple[int, str], list[tuple[int, int, str]]] = {}
    for trainee, kind, correct, ms, at in db.execute(
        "SELECT trainee_id, kind, correct, time_ms, answered_at FROM attempts"
    ):
        answers.setdefault((trainee, kind), []).append((correct, ms, at))
    return {
        key: (
            len(rows),
            sum(c for c, _, _ in rows),
            min(at for _, _, at in rows),
            max(at for _, _, at in rows),
            float(statistics.median(ms for _, ms, _ in rows)),
        )
        for key, rows in answers.items()
    }


def stored(db: Any) -> dict[tuple[int, str], tuple[Any, ...]]:
    return {
        (row[0], row[1]): tuple(row[2:])
        for row in db.execute(
            "SELECT trainee_id, kind, attempts, correct, first_at, last_at, median_ms FROM kind_totals"
        )
    }


def with_early_members(seed: int) -> tuple[Groups, int, list[int]]:
    """A generated group (`make_group`) in which some trainees were also in the group from before
    any answer on: the desk reads their rows from the totals, the others' from their answers."""
    groups, group_id, users = make_group(seed)
    rng = random.Random(seed)
    with groups.db.conn:
        for user in users:
            if rng.random() < 0.6:
                groups.db["membership_periods"].insert(
                    {"group_id": group_id, "user_id": user, "joined_at": _iso(-1), "left_at": None}
                )
                groups.db.execute(
                    "INSERT OR IGNORE INTO memberships (group_id, user_id, joined_at) VALUES (?, ?, ?)",
                    [group_id, user, _iso(-1)],
                )
    return groups, group_id, users


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32))
def test_the_desk_from_the_totals_is_the_plain_count(seed: int) -> None:
    groups, group_id, _ = with_early_members(seed)
    ids = [int(m["id"]) for m in groups.members(group_id)]
    plain = list(each_select(groups.db, groups._member_terms(group_id, ids)))
    rows, last = groups._member_rows(group_id, ids)
    assert rows == [row[:5] for row in plain]
    latest: dict[int, str] = {}
    for row in plain:
        latest[row[0]] = max(latest.get(row[0], row[5]), row[5])
    assert last == {who: latest.get(who) for who in ids}
    assert groups.report(group_id) == old_report(groups, group_id)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_the_totals_follow_answers_written_removed_and_changed(seed: int) -> None:
    groups, _, _ = make_group(seed)
    db = groups.db
    rng = random.Random(seed)
    assert stored(db) == recounted(db)
    ids = [row[0] for row in db.execute("SELECT id FROM attempts")]
    with db.conn:
        for attempt in rng.sample(ids, min(len(ids), rng.randint(0, 8))):
            db.execute("DELETE FROM attempts WHERE id = ?", [attempt])
        for attempt in rng.sample(ids, min(len(ids), 8)):
            db.execute(
                "UPDATE attempts SET time_ms = ?, correct = 1 - correct, kind = ? WHERE id = ?",
                [rng.randint(0, 3000), rng.choice(["rp.qualify", "om.high"]), attempt],
            )
    assert stored(db) == recounted(db)


def test_the_migration_counts_the_answers_written_before_it() -> None:
    db = open_db(":memory:", migrate=False)
    MIGRATIONS.apply(db, stop_before="m022_kind_totals")
    rng = random.Random(7)
    with db.conn:
        db["trainees"].insert_all({"id": i, "name": None, "created_at": _iso(0)} for i in (1, 2))
        for n in range(1, 120):
            kind = rng.choice(["rp.qualify", "rp.bet_payout", "om.high"])
            when = _iso(rng.choice([rng.uniform(0, 100), 50.0]))
            db["drills"].insert(
                {
                    "id": n,
                    "trainee_id": 1 + n % 2,
                    "kind": kind,
                    "level": 1,
                    "seed": 1,
                    "version": 1,
                    "situation": "{}",
                    "mode": "practice",
                    "issued_at": when,
                    "answered": 1,
                }
            )
            db["attempts"].insert(
                {
                    "id": n,
                    "drill_id": n,
                    "trainee_id": 1 + n % 2,
                    "kind": kind,
                    "raw": "1",
                    "answer": "1",
                    "expected": "1",
                    "correct": int(rng.random() < 0.5),
                    "time_ms": rng.choice([rng.randint(0, 9000), 1000]),
                    "mode": "practice",
                    "answered_at": when,
                }
            )
    assert "kind_totals" not in db.table_names()
    MIGRATIONS.apply(db)
    assert stored(db) == recounted(db)
    assert len(stored(db)) == 6


def test_many_threads_answering_keep_the_totals_exact(tmp_path) -> None:
    path = tmp_path / "class.sqlite"
    open_db(path).conn.close()
    setup = Store(open_db(path, migrate=False))
    trainees = [setup.new_anonymous_trainee()["id"] for _ in range(3)]
    kinds = ["rp.qualify", "rp.bet_payout"]
    drills = {
        n: [
            setup.save_drill(trainees[(n + i) % 3], issue(REGISTRY[kinds[i % 2]], 1, seed=100 * n + i))
            for i in range(12)
        ]
        for n in range(8)
    }
    setup.db.conn.close()
    errors: list[BaseException] = []
    start = threading.Barrier(len(drills))

    def answering(n: int) -> None:
        store = Store(open_db(path, migrate=False))
        start.wait()
        for i, drill_id in enumerate(drills[n]):
            try:
                right = expected_of(store.drill(drill_id)["situation"])[0]
                wrong = right + 5 if isinstance(right, int) else "yes" if right == "no" else "no"
                store.answer(drill_id, right if i % 3 else wrong, time_ms=100 * n + 7 * i)
            except BaseException as error:
                if type(error).__name__ != "AnswerError":
                    errors.append(error)
        store.db.conn.close()

    threads = [threading.Thread(target=answering, args=(n,)) for n in drills]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    db = open_db(path, migrate=False)
    assert db.execute("SELECT count(*) FROM attempts").fetchone()[0] >= 8 * 8
    assert stored(db) == recounted(db)
    assert (
        sum(row[0] for row in stored(db).values())
        == db.execute("SELECT count(*) FROM attempts").fetchone()[0]
    )


# The group's item analysis and mistakes (`group_answers` and its counts, migration m023) --------

MODES = ["practice", "sprint", "quiz"]
MISTAKE_IDS = ["chips.chip_miscounted", "chips.not_coloured_up", "no.such.mistake", None]


def with_mistakes(seed: int) -> tuple[Groups, int, list[int]]:
    """A generated group (`with_early_members`) whose answers also differ in level, mode and the
    catalogued mistake, with ties in times and in wrong answers."""
    groups, group_id, users = with_early_members(seed)
    rng = random.Random(seed + 1)
    with groups.db.conn:
        for (attempt,) in groups.db.execute("SELECT id FROM attempts").fetchall():
            groups.db.execute(
                "UPDATE attempts SET mode = ?, mistake = CASE WHEN correct = 0 THEN ? END, time_ms = ? "
                "WHERE id = ?",
                [
                    rng.choice(MODES),
                    rng.choice(MISTAKE_IDS),
                    rng.choice([500, 1000, rng.randint(0, 9000)]),
                    attempt,
                ],
            )
    return groups, group_id, users


def assert_counts_are_the_plain_ones(groups: Groups, group_id: int) -> None:
    ids = [int(m["id"]) for m in groups.members(group_id)]
    assert groups.item_details(group_id) == groups.item_details_counted(group_id)
    assert groups.item_analysis(group_id) == groups.item_analysis_counted(group_id)
    assert groups.mistakes(group_id) == (
        stats.group_mistakes(groups.db, ids, group_id=group_id) if ids else []
    )
    for first in (0, 1, 3, 10):  # the desk's first ten, summed in SQLite
        assert groups.mistakes(group_id, first=first) == groups.mistakes(group_id)[:first]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_the_groups_counts_are_the_plain_ones_as_members_come_and_go(seed: int) -> None:
    groups, group_id, users = with_mistakes(seed)
    assert_counts_are_the_plain_ones(groups, group_id)
    assert groups.item_analysis(group_id) == old_item_analysis(groups, group_id)
    rng = random.Random(seed)
    db = groups.db
    for _ in range(4):
        step = rng.choice(["leave", "join", "period", "remove", "change"])
        user = rng.choice(users)
        if step == "leave":
            groups.remove_member(group_id, user)
        elif step == "join":
            groups.add_member(group_id, user)
        elif step == "period":  # a period set back in time, as a moved clock would write
            with db.conn:
                db.execute(
                    "UPDATE membership_periods SET joined_at = ? WHERE user_id = ? AND group_id = ?",
                    [_iso(rng.uniform(-10, 600)), user, group_id],
                )
        else:
            ids = [row[0] for row in db.execute("SELECT id FROM attempts WHERE trainee_id = ?", [user])]
            with db.conn:
                for attempt in rng.sample(ids, min(len(ids), 5)):
                    if step == "remove":
                        db.execute("DELETE FROM attempts WHERE id = ?", [attempt])
                    else:
                        db.execute(
                            "UPDATE attempts SET correct = 1 - correct, time_ms = ?, answer = ? WHERE id = ?",
                            [rng.choice([500, 1000, 7000]), rng.choice(['"yes"', "1400"]), attempt],
                        )
        assert_counts_are_the_plain_ones(groups, group_id)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32))
def test_the_migration_counts_the_groups_answers_written_before_it(seed: int) -> None:
    db = open_db(":memory:", migrate=False)
    MIGRATIONS.apply(db, stop_before="m023_group_answers")
    groups, group_id, _ = make_group(seed, db)
    rng = random.Random(seed)
    with db.conn:
        for (attempt,) in db.execute("SELECT id FROM attempts WHERE correct = 0").fetchall():
            db.execute("UPDATE attempts SET mistake = ? WHERE id = ?", [rng.choice(MISTAKE_IDS), attempt])
    assert "group_answers" not in db.table_names()
    MIGRATIONS.apply(db)
    assert_counts_are_the_plain_ones(groups, group_id)


def _answer(db: Any, rng: random.Random, n: int) -> None:
    kind = rng.choice(["rp.qualify", "om.high"])
    when = _iso(rng.uniform(0, 100))
    row = {"id": n, "trainee_id": 1 + n % 2, "kind": kind, "mode": rng.choice(["practice", "sprint"])}
    db["drills"].insert(
        {**row, "level": 1, "seed": 1, "version": 1, "situation": "{}", "issued_at": when, "answered": 1}
    )
    db["attempts"].insert(
        {
            **row,
            "drill_id": n,
            "raw": "1",
            "answer": "1",
            "expected": "1",
            "correct": int(rng.random() < 0.5),
            "time_ms": rng.choice([rng.randint(0, 3000), 1000, 1000]),  # many equal times
            "answered_at": when,
        }
    )


def test_the_medians_pointer_is_found_for_the_totals_there_are_and_moved_by_each_answer() -> None:
    """m024: the totals counted before it get their pointer to the lower middle answer, and the
    answers written after it (many with equal times) move it: the medians stay the plain ones."""
    db = open_db(":memory:", migrate=False)
    MIGRATIONS.apply(db, stop_before="m024_kind_median_pointer")
    rng = random.Random(11)
    with db.conn:
        db["trainees"].insert_all({"id": i, "name": None, "created_at": _iso(0)} for i in (1, 2))
        for n in range(1, 60):
            _answer(db, rng, n)
    MIGRATIONS.apply(db)
    pointers = "SELECT trainee_id, kind, low_id FROM kind_totals ORDER BY 1, 2"

    def middle() -> list[tuple[int, str, int]]:
        """The lower middle answer of each trainee's answers of a kind, in the index's order."""
        mine: dict[tuple[int, str], list[tuple[Any, ...]]] = {}
        for row in db.execute(
            "SELECT trainee_id, kind, time_ms, correct, mode, answered_at, id FROM attempts"
        ):
            mine.setdefault(row[:2], []).append(row[2:])
        return [(*key, sorted(rows)[(len(rows) - 1) // 2][-1]) for key, rows in sorted(mine.items())]

    assert db.execute(pointers).fetchall() == middle()
    assert stored(db) == recounted(db)
    for n in range(60, 200):
        with db.conn:
            _answer(db, rng, n)
        assert stored(db) == recounted(db)
    assert db.execute(pointers).fetchall() == middle()
