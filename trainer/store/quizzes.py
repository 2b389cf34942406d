"""Assigned quizzes (exams): an instructor composes one for a group (drill kinds and levels, number of
questions, time limit, attempts allowed, the same questions for everyone or a fresh draw each, open and
close times, whether trainees see the right answers before it closes); trainees take it in sittings.

Questions are drawn on the server: question i of a sitting uses drill item i (round robin over the
exam's items) and a seed derived from the exam's seed (the same questions for everyone) or the
sitting's own (a fresh draw), both drawn by `secrets`, never given by a client. The drawing itself
(house rules and all) is the caller's `draw` function, so a sitting's drills are the group's drills.

An exam may also ask the instructor's own questions (`own`: a Russian poker hand or an Omaha
showdown he entered, checked by `trainer.drills.own`) and generated situations he picked from a
preview (`picked`: kind, level and the seed the server drew for the preview); they follow the drawn
items in the round robin, an own question drawn by `draw(kind, level, seed, facts)`, a picked one by
`draw(kind, level, its seed)`, and all are graded like the rest. They are kept in `items` as
`[kind, level, facts]` and `[kind, level, null, seed]`; `exam["items"]` holds the drawn items only,
`exam["own"]` the own questions (`kind`, `level`, `question`: the kept facts) and `exam["picked"]`
the picked ones (`kind`, `level`, `seed`).

>>> question_seed(7, 0) == question_seed(7, 0) != question_seed(7, 1)
True
"""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlite_utils import Database

from trainer.drills import REGISTRY, Situation
from trainer.drills.base import MAX_SEED
from trainer.drills.own import OwnQuestionError, own_kind
from trainer.drills.own import checked as checked_facts
from trainer.store.clock import Clock
from trainer.store.clock import parse_iso as _parse
from trainer.store.progress import NotFoundError, Refusal, Store, _iso, _utc_now, on_days, row_by_id
from trainer.store.schema import equal_to, insert, writing

Draw = Callable[..., tuple[Situation, int | None]]  # (kind, level, seed[, an own question's facts])
OWN_DEFAULT_KIND = "rp.settle"  # an own question handed in without its kind (the first kind there was)

MAX_QUESTIONS = 50
MAX_ATTEMPTS = 10
MAX_TIME_LIMIT_S = 3 * 3600
GRACE_S = 30  # a hand-in this late after the deadline still counts (the network, a slow phone)


class ExamError(Refusal):
    """A request about exams the store refuses (`closed`, `no_attempts_left`...;
    `trainer.web.quizzes.views`)."""


def question_seed(seed: int, index: int) -> int:
    """The seed of question `index` of a draw seeded `seed` (reproducible, spread over 31 bits)."""
    return random.Random(f"{seed}:{index}").randrange(2**31)


