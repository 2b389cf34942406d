"""The live table in the store: rounds, their answered steps, and table tests (exams).

A round row keeps only what deals it again (game, level, seed, seats, rules, payout form, generator
version) and where the trainee is (`step`, the next step to answer). Each answer is graded by the
engines (`trainer.drills.rounds.grade_step`) and written in one transaction with a guarded update
(`UPDATE rounds SET step = step + 1 WHERE id = ? AND step = ?`), so a step is answered once even when
two requests race; the unique index on (round, step) backs it up.

A table test is N rounds of one game at one level against a clock, with a pass mark (accuracy and
time) from `data/table-test.toml`; its row holds the result an instructor reads
(`table_test_results`).

>>> from trainer.store.schema import open_db
>>> from trainer.store.progress import Store
>>> db = open_db(":memory:")
>>> trainee = Store(db).trainee_named("Trainee One")["id"]
>>> tables = TableStore(db)
>>> round_id = tables.start_round(trainee, "russian_poker", 1, seed=6, seats=2)
>>> r = tables.dealt(round_id)
>>> str(r.steps[0].question)
'You open your hand. Do you have a game?'
>>> graded, row = tables.answer(round_id, 0, "yes")
>>> row["step"], graded.correct, graded.expected
(1, False, 'no')
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timedelta
from enum import Enum
from functools import lru_cache
from typing import Any, Literal

from trainer.drills.rounds import (
    DEALT_AGAIN,
    GAMES,
    Round,
    RoundError,
    StepGrade,
    StepRecord,
    deal,
    grade_step,
    result_of,
)
from trainer.engine.presets import data_path, read_toml
from trainer.store.periods import while_member
from trainer.store.progress import AlreadyAnsweredError, NotFoundError, Store, StoreError, _iso, _parse_iso
from trainer.store.schema import insert, writing

TEST_FILE = data_path("table-test.toml")


@lru_cache(maxsize=1)
def exam_settings() -> dict[str, dict[str, int]]:
    """Per game: `rounds`, `pass_accuracy` (percent of steps right) and `time_limit_s` (all rounds)."""
    data = read_toml(TEST_FILE)
    settings: dict[str, dict[str, int]] = {}
    for game in GAMES:
        table = data.get(game)
        if not isinstance(table, dict):
            raise ValueError(f"{TEST_FILE}: missing [{game}]")
        for key in ("rounds", "pass_accuracy", "time_limit_s"):
            value = table.get(key)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{TEST_FILE}: [{game}] {key} must be a whole number >= 1")
        if table["pass_accuracy"] > 100:
            raise ValueError(f"{TEST_FILE}: [{game}] pass_accuracy is a percentage, at most 100")
        settings[game] = {k: table[k] for k in ("rounds", "pass_accuracy", "time_limit_s")}
    return settings


class _Next(Enum):
    DEAL = "deal"  # what `_round_so_far` answers when the test wants a new round


def _round_so_far(test: dict[str, Any], rounds: list[dict[str, Any]]) -> int | Literal[_Next.DEAL] | None:
    """The round of a table test the trainee is on among those dealt: the open one's id, None when
    every round the test asks for is dealt and finished, or `_Next.DEAL`."""
    open_rounds = [r for r in rounds if r["finished_at"] is None]
    if open_rounds:
        return int(open_rounds[0]["id"])
    if len(rounds) >= test["rounds"]:
        return None
    return _Next.DEAL


class TableStore(Store):
    """The progress store with the live table's reads and writes: rounds and table tests."""

    # Rounds ----------------------------------------------------------------------------------------

    def start_round(
        self,
        trainee_id: int,
        game: str,
        level: int,
        *,
        seed: int | None = None,
        seats: int | None = None,
        rules: str | None = None,
        payout: str | None = None,
        test_id: int | None = None,
    ) -> int:
        """Deal a round (`RoundError` for a bad request) and record it; returns its id."""
        dealt = deal(game, level, seed, seats=seats, rules=rules, payout=payout, houses=self.houses)
        record = self._round_record(trainee_id, dealt, test_id)
        with writing(self.db):
            return insert(self.db, "rounds", record)

    def _round_record(self, trainee_id: int, dealt: Round, test_id: int | None) -> dict[str, Any]:
        """The row of a round dealt now (dealing is CPU work: done before any write lock is taken)."""
        if test_id is not None:
            test = self.test(test_id)
            if test["trainee_id"] != trainee_id:
                raise NotFoundError(f"no table test {test_id} for this trainee")
            if test["finished_at"] is not None:
                raise StoreError(f"table test {test_id} is over")
        now = _iso(self.clock())
        return {
            "trainee_id": trainee_id,
            **{name: getattr(dealt, name) for name in DEALT_AGAIN},
            "version": dealt.version,
            "mode": "test" if test_id is not None else "practice",
            "test_id": test_id,
            "steps": len(dealt.steps),
            "step": 0,
            "started_at": now,
            "step_started_at": now,
            "finished_at": None,
        }

    def round(self, round_id: int) -> dict[str, Any]:
        return self._row("rounds", round_id, "round")

    def dealt(self, round_id: int) -> Round:
        """The round dealt again from its row (the same cards, the same steps)."""
        row = self.round(round_id)
        return self.deal_row(row)

    def deal_row(self, row: dict[str, Any]) -> Round:
        """The round of a row dealt again, under its house rules (a house preset of this database too)."""
        dealt = deal(**{name: row[name] for name in DEALT_AGAIN}, houses=self.houses)
        if dealt.version != row["version"]:
            # The generator changed since the round was dealt: it cannot be replayed card for card.
            raise StoreError("This round was dealt by an older version of the trainer; start a new one.")
        return dealt

    def answer(
        self, round_id: int, step: int, raw: Any, *, time_ms: int | None = None
    ) -> tuple[StepGrade, dict[str, Any]]:
        """Grade and record the answer to step `step` of a round, in one transaction.

        `AnswerError` (nothing written) when it cannot be read; `AlreadyAnsweredError` when that step
        has its answer already (nothing changes); `StoreError` for a step not reached yet."""
        row = self.round(round_id)
        if isinstance(step, bool) or not isinstance(step, int) or step < 0:
            raise StoreError(f"a step is a whole number from 0, not {step!r:.20}")
        if step < row["step"]:
            raise AlreadyAnsweredError(f"step {step} of round {round_id} has already been answered")
        if step > row["step"] or step >= row["steps"]:
            raise StoreError(f"round {round_id} is at step {row['step']}, not {step}")
        dealt = self.deal_row(row)
        graded = grade_step(dealt, step, raw, self.houses)  # AnswerError before anything is written
        now = self.clock()
        if time_ms is None:
            time_ms = max(0, (now - _parse_iso(row["step_started_at"])) // timedelta(milliseconds=1))
        if isinstance(time_ms, bool) or not isinstance(time_ms, int) or time_ms < 0:
            raise StoreError(f"time taken must be a whole number of milliseconds, not {time_ms!r}")
        last = step + 1 == row["steps"]
        try:
            with writing(self.db):
                cursor = self.db.execute(
                    """UPDATE rounds SET step = step + 1, step_started_at = ?,
                       finished_at = CASE WHEN step + 1 = steps THEN ? ELSE finished_at END
                       WHERE id = ? AND step = ?""",
                    [_iso(now), _iso(now) if last else None, round_id, step],
                )
                if cursor.rowcount != 1:
                    raise AlreadyAnsweredError(f"step {step} of round {round_id} has already been answered")
                insert(
                    self.db,
                    "round_steps",
                    {
                        "round_id": round_id,
                        "step": step,
                        "kind": dealt.steps[step].kind,
                        "raw": json.dumps(raw),
                        "answer": json.dumps(graded.answer),
                        "expected": json.dumps(graded.expected),
                        "correct": int(graded.correct),
                        "time_ms": time_ms,
                        "house_chips": graded.house_chips,
                        "answered_at": _iso(now),
                    },
                )
        except sqlite3.IntegrityError:
            raise AlreadyAnsweredError(f"step {step} of round {round_id} has already been answered") from None
        return graded, self.round(round_id)

    def answered(self, round_id: int) -> list[dict[str, Any]]:
        """The answered steps of a round, in order (answer and expected decoded)."""
        rows = list(self.db.query("SELECT * FROM round_steps WHERE round_id = ? ORDER BY step", [round_id]))
        for row in rows:
            for key in ("raw", "answer", "expected"):
                row[key] = json.loads(row[key]) if row[key] is not None else None
            row["correct"] = bool(row["correct"])
        return rows

    def result(self, round_id: int) -> dict[str, Any]:
        """The round's result so far (`trainer.drills.rounds.result_of`), from the stored steps: a round
        dealt by an older generator (which cannot be dealt again) still has its result."""
        row = self.round(round_id)
        records = [
            StepRecord(r["step"], r["correct"], r["time_ms"], r["house_chips"])
            for r in self.answered(round_id)
        ]
        summary = result_of(row["steps"], records)
        summary["total_ms"] = summary["time_ms"]
        return summary

    # Table tests -----------------------------------------------------------------------------------

    def start_test(self, trainee_id: int, game: str, level: int) -> int:
        """Open a table test of the game at the level, with the house's rounds, pass mark and clock;
        the trainee's open test, if any, is handed in first (scored as it stands)."""
        if game not in GAMES:
            raise RoundError(f"unknown game {game!r}: one of {', '.join(GAMES)}")
        if isinstance(level, bool) or level not in (1, 2, 3):
            raise RoundError(f"level must be 1, 2 or 3, not {level!r:.20}")
        settings = exam_settings()[game]
        record = {
            "trainee_id": trainee_id,
            "game": game,
            "level": level,
            "rounds": settings["rounds"],
            "pass_accuracy": settings["pass_accuracy"],
            "time_limit_s": settings["time_limit_s"],
            "started_at": _iso(self.clock()),
            "finished_at": None,
        }
        with writing(self.db):
            # Every test started is handed in: one left open (a second tab, a bad first round, a
            # double tap) is scored as it stands, so only the best of several cannot be kept.
            for row in list(
                self.db.query(
                    "SELECT id FROM table_tests WHERE trainee_id = ? AND finished_at IS NULL", [trainee_id]
                )
            ):
                self.finish_test(int(row["id"]))
            return insert(self.db, "table_tests", record)

    def test(self, test_id: int) -> dict[str, Any]:
        return self._row("table_tests", test_id, "table test")

    def test_rounds(self, test_id: int) -> list[dict[str, Any]]:
        return list(self.db.query("SELECT * FROM rounds WHERE test_id = ? ORDER BY id", [test_id]))

    def deadline(self, test: dict[str, Any]) -> datetime:
        return _parse_iso(test["started_at"]) + timedelta(seconds=test["time_limit_s"])

    def next_test_round(self, test_id: int, rules: str | None = None) -> int | None:
        """The round the trainee is on: the open one, a new one while rounds remain, or None (done).
        A test is dealt under one house's rules throughout: its first round's, dealt under `rules`
        (the house rules in force for the trainee; the game's default when they cannot deal it)."""
        test = self.test(test_id)
        if test["finished_at"] is not None or self.clock() > self.deadline(test):
            return None
        rounds = self.test_rounds(test_id)
        if (so_far := _round_so_far(test, rounds)) is not _Next.DEAL:
            return so_far
        if rounds:
            rules = rounds[0]["rules"]
        args = (test["game"], test["level"])
        try:
            dealt = deal(*args, rules=rules, houses=self.houses)
        except RoundError:
            if rules is None:
                raise
            dealt = deal(*args, houses=self.houses)
        record = self._round_record(test["trainee_id"], dealt, test_id)
        with writing(self.db):
            # Looked at again under the write lock: a concurrent request (a double tap, a second
            # tab) may have opened the round meanwhile; a test never has more rounds than it asks.
            if self.test(test_id)["finished_at"] is not None:
                return None
            if (so_far := _round_so_far(test, self.test_rounds(test_id))) is not _Next.DEAL:
                return so_far
            return insert(self.db, "rounds", record)

    def finish_test(self, test_id: int) -> dict[str, Any]:
        """Close and score a table test: steps answered within the time count; passed when every
        round was finished in time and the accuracy reaches the pass mark."""
        test = self.test(test_id)
        if test["finished_at"] is not None:
            return test
        deadline = _iso(self.deadline(test))
        # Counted and written in one transaction: an answer landing in between cannot be left out.
        with writing(self.db):
            counts = next(
                self.db.query(
                    """SELECT count(*) AS answered, coalesce(sum(s.correct), 0) AS right,
                              coalesce(sum(s.time_ms), 0) AS time_ms, coalesce(sum(s.house_chips), 0) AS chips
                       FROM round_steps s JOIN rounds r ON r.id = s.round_id
                       WHERE r.test_id = ? AND s.answered_at <= ?""",
                    [test_id, deadline],
                )
            )
            rounds = self.test_rounds(test_id)
            done = sum(1 for r in rounds if r["finished_at"] is not None and r["finished_at"] <= deadline)
            steps = sum(r["steps"] for r in rounds) if len(rounds) >= test["rounds"] else None
            accuracy = round(100 * counts["right"] / counts["answered"], 1) if counts["answered"] else 0.0
            passed = done >= test["rounds"] and accuracy >= test["pass_accuracy"]
            self.db.execute(
                """UPDATE table_tests SET finished_at = ?, rounds_done = ?, steps = ?, answered = ?,
                       right = ?, time_ms = ?, house_chips = ?, accuracy = ?, passed = ?
                   WHERE id = ? AND finished_at IS NULL""",
                [
                    _iso(self.clock()),
                    done,
                    steps if steps is not None else counts["answered"],
                    counts["answered"],
                    counts["right"],
                    counts["time_ms"],
                    counts["chips"],
                    accuracy,
                    int(passed),
                    test_id,
                ],
            )
        return self.test(test_id)

    def table_test_results(
        self,
        trainee_id: int | None = None,
        *,
        group_id: int | None = None,
        trainee_ids: list[int] | None = None,
    ) -> list[dict[str, Any]]:
        """Finished table tests, newest first: the trainee's, or every named trainee's (the
        instructor's desk reads this): game, level, rounds, accuracy, time, pass mark, passed. For
        a group's desk (`group_id`), only the tests finished while the trainee was in the group.
        With `trainee_ids`, those trainees' in one query, in the order of the list (the desk's
        order), each one's newest first."""
        where = "t.finished_at IS NOT NULL"
        params: list[Any] = []
        if trainee_id is not None:
            where += " AND t.trainee_id = ?"
            params.append(trainee_id)
        if trainee_ids is not None:
            where += f" AND t.trainee_id IN ({', '.join('?' for _ in trainee_ids)})"
            params.extend(trainee_ids)
        seen, seen_params = while_member(group_id, "t.trainee_id", "t.finished_at")
        rows = list(
            self.db.query(
                f"""SELECT t.*, tr.name AS trainee FROM table_tests t JOIN trainees tr ON tr.id = t.trainee_id
                    WHERE {where} AND {seen} ORDER BY t.finished_at DESC, t.id DESC""",
                params + seen_params,
            )
        )
        if trainee_ids is not None:
            place = {trainee: n for n, trainee in enumerate(trainee_ids)}
            rows.sort(key=lambda row: place[row["trainee_id"]])  # stable: newest first within each
        for row in rows:
            row["passed"] = bool(row["passed"])
        return rows
