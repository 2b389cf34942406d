"""Today's practice: spaced repetition with FSRS, and the queue of what to practise next.

One FSRS card (the `fsrs` package) per trainee, drill kind and level, kept in the `cards` table and
reviewed by every answer in the answer's own transaction (`plan_review` before it, `apply_review` in it,
from `Store.answer`):
a wrong answer rates Again; a right one Hard when slower than the kind's `hard` seconds, Easy when
faster than its `easy` seconds, Good otherwise (the school's pace, `data/pace.toml`, `trainer.drills.pace`).

The queue (`order_queue`, pure; `practice_queue` reads the cards from the database). A kind is
practised at the highest level the trainee has reached (that level asks the lower one's rulings too),
unless it is being failed (three answers or more, fewer than half right) and the level below is not
mastered: then one level down.

1. weak drills, due or not, weakest first: a kind is weak when its last 20 answers show less than 80%
   for sure (`stats.recent_answers`, the Wilson lower bound, the measure `stats.needs` ranks by), so a
   drill answered wrong once is unknown, not strong, and four drills at 0% come before one at 82%;
   lowest `sure` first, then fewer answers, then FSRS (lowest stability, lowest recall now). A level
   mastered by the readiness rule is not weak (ten right of ten, where a group asks for ten, show 79%);
2. the other due cards, weakest by FSRS first (lowest stability, then lowest recall now);
3. then new cards, a few a day (`new_per_day`): the next level of a kind whose level is mastered (by
   the readiness rule of `trainer.store.readiness`, counting that kind's answers at that level and
   above), then kinds not practised yet, in the catalogue's order, at their first level;
4. then practice ahead: cards still being learnt (missed a moment ago) first, then the cards least
   likely to be recalled now (`recall_now`, counted to the second).

The home page's recommendation is the head of this queue (`trainer.web.practice.records.recommended`).

The daily goal (`goal` answers a day) is shown beside the queue; the queue never runs dry.

>>> settings = load_settings()
>>> answers = [(False, 1_000), (True, 50_000), (True, 20_000), (True, 9_000)]  # rp.settle: 12 s and 40 s
>>> [rating("rp.settle", right, ms, settings).name for right, ms in answers]
['Again', 'Hard', 'Good', 'Easy']
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, time, timedelta
from enum import StrEnum
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from fsrs import Card, Rating, Scheduler, State
from sqlite_utils import Database

from trainer.drills.pace import Paces, shipped_paces
from trainer.engine.presets import PresetError, data_path, read_toml
from trainer.store.clock import iso as _iso
from trainer.store.readiness import Status, Target, default_target, recent_results, verdict
from trainer.store.schema import first_row
from trainer.store.stats import is_weak, need_rank, recent_answers, sure_accuracy

PRACTICE_FILE = data_path("practice.toml")


@dataclass(frozen=True)
class Settings:
    """The figures of `data/practice.toml` (see the comments there)."""

    desired_retention: float
    learning_steps: tuple[timedelta, ...]
    relearning_steps: tuple[timedelta, ...]
    goal: int
    new_per_day: int
    # The kinds' Easy and Hard bounds: the school's pace (data/pace.toml), where the live class's
    # targets are too.
    paces: Paces = field(default_factory=shipped_paces)


def _number(raw: Mapping[str, Any], key: str, low: float, high: float, source: str) -> float:
    value = raw.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise PresetError(source, f"must be a number from {low:g} to {high:g}, not {value!r}", key)
    return value


def _minutes(raw: Mapping[str, Any], key: str, source: str) -> tuple[timedelta, ...]:
    value = raw.get(key)
    if not isinstance(value, list) or not all(
        isinstance(m, int | float) and not isinstance(m, bool) and 0 < m <= 24 * 60 for m in value
    ):
        raise PresetError(source, "must be a list of minutes, each from 1 second to a day", key)
    return tuple(timedelta(minutes=m) for m in value)


def parse_settings(raw: Mapping[str, Any], source: str = "data/practice.toml") -> Settings:
    """Checked settings; `PresetError` naming the file and key for anything missing or out of range."""
    unknown = sorted(set(raw) - {"fsrs", "day"})
    if unknown:
        raise PresetError(source, "unknown key", unknown[0])
    fsrs_part, day = raw.get("fsrs", {}), raw.get("day", {})
    return Settings(
        desired_retention=_number(fsrs_part, "desired_retention", 0.7, 0.99, source),
        learning_steps=_minutes(fsrs_part, "learning_steps_minutes", source),
        relearning_steps=_minutes(fsrs_part, "relearning_steps_minutes", source),
        goal=int(_number(day, "goal", 1, 500, source)),
        new_per_day=int(_number(day, "new_per_day", 0, 50, source)),
    )


def load_settings(path: Path | None = None) -> Settings:
    """The practice settings from `data/practice.toml` (or another file)."""
    if path is None:
        return _default_settings()
    return parse_settings(read_toml(path), str(path))


@functools.lru_cache(maxsize=1)
def _default_settings() -> Settings:
    return parse_settings(read_toml(PRACTICE_FILE, "data/practice.toml"))


def scheduler(settings: Settings) -> Scheduler:
    return _scheduler(settings.desired_retention, settings.learning_steps, settings.relearning_steps)


@functools.lru_cache(maxsize=8)
def _scheduler(
    retention: float, learning: tuple[timedelta, ...], relearning: tuple[timedelta, ...]
) -> Scheduler:
    # No fuzzing: the same answers always give the same schedule (tests, and two devices agreeing).
    return Scheduler(
        desired_retention=retention,
        learning_steps=learning,
        relearning_steps=relearning,
        enable_fuzzing=False,
    )


def rating(kind: str, correct: bool, time_ms: int, settings: Settings) -> Rating:
    """How one answer reviews its card (see the module docstring)."""
    if not correct:
        return Rating.Again
    pace = settings.paces.of(kind)
    if time_ms > int(pace.hard_s * 1000):
        return Rating.Hard
    if time_ms < int(pace.easy_s * 1000):
        return Rating.Easy
    return Rating.Good


def review(card: Card | None, grade: Rating, when: datetime, settings: Settings) -> Card:
    """The card after one review at `when` (a new card when None)."""
    card = card if card is not None else Card(card_id=0, due=when)
    return scheduler(settings).review_card(card, grade, when)[0]


# The queue ------------------------------------------------------------------------------------------


class Reason(StrEnum):
    DUE = "due"
    NEXT_LEVEL = "next_level"
    NEW = "new"
    AHEAD = "ahead"


@dataclass(frozen=True)
class CardState:
    """A trainee's card: its kind and level, the FSRS card, whether that level is mastered, and the
    kind's last answers (`stats.recent_answers`: `correct` of `attempts`; 0 of 0 when not counted)."""

    kind: str
    level: int
    card: Card
    mastered: bool = False
    correct: int = 0
    attempts: int = 0

    @property
    def weak(self) -> bool:
        """The kind's answers show less than `stats.SURE_ENOUGH` for sure, and the level is not mastered."""
        return self.attempts > 0 and not self.mastered and is_weak(self.correct, self.attempts)