def _whole(value: Any, low: int, high: int, reason: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ExamError(reason, low=low, high=high)
    return value


class Exams:
    """Exams and sittings over one sqlite-utils `Database`."""

    def __init__(self, db: Database, *, clock: Clock = _utc_now) -> None:
        self.db = db
        self.clock = clock

    def create(
        self,
        group_id: int,
        *,
        title: str,
        items: Sequence[tuple[str, int]],
        questions: int,
        time_limit_s: int | None,
        attempts_allowed: int,
        same_questions: bool,
        opens_at: datetime,
        closes_at: datetime,
        answers_before_close: bool,
        made_by: int | None,
        own: Sequence[dict[str, Any]] = (),
        picked: Sequence[tuple[str, int, int]] = (),
    ) -> dict[str, Any]:
        """A new exam; `own` questions are dicts of their facts and `kind` (`OWN_DEFAULT_KIND` when
        missing), each checked again here; `picked` are (kind, level, seed) as the caller's preview
        drew them (the caller vouches for the seeds: `trainer.web.quizzes.picks`)."""
        text = " ".join(title.split()) if isinstance(title, str) else ""
        if not text or len(text) > 80:
            raise ExamError("title")
        checked = []
        for kind, level in items:
            if kind not in REGISTRY or level not in REGISTRY[kind].levels:
                raise ExamError("item", kind=kind, level=level)
            checked.append([kind, level])
        for question in own:
            try:
                kind = question.get("kind", OWN_DEFAULT_KIND)
                facts = {k: v for k, v in question.items() if k != "kind"}
                checked.append([kind, own_kind(kind).level, checked_facts(kind, facts)])
            except (OwnQuestionError, AttributeError):
                raise ExamError("own_question") from None
        for pick in picked:
            kind, level, seed = pick
            if kind not in REGISTRY or level not in REGISTRY[kind].levels:
                raise ExamError("item", kind=kind, level=level)
            checked.append([kind, level, None, _whole(seed, 0, MAX_SEED, "seed")])
        if not checked:
            raise ExamError("no_items")
        _whole(questions, 1, MAX_QUESTIONS, "questions")
        _whole(attempts_allowed, 1, MAX_ATTEMPTS, "attempts")
        if time_limit_s is not None:
            _whole(time_limit_s, 60, MAX_TIME_LIMIT_S, "time_limit")
        if closes_at <= opens_at:
            raise ExamError("window")
        with writing(self.db):
            pk = insert(
                self.db,
                "exams",
                {
                    "group_id": group_id,
                    "title": text,
                    "items": json.dumps(checked),
                    "questions": questions,
                    "time_limit_s": time_limit_s,
                    "attempts_allowed": attempts_allowed,
                    "same_questions": int(same_questions),
                    "seed": secrets.randbelow(2**31),
                    "opens_at": _iso(opens_at),
                    "closes_at": _iso(closes_at),
                    "answers_before_close": int(answers_before_close),
                    "made_by": made_by,
                    "created_at": _iso(self.clock()),
                },
            )
        return self.exam(pk)

    def exam(self, exam_id: Any) -> dict[str, Any]:
        return self._decoded(row_by_id(self.db, "exams", exam_id, "exam"))

    def _decoded(self, row: dict[str, Any]) -> dict[str, Any]:
        now = _iso(self.clock())
        stored = json.loads(row["items"])
        row["items"] = [tuple(item) for item in stored if len(item) == 2]
        row["own"] = [
            {"kind": k, "level": n, "question": q} for k, n, q in (i for i in stored if len(i) == 3)
        ]
        row["picked"] = [
            {"kind": k, "level": n, "seed": s} for k, n, _, s in (i for i in stored if len(i) == 4)
        ]
        row["is_open"] = row["opens_at"] <= now < row["closes_at"]
        row["is_closed"] = now >= row["closes_at"]
        return row

    def of_group(self, group_id: int) -> list[dict[str, Any]]:
        rows = self.db.query(
            "SELECT * FROM exams WHERE group_id = ? ORDER BY opens_at DESC, id DESC", [group_id]
        )
        return [self._decoded(r) for r in rows]

    def assigned_to(self, user_id: int) -> list[dict[str, Any]]:
        """The exams of the user's groups that are open now, with his sittings so far."""
        now = _iso(self.clock())
        rows = self.db.query(
            """SELECT e.*, g.name AS group_name, g.time_zone AS group_time_zone,
                      (SELECT count(*) FROM exam_sittings s WHERE s.exam_id = e.id AND s.trainee_id = ?)
                      AS sittings
               FROM exams e JOIN memberships m ON m.group_id = e.group_id AND m.user_id = ?
               JOIN groups g ON g.id = e.group_id
               WHERE e.opens_at <= ? AND ? < e.closes_at ORDER BY e.closes_at, e.id""",
            [user_id, user_id, now, now],
        )
        return [self._decoded(r) for r in rows]

    # Sittings --------------------------------------------------------------------------------------

    def sitting(self, sitting_id: Any) -> dict[str, Any]:
        return row_by_id(self.db, "exam_sittings", sitting_id, "sitting")

    def sittings(self, exam_id: int, trainee_id: int | None = None) -> list[dict[str, Any]]:
        where, params = "exam_id = ?", [exam_id]
        if trainee_id is not None:
            where, params = where + " AND trainee_id = ?", [exam_id, trainee_id]
        return list(self.db.query(f"SELECT * FROM exam_sittings WHERE {where} ORDER BY id", params))

    def drills(self, sitting_id: int) -> list[int]:
        return [
            int(r["id"])
            for r in self.db.query("SELECT id FROM drills WHERE sitting_id = ? ORDER BY id", [sitting_id])
        ]

    def start(self, exam_id: int, trainee_id: int, draw: Draw) -> dict[str, Any]:
        """The trainee's unfinished sitting of the exam, or a new one with its questions drawn.

        The questions are drawn (CPU work) before the write lock is taken; then, under the lock, the
        sittings are counted again and the new sitting and its questions are written in the same
        transaction, so concurrent starts (a double tap, a second tab, a script) make one sitting
        between them and never more than the exam allows."""
        exam = self.exam(exam_id)
        member = list(
            self.db.query(
                "SELECT 1 FROM memberships WHERE group_id = ? AND user_id = ?", [exam["group_id"], trainee_id]
            )
        )
        if not member:
            raise NotFoundError(f"no exam {exam_id}")
        mine = self.sittings(exam_id, trainee_id)
        running = [s for s in mine if s["finished_at"] is None and not self._late(s)]
        if running:
            return running[0]
        for stale in (s for s in mine if s["finished_at"] is None):
            self.finish(int(stale["id"]))
        self._may_start(exam, len(mine))  # refused before anything is drawn
        now = self.clock()
        seed = exam["seed"] if exam["same_questions"] else secrets.randbelow(2**31)
        drawn = []
        sequence = [
            *((kind, level, None, None) for kind, level in exam["items"]),
            *((o["kind"], o["level"], None, o["question"]) for o in exam["own"]),
            *((p["kind"], p["level"], p["seed"], None) for p in exam["picked"]),
        ]
        for i in range(exam["questions"]):
            kind, level, kept_seed, facts = sequence[i % len(sequence)]
            at = question_seed(seed, i) if kept_seed is None else kept_seed
            drawn.append(draw(kind, level, at, *(() if facts is None else (facts,))))
        deadline = None if exam["time_limit_s"] is None else now + timedelta(seconds=exam["time_limit_s"])
        store = Store(self.db, clock=self.clock)
        with writing(self.db):
            # Counted again under the write lock: another start may have made a sitting meanwhile.
            mine = self.sittings(exam_id, trainee_id)
            running = [s for s in mine if s["finished_at"] is None and not self._late(s)]
            if running:
                return running[0]
            self._may_start(self.exam(exam_id), len(mine))
            sitting_id = insert(
                self.db,
                "exam_sittings",
                {
                    "exam_id": exam_id,
                    "trainee_id": trainee_id,
                    "seed": seed,
                    "started_at": _iso(now),
                    "deadline": None if deadline is None else _iso(min(deadline, _parse(exam["closes_at"]))),
                    "answered": 0,
                    "correct": 0,
                },
            )
            for situation, group_id in drawn:
                store.save_drill(trainee_id, situation, mode="quiz", group_id=group_id, sitting_id=sitting_id)
        return self.sitting(sitting_id)

    @staticmethod
    def _may_start(exam: dict[str, Any], taken: int) -> None:
        if not exam["is_open"]:
            raise ExamError("closed")
        if taken >= exam["attempts_allowed"]:
            raise ExamError("no_attempts_left")

    def _late(self, sitting: dict[str, Any]) -> bool:
        deadline = sitting["deadline"]
        if deadline is None:
            exam = list(self.db.query("SELECT closes_at FROM exams WHERE id = ?", [sitting["exam_id"]]))
            deadline = exam[0]["closes_at"]
        return self.clock() > _parse(deadline) + timedelta(seconds=GRACE_S)

    def seconds_left(self, sitting: dict[str, Any]) -> int | None:
        """Whole seconds until the sitting's deadline by the server's clock (0 once past it), or None
        for a sitting without a time limit. The trainee's countdown shows this figure; the server
        refuses a hand-in later than the deadline and its grace (`GRACE_S`) whatever a page shows."""
        if sitting["deadline"] is None:
            return None
        left = (_parse(sitting["deadline"]) - self.clock()).total_seconds()
        return max(0, int(left))

    def accepts_answers(self, sitting: dict[str, Any]) -> bool:
        return sitting["finished_at"] is None and not self._late(sitting)

    def finish(self, sitting_id: int) -> dict[str, Any]:
        """Close the sitting and count its answered and right questions (unanswered ones are wrong)."""
        with writing(self.db):
            self.db.execute(
                """UPDATE exam_sittings SET finished_at = ?,
                     answered = (SELECT count(*) FROM attempts a JOIN drills d ON d.id = a.drill_id
                                 WHERE d.sitting_id = exam_sittings.id),
                     correct = (SELECT coalesce(sum(a.correct), 0) FROM attempts a
                                JOIN drills d ON d.id = a.drill_id WHERE d.sitting_id = exam_sittings.id)
                   WHERE id = ? AND finished_at IS NULL""",
                [_iso(self.clock()), sitting_id],
            )
        return self.sitting(sitting_id)

    def results(self, exam_id: int) -> list[dict[str, Any]]:
        """Per member of the exam's group: his finished sittings and the best score (None: not taken)."""
        exam = self.exam(exam_id)
        members = list(
            self.db.query(
                """SELECT u.id, u.username, u.display_name FROM memberships m JOIN users u ON u.id = m.user_id
                   WHERE m.group_id = ? ORDER BY u.display_name COLLATE NOCASE, u.id""",
                [exam["group_id"]],
            )
        )
        results = []
        for member in members:
            done = [s for s in self.sittings(exam_id, int(member["id"])) if s["finished_at"] is not None]
            best = max((s["correct"] for s in done), default=None)
            results.append({**member, "sittings": done, "best": best})
        return results

    def question_results(
        self, group_id: int, *, since: str | None = None, until: str | None = None, kind: str | None = None
    ) -> list[dict[str, Any]]:
        """Every question of every finished sitting of the group's exams, oldest sitting first: the
        exam, the trainee, the sitting's score, the question's number, kind, level and rules, and the
        answer given (None for a question left unanswered, which counts as wrong). `since` and `until`
        are ISO days (UTC, both included) of the sitting's hand-in; `kind` keeps that drill kind's
        questions only."""
        clauses, params = on_days("s.finished_at", since, until)
        given, given_params = equal_to(("d.kind", kind or None))
        clauses += ["e.group_id = ?", "s.finished_at IS NOT NULL", *given]
        params += [group_id, *given_params]
        return list(
            self.db.query(
                f"""SELECT s.finished_at, e.id AS quiz_id, e.title AS quiz, u.username, s.id AS sitting_id,
                           s.correct AS score, e.questions,
                           (SELECT count(*) FROM drills q WHERE q.sitting_id = s.id AND q.id <= d.id)
                             AS question,
                           d.kind, d.level, d.rules, a.answer, a.expected, coalesce(a.correct, 0) AS correct
                    FROM exam_sittings s JOIN exams e ON e.id = s.exam_id JOIN users u ON u.id = s.trainee_id
                    JOIN drills d ON d.sitting_id = s.id LEFT JOIN attempts a ON a.drill_id = d.id
                    WHERE {" AND ".join(clauses)} ORDER BY s.finished_at, s.id, d.id""",
                params,
            )
        )

    def report_rows(self, group_id: int, *, kind: str | None = None) -> list[dict[str, Any]]:
        """Every member of the group for every quiz of the group: a row per question of each of his
        handed-in sittings (as `question_results`, with his name and the drill's stored answer
        format), or one row with `sitting_id` None when he has handed in none. Quizzes newest first
        (as the desk lists them), members by name, sittings and questions in order."""
        given, given_params = equal_to(("d.kind", kind or None))
        clauses, params = ["e.group_id = ?", "s.finished_at IS NOT NULL", *given], [group_id, *given_params]
        questions = list(
            self.db.query(
                f"""SELECT e.id AS quiz_id, s.trainee_id, s.id AS sitting_id, s.started_at, s.finished_at,
                           s.correct AS score,
                           (SELECT count(*) FROM drills q WHERE q.sitting_id = s.id AND q.id <= d.id)
                             AS question,
                           d.kind, d.level, d.rules, a.raw, a.answer, a.expected,
                           coalesce(a.correct, 0) AS correct, a.time_ms, a.mistake,
                           json_extract(d.situation, '$.answer_format') AS answer_format
                    FROM exam_sittings s JOIN exams e ON e.id = s.exam_id
                    JOIN drills d ON d.sitting_id = s.id LEFT JOIN attempts a ON a.drill_id = d.id
                    WHERE {" AND ".join(clauses)} ORDER BY s.id, d.id""",
                params,
            )
        )
        members = list(
            self.db.query(
                """SELECT u.id, u.username, u.display_name FROM memberships m JOIN users u ON u.id = m.user_id
                   WHERE m.group_id = ? ORDER BY u.display_name COLLATE NOCASE, u.id""",
                [group_id],
            )
        )
        by_sitter: dict[tuple[int, int], list[dict[str, Any]]] = {}
        for row in questions:
            by_sitter.setdefault((row["quiz_id"], row["trainee_id"]), []).append(row)
        rows = []
        for exam in self.of_group(group_id):
            asked = {k for k, _level in exam["items"]} | {q["kind"] for q in (*exam["own"], *exam["picked"])}
            if kind and kind not in asked:
                continue  # the quiz asks no question of that drill
            quiz = {"quiz_id": exam["id"], "quiz": exam["title"], "questions": exam["questions"]}
            sitters = {who for (quiz_id, who) in by_sitter if quiz_id == exam["id"]}
            # A former member's sittings stay in the report.
            everyone = members + self._users(sitters - {int(m["id"]) for m in members})
            for member in everyone:
                who = {"username": member["username"], "display_name": member["display_name"]}
                mine = by_sitter.get((exam["id"], int(member["id"])))
                if not mine:
                    rows.append({**quiz, **who, "sitting_id": None})
                    continue
                rows.extend({**row, **quiz, **who} for row in mine)
        return rows

    def _users(self, ids: set[int]) -> list[dict[str, Any]]:
        if not ids:
            return []
        marks = ", ".join("?" for _ in ids)
        return list(
            self.db.query(
                f"SELECT id, username, display_name FROM users WHERE id IN ({marks}) "
                "ORDER BY display_name COLLATE NOCASE, id",
                sorted(ids),
            )
        )
