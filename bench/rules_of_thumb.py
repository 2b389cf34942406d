"""Rules of thumb for Russian poker buy decisions, each with its computed cost against best play.

A trainee cannot value 34 options at the table; a handful of rules gets close. Hands fall into classes
(the first that applies): two pair or better, a pair, ace-king, four to a flush, four to a straight,
the rest. Each class has one rule; where a rule has a threshold (which pairs to bet, against which
up-cards to bet ace-king) the threshold is computed: for each pair rank (each up-card rank) the action
with the larger mean exact value over the sampled hands. A rule's cost is the share of hands in its
class times the mean, over sampled hands of the class, of (best option's value - the rule's action's
value), all exact (`best_options` and the exact value of the rule's action); the strategy's cost is
their sum.

`compute(house, per_class, seed)` samples `per_class` random deals of each class (rejection sampling
from random deals) and returns the summary as JSON-able data; `bench/strategy.py --rules-of-thumb NAME`
prints it and stores it in `data/advisor/rules-of-thumb.json`, which the advisor page shows.
"""

from __future__ import annotations

import functools
import itertools
import random
import statistics
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from trainer.engine.cards import CARD_BY_INDEX
from trainer.engine.russian_poker.rules import HouseRules
from trainer.engine.russian_poker.strategy import best_options
from trainer.engine.russian_poker.strategy.payoffs import Payoffs
from trainer.engine.russian_poker.strategy.solver import Context, Valuation
from trainer.engine.russian_poker.strategy.summary import (  # the classes, one copy: the drill's too
    AK_FLOOR,
    CLASSES,
    PAIR_FLOOR,
    RANKS,
    TWO_PAIR_FLOOR,
    hand_class,
    pair_rank,
)


class _Values:
    """Exact values (antes) of the actions a rule may take, for one deal."""

    def __init__(self, hand: list[int], up: int, pay: Payoffs) -> None:
        pool = tuple(i for i in range(52) if i not in hand and i != up)
        self.hand = hand
        self.pay = pay
        self.v = Valuation(Context(up, pool, pay))
        self.per_ante = Fraction(pay.unit, pay.ante)

    def stand(self) -> tuple[float, float]:
        fold, bet, _ins = self.v.stand_now(self.hand)
        return float(fold * self.per_ante), float(bet * self.per_ante)

    def sixth(self) -> float:
        return float((self.v.sixth_card(self.hand) - self.pay.fee) * self.per_ante)

    def exchange(self, kept: list[int]) -> float:
        k = 5 - len(kept)
        return float((self.v.exchange(kept, k) - self.pay.fee) * self.per_ante)


def _sample(rng: random.Random, wanted: str) -> tuple[list[int], int]:
    while True:
        cards = rng.sample(range(52), 6)
        if hand_class(cards[:5]) == wanted:
            return cards[:5], cards[5]