@dataclass(frozen=True)
class Item:
    """One entry of the queue: a kind and level to practise and why now."""

    kind: str
    level: int
    reason: Reason
    due: datetime | None = None
    stability: float | None = None
    recall: float | None = None  # the chance of a right answer now, by FSRS
    correct: int | None = None  # of the kind's last answers (`stats.recent_answers`); None: new
    attempts: int | None = None
    weak: bool = False  # those answers show less than `stats.SURE_ENOUGH` for sure

    @property
    def sure(self) -> float | None:
        return None if not self.attempts else sure_accuracy(self.correct or 0, self.attempts)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "level": self.level,
            "reason": str(self.reason),
            "due": None if self.due is None else self.due.isoformat(),
            "stability_days": self.stability,
            "recall": self.recall,
            "correct": self.correct,
            "attempts": self.attempts,
            "sure": self.sure,
            "weak": self.weak,
        }


def recall_now(fsrs: Scheduler, card: Card, now: datetime) -> float:
    """FSRS's chance of recall now, counting the time since the last review to the second (the
    package's `get_card_retrievability` counts whole days, so every card reviewed within the day reads
    exactly 100%)."""
    if card.last_review is None or not card.stability:
        return 0.0
    decay = -fsrs.parameters[20]
    factor = 0.9 ** (1 / decay) - 1
    days = max(0.0, (now - card.last_review) / timedelta(days=1))
    return float((1 + factor * days / card.stability) ** decay)


