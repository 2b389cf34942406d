"""The exact advisor's engine (counting, buying the game, payoffs, draws) against brute force.

Brute force (tests/advisor_brute.py) walks every draw, every hidden dealer hand and every card a bought
game can bring, on small pools of unseen cards rich in the up-card's suit (dealer flushes, suited
bought games) and in the hand's suits (player flushes), so every correction of the counting engine is
exercised; values are compared as exact fractions.
"""

from __future__ import annotations

import dataclasses
import itertools
import random

import numpy as np
import pytest
from advisor_brute import best_stand, exchange_value, sixth_value

from trainer.engine.cards import CARD_BY_INDEX, parse_cards
from trainer.engine.evaluator import strength5
from trainer.engine.russian_poker import bet_payout, settle
from trainer.engine.russian_poker.rules import load_rules
from trainer.engine.russian_poker.strategy.counting import AK_FLOOR, DealerCounts
from trainer.engine.russian_poker.strategy.payoffs import Payoffs, strength_of
from trainer.engine.russian_poker.strategy.solver import Context, Valuation


def idx(text: str) -> list[int]:
    return [c.index for c in parse_cards(text)]


def _small_pool(rng: random.Random, up: int, hand: tuple[int, ...], size: int = 11) -> list[int]:
    rest = [c for c in range(52) if c not in hand and c != up]
    rng.shuffle(rest)
    suited = [c for c in rest if c % 4 == up % 4][:5]
    return suited + [c for c in rest if c not in suited][: size - len(suited)]


def test_dealer_counts_match_walking_the_hidden_hands():
    rng = random.Random(5)
    for _ in range(3):
        cards = rng.sample(range(52), 52)
        up = cards[0]
        pool = [c for c in cards[1:] if c % 4 == up % 4][:7] + [c for c in cards[1:] if c % 4 != up % 4][:9]
        counts = DealerCounts(up, pool)
        removals = [rng.sample(pool, n) for n in (0, 1, 3, 5)]
        lookups = counts.removal_lookups(removals)
        for p in (100, AK_FLOOR, 3000, 5500, 5900, 7000):
            strengths = np.full(len(removals), p)
            lt = counts.count(lookups, len(removals), strengths)
            le = counts.count(lookups, len(removals), strengths, inclusive=True)
            ng = counts.count(lookups, len(removals), np.full(len(removals), AK_FLOOR))
            for q, z in enumerate(removals):
                dealt = [
                    strength5(up, *d) for d in itertools.combinations([c for c in pool if c not in z], 4)
                ]
                assert (lt[q], le[q], ng[q]) == (
                    sum(s < p for s in dealt),
                    sum(s <= p for s in dealt),
                    sum(s < AK_FLOOR for s in dealt),
                )


SITUATIONS = [
    # (house, ante, bonus, seed, suited hand): every shipped house, with bonus stakes and a table maximum
    ("cis", 10, 5, 1, False),
    ("cis", 1, 0, 2, True),
    ("insured", 100, 50, 3, False),  # lowest card replaced, failed buy pays nothing, insurance, cap 5000
    ("insured", 10, 0, 4, True),
    ("caribbean", 1, 0, 5, False),
    ("lunar", 10, 0, 6, True),  # two combinations, no buying the game
]


@pytest.mark.parametrize(("house", "ante", "bonus", "seed", "suited"), SITUATIONS)
def test_stand_sixth_card_and_small_exchanges_match_brute_force(house, ante, bonus, seed, suited):
    rng = random.Random(seed)
    deck = rng.sample(range(52), 52)
    up = deck[0]
    if suited:  # four to a flush: the draws that make a player flush are valued on their own
        hand = tuple(
            [c for c in deck[1:] if c % 4 == deck[1] % 4][:4]
            + [c for c in deck[1:] if c % 4 != deck[1] % 4][:1]
        )
    else:
        hand = tuple(deck[1:6])
    pool = _small_pool(rng, up, hand)
    pay = Payoffs.of(load_rules(house), ante, bonus)
    v = Valuation(Context(up, tuple(pool), pay))
    assert max(x for x in v.stand_now(hand) if x is not None) == best_stand(pay, up, hand, pool)
    assert v.sixth_card(hand) - pay.fee == sixth_value(pay, up, pool, hand)
    for k in (1, 2, 3):
        kept = hand[k:]
        assert v.exchange(kept, k) - pay.fee == exchange_value(pay, up, pool, kept, k)


