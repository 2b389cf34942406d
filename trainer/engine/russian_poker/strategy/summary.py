"""Rules of thumb a trainee can learn, with what each costs against best play (computed by the bench).

`bench/strategy.py --rules-of-thumb NAME` values, exactly, sampled hands of each class (two pair or
better, a pair, ace-king, four to a flush, four to a straight, the rest) under best play and under the
class's rule, and stores the summary in `data/advisor/rules-of-thumb.json`; the advisor page shows it.
Here: the classes (`hand_class`, the first that applies), reading that file, each rule as one sentence
(`Step`: a translatable template with its parameters), and what a house's rule says for one hand
(`rule_for`: the buy-decision drill's explanation leads with it).

>>> rule = {"class": "pair", "params": {"bet_from": "7"}, "share": 0.4226, "cost": 0.01}
>>> for line in rule_steps(rule):
...     print(line)
Bet a pair of 7s or higher; with a lower pair, exchange the other three cards.
On 42.3% of hands; it costs 0.0100 ante a hand against best play.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from trainer.engine.cards import Card
from trainer.engine.evaluator import PRODUCT_TABLE, strength5
from trainer.engine.explain import Fixed, Percent, Step, step
from trainer.engine.presets import data_path

SUMMARY_FILE = ("advisor", "rules-of-thumb.json")
EDGE_FILE = ("advisor", "house-edge.json")  # written by bench/strategy.py --house-edge NAME
RANKS = "23456789TJQKA"
PAIR_FLOOR = PRODUCT_TABLE[2 * 2 * 3 * 5 * 7]  # the lowest pair: 2-2-3-4-5
TWO_PAIR_FLOOR = PRODUCT_TABLE[3 * 3 * 2 * 2 * 5]
AK_FLOOR = PRODUCT_TABLE[41 * 37 * 5 * 3 * 2]
CLASSES = ("two_pair_up", "pair", "ace_king", "four_flush", "four_straight", "rest")


def hand_class(cards: Sequence[int]) -> str:
    """The rule class of five cards (card indexes), the first that applies."""
    strength = strength5(*cards)
    if strength >= TWO_PAIR_FLOOR:
        return "two_pair_up"
    if strength >= PAIR_FLOOR:
        return "pair"
    if strength >= AK_FLOOR:
        return "ace_king"
    if max(sum(1 for i in cards if i % 4 == s) for s in range(4)) == 4:
        return "four_flush"
    if four_straight(cards):
        return "four_straight"
    return "rest"


def four_straight(cards: Sequence[int]) -> bool:
    ranks = {i // 4 + 2 for i in cards}
    if 14 in ranks:
        ranks.add(1)
    return any(len(ranks & set(range(low, low + 5))) >= 4 for low in range(1, 11))


def pair_rank(cards: Sequence[int]) -> int:
    ranks = [i // 4 for i in cards]
    return next(r for r in ranks if ranks.count(r) == 2)


@dataclass(frozen=True)
class HandRule:
    """What a house's rule of thumb says for one hand: the rule's sentence, its action ("fold", "bet",
    "sixth_card" or "exchange", as the strategy's `Action` values) and the cards it exchanges."""

    text: Step
    action: str
    discard: tuple[Card, ...] = ()


def rule_for(summary: dict[str, Any], cards: Sequence[Card], upcard: Card) -> HandRule | None:
    """The house's rule of thumb for this hand and up-card (None when the summary has no rule for
    its class).

    >>> from trainer.engine.cards import parse_cards
    >>> summary = {"rules": [{"class": "pair", "params": {"bet_from": "9"}, "share": 0.4, "cost": 0.0}]}
    >>> rule = rule_for(summary, parse_cards("5h 5d Kc 9s 2h"), Card.from_text("Qd"))
    >>> rule.action, " ".join(map(str, rule.discard))
    ('exchange', 'Kc 9s 2h')
    >>> print(rule.text)
    Bet a pair of 9s or higher; with a lower pair, exchange the other three cards.
    """
    indexes = [c.index for c in cards]
    cls = hand_class(indexes)
    rule = next((r for r in summary.get("rules", []) if r.get("class") == cls), None)
    if rule is None:
        return None
    text = rule_steps(rule)[0]
    params = rule.get("params", {})
    if cls == "two_pair_up":
        return HandRule(text, "bet")
    if cls == "pair":
        low = params.get("bet_from")
        rank = pair_rank(indexes)
        if low is not None and rank >= RANKS.index(low):
            return HandRule(text, "bet")
        return HandRule(text, "exchange", tuple(c for c in cards if c.index // 4 != rank))
    if cls == "ace_king":
        high = params.get("bet_to")
        bets = high is not None and upcard.index // 4 <= RANKS.index(high)
        return HandRule(text, "bet" if bets else "fold")
    if cls in ("four_flush", "four_straight"):
        action = params.get("action", "fold")
        if action == "exchange_odd":
            suit = max(range(4), key=lambda s: sum(1 for i in indexes if i % 4 == s))
            return HandRule(text, "exchange", tuple(c for c in cards if c.index % 4 != suit))
        return HandRule(text, {"sixth": "sixth_card"}.get(action, action))
    return HandRule(text, "fold")


def load_summary(house: str) -> dict[str, Any] | None:
    """The stored summary of a house (None when the bench has not computed one)."""
    path = data_path(*SUMMARY_FILE)
    if not path.is_file():
        return None
    found = json.loads(path.read_text(encoding="utf-8")).get("houses", {}).get(house)
    return found if isinstance(found, dict) else None


def rule_steps(rule: dict[str, Any]) -> list[Step]:
    """The rule as a sentence, and its share of hands and cost as another."""
    cls, params = rule["class"], rule.get("params", {})
    if cls == "two_pair_up":
        text = step("Bet two pair or better.")
    elif cls == "pair":
        low = params.get("bet_from")
        if low is None:
            text = step("With any pair, exchange the other three cards.")
        elif low == "2":
            text = step("Bet any pair.")
        else:
            text = step(
                "Bet a pair of {rank}s or higher; with a lower pair, exchange the other three cards.",
                rank=low,
            )
    elif cls == "ace_king":
        high = params.get("bet_to")
        if high is None:
            text = step("Fold ace-king.")
        elif high == "A":
            text = step("Bet ace-king against any up-card.")
        else:
            text = step(
                "Bet ace-king against an up-card of {rank} or lower; fold it against a higher one.",
                rank=high,
            )
    elif cls in ("four_flush", "four_straight"):
        action = params.get("action", "fold")
        text = {
            ("four_flush", "sixth"): step("With four to a flush, buy a sixth card."),
            ("four_flush", "exchange_odd"): step("With four to a flush, exchange the odd card."),
            ("four_flush", "bet"): step("With four to a flush, bet."),
            ("four_flush", "fold"): step("With four to a flush, fold."),
            ("four_straight", "sixth"): step("With four to a straight, buy a sixth card."),
            ("four_straight", "bet"): step("With four to a straight, bet."),
            ("four_straight", "fold"): step("With four to a straight, fold."),
        }[(cls, action)]
    else:
        text = step("Fold everything else.")
    cost = step(
        "On {share} of hands; it costs {cost}\u00a0ante a hand against best play.",
        share=Percent(rule["share"], 1),
        cost=Fixed(rule["cost"], 4),
    )
    return [text, cost]


def total_step(summary: dict[str, Any]) -> Step:
    """What all the rules together cost against best play."""
    return step(
        "All the rules together cost {cost}\u00a0ante a hand against best play.",
        cost=Fixed(summary["cost"], 4),
    )


def load_edge(house: str) -> dict[str, Any] | None:
    """A house's edge under best play as the bench stored it (None when it has not been computed).

    >>> round(load_edge("cis")["edge"], 5)
    0.09546
    """
    path = data_path(*EDGE_FILE)
    if not path.is_file():
        return None
    found = json.loads(path.read_text(encoding="utf-8")).get("houses", {}).get(house)
    return found if isinstance(found, dict) else None


def edge_steps(edge: dict[str, Any], second_draw: bool) -> list[Step]:
    """The house edge under best play as sentences; where the house allows a second draw, that the
    figure is of one draw (the advisor does not value a second), so the true edge is at most that.

    >>> lines = edge_steps({"edge": 0.09546, "low": 0.08246, "high": 0.10845, "deals": 40000}, True)
    >>> print(lines[0])  # doctest: +NORMALIZE_WHITESPACE
    Under best play the house keeps 9.546% of the ante (95% interval 8.246% to 10.845%;
    random deals valued exactly: 40000).
    >>> len(lines)
    2
    """
    figures = {name: _percent(edge[name]) for name in ("edge", "low", "high")}
    lines = [
        step(
            "Under best play the house keeps {edge} of the ante ({confidence} interval {low} to {high}; "
            "random deals valued exactly: {deals}).",
            confidence=_percent(0.95, 0),
            deals=edge["deals"],
            **figures,
        )
    ]
    if second_draw:
        lines.append(
            step(
                "This house allows a second exchange, which the advisor does not value: its figures "
                "are those of a single draw or buy, so the true edge is at most this."
            )
        )
    return lines


def _percent(share: float, places: int = 3) -> Percent:
    return Percent(share, places)