def order_queue(
    cards: Sequence[CardState],
    catalog: Sequence[tuple[str, Sequence[int]]],
    *,
    now: datetime,
    introduced_today: int,
    settings: Settings,
) -> list[Item]:
    """Today's queue for one trainee (see the module docstring); `catalog` is (kind, levels) in the
    order new kinds are introduced."""
    fsrs = scheduler(settings)
    levels = {kind: tuple(ls) for kind, ls in catalog}
    order = {kind: n for n, (kind, _) in enumerate(catalog)}
    known = [c for c in cards if c.kind in levels and c.level in levels[c.kind]]
    have = {(c.kind, c.level) for c in known}
    # A kind is practised at its highest level reached: the higher level asks the lower one's rulings too.
    top = {c.kind: max(c2.level for c2 in known if c2.kind == c.kind) for c in known}
    # ... unless that level is being failed (at least three answers, fewer than half right) and the
    # level below is not mastered: then one level down first (0 of 3 right at level 3 sent the trainee
    # back to level 3 each day). "Weak" alone would not do: 3 of 3 right is still weak for sure.
    by_level = {(c.kind, c.level): c for c in known}
    down: dict[str, int] = {}
    for kind, level in list(top.items()):
        below = [lv for lv in levels[kind] if lv < level]
        lower = by_level.get((kind, below[-1])) if below else None
        failing = by_level[(kind, level)]
        failing_it = failing.attempts >= 3 and 2 * failing.correct < failing.attempts and not failing.mastered
        if failing_it and below and not (lower and lower.mastered):
            if lower is not None:
                top[kind] = lower.level
            else:
                down[kind] = below[-1]  # no card there yet: the weak card's place, one level lower
    mine = [c for c in known if c.level == top[c.kind]]

    def item(c: CardState, reason: Reason) -> Item:
        recall = recall_now(fsrs, c.card, now)
        counted = (c.correct, c.attempts) if c.attempts else (None, None)
        return Item(c.kind, c.level, reason, c.card.due, c.card.stability, recall, *counted, weak=c.weak)

    def weakest(c: CardState) -> tuple[float, int, float, float, int, int]:
        sure = sure_accuracy(c.correct, c.attempts)
        fsrs_order = (c.card.stability or 0.0, recall_now(fsrs, c.card, now))
        return *need_rank(sure, c.attempts), *fsrs_order, order[c.kind], c.level

    weak = [
        replace(item(c, Reason.DUE if c.card.due <= now else Reason.AHEAD), level=down.get(c.kind, c.level))
        for c in sorted((c for c in mine if c.weak), key=weakest)
    ]
    strong = [c for c in mine if not c.weak]
    due = [item(c, Reason.DUE) for c in strong if c.card.due <= now]
    due.sort(key=lambda i: (i.stability or 0.0, i.recall or 0.0, order[i.kind], i.level))
    offers = []
    for c in sorted(mine, key=lambda c: (order[c.kind], c.level)):
        following = [level for level in levels[c.kind] if level > c.level]
        if c.mastered and following and (c.kind, following[0]) not in have and c.kind not in down:
            offers.append(Item(c.kind, following[0], Reason.NEXT_LEVEL))
    practised = {c.kind for c in mine}
    offers += [Item(kind, ls[0], Reason.NEW) for kind, ls in catalog if kind not in practised and ls]
    offers = offers[: max(0, settings.new_per_day - introduced_today)]

    # Ahead of schedule, cards still being learnt (answered wrong a moment ago, due again in minutes)
    # come before learnt ones, the weakest first: just after a review every card's recall reads about
    # 100%, so by recall alone four drills missed a minute ago would wait behind a drill answered 82%
    # right. Learnt cards follow, the least likely to be recalled now first, the chance counted to the
    # second (`recall_now`): by FSRS's whole days every card reviewed within the day tied at 100%, and
    # the first drill listed won every tie, all day long (bench/learners.py: no trainee ever got every
    # drill ready).
    def ahead_key(c: CardState) -> tuple[bool, float, float, int, int]:
        learnt = c.card.state == State.Review
        figure = recall_now(fsrs, c.card, now) if learnt else (c.card.stability or 0.0)
        return learnt, figure, c.card.stability or 0.0, order[c.kind], c.level

    waiting = sorted((c for c in strong if c.card.due > now), key=ahead_key)
    ahead = [item(c, Reason.AHEAD) for c in waiting]
    queue = weak + due + offers + ahead
    if not queue and catalog:  # no cards and no new ones allowed today: practice must still be possible
        kind, first = catalog[0]
        queue = [Item(kind, first[0], Reason.NEW)]
    return queue


