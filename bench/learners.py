"""Simulated trainees: today's practice queue against uniform random practice.

    python3 bench/learners.py [--trainees 200] [--cap 2500] [--seed 1]

The learning model below was written and committed before the scheduler was tuned, and is not changed
to suit it. Each simulated trainee studies one game (Russian poker, Omaha or painted poker, in turn),
`PER_DAY` questions a day, with one of two ways of choosing the next question:

- today's practice: the head of `trainer.store.practice.order_queue` (FSRS cards reviewed by the
  simulated answers with the app's own ratings, each card with its kind's last 20 answers as the app
  counts them for weak drills, new cards a few a day, the next level once the readiness rule says a
  level is mastered);
- uniform random practice: a kind of the game drawn uniformly, at the trainee's level in it (the next
  level taken on the same mastery rule, so only the choice of kind and the timing differ).

The model of learning and forgetting, per trainee, drill kind and level:

- `skill` in [0, 1]: how much of the ruling the trainee has; `memory` in days: how long it lasts.
  A kind has a difficulty (`DIFFICULTY`, its share of the work: a yes/no ruling is easy, a whole hi/lo
  showdown hard) and each trainee an aptitude per kind (log-normal, sigma 0.35), so skills differ
  between kinds and between trainees. A new level starts at 60% of the skill of the level below.
- An answer: the trainee recalls the ruling with chance `recall = exp(-days since this kind and level
  was last practised / memory)` and has worked it out before with chance `skill`; he answers right
  when he both recalls it and has it (less a slip, `SLIP`), or by luck (`GUESS`).
- After each answer (the app always explains the ruling): `skill += rate * (1 - skill)`, with `rate =
  LEARN * aptitude / difficulty`, halved after a wrong answer. Recalling strengthens memory, the more
  the harder it was: `memory = memory * (1 + SPACING * (1 - recall)) + CONSOLIDATION` (days); failing
  to recall halves it (at least `MIN_MEMORY`): practice that comes when a ruling fades multiplies the
  memory, massed practice only adds a little each time.
- Answer time: `BASE_SECONDS[kind] * (1 + 1.5 * (1 - skill * recall))`, times log-normal noise (sigma
  0.25): slow while unsure, near the base time once known.
- A kind is ready when the readiness rule (`data/readiness.toml`: 95% right over the last 40 answers at
  level 2 or above, median under 10 s) holds for its answers.

Printed for each way, over the trainees: the number of questions until every kind of the game is ready
(mean and median with 95% bootstrap intervals; trainees not there by `--cap` are counted at the cap and
reported), and the share of the game's kinds ready after 500 questions (mean, 95% interval).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's trainer, not an installed one

from trainer.drills import REGISTRY
from trainer.store.practice import CardState, load_settings, order_queue, rating, review
from trainer.store.readiness import Status, default_target, verdict
from trainer.store.stats import NEEDS_WINDOW

# The model's figures (see the module docstring).
GUESS, SLIP = 0.05, 0.01
LEARN = 0.12
SPACING = 3.0
CONSOLIDATION = 0.2  # days
START_MEMORY, MIN_MEMORY = 1.0, 0.2  # days
NEXT_LEVEL_SHARE = 0.6
APTITUDE_SIGMA, TIME_SIGMA = 0.35, 0.25
PER_DAY = 40
SECONDS_BETWEEN = 20  # between two answers of a session
CHECK_AT = 500

DIFFICULTY = {  # relative work of the ruling: 1 a yes/no call, 3 a whole showdown
    "rp.qualify": 1.0, "rp.combination": 1.2, "rp.bet_payout": 1.6, "rp.bonus_payout": 1.6,
    "rp.no_game": 1.8, "rp.buy": 2.2, "rp.settle": 2.8, "rp.decision": 3.0,
    "om.high": 1.6, "om.winner": 2.0, "om.low": 2.0, "om.split": 3.0, "om.side_pots": 3.0,
    "om.pot_limit": 2.0, "om.limit": 1.6, "om.blinds": 1.4,
    "pp.score": 1.2, "pp.schedule": 1.4, "pp.hook": 1.0, "pp.trick": 1.6, "pp.sheet": 2.4,
}  # fmt: skip
BASE_SECONDS = {  # answer time of a trainee who knows the ruling well
    "rp.qualify": 2.5, "rp.combination": 3.0, "rp.bet_payout": 4.5, "rp.bonus_payout": 4.5,
    "rp.no_game": 5.5, "rp.buy": 6.0, "rp.settle": 8.0, "rp.decision": 7.0,
    "om.high": 5.0, "om.winner": 6.5, "om.low": 5.5, "om.split": 8.5, "om.side_pots": 9.0,
    "om.pot_limit": 5.5, "om.limit": 4.5, "om.blinds": 4.0,
    "pp.score": 3.0, "pp.schedule": 3.5, "pp.hook": 2.5, "pp.trick": 4.0, "pp.sheet": 7.5,
}  # fmt: skip


@dataclass
class Memory:
    skill: float
    memory: float = START_MEMORY
    last: datetime | None = None


@dataclass
class Trainee:
    """One simulated trainee: aptitudes, what he knows, and his answers."""

    rng: random.Random
    kinds: Sequence[str]
    aptitude: dict[str, float]
    known: dict[tuple[str, int], Memory] = field(default_factory=dict)
    # (kind, lowest level) -> the last answers (right, ms) at that level or above, as many as the rule reads
    recent: dict[tuple[str, int], deque[tuple[bool, int]]] = field(default_factory=dict)

    def answer(self, kind: str, level: int, now: datetime) -> tuple[bool, int]:
        """Answer one question of this kind and level at `now`, and learn from the explanation."""
        mem = self.known.get((kind, level))
        if mem is None:
            below = self.known.get((kind, level - 1))
            mem = Memory(skill=NEXT_LEVEL_SHARE * below.skill if below else 0.0)
            self.known[(kind, level)] = mem
        recall = 1.0 if mem.last is None else math.exp(-(now - mem.last) / timedelta(days=1) / mem.memory)
        recalled = self.rng.random() < recall
        has_it = self.rng.random() < mem.skill
        right = (recalled and has_it and self.rng.random() >= SLIP) or self.rng.random() < GUESS
        seconds = BASE_SECONDS[kind] * (1 + 1.5 * (1 - mem.skill * recall))
        ms = int(1000 * seconds * self.rng.lognormvariate(0, TIME_SIGMA))
        rate = LEARN * self.aptitude[kind] / DIFFICULTY[kind]
        mem.skill += min(1.0, rate * (1 if right else 0.5)) * (1 - mem.skill)
        if recalled:
            mem.memory = mem.memory * (1 + SPACING * (1 - recall)) + CONSOLIDATION
        else:
            mem.memory = max(MIN_MEMORY, mem.memory / 2)
        mem.last = now
        for lowest in range(1, level + 1):
            window = self.recent.setdefault((kind, lowest), deque(maxlen=default_target().window))
            window.append((right, ms))
        return right, ms


def _mastered(trainee: Trainee, kind: str, level: int) -> bool:
    """The readiness rule over the kind's answers at this level and above (the app's mastery)."""
    target = default_target()
    recent = trainee.recent.get((kind, level), ())
    return verdict(list(recent), replace(target, min_level=level)).status is Status.READY


def _ready(trainee: Trainee, kind: str) -> bool:
    target = default_target()
    return verdict(list(trainee.recent.get((kind, target.min_level), ())), target).status is Status.READY


Chooser = Callable[["Course", datetime], tuple[str, int]]


@dataclass
class Course:
    """A trainee working through one game's kinds, with his FSRS cards and levels."""

    trainee: Trainee
    catalog: list[tuple[str, tuple[int, ...]]]
    cards: dict[tuple[str, int], CardState] = field(default_factory=dict)
    introduced: dict[str, int] = field(default_factory=dict)  # day -> new cards that day
    level: dict[str, int] = field(default_factory=dict)  # uniform practice: the level per kind

    def record(self, kind: str, level: int, right: bool, ms: int, now: datetime) -> None:
        settings = load_settings()
        old = self.cards.get((kind, level))
        if old is None:
            day = now.date().isoformat()
            self.introduced[day] = self.introduced.get(day, 0) + 1
        card = review(None if old is None else old.card, rating(kind, right, ms, settings), now, settings)
        # The kind's last answers at any level, as the app counts them (`stats.recent_answers`).
        last = list(self.trainee.recent[(kind, 1)])[-NEEDS_WINDOW:]
        mastered = _mastered(self.trainee, kind, level)
        correct = sum(right for right, _ms in last)
        self.cards[(kind, level)] = CardState(kind, level, card, mastered, correct, len(last))


