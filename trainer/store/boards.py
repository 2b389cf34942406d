"""Group leaderboards: per group and week, each member's best sprint of every drill (kind or mixed
game) and level, ranked as payout trainers rank: the share of the sprint's questions answered right,
then the time taken, then the earlier sprint. Only finished sprints count, scored by the server
(`Store.finish_sprint`), and only those started while the trainee was in the group.

>>> from trainer.store.examples import evening_class
>>> from trainer.store.progress import Store
>>> school = evening_class("trainee.one")
>>> [one] = school.trainees
>>> store = Store(school.db)
>>> sprint = store.start_sprint(one["id"], "rp.bet_payout/10", 1, 60, questions=10, kinds=["rp.bet_payout"])
>>> _ = store.finish_sprint(sprint)
>>> board = weekly_board(school.db, school.group["id"], "2000-01-01", "2100-01-01")
>>> [(b["what"], [row["username"] for row in b["rows"]]) for b in board]
[('rp.bet_payout', ['trainee.one'])]
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlite_utils import Database

from trainer.store.periods import while_member
from trainer.store.schema import writing
from trainer.store.stats import sprint_scope


def _taken_s(row: dict[str, Any]) -> float:
    """The sprint's time: from its start to its scoring, at most its clock."""
    started = datetime.fromisoformat(row["started_at"])
    taken = (datetime.fromisoformat(row["finished_at"]) - started).total_seconds()
    return round(max(0.0, min(taken, float(row["duration_s"]))), 1)


def _rank(row: dict[str, Any]) -> tuple[float, float, str, int]:
    return -row["share"], row["taken_s"], row["started_at"], row["id"]


def weekly_board(db: Database, group_id: int, since: str, until: str) -> list[dict[str, Any]]:
    """The group's board for the sprints started in [since, until) (UTC ISO times): one entry per
    (what, level), by what then level, each with its `rows` best first, one per trainee: `username`,
    `display_name`, `hidden` (he hides his name), `trainee_id`, `correct`, `questions`, `share`,
    `taken_s`, `started_at`. The web masks the hidden names; the store reads them all."""
    seen, params = while_member(group_id, trainee="s.trainee_id", at="s.started_at")
    rows = db.query(
        f"""SELECT s.id, s.trainee_id, s.scope, s.level, s.duration_s, s.started_at, s.finished_at,
                   s.correct, s.answered, s.questions, u.username, u.display_name, u.board_hidden
            FROM sprints s JOIN users u ON u.id = s.trainee_id
            WHERE s.finished_at IS NOT NULL AND s.started_at >= ? AND s.started_at < ? AND {seen}""",
        [since, until, *params],
    )
    bests: dict[tuple[str, int], dict[int, dict[str, Any]]] = {}
    for raw in rows:
        what, n = sprint_scope(raw["scope"])
        questions = raw["questions"] or n or raw["answered"]
        row = {
            "id": int(raw["id"]),
            "trainee_id": int(raw["trainee_id"]),
            "username": raw["username"],
            "display_name": raw["display_name"],
            "hidden": bool(raw["board_hidden"]),
            "correct": int(raw["correct"]),
            "questions": int(questions),
            "share": raw["correct"] / questions if questions else 0.0,
            "taken_s": _taken_s(raw),
            "started_at": raw["started_at"],
        }
        mine = bests.setdefault((what, int(raw["level"])), {})
        held = mine.get(row["trainee_id"])
        if held is None or _rank(row) < _rank(held):
            mine[row["trainee_id"]] = row
    return [
        {"what": what, "level": level, "rows": sorted(found.values(), key=_rank)}
        for (what, level), found in sorted(bests.items())
    ]


def set_hidden(db: Database, user_id: int, hidden: bool) -> None:
    """Hide (or show again) the user's name on his groups' leaderboards."""
    with writing(db):
        db.execute("UPDATE users SET board_hidden = ? WHERE id = ?", [int(hidden), user_id])


def is_hidden(db: Database, user_id: int) -> bool:
    row = db.execute("SELECT board_hidden FROM users WHERE id = ?", [user_id]).fetchone()
    return bool(row and row[0])