# The database ---------------------------------------------------------------------------------------


def _card_of(row: Mapping[str, Any]) -> Card:
    return Card(
        card_id=int(row["id"]),
        state=State(row["state"]),
        step=row["step"],
        stability=row["stability"],
        difficulty=row["difficulty"],
        due=datetime.fromisoformat(row["due"]),
        last_review=datetime.fromisoformat(row["last_review"]) if row["last_review"] else None,
    )


class Unread:
    """`plan_review`'s default: the card is read there."""


UNREAD = Unread()
# The card's columns `plan_review` reads (the answer's path reads them with its drill, in one statement).
CARD_COLUMNS = ("id", "state", "step", "stability", "difficulty", "due", "last_review", "reviews", "lapses")


@dataclass(frozen=True)
class PlannedReview:
    """A card's review worked out from the card as read before the answer's write transaction
    (`plan_review`), written by `apply_review` inside it if the card is still as it was read."""

    trainee_id: int
    kind: str
    level: int
    card_id: int | None  # None: the card's first review creates it
    reviews_before: int
    values: Mapping[str, Any]
    created_at: str
    after: Card


def plan_review(
    db: Database,
    trainee_id: int,
    kind: str,
    level: int,
    *,
    correct: bool,
    time_ms: int,
    when: datetime,
    settings: Settings | None = None,
    card: Mapping[str, Any] | Unread | None = UNREAD,
) -> PlannedReview:
    """The review of the trainee's card of this kind and level by one answer, computed (FSRS) from the
    card as it is now, without writing: the CPU work stays out of the write lock. `card` is the card's
    row (with the columns of `CARD_COLUMNS`) where the caller read it already, None where it found
    none; otherwise it is read here."""
    settings = settings or load_settings()
    row = card
    if isinstance(row, Unread):
        sql = "SELECT * FROM cards WHERE trainee_id = ? AND kind = ? AND level = ?"
        row = first_row(db, sql, [trainee_id, kind, level])
    stamp = _iso(when)
    before = _card_of(row) if row is not None else None
    after = review(before, rating(kind, correct, time_ms, settings), when, settings)
    reviews = row["reviews"] if row is not None else 0
    values = {
        "state": int(after.state.value),
        "step": after.step,
        "stability": after.stability,
        "difficulty": after.difficulty,
        "due": _iso(after.due),
        "last_review": stamp if after.last_review in (None, when) else _iso(after.last_review),
        "reviews": reviews + 1,
        "lapses": (row["lapses"] if row is not None else 0) + (not correct),
    }
    card_id = int(row["id"]) if row is not None else None
    return PlannedReview(trainee_id, kind, level, card_id, reviews, values, stamp, after)


def apply_review(db: Database, planned: PlannedReview) -> bool:
    """Write a planned review inside the answer's write transaction (`schema.writing`), guarded: False
    (nothing written) when another answer reviewed or created the card since it was read."""
    if planned.card_id is not None:
        sets = ", ".join(f"{name} = ?" for name in planned.values)
        cursor = db.execute(
            f"UPDATE cards SET {sets} WHERE id = ? AND reviews = ?",
            [*planned.values.values(), planned.card_id, planned.reviews_before],
        )
    else:
        record = {
            "trainee_id": planned.trainee_id,
            "kind": planned.kind,
            "level": planned.level,
            "created_at": planned.created_at,
            **planned.values,
        }
        cursor = db.execute(
            f"""INSERT INTO cards ({", ".join(record)}) VALUES ({", ".join("?" for _ in record)})
                ON CONFLICT (trainee_id, kind, level) DO NOTHING""",
            list(record.values()),
        )
    return cursor.rowcount == 1


