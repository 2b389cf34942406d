"""Writing progress: trainees, issued drills, answers (one transaction each) and sprints.

>>> from trainer.store.schema import open_db
>>> store = Store(open_db(":memory:"))
>>> trainee = store.trainee_named("Trainee One")
>>> store.trainee_named("trainee one")["id"] == trainee["id"]
True
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import Any

from sqlite_utils import Database

from trainer.drills.base import AnswerKind, Grade, Situation, grade
from trainer.store.clock import Clock
from trainer.store.clock import iso as _iso
from trainer.store.clock import parse_iso as _parse_iso
from trainer.store.clock import utc_now as _utc_now
from trainer.store.house_rules import StoredHouses
from trainer.store.practice import CARD_COLUMNS, apply_review, plan_review
from trainer.store.schema import MODES, first_row, insert, writing

MAX_NAME = 60


class StoreError(ValueError):
    """A request the store refuses; the message says why."""


class Refusal(StoreError):
    """A refusal by reason code (`username_taken`, `closed`, ...) that the web turns into a sentence in
    the user's language; `params` fill it in. Accounts and exams refuse this way."""

    def __init__(self, reason: str, **params: Any) -> None:
        super().__init__(reason)
        self.reason = reason
        self.params = params


MAX_ROWID = 2**63 - 1
_COLUMNS = ("kind", "level", "seed", "version", "rules")  # a situation's identity, in drills columns
# An answer's one read: the drill, and the card its answer reviews (NULLs: the card's first review).
_DRILL_AND_CARD = (
    "SELECT d.*, "
    + ", ".join(f"c.{name} AS [card {name}]" for name in CARD_COLUMNS)
    + " FROM drills d LEFT JOIN cards c"
    " ON c.trainee_id = d.trainee_id AND c.kind = d.kind AND c.level = d.level WHERE d.id = ?"
)
_CARD_KEYS = tuple(f"card {name}" for name in CARD_COLUMNS)


class NotFoundError(StoreError, LookupError):
    """No such trainee, drill or sprint (or not this trainee's)."""


def row_by_id(db: Database, table: str, row_id: Any, what: str) -> dict[str, Any]:
    """The row of `table` with this id; `NotFoundError("no <what> <id>")` when there is none. An id
    that is not a whole number SQLite can hold (a bool, text, outside 64 bits) names no row: "not
    found", never a TypeError or OverflowError."""
    if isinstance(row_id, bool) or not isinstance(row_id, int) or not 0 < row_id <= MAX_ROWID:
        raise NotFoundError(f"no {what} {row_id!r}")
    row = first_row(db, f"SELECT * FROM {table} WHERE id = ?", [row_id])
    if row is None:
        raise NotFoundError(f"no {what} {row_id}")
    return row


class AlreadyAnsweredError(StoreError):
    """The drill has an answer already; nothing was changed."""


class SprintBusyError(StoreError):
    """The sprint is over, has an open question or has asked all its questions: no question was added."""


def on_days(column: str, since: str | None, until: str | None) -> tuple[list[str], list[Any]]:
    """SQL conditions (and their parameters) keeping rows whose ISO timestamp `column` falls on the
    UTC days `since` to `until` (ISO dates, both included; None leaves that end open)."""
    clauses: list[str] = []
    params: list[Any] = []
    if since:
        clauses.append(f"{column} >= ?")
        params.append(since)
    if until:
        clauses.append(f"substr({column}, 1, 10) <= ?")
        params.append(until)
    return clauses, params


def _json(value: Any) -> str:
    """`json.dumps(value)`, sooner for the plain values most answers are (an answer writes three)."""
    if value is None or value is True or value is False:
        return "null" if value is None else "true" if value else "false"
    if type(value) is int:
        return str(value)
    return json.dumps(value)


def _as_read(value: Any, text: str) -> Any:
    """What `json.loads(text)` gives back for `value` written as `text`: the value itself where JSON
    keeps it as it is (a string, a whole number, true, false or null), else the text read back."""
    if value is None or type(value) in (str, int, bool):
        return value
    return json.loads(text)


