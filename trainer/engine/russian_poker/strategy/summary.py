"""Rules of thumb a trainee can learn, with what each costs against best play (computed by the bench).

`bench/strategy.py --rules-of-thumb NAME` values, exactly, sampled hands of each class (two pair or
better, a pair, ace-king, four to a flush, four to a straight, the rest) under best play and under the
class's rule, and stores the summary in `data/advisor/rules-of-thumb.json`; the advisor page shows it.
Here: reading that file, and each rule as one sentence (`Step`: a translatable template with its
parameters).

>>> rule = {"class": "pair", "params": {"bet_from": "7"}, "share": 0.4226, "cost": 0.01}
>>> for line in rule_steps(rule):
...     print(line)
Bet a pair of 7s or higher; with a lower pair, exchange the other three cards.
On 42.3% of hands; it costs 0.0100 ante a hand against best play.
"""

from __future__ import annotations

import json
from typing import Any

from trainer.engine.explain import Step, step
from trainer.engine.presets import data_path

SUMMARY_FILE = ("advisor", "rules-of-thumb.json")


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
        "On {share} of hands; it costs {cost} ante a hand against best play.",
        share=f"{100 * rule['share']:.1f}%",
        cost=f"{rule['cost']:.4f}",
    )
    return [text, cost]


def total_step(summary: dict[str, Any]) -> Step:
    """What all the rules together cost against best play."""
    return step(
        "All the rules together cost {cost} ante a hand against best play.", cost=f"{summary['cost']:.4f}"
    )
