"""Time to issue and to grade one situation of every drill kind, per level, beside a reference run:
a plain random deal settled by the Russian poker engine (what a generator without branch forcing
would cost).

Run: python3 bench/drills.py [--count 300]
"""

from __future__ import annotations

import argparse
import random
import time

from trainer.drills import REGISTRY
from trainer.drills.base import expected_of, grade, issue
from trainer.engine.cards import Deck
from trainer.engine.russian_poker import settle


def _per_call_ms(fn, count: int) -> float:
    start = time.perf_counter()
    for n in range(count):
        fn(n)
    return (time.perf_counter() - start) / count * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=300)
    count = parser.parse_args().count

    def plain_deal(n: int) -> None:
        deck = Deck(random.Random(n))
        settle(deck.draw(5), deck.draw(5), 10)

    print(f"reference: random deal + settle: {_per_call_ms(plain_deal, count):.3f} ms")
    print(f"{'kind':<18}{'level':>6}{'issue ms':>10}{'grade ms':>10}")
    for kind_id in sorted(REGISTRY):
        for level in (1, 2, 3):
            situations = [issue(kind_id, level, seed=n) for n in range(count)]
            answers = [expected_of(s)[0] for s in situations]
            issue_ms = _per_call_ms(lambda n, k=kind_id, lv=level: issue(k, lv, seed=n), count)
            grade_ms = _per_call_ms(lambda n, s=situations, a=answers: grade(s[n], a[n]), count)
            print(f"{kind_id:<18}{level:>6}{issue_ms:>10.2f}{grade_ms:>10.2f}")


if __name__ == "__main__":
    main()
