"""How long a round takes to deal and to prepare its steps (target: 95th percentile under 50 ms), per
game and level, beside a single drill's generation in the same run (the reference: `issue` of one
drill kind of the same game, which is what a page asks for per question).

Each round is dealt from a fresh seed with the cache bypassed (`rounds._deal.__wrapped__`), so every
figure is a real deal: cards, simulated players, every step with its table. Grading a step (the
engines' answer) is timed apart, over every step of the rounds dealt.

Run: python3 bench/rounds.py [--count 200] [--rules lunar --rules caribbean ...]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from trainer.drills import issue
from trainer.drills.rounds import _deal, check_request, dealt_presets, expected_answer, grade_step

DRILLS = {"russian_poker": "rp.settle", "omaha": "om.side_pots", "painted_poker": "pp.trick"}


def _times(fn: Callable[[int], object], count: int) -> list[float]:
    out = []
    for n in range(count):
        start = time.perf_counter()
        fn(n)
        out.append((time.perf_counter() - start) * 1000)
    return sorted(out)


def _p(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))]


def _row(name: str, values: list[float]) -> str:
    return (
        f"{name:<32}{statistics.median(values):>8.2f}{_p(values, 0.9):>8.2f}{_p(values, 0.95):>8.2f}"
        f"{_p(values, 0.99):>8.2f}{max(values):>8.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--rules", action="append", help="only these presets (repeat; default: all)")
    args = parser.parse_args()
    count, only = args.count, args.rules
    deal_uncached = _deal.__wrapped__
    print(f"{count} rounds per game and level; milliseconds")
    print(f"{'':<32}{'median':>8}{'p90':>8}{'p95':>8}{'p99':>8}{'max':>8}")
    every: list[float] = []
    for game, drill in DRILLS.items():
        for level in (1, 2, 3):
            reference = _times(lambda n, k=drill, lv=level: issue(k, lv, seed=n), count)
            print(_row(f"drill {drill} level {level}", reference))
            for rules in (r for r in dealt_presets(game) if not only or r in only):
                _, lv, _, _, rules, payout = check_request(game, level, 0, None, rules, None)

                def dealt(n: int, g: str = game, lv: int = lv, r: str = rules, p: str = payout) -> object:
                    return deal_uncached(g, lv, 10_000 + n, None, r, p)

                times = _times(dealt, count)
                every += times
                print(_row(f"round {game} {rules} {level}", times))
                rounds = [dealt(n) for n in range(min(count, 50))]
                steps = sum(len(r.steps) for r in rounds)
                start = time.perf_counter()
                for r in rounds:
                    for i in range(len(r.steps)):
                        grade_step(r, i, expected_answer(r, i))
                per_step = (time.perf_counter() - start) * 1000 / steps
                print(f"{'  grading a step':<32}{per_step:>8.2f}   ({steps / len(rounds):.1f} steps a round)")
    every.sort()
    print(_row("every round", every))
    print(f"target p95 < 50 ms: {'met' if _p(every, 0.95) < 50 else 'NOT met'}")


if __name__ == "__main__":
    main()