def compute(
    house: HouseRules, per_class: int, seed: int, progress: Callable[[str], None] | None = None
) -> dict[str, Any]:
    pay = Payoffs.of(house)
    shares = class_shares()
    rng = random.Random(seed)
    rules: list[dict[str, Any]] = []
    can_exchange = house.exchange_allowed and house.max_exchanges > 0
    exchange = can_exchange and house.exchange_min_cards <= 3 <= house.exchange_max_cards
    odd = can_exchange and house.exchange_min_cards <= 1
    for cls in CLASSES:
        deals = [_sample(rng, cls) for _ in range(per_class)]
        rows = []
        for hand, up in deals:
            text = [str(CARD_BY_INDEX[i]) for i in hand]
            best = best_options(text, str(CARD_BY_INDEX[up]), rules=house)[0].ev
            vals = _Values(hand, up, pay)
            fold, bet = vals.stand()
            row: dict[str, float] = {"best": best, "fold": fold, "bet": bet}
            if cls == "pair" and exchange:
                r = pair_rank(hand)
                row["exchange_three"] = vals.exchange([i for i in hand if i // 4 == r])
            if cls in ("four_flush", "four_straight") and house.sixth_card_allowed:
                row["sixth"] = vals.sixth()
            if cls == "four_flush" and odd:
                suit = max(range(4), key=lambda s: sum(1 for i in hand if i % 4 == s))
                row["exchange_odd"] = vals.exchange([i for i in hand if i % 4 == suit])
            rows.append((hand, up, row))
            if progress:
                progress(cls)
        rules.append(_rule(cls, rows, shares[cls]))
    total = sum(r["cost"] for r in rules)
    return {"house": house.name, "per_class": per_class, "seed": seed, "rules": rules, "cost": total}


def _rule(cls: str, rows: list[tuple[list[int], int, dict[str, float]]], share: float) -> dict[str, Any]:
    """The class's rule (thresholds computed) and its cost."""
    params: dict[str, Any] = {}
    if cls == "two_pair_up":
        chosen = ["bet"] * len(rows)
    elif cls == "pair" and "exchange_three" in rows[0][2]:
        # For each pair rank the better of betting and exchanging three; then one threshold: bet a pair
        # of this rank or higher.
        better = _better_by(rows, lambda h, u: pair_rank(h), ("bet", "exchange_three"))
        low = next((r for r in range(13) if all(better.get(x, "bet") == "bet" for x in range(r, 13))), 13)
        params["bet_from"] = RANKS[low] if low < 13 else None
        chosen = ["bet" if pair_rank(h) >= low else "exchange_three" for h, _u, _r in rows]
    elif cls == "pair":
        params["bet_from"] = "2"  # no three-card exchange at this house: every pair bets
        chosen = ["bet"] * len(rows)
    elif cls == "ace_king":
        better = _better_by(rows, lambda h, u: u // 4, ("bet", "fold"))
        high = max(
            (r for r in range(13) if all(better.get(x, "fold") == "bet" for x in range(r + 1))), default=-1
        )
        params["bet_to"] = RANKS[high] if high >= 0 else None
        chosen = ["bet" if u // 4 <= high else "fold" for _h, u, _r in rows]
    elif cls in ("four_flush", "four_straight"):
        actions = [a for a in ("sixth", "exchange_odd", "bet", "fold") if a in rows[0][2]]
        means = {a: statistics.fmean(r[a] for _h, _u, r in rows) for a in actions}
        action = max(means, key=means.__getitem__)
        params["action"] = action
        chosen = [action] * len(rows)
    else:
        chosen = ["fold"] * len(rows)
    gaps = [r["best"] - r[a] for (_h, _u, r), a in zip(rows, chosen, strict=True)]
    mean_gap = statistics.fmean(gaps)
    half = 1.96 * statistics.stdev(gaps) / len(gaps) ** 0.5 if len(gaps) > 1 else 0.0
    return {
        "class": cls,
        "share": share,
        "params": params,
        "gap": mean_gap,
        "cost": share * mean_gap,
        "cost_half": share * half,
    }


def _better_by(
    rows: list[tuple[list[int], int, dict[str, float]]],
    key: Callable[[list[int], int], int],
    actions: tuple[str, str],
) -> dict[int, str]:
    groups: dict[int, list[dict[str, float]]] = {}
    for h, u, r in rows:
        groups.setdefault(key(h, u), []).append(r)
    return {k: max(actions, key=lambda a: statistics.fmean(r[a] for r in rs)) for k, rs in groups.items()}


@functools.cache
def class_shares() -> dict[str, float]:
    """The exact share of five-card hands in each class: every one of the 2,598,960 is classified (by
    arrays: rank products give the strength of non-flush hands, suit counts the four-flushes)."""
    import numpy as np

    from trainer.engine.russian_poker.strategy.counting import PRIMES
    from trainer.engine.russian_poker.strategy.solver import rank_strength

    combos = np.array(list(itertools.combinations(range(52), 5)), dtype=np.int64)
    ranks, suits = combos // 4, combos % 4
    suit_counts = np.stack([(suits == s).sum(axis=1) for s in range(4)], axis=1).max(axis=1)
    product = np.array(PRIMES, dtype=np.int64)[ranks].prod(axis=1)
    strength = rank_strength(product)  # a flush ranks above two pair anyway: class two_pair_up
    mask = np.zeros(len(combos), dtype=np.int64)
    for j in range(5):
        mask |= 1 << (ranks[:, j] + 1)
    mask |= ((mask >> 13) & 1) << 0  # an ace also plays low
    windows = [sum(1 << (low + i) for i in range(5)) for low in range(10)]
    straight4 = np.zeros(len(combos), dtype=bool)
    for w in windows:
        bits = mask & w
        count = sum((bits >> b) & 1 for b in range(14))
        straight4 |= count >= 4
    cls = np.full(len(combos), "rest", dtype=object)
    cls[straight4] = "four_straight"
    cls[suit_counts == 4] = "four_flush"
    cls[strength >= AK_FLOOR] = "ace_king"
    cls[strength >= PAIR_FLOOR] = "pair"
    cls[(strength >= TWO_PAIR_FLOOR) | (suit_counts == 5)] = "two_pair_up"
    total = len(combos)
    return {c: float((cls == c).sum()) / total for c in CLASSES}
