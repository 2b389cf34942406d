"""Best-5-of-6 category counts over all 20,358,520 six-card hands, with the time taken.

    python3 bench/six_card_counts.py

Every six-card hand goes through `strength6` once; the strengths are tallied and then sorted into
categories, with "ace-king" (no pair, ace and king among the best five; the Russian poker category)
split out of high card. The script compares the tally with the expected counts of issue 2 and exits
with status 1 on any difference. Too slow for the default test run (about half a minute to a minute
of pure Python), so it lives here.
"""

from __future__ import annotations

import sys
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from trainer.engine.evaluator import PATTERN, Category, category_of, strength6

EXPECTED = {
    "royal_flush": 188,
    "straight_flush": 1_656,
    "four_of_a_kind": 14_664,
    "full_house": 165_984,
    "flush": 205_792,
    "straight": 361_620,
    "three_of_a_kind": 732_160,
    "two_pair": 2_532_816,
    "pair": 9_730_740,
    "ace_king": 1_290_420,
    "high_card": 5_322_480,
}


def main() -> int:
    start = time.perf_counter()
    tally = [0] * 7463
    for six in combinations(range(52), 6):
        tally[strength6(*six)] += 1
    seconds = time.perf_counter() - start
    counts = dict.fromkeys(EXPECTED, 0)
    for strength, n in enumerate(tally):
        if not n:
            continue
        category = category_of(strength)
        name = str(category)
        if category is Category.HIGH_CARD and PATTERN[strength][:2] == (14, 13):
            name = "ace_king"
        counts[name] += n
    total = sum(counts.values())
    print(f"{'category':<18}{'count':>12}{'expected':>12}")
    for name, expected in EXPECTED.items():
        mark = "" if counts[name] == expected else "  <-- differs"
        print(f"{name:<18}{counts[name]:>12,}{expected:>12,}{mark}")
    print(f"{'total':<18}{total:>12,}{sum(EXPECTED.values()):>12,}")
    print(f"{total:,} six-card hands in {seconds:.1f} s ({total / seconds:,.0f} a second)")
    return 0 if counts == EXPECTED else 1


if __name__ == "__main__":
    sys.exit(main())
