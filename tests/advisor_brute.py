"""Brute-force valuation of Russian poker options, walking every draw, every hidden dealer hand and
every card a bought game can bring (for the advisor's tests, on small pools of unseen cards)."""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

from trainer.engine.evaluator import strength5
from trainer.engine.russian_poker.strategy.counting import AK_FLOOR
from trainer.engine.russian_poker.strategy.payoffs import Outcomes, Payoffs
from trainer.engine.russian_poker.strategy.solver import strength_of_cards


def outcomes_of(pay: Payoffs, cards: tuple[int, ...]) -> tuple[int, Outcomes]:
    from trainer.engine.cards import CARD_BY_INDEX

    s = strength_of_cards(cards)
    if len(cards) == 5:
        return s, pay.outcomes(s)
    return s, pay.outcomes6(tuple(CARD_BY_INDEX[i] for i in cards))


def best_stand(pay: Payoffs, up: int, final: tuple[int, ...], rest: list[int]) -> Fraction:
    """The best of fold, bet (buying the game when it pays) and bet-and-insure, walking everything."""
    p, o = outcomes_of(pay, final)
    hands = comb(len(rest), 4)
    fee = pay.fee
    bet = Fraction(0)
    no_buy = Fraction(0)
    no_game = 0
    pick = max if pay.replace_highest else min
    for hidden in itertools.combinations(rest, 4):
        d = strength5(up, *hidden)
        if d >= AK_FLOOR:
            v = o.win if p > d else o.lose if p < d else o.tie
            bet += v
            no_buy += v
            continue
        no_game += 1
        no_buy += o.no_game
        value = Fraction(o.no_game)
        if pay.buy_game:
            five = (up, *hidden)
            out = pick(five, key=lambda i: i // 4)
            kept = [i for i in five if i != out]
            deck = [c for c in rest if c not in hidden]
            total = 0
            for c in deck:
                d2 = strength5(*kept, c)
                total += o.fail if d2 < AK_FLOOR else o.win if p > d2 else o.lose if p < d2 else o.tie
            value = max(value, Fraction(total, len(deck)) - fee)
        bet += value
    choices = [Fraction(o.fold), bet / hands]
    if o.insure_max:
        choices.append((no_buy + o.insure_max * (pay.insurance_odds * no_game - (hands - no_game))) / hands)
    return max(choices)


def exchange_value(pay: Payoffs, up: int, pool: list[int], kept: tuple[int, ...], k: int) -> Fraction:
    total = Fraction(0)
    draws = 0
    for drawn in itertools.combinations(pool, k):
        rest = [c for c in pool if c not in drawn]
        total += best_stand(pay, up, (*kept, *drawn), rest)
        draws += 1
    return total / draws - pay.fee


def sixth_value(pay: Payoffs, up: int, pool: list[int], hand: tuple[int, ...]) -> Fraction:
    total = Fraction(0)
    for c in pool:
        total += best_stand(pay, up, (*hand, c), [x for x in pool if x != c])
    return total / len(pool) - pay.fee