def _decoded(row: dict[str, Any]) -> dict[str, Any]:
    """A stored attempt row with its answers decoded from JSON and `correct` a bool."""
    for key in ("raw", "answer", "expected"):
        row[key] = json.loads(row[key]) if row[key] is not None else None
    row["correct"] = bool(row["correct"])
    return row


def clean_name(name: Any) -> str:
    """A trainee name as stored: trimmed, inner runs of spaces collapsed, 1 to 60 characters."""
    if not isinstance(name, str) or not " ".join(name.split()):
        raise StoreError("Enter your name.")
    text = " ".join(name.split())
    if len(text) > MAX_NAME:
        raise StoreError(f"A name has at most {MAX_NAME} characters.")
    if any(not ch.isprintable() for ch in text):
        raise StoreError("A name cannot contain control characters.")
    return text


class Store:
    """All reads and writes of progress, over one sqlite-utils `Database`."""

    def __init__(self, db: Database, *, clock: Clock = _utc_now) -> None:
        self.db = db
        self.clock = clock
        # The instructors' house presets of this database: drills dealt under one are graded under it.
        self.houses = StoredHouses(db)

    # Trainees --------------------------------------------------------------------------------------

    def trainee_named(self, name: str) -> dict[str, Any]:
        """The trainee with this name (any case), created on first use."""
        text = clean_name(name)
        found = self.find_trainee_named(text)
        if found is not None:
            return found
        # Look again under the write lock: another request may have created the name meanwhile.
        with writing(self.db):
            found = self.find_trainee_named(text)
            if found is not None:
                return found
            pk = insert(self.db, "trainees", {"name": text, "created_at": _iso(self.clock())})
        return self.trainee(pk)

    def find_trainee_named(self, name: str) -> dict[str, Any] | None:
        """The trainee with this name (any case), or None; never writes."""
        rows = list(self.db.query("SELECT * FROM trainees WHERE name = ? COLLATE NOCASE", [name]))
        return rows[0] if rows else None

    def new_anonymous_trainee(self) -> dict[str, Any]:
        """A trainee without a name (one per browser session until a name is given)."""
        with writing(self.db):
            pk = insert(self.db, "trainees", {"name": None, "created_at": _iso(self.clock())})
        return self.trainee(pk)

    def _row(self, table: str, row_id: int, what: str) -> dict[str, Any]:
        return row_by_id(self.db, table, row_id, what)

    def trainee(self, trainee_id: int) -> dict[str, Any]:
        return self._row("trainees", trainee_id, "trainee")

    # Drills and answers ----------------------------------------------------------------------------

    def save_drill(
        self,
        trainee_id: int,
        situation: Situation,
        *,
        mode: str = "practice",
        sprint_id: int | None = None,
        group_id: int | None = None,
        sitting_id: int | None = None,
    ) -> int:
        """Record an issued situation (from `trainer.drills.issue`), practised for `group_id` (if any),
        as a question of an exam's sitting (if any); returns the drill id."""
        if mode not in MODES:
            raise StoreError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        if (mode == "sprint") != (sprint_id is not None):
            raise StoreError("a sprint drill needs its sprint, and only a sprint drill has one")
        envelope = situation.to_dict()
        record = {
            "trainee_id": trainee_id,
            **{key: envelope[key] for key in _COLUMNS},
            # The drills table keeps what reproduces a situation in columns and the rest as JSON.
            "situation": json.dumps({key: envelope[key] for key in envelope if key not in _COLUMNS}),
            "mode": mode,
            "sprint_id": sprint_id,
            "issued_at": _iso(self.clock()),
            "answered": 0,
        }
        # Only when set: a database migrated before groups and exams (a test's old file) lacks them.
        extra = {"group_id": group_id, "sitting_id": sitting_id}
        record.update({key: value for key, value in extra.items() if value is not None})
        try:
            with writing(self.db):
                if sprint_id is not None:
                    record["position"] = self._sprint_place(sprint_id, trainee_id)
                return insert(self.db, "drills", record)
        except sqlite3.IntegrityError as error:
            if sprint_id is None:
                raise
            # The unique (sprint, position) index: another request added this question first.
            raise SprintBusyError(f"sprint {sprint_id} was given its next question meanwhile") from error

    def _sprint_place(self, sprint_id: int, trainee_id: int) -> int:
        """The position of a new question of the sprint, checked under the write lock: the sprint is
        open, has no open question and has not asked all its questions (when it says how many)."""
        sprint = self.sprint(sprint_id)
        if sprint["trainee_id"] != trainee_id:
            raise NotFoundError(f"no sprint {sprint_id} for this trainee")
        if sprint["finished_at"] is not None:
            raise SprintBusyError(f"sprint {sprint_id} is over")
        asked, open_ = self.db.execute(
            "SELECT count(*), coalesce(sum(answered = 0), 0) FROM drills WHERE sprint_id = ?", [sprint_id]
        ).fetchone()
        if sprint.get("questions") is not None:
            if open_:
                raise SprintBusyError(f"sprint {sprint_id} has an open question")
            if asked >= sprint["questions"]:
                raise SprintBusyError(f"sprint {sprint_id} has asked all its questions")
        return int(asked)

    def drill(self, drill_id: int) -> dict[str, Any]:
        """The stored drill with `situation` rebuilt as the `Situation` `trainer.drills.grade` takes."""
        return self._rebuilt(self._row("drills", drill_id, "drill"))

    def _drill_and_card(self, drill_id: int) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """`drill()`, and the row of the card an answer to it reviews (None: it has none yet), read in
        one statement."""
        if not isinstance(drill_id, int) or not 0 < drill_id <= MAX_ROWID:
            raise NotFoundError(f"no drill {drill_id}")
        row = first_row(self.db, _DRILL_AND_CARD, [drill_id])
        if row is None:
            raise NotFoundError(f"no drill {drill_id}")
        card = {name: row.pop(key) for name, key in zip(CARD_COLUMNS, _CARD_KEYS, strict=True)}
        return self._rebuilt(row), (card if card["id"] is not None else None)

    def _rebuilt(self, row: dict[str, Any]) -> dict[str, Any]:
        stored = json.loads(row["situation"])
        envelope = {**stored, **{key: row[key] for key in _COLUMNS}}
        row["situation"] = Situation.from_dict(envelope, houses=self.houses)
        row["answered"] = bool(row["answered"])
        return row

    def attempt(self, drill_id: int) -> dict[str, Any] | None:
        """The answer given to a drill, if any (answer and expected decoded from JSON)."""
        if not isinstance(drill_id, int) or not 0 < drill_id <= MAX_ROWID:
            return None
        row = first_row(self.db, "SELECT * FROM attempts WHERE drill_id = ?", [drill_id])
        return None if row is None else _decoded(row)

    def answer(self, drill_id: int, raw: Any, *, time_ms: int | None = None) -> tuple[Grade, dict[str, Any]]:
        """Grade and record the one answer to a drill, in one transaction.

        `AnswerError` (nothing written, the drill stays open) when the input cannot be read;
        `AlreadyAnsweredError` (nothing changes) when the drill has an answer. `time_ms` defaults to
        the time since the drill was issued.
        """
        row, card_row = self._drill_and_card(drill_id)
        if row["answered"]:
            raise AlreadyAnsweredError(f"drill {drill_id} has already been answered")
        # Grading runs before the transaction: some solvers take a moment, and the write lock
        # should be held only for the writes. The guarded UPDATE below settles any race.
        result = grade(row["situation"], raw, houses=self.houses)
        now = self.clock()
        if time_ms is None:
            time_ms = max(0, (now - _parse_iso(row["issued_at"])) // timedelta(milliseconds=1))
        if isinstance(time_ms, bool) or not isinstance(time_ms, int) or time_ms < 0:
            raise StoreError(f"time taken must be a whole number of milliseconds, not {time_ms!r}")
        wrong_choice = None
        if not result.correct and row["situation"].answer_format.kind is AnswerKind.CHOICE:
            wrong_choice = result.answer
        # The card's review (FSRS) is worked out before the transaction too; in it, a guarded write.
        card = (row["trainee_id"], row["kind"], row["level"])
        review = {"correct": result.correct, "time_ms": time_ms, "when": now}
        planned = plan_review(self.db, *card, **review, card=card_row)
        attempt = {
            "drill_id": drill_id,
            "trainee_id": row["trainee_id"],
            "kind": row["kind"],
            "raw": _json(raw),
            "answer": _json(result.answer),
            "expected": _json(result.expected),
            "correct": int(result.correct),
            "time_ms": time_ms,
            "mode": row["mode"],
            "answered_at": planned.created_at,  # `now` as the store writes it
            "mistake": None if result.mistake is None else result.mistake.id,
            "wrong_choice": wrong_choice,
        }
        with writing(self.db):
            guarded = "UPDATE drills SET answered = 1 WHERE id = ? AND answered = 0"
            cursor = self.db.execute(guarded, [drill_id])
            if cursor.rowcount != 1:
                raise AlreadyAnsweredError(f"drill {drill_id} has already been answered")
            attempt_id = insert(self.db, "attempts", attempt)
            # Another answer may have reviewed this card meanwhile: then it is reviewed again from the
            # card as it is now, under the lock (rare: two answers of one kind and level at once),
            # where it cannot change between the read and the write.
            if not apply_review(self.db, planned) and not apply_review(
                self.db, plan_review(self.db, *card, **review)
            ):
                raise RuntimeError("a card changed inside its write transaction")
        # The row as `attempt()` reads it back, from what was just written (no second read).
        stored = {"id": attempt_id, **attempt, "correct": result.correct}
        for key, value in (("raw", raw), ("answer", result.answer), ("expected", result.expected)):
            stored[key] = _as_read(value, attempt[key])
        return result, stored

    # Sprints ---------------------------------------------------------------------------------------

    def start_sprint(
        self,
        trainee_id: int,
        scope: str,
        level: int,
        duration_s: int,
        *,
        questions: int | None = None,
        kinds: Sequence[str] = (),
        seeds: Sequence[int] | None = None,
        rules: str | None = None,
    ) -> int:
        """Open a timed sprint of `questions` questions (None: as many as are asked) of `kinds` in
        turn; its questions come from `next_sprint_question` (or `save_drill(mode="sprint", ...)`).
        `seeds` (one per question) and `rules` fix its situations (a duel's); else they are drawn."""
        if not isinstance(duration_s, int) or isinstance(duration_s, bool) or duration_s <= 0:
            raise StoreError("a sprint lasts a positive whole number of seconds")
        whole = isinstance(questions, int) and not isinstance(questions, bool)
        if questions is not None and (not whole or questions < 1):
            raise StoreError("a sprint asks a positive whole number of questions")
        self.trainee(trainee_id)
        record: dict[str, Any] = {
            "trainee_id": trainee_id,
            "scope": scope,
            "level": level,
            "duration_s": duration_s,
            "started_at": _iso(self.clock()),
            "answered": 0,
            "correct": 0,
        }
        if questions is not None:
            record.update(questions=questions, kinds=json.dumps(list(kinds)))
        if seeds is not None:
            if questions is None or len(seeds) != questions:
                raise StoreError("a sprint of fixed seeds has one seed per question")
            record.update(seeds=json.dumps([int(seed) for seed in seeds]), rules=rules)
        with writing(self.db):
            return insert(self.db, "sprints", record)

    def sprint_questions(self, sprint_id: int) -> list[dict[str, Any]]:
        """The sprint's questions so far, in order: drill `id`, `open` (neither answered nor skipped),
        `skipped`, and `correct` (None unless answered)."""
        rows = self.db.query(
            """SELECT d.id, d.answered, d.skipped_at, a.correct FROM drills d
               LEFT JOIN attempts a ON a.drill_id = d.id WHERE d.sprint_id = ? ORDER BY d.id""",
            [sprint_id],
        )
        return [
            {
                "id": int(r["id"]),
                "open": not r["answered"],
                "skipped": r["skipped_at"] is not None,
                "correct": None if r["correct"] is None else bool(r["correct"]),
            }
            for r in rows
        ]

    def next_sprint_question(
        self, sprint_id: int, draw: Callable[..., tuple[Situation, int | None] | None]
    ) -> int | None:
        """The sprint's open question; else, while it has questions left, a new one of its next kind
        (`draw(kind)` deals it, before the write lock is taken; None: it cannot); else None. A sprint
        of fixed seeds (a duel's) has it dealt as `draw(kind, seed=..., rules=...)`.

        Concurrent calls (a second tab, a double tap) add one question between them: the count and
        the open question are checked again under the write lock (`save_drill`)."""
        for _try in range(3):
            sprint = self.sprint(sprint_id)
            asked = self.sprint_questions(sprint_id)
            if sprint["finished_at"] is not None or sprint.get("questions") is None:
                return None
            if asked and asked[-1]["open"]:
                return asked[-1]["id"]
            if len(asked) >= sprint["questions"]:
                return None
            kinds = json.loads(sprint["kinds"] or "[]")
            if not kinds:
                return None
            kind = str(kinds[len(asked) % len(kinds)])
            fixed = json.loads(sprint["seeds"]) if sprint.get("seeds") else None
            drawn = draw(kind) if fixed is None else draw(kind, seed=fixed[len(asked)], rules=sprint["rules"])
            if drawn is None:
                return None
            situation, group_id = drawn
            try:
                return self.save_drill(
                    sprint["trainee_id"], situation, mode="sprint", sprint_id=sprint_id, group_id=group_id
                )
            except SprintBusyError:
                continue  # another request added it: look again
        return None

    def skip_sprint_question(self, drill_id: int) -> bool:
        """Close an open sprint question unanswered; False (nothing changes) when it is not open."""
        with writing(self.db):
            cursor = self.db.execute(
                """UPDATE drills SET answered = 1, skipped_at = ?
                   WHERE id = ? AND sprint_id IS NOT NULL AND answered = 0""",
                [_iso(self.clock()), drill_id],
            )
        return cursor.rowcount == 1

    def sprint(self, sprint_id: int) -> dict[str, Any]:
        return self._row("sprints", sprint_id, "sprint")

    def sprint_drills(self, sprint_id: int) -> list[dict[str, Any]]:
        """The sprint's drills in the order they were asked, each with its `attempt` (None when it was
        skipped or the time ran out first) and `in_time` (answered within the sprint's duration)."""
        sprint = self.sprint(sprint_id)
        deadline = _iso(_parse_iso(sprint["started_at"]) + timedelta(seconds=sprint["duration_s"]))
        drills = []
        for row in self.db.query("SELECT id FROM drills WHERE sprint_id = ? ORDER BY id", [sprint_id]):
            drill = self.drill(row["id"])
            drill["attempt"] = self.attempt(row["id"])
            drill["in_time"] = drill["attempt"] is not None and drill["attempt"]["answered_at"] <= deadline
            drills.append(drill)
        return drills

    def finish_sprint(self, sprint_id: int) -> dict[str, Any]:
        """Close a sprint and score it: answers given within its duration count, later ones do not."""
        sprint = self.sprint(sprint_id)
        if sprint["finished_at"] is not None:
            return sprint
        deadline = _iso(_parse_iso(sprint["started_at"]) + timedelta(seconds=sprint["duration_s"]))
        with writing(self.db):
            counts = next(
                self.db.query(
                    """SELECT count(*) AS answered, coalesce(sum(a.correct), 0) AS correct
                       FROM attempts a JOIN drills d ON d.id = a.drill_id
                       WHERE d.sprint_id = ? AND a.answered_at <= ?""",
                    [sprint_id, deadline],
                )
            )
            self.db.execute(
                """UPDATE sprints SET finished_at = ?, answered = ?, correct = ?
                   WHERE id = ? AND finished_at IS NULL""",
                [_iso(self.clock()), counts["answered"], counts["correct"], sprint_id],
            )
        return self.sprint(sprint_id)
