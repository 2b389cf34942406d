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

import json
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any

from sqlite_utils import Database

from trainer.engine.presets import data_path, read_toml
from trainer.store.medians import add_median
from trainer.store.periods import Span, during, each_select, member_spans
from trainer.store.schema import reading

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
        # What `dataclasses.asdict` gives, written out: the desk asks it for every member and game.
        return {
            "accuracy": self.accuracy,
            "window": self.window,
            "min_level": self.min_level,
            "median_seconds": self.median_seconds,
        }


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
    times = [ms for _, ms in recent if ms is not None]
    median = float(statistics.median(times)) if times else None
    return verdict_of(len(recent), sum(1 for right, _ in recent if right), median, target)


def verdict_of(answers: int, correct: int, median: float | None, target: Target) -> Readiness:
    """`verdict` from the counts of the last `window` results: how many, how many right, the median
    time of those answered (None: none was)."""
    if not answers:
        return Readiness(Status.TOO_FEW, 0, 0, None, None, target)
    accuracy = correct / answers
    if answers < target.window:
        status = Status.TOO_FEW
    elif accuracy >= target.accuracy and median is not None and median < target.median_seconds * 1000:
        status = Status.READY
    else:
        status = Status.NOT_YET
    return Readiness(status, answers, correct, accuracy, median, target)


# A question the trainee chose not to answer (`_result_terms`), a condition on the drill `d`: the
# first line, which the second implies, is written out so that the partial index
# `drills_not_answered` (m022) serves it.
CHOSE_NOT_TO_ANSWER = """(d.skipped_at IS NOT NULL OR d.answered = 0)
    AND (d.skipped_at IS NOT NULL
         OR (d.mode = 'practice' AND d.answered = 0 AND EXISTS (
               SELECT 1 FROM drills later WHERE later.trainee_id = d.trainee_id
               AND later.kind = d.kind AND later.id > d.id)))"""


def _result_terms(
    trainee_id: int,
    tag: str,
    kinds: Sequence[str],
    min_level: int,
    window: int,
    answered: tuple[str, list[Any]],
    skipped: tuple[str, list[Any]],
) -> list[tuple[str, list[Any]]]:
    """The two SELECTs of one trainee's last `window` results (`recent_results`), each along an index
    with LIMIT: his answers, and the questions he chose not to answer (a sprint question skipped, or a
    practice question left open when a newer question of its kind was drawn), each row
    (trainee, tag, at, drill id, correct, time_ms). `answered` and `skipped` are the SQL conditions
    (with parameters) on the answer's time `a.answered_at` and on the question's time `at`. The
    condition "skipped or not answered" (which the finer one implies) is written out as it is, so
    the partial index `drills_not_answered` (m022) serves it: not every drill of his is read."""
    marks = ", ".join("?" for _ in kinds)
    (seen_answer, answer_params), (seen_skip, skip_params) = answered, skipped
    return [
        (
            f"""SELECT a.trainee_id, ? AS tag, a.answered_at AS at, a.drill_id AS drill, a.correct,
                       a.time_ms
                FROM attempts a JOIN drills d ON d.id = a.drill_id
                WHERE a.trainee_id = ? AND ({seen_answer}) AND +a.kind IN ({marks}) AND d.level >= ?
                ORDER BY a.answered_at DESC, a.drill_id DESC LIMIT ?""",
            [tag, trainee_id, *answer_params, *kinds, min_level, window],
        ),
        (
            f"""SELECT * FROM (
                  SELECT d.trainee_id, ? AS tag, coalesce(d.skipped_at, d.issued_at) AS at, d.id AS drill,
                         0 AS correct, NULL AS time_ms
                  FROM drills d
                  WHERE d.trainee_id = ? AND d.kind IN ({marks}) AND d.level >= ?
                    AND {CHOSE_NOT_TO_ANSWER})
                WHERE ({seen_skip}) ORDER BY at DESC, drill DESC LIMIT ?""",
            [tag, trainee_id, *kinds, min_level, *skip_params, window],
        ),
    ]


def _group_answers_term(
    group_id: int, trainee_id: int, tag: str, kinds: Sequence[str], target: Target
) -> tuple[str, list[Any]]:
    """The answers' SELECT of `_result_terms` for a current member of the group, from
    `group_answers` (only his answers while in it; the level beside each) along its index
    `group_answers_recent`, with no read of the drills. Where the kinds share their game's prefix
    (`rp.` ...), as every game's do, that index (m025) holds his answers of the game together, so
    the newest `window` are read without stepping over his answers in the other games."""
    select, game_params = _group_answers_select(tuple(kinds))
    return select, [tag, group_id, trainee_id, *game_params, *kinds, target.min_level, target.window]


