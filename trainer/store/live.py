"""The live class: a session an instructor runs for one of his groups, one question at a time.

Everything that decides a score lives here, on the server: the session's state and question number,
each question's clock (`opened_at`, `closes_at` for a timed session, `revealed_at`), and each trainee's
one answer per question. An answer is graded before the write lock is taken (grading may take a
moment); under the lock the same transaction checks that this question is still the open one, that
its time is not up, that the trainee joined, and records the answer (a unique key makes a second one
impossible) with its drill and attempt of mode "live", so the answer counts on the desk and in the
exports as any other.

States: `lobby` (no question yet), `question` (one is open), `paused` (the open one's clock stopped,
no answers taken), `revealed` (its answer shown; no answers taken), `ended`.

>>> points_for(True, 2_000, 10, "fast"), points_for(True, 10_000, 10, "fast")
(900, 500)
>>> points_for(False, 1, 10, "fast")
0
>>> points_for(True, 9_000, None, "right")
1000
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlite_utils import Database

from trainer.drills.base import AnswerKind, Grade, Situation, grade
from trainer.store.clock import Clock
from trainer.store.clock import iso as _iso
from trainer.store.clock import utc_now as _utc_now
from trainer.store.progress import NotFoundError, Refusal, StoreError, row_by_id
from trainer.store.schema import first_row, insert, writing

SCORINGS = ("right", "fast")  # points for a right answer only; or more for a faster right answer
RIGHT_POINTS = 1000
FAST_SHARE = 500  # of a right answer's points under "fast", the part that shrinks to 0 with the time
PACED_REFERENCE_S = 30  # the time "fast" scores against when the instructor paces (no clock)
MAX_QUESTIONS = 50
MAX_SECONDS = 600
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read from a projector
CODE_LENGTH = 6
STATES = ("lobby", "question", "paused", "revealed", "ended")
_COLUMNS = ("kind", "level", "seed", "version", "rules")


def _parse(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def points_for(correct: bool, time_ms: int, seconds: int | None, scoring: str) -> int:
    """The points of one answer: 0 when wrong; `RIGHT_POINTS` when right, or under "fast" half of it
    for being right and the other half shrinking with the time taken (to 0 at the question's time)."""
    if not correct:
        return 0
    if scoring != "fast":
        return RIGHT_POINTS
    limit_ms = (seconds or PACED_REFERENCE_S) * 1000
    left = max(0.0, 1.0 - time_ms / limit_ms)
    return RIGHT_POINTS - FAST_SHARE + round(FAST_SHARE * left)


def clean_code(code: Any) -> str:
    """A session code as typed (any case, spaces and dashes ignored)."""
    text = str(code or "").upper().replace(" ", "").replace("-", "")
    return text if len(text) == CODE_LENGTH and all(c in CODE_ALPHABET for c in text) else ""


class LiveSessions:
    """The live sessions on one database connection."""

    def __init__(self, db: Database, *, clock: Clock = _utc_now) -> None:
        self.db = db
        self.clock = clock

    # Sessions --------------------------------------------------------------------------------------

    def create(
        self,
        instructor_id: int,
        group_id: int,
        *,
        kinds: Sequence[str],
        level: int,
        questions: int,
        seconds: int | None,
        scoring: str,
    ) -> dict[str, Any]:
        """Open a session (in the lobby) for a group the instructor owns; NotFoundError otherwise."""
        if not kinds:
            raise StoreError("a live session asks at least one drill kind")
        if not (isinstance(questions, int) and 1 <= questions <= MAX_QUESTIONS):
            raise StoreError(f"a live session asks 1 to {MAX_QUESTIONS} questions")
        if seconds is not None and not (isinstance(seconds, int) and 5 <= seconds <= MAX_SECONDS):
            raise StoreError(f"a question lasts 5 to {MAX_SECONDS} seconds")
        if scoring not in SCORINGS:
            raise StoreError(f"scoring must be one of {', '.join(SCORINGS)}")
        owner = first_row(self.db, "SELECT owner_id FROM groups WHERE id = ?", [group_id])
        if owner is None or owner["owner_id"] != instructor_id:
            raise NotFoundError(f"no group {group_id} of this instructor")
        record = {
            "instructor_id": instructor_id,
            "group_id": group_id,
            "kinds": json.dumps(list(kinds)),
            "level": level,
            "questions": questions,
            "seconds": seconds,
            "scoring": scoring,
            "state": "lobby",
            "position": -1,
            "version": 0,
            "created_at": _iso(self.clock()),
        }
        for _ in range(20):
            record["code"] = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            try:
                with writing(self.db):
                    session_id = insert(self.db, "live_sessions", record)
            except sqlite3.IntegrityError:
                continue  # the code is taken: draw another
            return self.session(session_id)
        raise StoreError("no free session code")  # pragma: no cover - 32**6 codes

    def session(self, session_id: int) -> dict[str, Any]:
        row = row_by_id(self.db, "live_sessions", session_id, "live session")
        row["kinds"] = json.loads(row["kinds"])
        return row

    def owned(self, session_id: int, instructor_id: int) -> dict[str, Any]:
        """The session if this instructor runs it; NotFoundError otherwise (never whose it is)."""
        row = self.session(session_id)
        if row["instructor_id"] != instructor_id:
            raise NotFoundError(f"no live session {session_id} of this instructor")
        return row

    def by_code(self, code: Any) -> dict[str, Any]:
        row = first_row(self.db, "SELECT id FROM live_sessions WHERE code = ?", [clean_code(code)])
        if row is None:
            raise NotFoundError("no live session with this code")
        return self.session(int(row["id"]))

    def of_group(self, group_id: int) -> list[dict[str, Any]]:
        return [
            {**r, "kinds": json.loads(r["kinds"])}
            for r in self.db.query(
                "SELECT * FROM live_sessions WHERE group_id = ? ORDER BY created_at DESC, id DESC", [group_id]
            )
        ]

    # Players ---------------------------------------------------------------------------------------

    def join(self, session_id: int, trainee_id: int) -> None:
        """Join a session of a group the trainee is in (again: nothing changes). Refusal `not_member`
        for anyone else, `ended` for a session that is over."""
        row = self.session(session_id)
        with writing(self.db):
            member = first_row(
                self.db,
                "SELECT 1 AS one FROM memberships WHERE group_id = ? AND user_id = ?",
                [row["group_id"], trainee_id],
            )
            if member is None:
                raise Refusal("not_member")
            state = first_row(self.db, "SELECT state FROM live_sessions WHERE id = ?", [session_id])
            if state is not None and state["state"] == "ended":
                raise Refusal("ended")
            self.db.conn.execute(
                "INSERT OR IGNORE INTO live_players (session_id, trainee_id, joined_at) VALUES (?, ?, ?)",
                [session_id, trainee_id, _iso(self.clock())],
            )

    def is_player(self, session_id: int, trainee_id: int) -> bool:
        return (
            first_row(
                self.db,
                "SELECT 1 AS one FROM live_players WHERE session_id = ? AND trainee_id = ?",
                [session_id, trainee_id],
            )
            is not None
        )

    def players(self, session_id: int) -> int:
        return int(
            self.db.execute(
                "SELECT count(*) FROM live_players WHERE session_id = ?", [session_id]
            ).fetchone()[0]
        )

    # The instructor's controls ---------------------------------------------------------------------

    def open_next(self, session_id: int, situation: Situation) -> dict[str, Any]:
        """Open the next question with `situation` (drawn by the caller, outside the lock). Refusal
        `busy` while a question is open or paused, `done` when every question was asked or the
        session ended; `expected_position` guards a double click."""
        now = self.clock()
        envelope = situation.to_dict()
        with writing(self.db):
            row = self.session(session_id)
            if row["state"] in ("question", "paused"):
                raise Refusal("busy")
            if row["state"] == "ended" or row["position"] + 1 >= row["questions"]:
                raise Refusal("done")
            position = row["position"] + 1
            closes = None if row["seconds"] is None else _iso(now + timedelta(seconds=row["seconds"]))
            insert(
                self.db,
                "live_questions",
                {
                    "session_id": session_id,
                    "position": position,
                    "situation": json.dumps(envelope),
                    "opened_at": _iso(now),
                    "closes_at": closes,
                },
            )
            self._set(session_id, state="question", position=position)
        return self.session(session_id)

    def _set(self, session_id: int, **values: Any) -> None:
        names = ", ".join(f"{k} = ?" for k in values)
        self.db.conn.execute(
            f"UPDATE live_sessions SET {names}, version = version + 1 WHERE id = ?",
            [*values.values(), session_id],
        )

    def pause(self, session_id: int) -> None:
        """Stop the open question's clock (no answers meanwhile); `resume` starts it again."""
        now = self.clock()
        with writing(self.db):
            row = self.session(session_id)
            question = self._current_row(row)
            if row["state"] != "question" or question is None:
                raise Refusal("not_open")
            closes = _parse(question["closes_at"])
            left = None if closes is None else max(0, (closes - now) // timedelta(milliseconds=1))
            self._set(session_id, state="paused", paused_left_ms=left)

    def resume(self, session_id: int) -> None:
        now = self.clock()
        with writing(self.db):
            row = self.session(session_id)
            question = self._current_row(row)
            if row["state"] != "paused" or question is None:
                raise Refusal("not_paused")
            if row["paused_left_ms"] is not None:
                closes = _iso(now + timedelta(milliseconds=row["paused_left_ms"]))
                self.db.conn.execute(
                    "UPDATE live_questions SET closes_at = ? WHERE id = ?", [closes, question["id"]]
                )
            self._set(session_id, state="question", paused_left_ms=None)

    def reveal(self, session_id: int) -> bool:
        """Close the open (or paused) question and show its answer; False when none is open."""
        now = self.clock()
        with writing(self.db):
            row = self.session(session_id)
            question = self._current_row(row)
            if row["state"] not in ("question", "paused") or question is None:
                return False
            self.db.conn.execute(
                "UPDATE live_questions SET revealed_at = ? WHERE id = ? AND revealed_at IS NULL",
                [_iso(now), question["id"]],
            )
            self._set(session_id, state="revealed", paused_left_ms=None)
        return True

    def end(self, session_id: int) -> None:
        self.reveal(session_id)
        with writing(self.db):
            self._set(session_id, state="ended", ended_at=_iso(self.clock()))

    def tick(self, session_id: int) -> dict[str, Any]:
        """The session as it stands, revealing the open question once its time is up (the server's
        clock decides; whoever asks first after the time writes the reveal)."""
        row = self.session(session_id)
        if row["state"] == "question":
            question = self._current_row(row)
            closes = None if question is None else _parse(question["closes_at"])
            if closes is not None and self.clock() >= closes:
                self.reveal(session_id)
                row = self.session(session_id)
        return row

    # Questions -------------------------------------------------------------------------------------

    def _current_row(self, row: dict[str, Any]) -> dict[str, Any] | None:
        if row["position"] < 0:
            return None
        return first_row(
            self.db,
            "SELECT * FROM live_questions WHERE session_id = ? AND position = ?",
            [row["id"], row["position"]],
        )

    def current(self, session_id: int) -> dict[str, Any] | None:
        """The session's current question (open, paused or revealed) with its `situation`, or None."""
        question = self._current_row(self.session(session_id))
        return None if question is None else _question(question)

    def questions(self, session_id: int) -> list[dict[str, Any]]:
        return [
            _question(q)
            for q in self.db.query(
                "SELECT * FROM live_questions WHERE session_id = ? ORDER BY position", [session_id]
            )
        ]

    def left_ms(self, session: dict[str, Any], question: dict[str, Any] | None) -> int | None:
        """The milliseconds the open question has left (None: instructor-paced, or nothing open)."""
        if question is None or session["state"] not in ("question", "paused"):
            return None
        if session["state"] == "paused":
            return session["paused_left_ms"]
        closes = _parse(question["closes_at"])
        return None if closes is None else max(0, (closes - self.clock()) // timedelta(milliseconds=1))

    def answered_count(self, question_id: int) -> int:
        return int(
            self.db.execute(
                "SELECT count(*) FROM live_answers WHERE question_id = ?", [question_id]
            ).fetchone()[0]
        )

    # Answers ---------------------------------------------------------------------------------------

    def answer(
        self, session_id: int, question_id: int, trainee_id: int, raw: Any
    ) -> tuple[Grade, dict[str, Any]]:
        """Grade and record a trainee's one answer to the open question, timed by the server.

        `AnswerError` (nothing written) for an unreadable answer; Refusal `not_player` (did not join),
        `closed` (not the open question any more: revealed, paused, time up, another one asked),
        `answered` (he answered it already)."""
        if not self.is_player(session_id, trainee_id):
            raise Refusal("not_player")
        question = first_row(
            self.db, "SELECT * FROM live_questions WHERE id = ? AND session_id = ?", [question_id, session_id]
        )
        if question is None:
            raise Refusal("closed")
        situation = Situation.from_dict(json.loads(question["situation"]))
        # CPU work before the lock: grading (some solvers take a moment).
        result = grade(situation, raw)
        envelope = situation.to_dict()
        session = self.session(session_id)
        wrong_choice = None
        if not result.correct and situation.answer_format.kind is AnswerKind.CHOICE:
            wrong_choice = result.answer
        with writing(self.db):
            now = self.clock()
            state = first_row(self.db, "SELECT state, position FROM live_sessions WHERE id = ?", [session_id])
            fresh = first_row(
                self.db, "SELECT closes_at, revealed_at FROM live_questions WHERE id = ?", [question_id]
            )
            closes = _parse(fresh["closes_at"]) if fresh else None
            if (
                state is None
                or state["state"] != "question"
                or state["position"] != question["position"]
                or fresh is None
                or fresh["revealed_at"] is not None
                or (closes is not None and now >= closes)
            ):
                raise Refusal("closed")
            if first_row(
                self.db,
                "SELECT 1 AS one FROM live_answers WHERE question_id = ? AND trainee_id = ?",
                [question_id, trainee_id],
            ):
                raise Refusal("answered")
            time_ms = max(
                0, (now - datetime.fromisoformat(question["opened_at"])) // timedelta(milliseconds=1)
            )
            drill_id = insert(
                self.db,
                "drills",
                {
                    "trainee_id": trainee_id,
                    **{key: envelope[key] for key in _COLUMNS},
                    "situation": json.dumps({k: envelope[k] for k in envelope if k not in _COLUMNS}),
                    "mode": "live",
                    "issued_at": question["opened_at"],
                    "answered": 1,
                    "group_id": session["group_id"],
                },
            )
            insert(
                self.db,
                "attempts",
                {
                    "drill_id": drill_id,
                    "trainee_id": trainee_id,
                    "kind": situation.kind,
                    "raw": json.dumps(raw),
                    "answer": json.dumps(result.answer),
                    "expected": json.dumps(result.expected),
                    "correct": int(result.correct),
                    "time_ms": time_ms,
                    "mode": "live",
                    "answered_at": _iso(now),
                    "mistake": None if result.mistake is None else result.mistake.id,
                    "wrong_choice": wrong_choice,
                },
            )
            record = {
                "question_id": question_id,
                "trainee_id": trainee_id,
                "drill_id": drill_id,
                "correct": int(result.correct),
                "time_ms": time_ms,
                "points": points_for(result.correct, time_ms, session["seconds"], session["scoring"]),
                "answer": json.dumps(result.answer),
                "mistake": None if result.mistake is None else result.mistake.id,
            }
            insert(self.db, "live_answers", record)
        return result, record

    def answer_of(self, question_id: int, trainee_id: int) -> dict[str, Any] | None:
        row = first_row(
            self.db,
            "SELECT * FROM live_answers WHERE question_id = ? AND trainee_id = ?",
            [question_id, trainee_id],
        )
        if row is not None:
            row["answer"] = json.loads(row["answer"])
        return row

    # What the reveal shows -------------------------------------------------------------------------

    def spread(self, question_id: int) -> list[dict[str, Any]]:
        """The answers given to a question, most frequent first: the answer, whether right, the
        catalogued mistake it matched, how many gave it."""
        rows = self.db.query(
            """SELECT answer, correct, mistake, count(*) AS n FROM live_answers WHERE question_id = ?
               GROUP BY answer, correct, mistake ORDER BY n DESC, correct DESC""",
            [question_id],
        )
        return [{**r, "answer": json.loads(r["answer"]), "correct": bool(r["correct"])} for r in rows]

    def fastest(self, question_id: int, limit: int = 3) -> list[dict[str, Any]]:
        return list(
            self.db.query(
                """SELECT u.username, a.time_ms FROM live_answers a JOIN users u ON u.id = a.trainee_id
                   WHERE a.question_id = ? AND a.correct = 1 ORDER BY a.time_ms, a.trainee_id LIMIT ?""",
                [question_id, limit],
            )
        )

    def leaderboard(self, session_id: int) -> list[dict[str, Any]]:
        """Every player with his points from the revealed questions only (nothing of an open question
        counts yet), most first; ties broken by the total time of his right answers, less first."""
        rows = list(
            self.db.query(
                """SELECT p.trainee_id, u.username,
                          coalesce(sum(a.points), 0) AS points,
                          coalesce(sum(a.correct), 0) AS right_answers,
                          coalesce(sum(CASE WHEN a.correct = 1 THEN a.time_ms END), 0) AS right_ms
                   FROM live_players p
                   JOIN users u ON u.id = p.trainee_id
                   LEFT JOIN live_questions q ON q.session_id = p.session_id AND q.revealed_at IS NOT NULL
                   LEFT JOIN live_answers a ON a.question_id = q.id AND a.trainee_id = p.trainee_id
                   WHERE p.session_id = ?
                   GROUP BY p.trainee_id
                   ORDER BY points DESC, right_ms ASC, u.username""",
                [session_id],
            )
        )
        for place, row in enumerate(rows, start=1):
            row["place"] = place
        return rows


def _question(row: dict[str, Any]) -> dict[str, Any]:
    return {**row, "situation": Situation.from_dict(json.loads(row["situation"]))}