def today_queue(course: Course, now: datetime) -> tuple[str, int]:
    items = order_queue(
        list(course.cards.values()),
        course.catalog,
        now=now,
        introduced_today=course.introduced.get(now.date().isoformat(), 0),
        settings=load_settings(),
    )
    return items[0].kind, items[0].level


def uniform(course: Course, now: datetime) -> tuple[str, int]:
    kind, levels = course.trainee.rng.choice(course.catalog)
    level = course.level.setdefault(kind, levels[0])
    if level < levels[-1] and _mastered(course.trainee, kind, level):
        level = course.level[kind] = level + 1
    return kind, level


@dataclass
class Outcome:
    questions_to_ready: int | None  # None: not every kind ready within the cap
    share_at_check: float


def simulate(seed: int, game: str, choose: Chooser, cap: int) -> Outcome:
    rng = random.Random(seed)
    kinds = [k.id for k in REGISTRY.values() if k.game == game and k.id in DIFFICULTY]
    aptitude = {k: rng.lognormvariate(0, APTITUDE_SIGMA) for k in kinds}
    trainee = Trainee(random.Random(seed * 7919 + 1), kinds, aptitude)
    course = Course(trainee, [(k, REGISTRY[k].levels) for k in kinds])
    start = datetime(2026, 1, 5, 17, 0, tzinfo=UTC)
    share = 0.0
    for n in range(cap):
        day, within = divmod(n, PER_DAY)
        now = start + timedelta(days=day, seconds=within * SECONDS_BETWEEN)
        kind, level = choose(course, now)
        right, ms = trainee.answer(kind, level, now)
        course.record(kind, level, right, ms, now)
        ready = sum(_ready(trainee, k) for k in kinds)
        if n + 1 == CHECK_AT:
            share = ready / len(kinds)
        if ready == len(kinds):
            return Outcome(n + 1, 1.0 if n + 1 <= CHECK_AT else share)
    return Outcome(None, share)


