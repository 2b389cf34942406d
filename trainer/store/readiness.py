"""The one readiness rule: is a trainee ready for the table in a game?

Ready means: over the trainee's last `window` answers in the game at level `min_level` or above, at
least `accuracy` of them right and the median time under `median_seconds`. Fewer answers than the
window: "too few answers" (no verdict yet). The default figures are in `data/readiness.toml`; a group
may set its own per game (`Target.from_mapping` checks them). The desk and the practice queue both
ask `readiness()`, so a trainee is never "ready" on one page and "not yet" on another.

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
from trainer.store.periods import during, member_spans, union_all

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


def verdict(answers: Sequence[tuple[bool, int]], target: Target) -> Readiness:
    """The ruling on the (correct, time_ms) answers, newest last; only the last `window` count."""
    recent = list(answers)[-target.window :]
    correct = sum(1 for right, _ in recent if right)
    if not recent:
        return Readiness(Status.TOO_FEW, 0, 0, None, None, target)
    accuracy = correct / len(recent)
    median = float(statistics.median(ms for _, ms in recent))
    if len(recent) < target.window:
        status = Status.TOO_FEW
    elif accuracy >= target.accuracy and median < target.median_seconds * 1000:
        status = Status.READY
    else:
        status = Status.NOT_YET
    return Readiness(status, len(recent), correct, accuracy, median, target)


def readiness(
    db: Database, trainee_id: int, kinds: Iterable[str], target: Target, *, group_id: int | None = None
) -> Readiness:
    """The trainee's readiness over the given drill kinds (those of one game); for a group's desk
    (`group_id`), from his answers while he was in the group only (`trainer.store.periods`)."""
    return readiness_of(db, [trainee_id], {"": (kinds, target)}, group_id=group_id)[trainee_id, ""]


def readiness_of(
    db: Database,
    trainee_ids: Iterable[int],
    games: Mapping[str, tuple[Iterable[str], Target]],
    *,
    group_id: int | None = None,
) -> dict[tuple[int, str], Readiness]:
    """`readiness` of every trainee in every game (game id -> its kinds and target), keyed by
    (trainee id, game id). Each (trainee, game) reads its last `window` answers newest first along
    the index on (trainee, answered_at) with LIMIT, all of them in one compound statement
    (`union_all`): a desk of many trainees is one statement, not one per trainee and game, and no
    trainee's older answers are read."""
    ids = sorted({int(t) for t in trainee_ids})
    spans = member_spans(db, group_id, ids) if group_id is not None else None
    terms: list[tuple[str, list[Any]]] = []
    for trainee in ids:
        seen, seen_params = ("1", []) if spans is None else during(spans[trainee], "a.answered_at")
        for game, (kinds, target) in games.items():
            chosen = sorted(set(kinds))
            if not chosen:
                continue
            terms.append(
                (
                    f"""SELECT a.trainee_id, ? AS game, a.answered_at, a.id, a.correct, a.time_ms
                        FROM attempts a JOIN drills d ON d.id = a.drill_id
                        WHERE a.trainee_id = ? AND ({seen}) AND +a.kind IN ({", ".join("?" for _ in chosen)})
                        AND d.level >= ? ORDER BY a.answered_at DESC, a.id DESC LIMIT ?""",
                    [game, trainee, *seen_params, *chosen, target.min_level, target.window],
                )
            )
    found: dict[tuple[int, str], list[tuple[str, int, bool, int]]] = {}
    for trainee, game, answered_at, attempt, correct, time_ms in union_all(db, terms):
        found.setdefault((trainee, game), []).append((answered_at, attempt, bool(correct), int(time_ms)))
    return {
        (trainee, game): verdict([(c, ms) for *_, c, ms in sorted(found.get((trainee, game), []))], target)
        for trainee in ids
        for game, (_kinds, target) in games.items()
    }