@lru_cache(maxsize=64)
def _group_answers_select(kinds: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """`_group_answers_term`'s text for these kinds and the parameters of the game's prefix: the
    same for every member, written once (the desk asks it 600 times)."""
    marks = ", ".join("?" for _ in kinds)
    prefixes = {kind_prefix(kind) for kind in kinds}
    game_params: tuple[str, ...]
    game, game_params = "", ()
    if len(prefixes) == 1:
        game, game_params = f"AND {GAME_PREFIX.format(kind='g.kind')} = ?", (*prefixes,)
    return (
        f"""SELECT g.trainee_id, ? AS tag, g.answered_at AS at, g.drill_id AS drill, g.correct, g.time_ms
            FROM group_answers g
            WHERE g.group_id = ? AND g.trainee_id = ? {game} AND +g.kind IN ({marks}) AND +g.level >= ?
            ORDER BY g.answered_at DESC, g.drill_id DESC LIMIT ?""",
        game_params,
    )


# A drill kind's game prefix in SQL, as the index `group_answers_recent` (m025) holds it, and in
# Python: up to and with its first dot ("rp." of "rp.qualify"), empty without one.
GAME_PREFIX = "substr({kind}, 1, instr({kind}, '.'))"


def kind_prefix(kind: str) -> str:
    """The kind's game prefix (`GAME_PREFIX` in Python).

    >>> kind_prefix("rp.qualify"), kind_prefix("plain")
    ('rp.', '')
    """
    return kind[: kind.find(".") + 1]


def _newest_last(rows: Iterable[tuple[Any, ...]], window: int) -> list[tuple[bool, int | None]]:
    """The last `window` of one trainee's result rows (`_result_terms`), oldest first."""
    ordered = sorted(rows, key=lambda row: (row[2], row[3]))[-window:]
    return [(bool(row[4]), None if row[5] is None else int(row[5])) for row in ordered]


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
    chosen = sorted(set(kinds))
    if not chosen:
        return []
    if group_id is None:
        answered: tuple[str, list[Any]] = ("1", [])
        skipped: tuple[str, list[Any]] = ("1", [])
    else:
        spans = member_spans(db, group_id, [trainee_id])[trainee_id]
        answered, skipped = during(spans, "a.answered_at"), during(spans, "at")
    terms = _result_terms(trainee_id, "", chosen, min_level, window, answered, skipped)
    return _newest_last(each_select(db, terms), window)


def readiness(
    db: Database, trainee_id: int, kinds: Iterable[str], target: Target, *, group_id: int | None = None
) -> Readiness:
    """The trainee's readiness over the given drill kinds (those of one game); for a group's desk
    (`group_id`), from what he did while he was in the group only (`trainer.store.periods`)."""
    results = recent_results(db, trainee_id, kinds, target.min_level, target.window, group_id=group_id)
    return verdict(results, target)


def readiness_of(
    db: Database,
    trainee_ids: Iterable[int],
    games: Mapping[str, tuple[Iterable[str], Target]],
    *,
    group_id: int | None = None,
    members: bool = False,
) -> dict[tuple[int, str], Readiness]:
    """`readiness` of every trainee in every game (game id -> its kinds and target), keyed by
    (trainee id, game id): each (trainee, game) reads its last `window` results along the indexes with
    LIMIT (`_result_terms`, run by `each_select`), and no trainee's older answers are read.

    With `members=True` (every trainee a current member of the group `group_id`: the desk) the
    answers are read from `group_answers` (m023), which holds the level beside each answer given
    in the group, instead of each answer's drill, and without the union with the questions he
    passed over and its sort (200 members x 3 games: 33 -> 17 ms of SQL at load 2.7): those are
    read for all members in one statement (`_chose_not_to_answer`) and, where one counts
    (`_counting`: in the game's kinds, from its level, in his stretches), handed to his statement
    with his newest answers (`_desk_readiness`), not looked up again along the drills. Run in one
    read transaction when none is open, so every member's figures are of one moment (a question
    passed over between two statements is in both or in neither)."""
    ids = sorted({int(t) for t in trainee_ids})
    add_median(db.conn)
    chosen = {game: sorted(set(kinds)) for game, (kinds, _target) in games.items()}
    with reading(db):
        spans = member_spans(db, group_id, ids) if group_id is not None else None
        if members and group_id is not None and spans is not None:
            found = _desk_readiness(db, group_id, ids, games, chosen, spans)
        else:
            terms = [
                _union_term(trainee, game, chosen[game], target, spans, None)
                for trainee in ids
                for game, (_kinds, target) in games.items()
                if chosen[game]
            ]
            found = {(row[0], row[1]): row[2:] for row in each_select(db, terms)}
    return {
        (trainee, game): verdict_of(*found.get((trainee, game), (0, 0, None)), target)
        for trainee in ids
        for game, (_kinds, target) in games.items()
    }


def _desk_readiness(
    db: Database,
    group_id: int,
    ids: Sequence[int],
    games: Mapping[str, tuple[Iterable[str], Target]],
    chosen: Mapping[str, list[str]],
    spans: Mapping[int, list[Span]],
) -> dict[tuple[Any, ...], tuple[Any, ...]]:
    """`readiness_of` for a group's current members: (trainee, game) -> (results, right ones,
    median time), counted in SQLite from his newest answers and, where questions he passed over
    count, those (the newest `window`, handed in as JSON) in their order."""
    passed = _chose_not_to_answer(db, ids)
    kinds = {game: set(names) for game, names in chosen.items()}
    terms = []
    for trainee in ids:
        mine = passed.get(trainee, ())
        for game, (_kinds, target) in games.items():
            if not chosen[game]:
                continue
            answers, params = _group_answers_term(group_id, trainee, game, chosen[game], target)
            counting = _counting(mine, kinds[game], target.min_level, spans[trainee]) if mine else []
            if not counting:
                terms.append(
                    (
                        f"SELECT ?, ?, count(*), coalesce(sum(correct), 0), median(time_ms) FROM ({answers})",
                        [trainee, game, *params],
                    )
                )
                continue
            # As the skipped term of `_result_terms` gives them: the newest `window`. Read with
            # json_extract, not ->> (SQLite 3.38; the STRICT tables need only 3.37).
            newest = sorted(counting, reverse=True)[: target.window]
            terms.append(
                (
                    f"""SELECT ?, ?, count(*), coalesce(sum(correct), 0),
                               median(time_ms) FILTER (WHERE time_ms IS NOT NULL)
                        FROM (SELECT at, drill, correct, time_ms FROM ({answers})
                              UNION ALL SELECT json_extract(j.value, '$[0]'), json_extract(j.value, '$[1]'),
                                               0, NULL FROM json_each(?) j
                              ORDER BY 1 DESC, 2 DESC LIMIT ?)""",
                    [trainee, game, *params, json.dumps(newest), target.window],
                )
            )
    return {(row[0], row[1]): row[2:] for row in each_select(db, terms)}


def _union_term(
    trainee: int,
    game: str,
    kinds: list[str],
    target: Target,
    spans: Mapping[int, list[Span]] | None,
    answers: tuple[str, list[Any]] | None,
) -> tuple[str, list[Any]]:
    """The statement of (trainee, game, results, right ones, median time) of the trainee's newest
    `window` results in the game: his answers (`answers`, else from `attempts`) and the questions
    he passed over, in his stretches when `spans` are given."""
    answered: tuple[str, list[Any]] = ("1", [])
    skipped: tuple[str, list[Any]] = ("1", [])
    if spans is not None:
        answered, skipped = during(spans[trainee], "a.answered_at"), during(spans[trainee], "at")
    both = _result_terms(trainee, game, kinds, target.min_level, target.window, answered, skipped)
    if answers is not None:
        both[0] = answers
    # The verdict's counts of the newest `window` of the two, in SQLite: a row per trainee and
    # game reaches Python, not each result.
    return (
        f"""SELECT ?, ?, count(*), coalesce(sum(correct), 0),
                   median(time_ms) FILTER (WHERE time_ms IS NOT NULL)
            FROM (SELECT * FROM ({both[0][0]}) UNION ALL SELECT * FROM ({both[1][0]})
                  ORDER BY at DESC, drill DESC LIMIT ?)""",
        [trainee, game, *both[0][1], *both[1][1], target.window],
    )


def _chose_not_to_answer(db: Database, ids: Sequence[int]) -> dict[int, list[tuple[str, int, str, int]]]:
    """Per trainee, the questions he chose not to answer (`_result_terms`) as (kind, level, time,
    drill), at any level and time: the rows of the partial index `drills_not_answered`, each read
    once (the union of `_result_terms` read them all too, once per game, and sorted them)."""
    found: dict[int, list[tuple[str, int, str, int]]] = {}
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        for trainee, kind, level, at, drill in db.execute(
            f"""SELECT d.trainee_id, d.kind, d.level, coalesce(d.skipped_at, d.issued_at), d.id FROM drills d
                WHERE d.trainee_id IN ({", ".join("?" for _ in chunk)}) AND {CHOSE_NOT_TO_ANSWER}""",
            list(chunk),
        ):
            found.setdefault(int(trainee), []).append((kind, int(level), at, int(drill)))
    return found


def _counting(
    passed: Sequence[tuple[str, int, str, int]], kinds: set[str], min_level: int, spans: Sequence[Span]
) -> list[tuple[str, int]]:
    """The (time, drill) of the questions passed over (`_chose_not_to_answer`) that count among
    the results in these kinds from `min_level` in the stretches: what the skipped term of
    `_result_terms` keeps (kind, level, time in a stretch as `during` has it), asked in Python."""
    return [
        (at, drill)
        for kind, level, at, drill in passed
        if kind in kinds
        and level >= min_level
        and any(joined <= at and (left is None or at < left) for joined, left in spans)
    ]