@pytest.mark.parametrize(("house", "ante", "bonus", "seed", "suited"), SITUATIONS)
def test_quick_upper_bounds_never_fall_below_the_exact_values(house, ante, bonus, seed, suited):
    # `best_options` skips an exchange whose bound falls short of the best so far: a bound below the
    # exact value would hide a better option. Every exchange of every size, on pools rich in flushes.
    rng = random.Random(100 + seed)
    deck = rng.sample(range(52), 52)
    up, hand = deck[0], tuple(deck[1:6])
    if suited:
        hand = tuple(
            [c for c in deck[1:] if c % 4 == up % 4][:3] + [c for c in deck[1:] if c % 4 != up % 4][:2]
        )
    pool = _small_pool(rng, up, hand, size=13)
    v = Valuation(Context(up, tuple(pool), Payoffs.of(load_rules(house), ante, bonus)))
    for k in range(1, 6):
        kept = [[c for c in hand if c not in d] for d in itertools.combinations(hand, k)]
        bounds = v.exchanges(kept, k, bound=True)
        exact = v.exchanges(kept, k)
        assert all(b >= e for b, e in zip(bounds, exact, strict=True)), (k, bounds, exact)


def test_payoffs_agree_with_the_settlement_engine():
    rng = random.Random(8)
    for house, ante, bonus in (("cis", 10, 5), ("insured", 100, 50), ("lunar", 10, 0), ("caribbean", 10, 0)):
        rules = load_rules(house)
        if rules.super_compulsory:  # the payoffs leave the Super aside (the manufacturer's optional Super)
            rules = dataclasses.replace(rules, super_compulsory=False)
        pay = Payoffs.of(rules, ante, bonus)
        for _ in range(40):
            cards = rng.sample(range(52), 10)
            player, dealer = cards[:5], cards[5:]
            text = _text(player)
            o = pay.outcomes(strength5(*player))
            got = settle(text, _text(dealer), ante, bonus=bonus, rules=rules)
            p, d = strength5(*player), strength5(*dealer)
            expected = o.no_game if d < AK_FLOOR else o.win if p > d else o.lose if p < d else o.tie
            assert got.net == expected * pay.unit
            assert (
                settle(text, _text(dealer), ante, bonus=bonus, rules=rules, folded=True).net
                == o.fold * pay.unit
            )


def _text(indexes):
    return " ".join(str(CARD_BY_INDEX[i]) for i in indexes)


def test_table_maximum_caps_the_bet_and_then_the_bonus():
    # Insured house: 5000 chips per box, bet first then the bonus (scope "total"). Ante 50, bonus 10:
    # a royal's bet wins 100 x 100 = 10000, cut to 5000; nothing is left for the bonus's 10000.
    pay = Payoffs.of(load_rules("insured"), 50, 10)
    royal = pay.outcomes(strength_of("As Ks Qs Js Ts"))
    assert royal.win * pay.unit == 5000
    assert royal.no_game * pay.unit == 50 + 5000  # the dealer has no game: ante 50, bonus capped at 5000
    # A straight: bet 100 x 4 = 400, bonus 10 x 40 = 400: both under the cap.
    assert pay.outcomes(strength_of("9h 8d 7c 6s 5h")).win * pay.unit == 800
    # Insurance: three of a kind or better, up to what the bet would win (uncapped).
    trips = pay.outcomes(strength_of("9h 9d 9c 6s 5h"))
    assert trips.insure_max * pay.unit == bet_payout("9h 9d 9c 6s 5h", 50, "insured").win == 300
    assert pay.outcomes(strength_of("9h 9d 8c 6s 5h")).insure_max == 0


def test_lunar_pays_the_second_combination_of_five_cards():
    pay = Payoffs.of(load_rules("lunar"), 10)
    # Four kings and an ace: 20 + 1 (ace-king) to 1 on the bet of 20.
    assert pay.outcomes(strength_of("Kh Kd Ks Kc Ah")).win * pay.unit == 420
    assert pay.outcomes(strength_of("Ah Ad Kc Kh 2h")).win * pay.unit == 40  # two pair: no second
    assert pay.instant(parse_cards("Ah Kh Qh Jh Th")) * pay.unit == 10000  # instant 1000 to 1


def test_second_combination_table_agrees_with_the_engine_on_every_candidate():
    from trainer.engine.evaluator import CLASS_COUNT, PATTERN
    from trainer.engine.russian_poker.hands import category_of_strength, second_combination
    from trainer.engine.russian_poker.strategy.payoffs import _representative, _second_odds5

    lunar = load_rules("lunar")
    table = _second_odds5(lunar)
    rng = random.Random(3)
    checked = 0
    for s in range(1, CLASS_COUNT + 1):
        cat = category_of_strength(s)
        if cat.value in ("flush", "straight_flush", "royal_flush"):
            continue
        if {14, 13} <= set(PATTERN[s]) or rng.random() < 0.05:
            second = second_combination(_representative(s), lunar)
            assert table.get(s, 0) == (lunar.bet_odds[second.category] if second else 0), s
            checked += 1
    assert checked > 300
