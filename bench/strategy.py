"""Benchmark and check of the buy-decision advisor (`trainer.engine.russian_poker.strategy`).

1. Caribbean Stud house edges with `data/rules/russian-poker/caribbean.toml`, against the published
   figures (Shackleford, "Caribbean Stud Poker", Contingencies, Nov/Dec 2000): raising on a pair or
   better 5.47%, on ace-king or better 5.68%, always 16.61% (and 5.22% for the optimal strategy).
   Each sampled player hand is valued exactly over the dealer's hidden cards (the advisor's dealer
   model) for every up-card rank, so only the choice of player hands is sampled: stratified by
   category (exact weights), and within a category by equal-probability slices of the strength
   order; the 95% interval comes from the slices' successive differences.
2. Speed: exact "bet vs fold" beside a reference run (direct enumeration of the 163,185 hidden hands
   and, for the dealer without a game, the 42 cards a bought game can bring), and the distribution
   of `options()` times over random hands under the default CIS rules.

Run: python3 bench/strategy.py [--hands 100] [--seed 1]
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import time

from trainer.engine.cards import CARD_BY_INDEX
from trainer.engine.evaluator import PATTERN, category_of, strength5
from trainer.engine.russian_poker.rules import load_rules
from trainer.engine.russian_poker.strategy import TOLERANCE, Z, bet_value, options
from trainer.engine.russian_poker.strategy.dealer import AK_FLOOR, DealerModel
from trainer.engine.russian_poker.strategy.draws import Valuer, final_strengths
from trainer.engine.russian_poker.strategy.terms import Terms

PUBLISHED = {"pair or better": 5.47, "ace-king or better": 5.68, "always": 16.61, "optimal": 5.22}
# Samples per category (strata); slices within a category are equally likely.
PLAN = {
    "high_card": 200,
    "ace_king": 100,
    "pair": 1200,
    "two_pair": 60,
    "three_of_a_kind": 30,
    "straight": 20,
    "flush": 20,
    "full_house": 16,
    "four_of_a_kind": 10,
    "straight_flush": 8,
    "royal_flush": 4,
}


def russian_category(strength: int) -> str:
    base = category_of(strength).value
    if base == "high_card" and PATTERN[strength][:2] == (14, 13):
        return "ace_king"
    return base


def hand_of_class(strength: int, rng: random.Random) -> list[int]:
    """A uniformly random five-card hand (card indexes) of one evaluator strength class."""
    ranks = PATTERN[strength]
    suited = category_of(strength).value in ("flush", "straight_flush", "royal_flush")
    if suited:
        s = rng.randrange(4)
        return [(r - 2) * 4 + s for r in ranks]
    while True:
        cards: list[int] = []
        for r in sorted(set(ranks)):
            for s in rng.sample(range(4), ranks.count(r)):
                cards.append((r - 2) * 4 + s)
        if len({c % 4 for c in cards}) > 1:
            return cards


def raise_values(hand: list[int], terms: Terms) -> float:
    """Mean over the dealer's up-card of (exact raise value); and the optimal value, as a pair."""
    raise_sum = best_sum = 0.0
    known = set(hand)
    rest = [i for i in range(52) if i not in known]
    for rank in range(13):
        ups = [i for i in rest if i // 4 == rank]
        if not ups:
            continue
        up = ups[0]  # the up-card's suit barely matters (only through flushes); weight by availability
        pool = [i for i in rest if i != up]
        v = Valuer(DealerModel(up, pool, terms.replace), terms).bet(strength5(*hand))
        raise_sum += len(ups) * v
        best_sum += len(ups) * max(-1.0, v)
    return raise_sum / len(rest), best_sum / len(rest)  # type: ignore[return-value]


def caribbean(seed: int, verbose: bool = False) -> None:
    terms = Terms.of(load_rules("caribbean"))
    dist = final_strengths([], list(range(52)), 5)
    total = sum(dist.values())
    by_cat: dict[str, list[tuple[int, int]]] = {}
    for s in sorted(dist):
        by_cat.setdefault(russian_category(s), []).append((s, dist[s]))
    rng = random.Random(seed)
    strategies = {
        "pair or better": lambda cat: cat not in ("high_card", "ace_king"),
        "ace-king or better": lambda cat: cat != "high_card",
        "always": lambda cat: True,
    }
    mean = dict.fromkeys([*strategies, "optimal"], 0.0)
    var = dict.fromkeys([*strategies, "optimal"], 0.0)
    t0 = time.perf_counter()
    hands = 0
    for cat, classes in by_cat.items():
        weight = sum(n for _s, n in classes) / total
        m = PLAN[cat]
        cum = list(itertools.accumulate(n for _s, n in classes))
        ys: dict[str, list[float]] = {k: [] for k in mean}
        for i in range(m):
            # Slice i of the category (by strength order), one uniform hand from it.
            target = (i + rng.random()) * cum[-1] / m
            s = classes[min(bisect_right(cum, target), len(classes) - 1)][0]
            hand = hand_of_class(s, rng)
            r, best = raise_values(hand, terms)
            hands += 1
            for name, raises in strategies.items():
                ys[name].append(r if raises(cat) else -1.0)
            ys["optimal"].append(best)
        for name, y in ys.items():
            mean[name] += weight * statistics.fmean(y)
            if m > 1:
                diffs = sum((b - a) ** 2 for a, b in itertools.pairwise(y)) / 2 / (m - 1)
                var[name] += weight**2 * diffs / m
                if verbose and name == "always":
                    sd = weight * math.sqrt(diffs / m)
                    print(f"  {cat:<16} weight {weight:.6f} raise {statistics.fmean(y):+.4f} sd {sd:.6f}")
    took = time.perf_counter() - t0
    print(f"Caribbean Stud (caribbean.toml), {hands} player hands x 13 up-card ranks, {took:.1f} s")
    print(f"{'strategy':<20} {'house edge':>10} {'95% interval':>20} {'published':>10}")
    for name in mean:
        edge = -100 * mean[name]
        half = 196 * math.sqrt(var[name])
        print(f"{name:<20} {edge:>9.3f}% {edge - half:>9.3f}%..{edge + half:.3f}% {PUBLISHED[name]:>9.2f}%")


def bisect_right(a: list[int], x: float) -> int:
    lo, hi = 0, len(a)
    while lo < hi:
        mid = (lo + hi) // 2
        if x < a[mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo


def reference_bet(hand: list[int], up: int, terms: Terms) -> float:
    """Direct enumeration: every hidden hand, and every card of a bought game."""
    p = strength5(*hand)
    pool = [i for i in range(52) if i not in hand and i != up]
    w = terms.win[p]
    total = 0.0
    hidden_hands = 0
    for hid in itertools.combinations(pool, 4):
        hidden_hands += 1
        d = strength5(up, *hid)
        if d >= AK_FLOOR:
            total += w if p > d else terms.lose if p < d else 0
            continue
        five = (up, *hid)
        pick = max if terms.replace == "highest" else min
        out = pick(five, key=lambda i: i // 4)
        kept = [i for i in five if i != out]
        rest = [i for i in pool if i not in hid]
        v = 0.0
        for x in rest:
            d2 = strength5(*kept, x)
            v += terms.buy_fail if d2 < AK_FLOOR else w if p > d2 else terms.lose if p < d2 else 0
        total += max(terms.no_game, v / len(rest) - terms.buy_fee)
    return total / hidden_hands


def speed(count: int, seed: int) -> None:
    rules = load_rules()
    terms = Terms.of(rules)
    rng = random.Random(seed)
    print("\nExact bet vs fold (CIS rules) beside the reference (direct enumeration):")
    for _ in range(3):
        cards = rng.sample(range(52), 6)
        hand, up = cards[:5], cards[5]
        text = " ".join(str(CARD_BY_INDEX[i]) for i in hand)
        t0 = time.perf_counter()
        ref = reference_bet(hand, up, terms)
        t1 = time.perf_counter()
        fast = bet_value(text, str(CARD_BY_INDEX[up]), rules=rules)
        t2 = time.perf_counter()
        print(
            f"  {text} vs {CARD_BY_INDEX[up]}: bet {fast:+.6f} (reference {ref:+.6f}), "
            f"{1000 * (t2 - t1):.1f} ms vs reference {t1 - t0:.2f} s"
        )
    times = []
    bet_times = []
    close = unresolved = 0
    for _ in range(count):
        cards = [str(CARD_BY_INDEX[i]) for i in rng.sample(range(52), 6)]
        t0 = time.perf_counter()
        bet_value(cards[:5], cards[5], rules=rules)
        t1 = time.perf_counter()
        opts = options(cards[:5], cards[5], rules=rules, rng=random.Random(rng.random()))
        t2 = time.perf_counter()
        bet_times.append(t1 - t0)
        times.append(t2 - t1)
        close += sum(o.equivalent for o in opts) > 1
        gap = opts[0].ev - opts[1].ev
        # Unpaired (so pessimistic) standard error of the top two's difference.
        if not (gap <= TOLERANCE or gap > Z * math.hypot(opts[0].stderr, opts[1].stderr)):
            unresolved += 1
    q = statistics.quantiles(times, n=10) if len(times) > 1 else times
    print(f"\noptions() over {count} random hands (CIS rules, default precision):")
    print(
        f"  min {min(times):.2f} s, median {statistics.median(times):.2f} s, 90th percentile {q[-1]:.2f} s, "
        f"max {max(times):.2f} s (target: under 2 s)"
    )
    print(
        f"  exact bet vs fold: median {1000 * statistics.median(bet_times):.1f} ms, "
        f"max {1000 * max(bet_times):.1f} ms (target: under 500 ms)"
    )
    print(f"  hands where two or more options are within {TOLERANCE} ante of the best: {close}")
    print(f"  hands whose two best options are neither separated nor within {TOLERANCE}: {unresolved}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100, help="random hands timed for options()")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip-caribbean", action="store_true")
    parser.add_argument("--strata", action="store_true", help="print each category's raise value")
    args = parser.parse_args()
    if args.hands < 1:
        parser.error("--hands must be at least 1")
    if not args.skip_caribbean:
        caribbean(args.seed, args.strata)
    speed(args.hands, args.seed)


if __name__ == "__main__":
    main()
