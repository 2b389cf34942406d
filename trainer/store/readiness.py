"""The one readiness rule: is a trainee ready for the table in a game?

Ready means: over the trainee's last `window` answers in the game at level `min_level` or above, at
least `accuracy` of them right and the median time under `median_seconds`; a question he chose not
to answer (skipped in a sprint, or passed over in practice) counts among them as not right. Fewer
answers than the window: "too few answers" (no verdict yet). The default figures are in
`data/readiness.toml`; a group may set its own per game (`Target.from_mapping` checks them). The
desk and the practice queue both ask `readiness()`, so a trainee is never "ready" on one page and
"not yet" on another.

>>> target = Target(accuracy=0.95, window=4, min_level=2, median_seconds=10)
>>> str(verdict([(True, 3000)] * 4, target).status)
'ready'
>>> str(verdict([(True, 3000)] * 3 + [(False, 3000)], target).status)
'not_yet'
>>> str(verdict([(True, 3000)] * 3, target).status)
'too_few'
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any

from sqlite_utils import Database

from trainer.engine.presets import data_path, read_toml
from trainer.store.periods import while_member

READINESS_FILE = data_path("readiness.toml")
MAX_WINDOW = 1000


class Status(StrEnum):
    READY = "ready"
    NOT_YET = "not_yet"
    TOO_FEW = "too_few"


@dataclass(frozen=True)
class Target:
    """The figures of the readiness rule (see the module docstring)."""

    accuracy: float
    window: int
    min_level: int
    median_seconds: float

    @classmethod
    def from_mapping(cls, raw: Mapping[str, Any], source: str = "readiness") -> Target:
        """Checked figures; `ValueError` naming the key for anything missing or out of range."""
        unknown = sorted(set(raw) - {"accuracy", "window", "min_level", "median_seconds"})
        if unknown:
            raise ValueError(f"{source}: unknown key {unknown[0]!r}")

        def number(key: str, low: float, high: float, whole: bool) -> Any:
            value = raw.get(key)
            kinds = (int,) if whole else (int, float)
            if isinstance(value, bool) or not isinstance(value, kinds) or not low <= value <= high:
                kind = "a whole number" if whole else "a number"
                raise ValueError(f"{source}: {key} must be {kind} from {low:g} to {high:g}, not {value!r}")
            return value

        return cls(
            accuracy=float(number("accuracy", 0, 1, False)),
            window=number("window", 1, MAX_WINDOW, True),
            min_level=number("min_level", 1, 3, True),
            median_seconds=float(number("median_seconds", 0.5, 600, False)),
        )

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@lru_cache(maxsize=1)
def default_target() -> Target:
    return Target.from_mapping(read_toml(READINESS_FILE, "data/readiness.toml"), "data/readiness.toml")


@dataclass(frozen=True)
class Readiness:
    status: Status
    answers: int
    correct: int
    accuracy: float | None
    median_ms: float | None
    target: Target

    def to_json(self) -> dict[str, Any]:
        return {
            "status": str(self.status),
            "answers": self.answers,
            "correct": self.correct,
            "accuracy": self.accuracy,
            "median_ms": self.median_ms,
            "target": self.target.to_json(),
        }


def verdict(answers: Sequence[tuple[bool, int | None]], target: Target) -> Readiness:
    """The ruling on the (correct, time_ms) answers, newest last; only the last `window` count. A
    question left unanswered (`recent_results`) is (False, None): not right, and no time."""
    recent = list(answers)[-target.window :]
    correct = sum(1 for right, _ in recent if right)
    if not recent:
        return Readiness(Status.TOO_FEW, 0, 0, None, None, target)
    accuracy = correct / len(recent)
    times = [ms for _, ms in recent if ms is not None]
    median = float(statistics.median(times)) if times else None
    if len(recent) < target.window:
        status = Status.TOO_FEW
    elif accuracy >= target.accuracy and median is not None and median < target.median_seconds * 1000:
        status = Status.READY
    else:
        status = Status.NOT_YET
    return Readiness(status, len(recent), correct, accuracy, median, target)


def recent_results(
    db: Database,
    trainee_id: int,
    kinds: Iterable[str],
    min_level: int,
    window: int,
    *,
    group_id: int | None = None,
) -> list[tuple[bool, int | None]]:
    """The trainee's last `window` results in these kinds at `min_level` or above, oldest first: every
    answer (right or not, its time) and every question he chose not to answer, which counts as not
    right: a sprint question skipped, or a practice question left open when a newer question of its
    kind was drawn (its "skip" button, or any other way on). Otherwise skipping every hard question
    would make anyone look ready. For a group's desk (`group_id`), only what he did while in the
    group (`trainer.store.periods`)."""
    kinds = sorted(set(kinds))
    if not kinds:
        return []
    marks = ", ".join("?" for _ in kinds)
    answered, answered_params = while_member(group_id, "a.trainee_id", "a.answered_at")
    skipped, skipped_params = while_member(group_id, "d.trainee_id", "coalesce(d.skipped_at, d.issued_at)")
    rows = db.query(
        f"""SELECT correct, time_ms FROM (
              SELECT * FROM (
                SELECT a.correct AS correct, a.time_ms AS time_ms, a.answered_at AS at, a.drill_id AS drill
                FROM attempts a JOIN drills d ON d.id = a.drill_id
                WHERE a.trainee_id = ? AND d.level >= ? AND a.kind IN ({marks}) AND {answered}
                ORDER BY at DESC, drill DESC LIMIT ?)
              UNION ALL
              SELECT * FROM (
                SELECT 0 AS correct, NULL AS time_ms, coalesce(d.skipped_at, d.issued_at) AS at, d.id AS drill
                FROM drills d
                WHERE d.trainee_id = ? AND d.level >= ? AND d.kind IN ({marks}) AND {skipped}
                  AND (d.skipped_at IS NOT NULL
                       OR (d.mode = 'practice' AND d.answered = 0 AND EXISTS (
                             SELECT 1 FROM drills later WHERE later.trainee_id = d.trainee_id
                             AND later.kind = d.kind AND later.id > d.id)))
                ORDER BY at DESC, drill DESC LIMIT ?)
            ) ORDER BY at DESC, drill DESC LIMIT ?""",
        [
            *(trainee_id, min_level, *kinds, *answered_params, window),
            *(trainee_id, min_level, *kinds, *skipped_params, window),
            window,
        ],
    )
    newest_first = [(bool(r["correct"]), None if r["time_ms"] is None else int(r["time_ms"])) for r in rows]
    return newest_first[::-1]


def readiness(
    db: Database, trainee_id: int, kinds: Iterable[str], target: Target, *, group_id: int | None = None
) -> Readiness:
    """The trainee's readiness over the given drill kinds (those of one game); for a group's desk
    (`group_id`), from what he did while he was in the group only (`trainer.store.periods`)."""
    results = recent_results(db, trainee_id, kinds, target.min_level, target.window, group_id=group_id)
    return verdict(results, target)