def _mastered(db: Database, trainee_id: int, kind: str, level: int, target: Target) -> bool:
    """The readiness rule over this kind's results at this level and above (skips count as misses)."""
    at_level = replace(target, min_level=level)
    results = recent_results(db, trainee_id, [kind], level, target.window)
    return verdict(results, at_level).status is Status.READY


def card_states(
    db: Database, trainee_id: int, targets: Mapping[str, Target] | None = None
) -> list[CardState]:
    """The trainee's cards, each with whether its level is mastered (by the readiness target of its kind
    in `targets`: the instructor's, of the group the trainee practises for, else the default one) and
    its kind's last answers (`stats.recent_answers`)."""
    per_kind = targets or {}
    known = recent_answers(db, trainee_id)
    return [
        CardState(
            row["kind"],
            row["level"],
            _card_of(row),
            _mastered(db, trainee_id, row["kind"], row["level"], per_kind.get(row["kind"], default_target())),
            known.get(row["kind"], {}).get("correct", 0),
            known.get(row["kind"], {}).get("attempts", 0),
        )
        for row in db.query("SELECT * FROM cards WHERE trainee_id = ? ORDER BY id", [trainee_id])
    ]


@dataclass(frozen=True)
class Today:
    """The trainee's queue and the day so far (the calendar day in the trainee's zone)."""

    items: tuple[Item, ...]
    answered: int
    goal: int
    introduced: int
    new_per_day: int

    def to_json(self, count: int = 10) -> dict[str, Any]:
        return {
            "answered_today": self.answered,
            "goal": self.goal,
            "new_today": self.introduced,
            "new_per_day": self.new_per_day,
            "queue": [i.to_json() for i in self.items[:count]],
        }


def local_day(now: datetime, zone: str) -> tuple[str, str]:
    """The stored-time bounds (ISO UTC, start in, end out) of the calendar day `now` falls on in `zone`;
    a day of a DST change is 23 or 25 hours long.

    >>> from datetime import UTC
    >>> local_day(datetime(2026, 12, 2, 20, 30, tzinfo=UTC), "Asia/Tbilisi")
    ('2026-12-02T20:00:00.000000+00:00', '2026-12-03T20:00:00.000000+00:00')
    """
    here = ZoneInfo(zone)
    day = now.astimezone(here).date()
    start = datetime.combine(day, time(), tzinfo=here)
    end = datetime.combine(day + timedelta(days=1), time(), tzinfo=here)
    return _iso(start), _iso(end)


def practice_queue(
    db: Database,
    trainee_id: int,
    catalog: Iterable[tuple[str, Sequence[int]]],
    *,
    now: datetime,
    settings: Settings | None = None,
    targets: Mapping[str, Target] | None = None,
    zone: str = "UTC",
) -> Today:
    """Today's practice for a trainee over the given (kind, levels), in the order new kinds come;
    `targets`: the readiness target per kind that decides a mastered level (default: data/readiness.toml);
    `zone`: the time zone whose calendar day the daily goal and the new drills of the day count in (the
    trainee's group's), so an answer at 01:00 in Tbilisi counts for that day, not the UTC day before."""
    settings = settings or load_settings()
    start, end = local_day(now, zone)
    answered = db.execute(
        "SELECT count(*) FROM attempts WHERE trainee_id = ? AND answered_at >= ? AND answered_at < ?",
        [trainee_id, start, end],
    ).fetchone()[0]
    introduced = db.execute(
        "SELECT count(*) FROM cards WHERE trainee_id = ? AND created_at >= ? AND created_at < ?",
        [trainee_id, start, end],
    ).fetchone()[0]
    items = order_queue(
        card_states(db, trainee_id, targets),
        list(catalog),
        now=now,
        introduced_today=introduced,
        settings=settings,
    )
    return Today(tuple(items), answered, settings.goal, introduced, settings.new_per_day)
