"""The Caribbean preset's best-play house edge against Shackleford's published figures, from exact
per-situation values on a seeded slice (the full figure: `python3 bench/strategy.py --house-edge
caribbean`).

Best play and the "ace-king or better" strategy (published 5.68%) differ only on ace-king hands (best
play bets every pair and better, and folds everything below ace-king, as that strategy does), so best
play's edge is 5.68% minus the share of ace-king hands times the mean, over ace-king deals, of what
folding a bad ace-king saves: max(fold - bet, 0), exact per deal. Sampling ace-king deals only makes the
interval narrow enough (about +-0.12%) that a solver folding or betting ace-king wrongly falls outside
it; it must contain the published 5.224%."""

from __future__ import annotations

import math
import random
import statistics
from fractions import Fraction

from trainer.engine.cards import CARD_BY_INDEX
from trainer.engine.russian_poker.hands import evaluate
from trainer.engine.russian_poker.rules import Category, load_rules
from trainer.engine.russian_poker.strategy import best_options
from trainer.engine.russian_poker.strategy.payoffs import Payoffs
from trainer.engine.russian_poker.strategy.solver import Context, Valuation

# Shackleford, "Caribbean Stud Poker", Contingencies, Nov/Dec 2000: house edge per ante, percent.
OPTIMAL, ACE_KING_OR_BETTER = 5.224, 5.68
# Ace-king hands: A, K and three of the eleven other ranks (not A-K-Q-J-T), not all of one suit.
ACE_KING_SHARE = Fraction(164 * (4**5 - 4), 2598960)
DEALS = 80


def _fold_saving(hand: list[int], up: int, pay: Payoffs) -> Fraction:
    pool = tuple(i for i in range(52) if i not in hand and i != up)
    fold, bet, _insure = Valuation(Context(up, pool, pay)).stand_now(hand)
    return max(fold - bet, Fraction(0)) * Fraction(pay.unit, pay.ante)


def test_best_play_edge_contains_the_published_figure():
    pay = Payoffs.of(load_rules("caribbean"))
    rng = random.Random(20261201)
    savings: list[float] = []
    while len(savings) < DEALS:
        cards = rng.sample(range(52), 6)
        if evaluate([CARD_BY_INDEX[i] for i in cards[:5]]).category is Category.ACE_KING:
            savings.append(float(_fold_saving(cards[:5], cards[5], pay)))
    share = 100 * float(ACE_KING_SHARE)
    edge = ACE_KING_OR_BETTER - share * statistics.fmean(savings)
    half = 1.96 * share * statistics.stdev(savings) / math.sqrt(DEALS)
    assert half < 0.15, "the slice is too small to test anything"
    assert edge - half <= OPTIMAL <= edge + half, (edge, half)


def test_best_play_bets_pairs_and_folds_below_ace_king_on_hand_worked_hands():
    # The premise above, on hands at the edges: the lowest pair against an ace, the best hand below
    # ace-king against a deuce.
    assert best_options("2h 2d 3c 4s 6h", "Ad", rules="caribbean")[0].label == "bet"
    assert best_options("Ah Qd Jc 9s 8h", "2d", rules="caribbean")[0].label == "fold"
