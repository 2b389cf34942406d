"""Duels: a trainee challenges a member of one of his groups to a sprint of one drill kind and level.
Both sides get the same situations: the duel keeps its seeds (drawn by the server, one per question,
never sent to a browser) and its house rules, and each side's sprint asks them in turn
(`Store.start_sprint(seeds=...)`). Each side plays when he likes until `expires_at`
(`data/duels.toml`); a side's sprint is started and linked in one transaction, at most once, so a
second tab or a replayed form finds the sprint already there. The result compares the right answers,
then the time; answers are the sprint's, one per question, timed and scored by the server.

>>> from trainer.store.examples import evening_class
>>> school = evening_class("trainee.one", "trainee.two")
>>> group = school.group["id"]
>>> one, two = (trainee["id"] for trainee in school.trainees)
>>> duels = Duels(school.db)
>>> duel = duels.challenge(group, one, two, "rp.bet_payout", 1, 10, 90, seeds=list(range(10)), rules=None)
>>> first, again = duels.start_side(duel, one), duels.start_side(duel, one)
>>> first == again, duels.outcome(duels.duel(duel))["state"]
(True, 'playing')
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from trainer import shipped
from trainer.engine.presets import read_toml
from trainer.store.clock import Clock
from trainer.store.clock import iso as _iso
from trainer.store.clock import utc_now as _utc_now
from trainer.store.progress import NotFoundError, Refusal, Store, row_by_id
from trainer.store.schema import first_row, insert, writing

DUELS_FILE = shipped("data") / "duels.toml"


def load_expiry(path: Path = DUELS_FILE) -> timedelta:
    """How long a duel stays open (`expires_hours`); ValueError naming the file for a bad figure."""
    try:
        hours = float(read_toml(path)["expires_hours"])
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"{path}: {error}") from error
    if not 0 < hours <= 24 * 365:
        raise ValueError(f"{path}: expires_hours must be between 0 and a year")
    return timedelta(hours=hours)


@functools.cache
def shipped_expiry() -> timedelta:
    return load_expiry(DUELS_FILE)


def _member(db: Database, group_id: int, user_id: int) -> bool:
    row = first_row(
        db, "SELECT 1 AS m FROM memberships WHERE group_id = ? AND user_id = ?", [group_id, user_id]
    )
    return row is not None


class Duels:
    def __init__(self, db: Database, *, clock: Clock = _utc_now) -> None:
        self.db = db
        self.clock = clock

    def challenge(
        self,
        group_id: int,
        challenger_id: int,
        opponent_id: int,
        kind: str,
        level: int,
        questions: int,
        duration_s: int,
        *,
        seeds: Sequence[int],
        rules: str | None,
        expires_after: timedelta | None = None,
    ) -> int:
        """A new duel; `Refusal("not_groupmates")` unless both are in the group (checked under the
        write lock, with the insert), `Refusal("self")` against oneself."""
        if challenger_id == opponent_id:
            raise Refusal("self")
        if len(seeds) != questions:
            raise Refusal("seeds")
        now = self.clock()
        with writing(self.db):
            if not (_member(self.db, group_id, challenger_id) and _member(self.db, group_id, opponent_id)):
                raise Refusal("not_groupmates")
            return insert(
                self.db,
                "duels",
                {
                    "group_id": group_id,
                    "challenger_id": challenger_id,
                    "opponent_id": opponent_id,
                    "kind": kind,
                    "level": level,
                    "questions": questions,
                    "duration_s": duration_s,
                    "seeds": json.dumps([int(seed) for seed in seeds]),
                    "rules": rules,
                    "created_at": _iso(now),
                    "expires_at": _iso(now + (expires_after or shipped_expiry())),
                },
            )

    def duel(self, duel_id: int) -> dict[str, Any]:
        row = row_by_id(self.db, "duels", duel_id, "duel")
        row["seeds"] = json.loads(row["seeds"])
        return row

    def party_duel(self, duel_id: int, user_id: int) -> dict[str, Any]:
        """The duel if `user_id` is one of its two sides; `NotFoundError` otherwise."""
        duel = self.duel(duel_id)
        if user_id not in (duel["challenger_id"], duel["opponent_id"]):
            raise NotFoundError(f"no duel {duel_id}")
        return duel

    def of_trainee(self, user_id: int) -> list[dict[str, Any]]:
        """The trainee's duels, newest first, each with its `outcome` and both sides' names."""
        rows = self.db.execute(
            """SELECT d.id FROM duels d WHERE d.challenger_id = ? OR d.opponent_id = ?
               ORDER BY d.created_at DESC, d.id DESC LIMIT 50""",
            [user_id, user_id],
        ).fetchall()
        return [self.with_outcome(self.duel(int(row[0]))) for row in rows]

    def with_outcome(self, duel: dict[str, Any]) -> dict[str, Any]:
        names = dict(
            self.db.execute(
                "SELECT id, display_name FROM users WHERE id IN (?, ?)",
                [duel["challenger_id"], duel["opponent_id"]],
            ).fetchall()
        )
        return {
            **duel,
            "challenger_name": names.get(duel["challenger_id"]),
            "opponent_name": names.get(duel["opponent_id"]),
            "outcome": self.outcome(duel),
        }

    def expired(self, duel: dict[str, Any]) -> bool:
        return _iso(self.clock()) >= duel["expires_at"]

    def start_side(self, duel_id: int, user_id: int) -> int:
        """The user's sprint of the duel, started now if it is not yet (once: the link is checked and
        written with the sprint, in one transaction). `NotFoundError` to anyone but its two sides;
        `Refusal("expired")` once the duel has expired and his side never started."""
        with writing(self.db):
            duel = self.party_duel(duel_id, user_id)
            column = "challenger_sprint_id" if user_id == duel["challenger_id"] else "opponent_sprint_id"
            if duel[column] is not None:
                return int(duel[column])
            if self.expired(duel):
                raise Refusal("expired")
            sprint_id = Store(self.db, clock=self.clock).start_sprint(
                user_id,
                f"{duel['kind']}/{duel['questions']}",
                duel["level"],
                duel["duration_s"],
                questions=duel["questions"],
                kinds=[duel["kind"]],
                seeds=duel["seeds"],
                rules=duel["rules"],
            )
            self.db.conn.execute(
                f"UPDATE duels SET {column} = ? WHERE id = ? AND {column} IS NULL", [sprint_id, duel_id]
            )
            return sprint_id

    def duel_of_sprint(self, sprint_id: int) -> int | None:
        row = first_row(
            self.db,
            "SELECT id FROM duels WHERE challenger_sprint_id = ? OR opponent_sprint_id = ?",
            [sprint_id, sprint_id],
        )
        return None if row is None else int(row["id"])

    def _side(self, sprint_id: int | None) -> dict[str, Any] | None:
        if sprint_id is None:
            return None
        sprint = Store(self.db).sprint(int(sprint_id))
        started = datetime.fromisoformat(sprint["started_at"])
        deadline = started + timedelta(seconds=sprint["duration_s"])
        if sprint["finished_at"] is None:
            if self.clock() < deadline:
                return {"finished": False}
            # Left before the end: its clock has run out, so it scores as `finish_sprint` would score
            # it (the answers in time), read without writing.
            row = first_row(
                self.db,
                """SELECT coalesce(sum(a.correct), 0) AS correct FROM attempts a
                   JOIN drills d ON d.id = a.drill_id WHERE d.sprint_id = ? AND a.answered_at <= ?""",
                [sprint_id, _iso(deadline)],
            )
            return {
                "finished": True,
                "correct": int(row["correct"] if row else 0),
                "taken_s": float(sprint["duration_s"]),
            }
        taken = (datetime.fromisoformat(sprint["finished_at"]) - started).total_seconds()
        return {
            "finished": True,
            "correct": int(sprint["correct"]),
            "taken_s": round(max(0.0, min(taken, float(sprint["duration_s"]))), 1),
        }

    def outcome(self, duel: dict[str, Any]) -> dict[str, Any]:
        """Where the duel stands: `state` "open" (nobody started), "playing", "done" (both finished) or
        "expired" (a side never started in time); `challenger` and `opponent` (None: not started;
        `finished`, and once finished `correct` and `taken_s`); `winner` (a user id, None for a draw
        or while undecided): most right, then the shorter time."""
        mine, theirs = self._side(duel["challenger_sprint_id"]), self._side(duel["opponent_sprint_id"])
        winner = None
        if mine and theirs and mine["finished"] and theirs["finished"]:
            state = "done"
            a, b = (mine["correct"], -mine["taken_s"]), (theirs["correct"], -theirs["taken_s"])
            winner = duel["challenger_id"] if a > b else duel["opponent_id"] if b > a else None
        elif (mine is None or theirs is None) and self.expired(duel):
            state = "expired"
        else:
            state = "open" if mine is None and theirs is None else "playing"
        return {"state": state, "challenger": mine, "opponent": theirs, "winner": winner}