def bootstrap(
    values: Sequence[float], stat: Callable[[Sequence[float]], float], rng: random.Random
) -> tuple[float, float]:
    """A 95% percentile bootstrap interval (2,000 resamples)."""
    draws = sorted(stat(rng.choices(values, k=len(values))) for _ in range(2000))
    return draws[49], draws[1949]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trainees", type=int, default=200)
    parser.add_argument("--cap", type=int, default=2500, help="questions per trainee at most")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.trainees < 1 or args.cap < CHECK_AT:
        parser.error(f"need at least one trainee and a cap of {CHECK_AT} questions or more")
    games = ("russian_poker", "omaha", "painted_poker")
    rng = random.Random(args.seed)
    print(f"{args.trainees} simulated trainees per way, {PER_DAY} questions a day, cap {args.cap}")
    print(
        "| way | every kind ready after (mean, 95% CI) | median (95% CI) | not ready by the cap "
        f"| share of kinds ready after {CHECK_AT} (mean, 95% CI) | time |"
    )
    print("|---|---|---|---|---|---|")
    for name, choose in (("today's practice", today_queue), ("uniform random", uniform)):
        began = time.perf_counter()
        outcomes = [
            simulate(args.seed * 100_003 + t, games[t % len(games)], choose, args.cap)
            for t in range(args.trainees)
        ]
        counts = [o.questions_to_ready or args.cap for o in outcomes]
        shares = [o.share_at_check for o in outcomes]
        missing = sum(o.questions_to_ready is None for o in outcomes)
        mean_ci = bootstrap(counts, statistics.fmean, rng)
        median_ci = bootstrap(counts, statistics.median, rng)
        share_ci = bootstrap(shares, statistics.fmean, rng)
        print(
            f"| {name} | {statistics.fmean(counts):,.0f} ({mean_ci[0]:,.0f} .. {mean_ci[1]:,.0f}) "
            f"| {statistics.median(counts):,.0f} ({median_ci[0]:,.0f} .. {median_ci[1]:,.0f}) "
            f"| {missing} of {len(outcomes)} "
            f"| {100 * statistics.fmean(shares):.1f}% ({100 * share_ci[0]:.1f} .. {100 * share_ci[1]:.1f}%) "
            f"| {time.perf_counter() - began:.0f} s |"
        )


if __name__ == "__main__":
    main()
