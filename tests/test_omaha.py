"""Omaha hands and showdown: the rule page's examples, a hand-made known-answer table, properties.

Every expected payout in the tables was worked out by hand from the rule page (the comment on each
row says why); none is copied from the engine's output.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.engine.cards import Deck, parse_cards
from trainer.engine.evaluator import Category
from trainer.engine.omaha import best_high, best_low, format_low, settle, showdown, side_pots

# ---------------------------------------------------------------------------------------------------
# Hands: exactly 2 hole + 3 board


@pytest.mark.parametrize(
    ("hole", "board", "category", "cards"),
    [
        # Four hearts in the hand and one on the board: no flush; K-Q-J in the hand: no straight.
        ("Ah Kh Qh Jh", "Th 2c 3d 7s 9c", Category.HIGH_CARD, "Ah Kh Th 9c 7s"),
        # Four of a kind on the board is no quads: only three of it can play.
        ("2h 3d 8c 9s", "Ks Kh Kd Kc 5d", Category.THREE_OF_A_KIND, "Ks Kh Kd 9s 8c"),
        # One card of the flush suit in the hand is not enough.
        ("Ah 2c 3d 4s", "Kh Qh Jh 9h 5c", Category.HIGH_CARD, "Ah Kh Qh Jh 4s"),
        # Two of the suit in the hand and three on the board make the flush.
        ("Ah 2h Kc Kd", "Qh Jh 9h 4c 5s", Category.FLUSH, "Ah Qh Jh 9h 2h"),
        # A pair in the hand plus a pair on the board: full house only with three of one rank.
        ("7h 7d Jc Qc", "Kh Kd 7c 4s 2d", Category.FULL_HOUSE, "7h 7d 7c Kh Kd"),
        ("9c 6h 3d 4s", "9s 9h 9d 5c 2h", Category.FOUR_OF_A_KIND, "9c 9s 9h 9d 6h"),
        ("Th Jh 3c 3d", "Ah Kh Qh 2s 4d", Category.ROYAL_FLUSH, "Ah Kh Qh Jh Th"),
        ("5d 4d Kc Ks", "3d 2d Ad 9h 9c", Category.STRAIGHT_FLUSH, "5d 4d 3d 2d Ad"),
        ("Js Jd 4c 7s", "Ah Kh 8h 3h 2c", Category.PAIR, "Js Jd Ah Kh 8h"),
        ("Ac Ad 9h 9s", "Kh Kd 7c 4s 2d", Category.TWO_PAIR, "Ac Ad Kh Kd 7c"),
    ],
)
def test_best_high(hole, board, category, cards):
    hand = best_high(hole, board)
    assert hand.category is category
    assert set(hand.cards) == set(parse_cards(cards))


@pytest.mark.parametrize(
    ("hole", "board", "low"),
    [
        ("Ah 2h Kc Kd", "3c 4d 8h Kh Qs", (8, 4, 3, 2, 1)),
        ("Ah 2h 3c 4d", "Kc Qd 8h 9h 5s", None),  # only two low board ranks
        # Only two hole cards play: A-2 with 5-6-7, never the wheel A-2-3-4-5.
        ("Ah 2h 3c 4d", "5c 6d 7h Kh Qs", (7, 6, 5, 2, 1)),
        ("As 2s 9c 9d", "Ah 2c 5d Kh Qs", None),  # counterfeited: A and 2 pair the board
        ("3c 4c Jh Jd", "Ah 2c 5d Kh Qs", (5, 4, 3, 2, 1)),  # the wheel, a straight too
        ("Ac 4s Kh 9s", "2c 3d 7h Kd Ks", (7, 4, 3, 2, 1)),
        ("8c 8d 7c 7d", "2c 3d 4h Kd Qs", (8, 7, 4, 3, 2)),  # a pair in the hand: only one 8 plays
        ("2c 3c 4c 5c", "6c 7c 8c 9c Tc", (8, 7, 6, 3, 2)),  # a flush does not spoil the low
    ],
)
def test_best_low(hole, board, low):
    assert best_low(hole, board) == low


@pytest.mark.parametrize(
    ("better", "worse", "board", "lows"),
    [
        # The rule page: "7-5-4-3-2 beats 7-6-3-2-A; 6-5-4-3-2 beats 7-4-3-2-A".
        ("5s 4h Jc Jd", "Ac 6h Kc Kh", "2c 3d 7h Kd Qs", ((7, 5, 4, 3, 2), (7, 6, 3, 2, 1))),
        ("5s 6h Jc Jd", "Ac 7s Kc Kh", "2c 3d 4h Kd Ks", ((6, 5, 4, 3, 2), (7, 4, 3, 2, 1))),
    ],
)
def test_low_rule_page_orders(better, worse, board, lows):
    assert (best_low(better, board), best_low(worse, board)) == lows
    # The showdown, not a comparison written in the test, decides which low wins; both seatings, so
    # that the seat order cannot decide it.
    for holes, winner in (([better, worse], 0), ([worse, better], 1)):
        ruling = settle(board, holes, [10, 10], hi_lo=True)
        assert ruling.pots[0].low_winners == (winner,), holes


def test_format_low():
    assert format_low((8, 4, 3, 2, 1)) == "8-4-3-2-A"


@pytest.mark.parametrize(
    ("hole", "board", "message"),
    [
        ("Ah Kh Qh", "2c 3d 4h 5s 6c", "4 hole cards, got 3"),
        ("Ah Kh Qh Jh Th", "2c 3d 4h 5s 6c", "4 hole cards, got 5"),
        ("Ah Kh Qh Jh", "2c 3d 4h 5s", "5 cards, got 4"),
        ("Ah Kh Qh Jh", "2c 3d 4h 5s Ah", "card Ah is both in the hole and on the board"),
        ("Ah Ah Qh Jh", "2c 3d 4h 5s 6c", "duplicate card Ah"),
        ("Ah Kh Qh 1h", "2c 3d 4h 5s 6c", "bad card '1h'"),
    ],
)
def test_hands_reject_bad_cards(hole, board, message):
    for function in (best_high, best_low):
        with pytest.raises(ValueError, match=message):
            function(hole, board)


# ---------------------------------------------------------------------------------------------------
# Side pots

STRAIGHT_BOARD = "Kh Qs Jd 2c 7h"  # T-9 in the hand makes the king-high straight
TRIPS_BOARD = "2c 7d 9h Jc Ks"  # no flush or straight possible; pairs in the hand make trips
LOW_BOARD = "2c 4d 6h Ks 9c"
QUARTER_BOARD = "3c 4d 8h Kc Ks"


@pytest.mark.parametrize(
    ("contributions", "folded", "pots", "returned"),
    [
        # Rule page: A 20, B 50, C 50 -> main 60 (A, B, C), side 60 (B, C).
        ([20, 50, 50], set(), [(60, (0, 1, 2)), (60, (1, 2))], [0, 0, 0]),
        # Rule page: 10, 5, 20, 10, 20 all live -> 25 (all), 20 (>= 10), 20 (the two 20s).
        ([10, 5, 20, 10, 20], set(), [(25, (0, 1, 2, 3, 4)), (20, (0, 2, 3, 4)), (20, (2, 4))], [0] * 5),
        # An uncalled bet: 100 against at most 40 -> 60 back, one pot of 90.
        ([10, 40, 100], {0}, [(90, (1, 2))], [0, 0, 60]),
        # Everybody folds to a bet: the bettor gets his excess back; 5 + 10 + his 10 are his pot.
        ([5, 10, 100], {0, 1}, [(25, (2,))], [0, 0, 90]),
        # A folded player's chips stay in the pots they reached but make no pot of their own.
        ([50, 100, 100, 30], {2}, [(120, (0, 1, 3)), (60, (0, 1)), (100, (1,))], [0] * 4),
        ([30, 60, 100, 100], set(), [(120, (0, 1, 2, 3)), (90, (1, 2, 3)), (80, (2, 3))], [0] * 4),
        (
            [10, 20, 30, 40, 40],
            set(),
            [(50, (0, 1, 2, 3, 4)), (40, (1, 2, 3, 4)), (30, (2, 3, 4)), (20, (3, 4))],
            [0] * 5,
        ),
        # A folded 13 between the all-in 8 and the 21s: one side pot of 15 + 16 for seats 1 and 2.
        ([8, 21, 21, 13], {3}, [(32, (0, 1, 2)), (31, (1, 2))], [0] * 4),
        # Two all-ins at the same level make one pot; the top bet above the only caller comes back.
        ([40, 40, 90, 0], {3}, [(120, (0, 1, 2))], [0, 0, 50, 0]),
        ([0, 0, 0], set(), [], [0, 0, 0]),
    ],
)
def test_side_pots(contributions, folded, pots, returned):
    result = side_pots(contributions, folded)
    assert [(p.amount, p.eligible) for p in result] == pots
    assert list(result.returned) == returned
    assert sum(result.amounts) + sum(result.returned) == sum(contributions)


@pytest.mark.parametrize(
    ("contributions", "folded", "message"),
    [
        ([10, -5], set(), "seat 1: contribution cannot be negative"),
        ([10, 2.5], set(), "seat 1: contribution must be a whole number"),
        ([10], set(), "at least 2 seats"),
        ([10, 10], {0, 1}, "every seat folded"),
        ([10, 10], {2}, "folded seat 2 is not a seat"),
        ([30, 30, 10], {0, 1}, "came only from folded seats"),
    ],
)
def test_side_pots_reject(contributions, folded, message):
    with pytest.raises(ValueError, match=message):
        side_pots(contributions, folded)


# ---------------------------------------------------------------------------------------------------
# Showdown known answers: (board, holes, contributions, hi_lo, button, chip, expected payouts)

CASES = [
    # --- high only ---
    # Two aces and a pair of jacks vs one heart in the hand: the jacks win (no flush with one heart).
    ("Ah Kh 8h 3h 2c", ["Qh 5c 6d 9s", "Js Jd 4c 7s"], [20, 20], False, 1, 1, [0, 40]),
    # Four hearts in the hand make nothing; 2-2 in the hand with 2c on the board are trips.
    ("Th 2c 3d 7s 9c", ["Ah Kh Qh Jh", "2h 2d 5c 6c"], [50, 50], False, 1, 1, [0, 100]),
    # Sevens full of kings beat aces up and kings-queens two pair.
    ("Kh Kd 7c 4s 2d", ["Ac Ad 9h 9s", "7h 7d Jc Qc", "Qs Qh 3c 5h"], [30, 30, 30], False, 2, 1, [0, 90, 0]),
    # Quads (9 in the hand + three on the board) beat trips with ace-king.
    ("9s 9h 9d 5c 2h", ["As Kd Qc Jh", "9c 6h 3d 4s"], [25, 25], False, 0, 1, [0, 50]),
    # Same straight: the pot splits evenly.
    (STRAIGHT_BOARD, ["Tc 9c 3d 3h", "Td 9d 4s 4c"], [40, 40], False, 1, 1, [40, 40]),
    # Same straight, 85 with a folded blind: odd chip to the first tied seat left of the button.
    (STRAIGHT_BOARD, ["Tc 9c 3d 3h", "Td 9d 4s 4c", None], [40, 40, 5], False, 2, 1, [43, 42, 0]),
    (STRAIGHT_BOARD, ["Tc 9c 3d 3h", "Td 9d 4s 4c", None], [40, 40, 5], False, 0, 1, [42, 43, 0]),
    # Chip 5: 85 is 17 chips, 8 each and the odd 5-chip to seat 0 (left of the button on seat 2).
    (STRAIGHT_BOARD, ["Tc 9c 3d 3h", "Td 9d 4s 4c", None], [40, 40, 5], False, 2, 5, [45, 40, 0]),
    (STRAIGHT_BOARD, ["Tc 9c 3d 3h", "Td 9d 4s 4c", None], [40, 40, 5], False, 0, 5, [40, 45, 0]),
    # Three-way tie, 32: 10 each and two odd chips, one each, from the button's left (0, 1, then 2).
    (
        STRAIGHT_BOARD,
        ["Tc 9c 3d 3h", "Td 9d 4s 4c", "Th 9h 5s 5c", None],
        [10, 10, 10, 2],
        False,
        3,
        1,
        [11, 11, 10, 0],
    ),
    # Button on seat 1: the order is 2, 3 (folded), 0, 1, so seats 2 and 0 get the odd chips.
    (
        STRAIGHT_BOARD,
        ["Tc 9c 3d 3h", "Td 9d 4s 4c", "Th 9h 5s 5c", None],
        [10, 10, 10, 2],
        False,
        1,
        1,
        [11, 10, 11, 0],
    ),
    # Everybody folds to a bet of 100: 90 uncalled comes back, the 30 in the pot is his.
    (TRIPS_BOARD, ["Kd Kh 3c 4d", None, None], [100, 10, 10], False, 0, 1, [120, 0, 0]),
    # All-in for 30 wins against a bet of 80: 50 is uncalled and goes back to the bettor.
    (TRIPS_BOARD, ["Kd Kh 3c 4d", "Jd Jh 3s 4s"], [30, 80], False, 0, 1, [60, 50]),
    # Same, the bettor wins: he collects the 60 pot and his 50.
    (TRIPS_BOARD, ["Jd Jh 3s 4s", "Kd Kh 3c 4d"], [30, 80], False, 0, 1, [0, 110]),
    # Rule page pots 60 (A, B, C) and 60 (B, C): A best takes the main, B beats C for the side.
    (TRIPS_BOARD, ["Kd Kh 3c 4d", "Jd Jh 3s 4s", "9c 9d 5c 6d"], [20, 50, 50], False, 2, 1, [60, 60, 0]),
    # The all-in winner of the main pot cannot win the side pot; C beats B there.
    (TRIPS_BOARD, ["Kd Kh 3c 4d", "9c 9d 5c 6d", "Jd Jh 3s 4s"], [20, 50, 50], False, 2, 1, [60, 0, 60]),
    # The big stack wins everything he is eligible for: all of it.
    (TRIPS_BOARD, ["9c 9d 5c 6d", "Jd Jh 3s 4s", "Kd Kh 3c 4d"], [20, 50, 50], False, 2, 1, [0, 0, 120]),
    # Rule page 10, 5, 20, 10, 20: K trips (seat 1) win 25, J trips (3) win 20, 9 trips (4) win 20.
    (
        TRIPS_BOARD,
        ["Qh Qd 5h 6h", "Kd Kh 3c 4d", "Ah Ad 5s 6s", "Jd Jh 3s 4s", "9c 9d 5c 6d"],
        [10, 5, 20, 10, 20],
        False,
        4,
        1,
        [0, 25, 0, 20, 20],
    ),
    # Folded 100 in side pots: trips J (seat 3, all-in 30) 120, trips 9 (seat 0) 60, seat 1 alone 100.
    (
        TRIPS_BOARD,
        ["9c 9d 5c 6d", "Ah Ad 5s 6s", None, "Jd Jh 3s 4s"],
        [50, 100, 100, 30],
        False,
        0,
        1,
        [60, 100, 0, 120],
    ),
    # Tied straights all-in for 30 and 60 split the main 120; seat 1 takes the 90 side pot alone among
    # (1, 2, 3); trips K (2) beat a pair of aces (3) for the last 80.
    (
        STRAIGHT_BOARD,
        ["Tc 9c 3d 3h", "Td 9d 4s 4c", "Kc Kd 5s 6s", "Ah Ad 5c 6c"],
        [30, 60, 100, 100],
        False,
        3,
        1,
        [60, 150, 80, 0],
    ),
    # Four all-ins 10/20/30/40/40, the shortest stack best down to the deepest: 50, 40, 30, 20, 0.
    (
        TRIPS_BOARD,
        ["Kd Kh 3c 4d", "Jd Jh 3s 4s", "9c 9d 5c 6d", "Ah Ad 5s 6s", "Qh Qd 5h 6h"],
        [10, 20, 30, 40, 40],
        False,
        0,
        1,
        [50, 40, 30, 20, 0],
    ),
    # Reverse order: the deepest stack's kings win all five pots.
    (
        TRIPS_BOARD,
        ["Qh Qd 5h 6h", "Ah Ad 5s 6s", "9c 9d 5c 6d", "Jd Jh 3s 4s", "Kd Kh 3c 4d"],
        [10, 20, 30, 40, 40],
        False,
        0,
        1,
        [0, 0, 0, 0, 140],
    ),
    # Main 32 to seat 0's ace-high straight; side 31 tied by seats 1 and 2: the odd chip to seat 1
    # (left of the button on seat 0).
    (
        STRAIGHT_BOARD,
        ["As Ts 5s 6s", "Tc 9c 3d 3h", "Td 9d 4s 4c", None],
        [8, 21, 21, 13],
        False,
        0,
        1,
        [32, 16, 15, 0],
    ),
    # Button on seat 1: seat 2 is first left of it and gets the side pot's odd chip.
    (
        STRAIGHT_BOARD,
        ["As Ts 5s 6s", "Tc 9c 3d 3h", "Td 9d 4s 4c", None],
        [8, 21, 21, 13],
        False,
        1,
        1,
        [32, 15, 16, 0],
    ),
    # Chip 5: main 100 to seat 0; side 55 = 11 chips tied 6/5: 30 to seat 1 (first left of button 3).
    (
        STRAIGHT_BOARD,
        ["As Ts 5s 6s", "Tc 9c 3d 3h", "Td 9d 4s 4c", None],
        [25, 50, 50, 30],
        False,
        3,
        5,
        [100, 30, 25, 0],
    ),
    # Seats that are out of the hand with nothing in: zeros, and the rest settles as usual.
    (TRIPS_BOARD, [None, "Kd Kh 3c 4d", None, "Jd Jh 3s 4s"], [0, 40, 0, 40], False, 2, 1, [0, 80, 0, 0]),
    # --- hi/lo ---
    # Rule page quartering: pot 20, A best high, A and B tie low -> A 10 + 5 = 15, B 5.
    (QUARTER_BOARD, ["Ah 2h Kd Qs", "As 2s Tc Td"], [10, 10], True, 1, 1, [15, 5]),
    # Rule page: tied for both high and low in a 66 pot -> 33 each (not 34/32).
    (QUARTER_BOARD, ["Ah 2h 9c 9d", "As 2s 9h 9s"], [33, 33], True, 0, 1, [33, 33]),
    (QUARTER_BOARD, ["Ah 2h 9c 9d", "As 2s 9h 9s"], [33, 33], True, 1, 1, [33, 33]),
    # Tied both ways in 67 (a folded 1): split as a whole, the odd chip to seat 0 (left of button 2).
    (QUARTER_BOARD, ["Ah 2h 9c 9d", "As 2s 9h 9s", None], [33, 33, 1], True, 2, 1, [34, 33, 0]),
    # PokerKit's note: 25 each, trips K high, A-2 lows tie: 75 -> high 38, low 37 = 19/18 from seat 0.
    (QUARTER_BOARD, ["Ah 2h 9c 9d", "As 2s Tc Td", "Kd Qs Jc Jd"], [25, 25, 25], True, 2, 1, [19, 18, 38]),
    # Board with two low cards: nobody has a low, the high hand scoops.
    ("Kc Qd 9h 8s 2c", ["Ah 2h 3c 4d", "Kd Kh 5c 6c"], [40, 40], True, 0, 1, [0, 80]),
    # One hand makes the 6-high straight and the best low: it scoops both halves.
    (LOW_BOARD, ["Ah 3h 5c 5d", "Kd Kh Qc Jd"], [20, 20], True, 0, 1, [40, 0]),
    # Low to A-3 (6-4-3-2-A), high to trips K: 20/20.
    (LOW_BOARD, ["Ah 3h Qs Qd", "Kd Kh Jc Td"], [20, 20], True, 0, 1, [20, 20]),
    # 45 with a folded 5: the odd chip of the halves goes to the high half (23 high, 22 low).
    (LOW_BOARD, ["Ah 3h Qs Qd", "Kd Kh Jc Td", None], [20, 20, 5], True, 2, 1, [22, 23, 0]),
    # Chip 5: 45 = 9 chips: high 5 chips (25), low 4 chips (20).
    (LOW_BOARD, ["Ah 3h Qs Qd", "Kd Kh Jc Td", None], [20, 20, 5], True, 2, 5, [20, 25, 0]),
    # Two A-3 lows tie, trips K high: 90 -> 45 high; 45 low = 23 (seat 0, left of button 2) + 22.
    (LOW_BOARD, ["Ah 3h Qs Qd", "As 3s Jh Jd", "Kd Kh Tc Td"], [30, 30, 30], True, 2, 1, [23, 22, 45]),
    (LOW_BOARD, ["Ah 3h Qs Qd", "As 3s Jh Jd", "Kd Kh Tc Td"], [30, 30, 30], True, 0, 1, [22, 23, 45]),
    # Short all-in has the best low: main 30 = 15/15; side 80 between trips K and 8-7-6-4-2 low: 40/40.
    (LOW_BOARD, ["Ah 3h Qs Qd", "Kd Kh Tc Td", "7s 8s Jh Jd"], [10, 50, 50], True, 2, 1, [15, 55, 40]),
    # The only low is all-in for 10: the side pot has no qualifying low and goes whole to the high.
    (LOW_BOARD, ["Ah 3h Qs Qd", "Kd Kh Tc Td", "Jc Jh 8h 9d"], [10, 50, 50], True, 2, 1, [15, 95, 0]),
    # Counterfeited: A-2 pair the board's ace and deuce, no low; 3-4 make the wheel, low and high.
    ("Ah 2c 5d Kh Qs", ["As 2s 9c 9d", "3c 4c Jh Jd"], [30, 30], True, 0, 1, [0, 60]),
    # The ace plays in both hands: trips K with A kicker and 7-4-3-2-A: scoop.
    ("2c 3d 7h Kd Ks", ["Ac 4s Kh 9s", "Qc Qh 5s 6s"], [25, 25], True, 0, 1, [50, 0]),
    # 7-5-4-3-2 beats 7-6-3-2-A for low; trips K win high: 20/20.
    ("2c 3d 7h Kd Qs", ["5s 4h Jc Jd", "Ac 6h Kc Kh"], [20, 20], True, 0, 1, [20, 20]),
    # 6-5-4-3-2 (also a straight) beats 7-4-3-2-A for low; quad kings beat the straight for high.
    ("2c 3d 4h Kd Ks", ["5s 6h Jc Jd", "Ac 7s Kc Kh"], [20, 20], True, 0, 1, [20, 20]),
    # Quartering with an odd chip: 30 -> high 15 to A; low 15 tied = 8 + 7, the 8 left of the button.
    (QUARTER_BOARD, ["Ah 2h Kd Qs", "As 2s Tc Td", None], [10, 10, 10], True, 1, 1, [23, 7, 0]),
    (QUARTER_BOARD, ["Ah 2h Kd Qs", "As 2s Tc Td", None], [10, 10, 10], True, 0, 1, [22, 8, 0]),
    # High tied (T-high straights), low to A alone: 50 -> high 25 = 13/12, low 25 to A.
    ("6s 7d 8c 2h Kc", ["9c Ts Ah 3h", "9d Td 4s 5s"], [25, 25], True, 1, 1, [38, 12]),
    ("6s 7d 8c 2h Kc", ["9c Ts Ah 3h", "9d Td 4s 5s"], [25, 25], True, 0, 1, [37, 13]),
    # Hi/lo with an uncalled bet: 40 back to the bettor, the 40 pot halves.
    (LOW_BOARD, ["Ah 3h Qs Qd", "Kd Kh Jc Td"], [20, 60], True, 0, 1, [20, 60]),
    # Four all-ins 5/10/15/20: pot 20 = 10 high (trips K) + 10 low; pot 15 = 8 high + 7 low
    # (8-7-6-4-2); pot 10 has no low among seats 2-3: 10 high; pot 5: seat 3 alone.
    (
        LOW_BOARD,
        ["Ah 3h Qs Qd", "7s 8s Jh Jd", "Tc Td Qh Jc", "Kd Kh Ts 9s"],
        [5, 10, 15, 20],
        True,
        3,
        1,
        [10, 7, 0, 33],
    ),
    # Chip 5, low tied: 35 = 7 chips: high 4 chips (20) to A; low 3 chips tied: 10 + 5 from the button's left.
    (QUARTER_BOARD, ["Ah 2h Kd Qs", "As 2s Tc Td", None], [15, 15, 5], True, 2, 5, [30, 5, 0]),
    (QUARTER_BOARD, ["Ah 2h Kd Qs", "As 2s Tc Td", None], [15, 15, 5], True, 0, 5, [25, 10, 0]),
    # A folded hand with the best low does not play: the high hand scoops.
    (LOW_BOARD, [None, "Kd Kh Jc Td", "Qc Qh Jh Jd"], [20, 40, 40], True, 0, 1, [0, 100, 0]),
]


@pytest.mark.parametrize(("board", "holes", "contributions", "hi_lo", "button", "chip", "expected"), CASES)
def test_showdown_known_answers(board, holes, contributions, hi_lo, button, chip, expected):
    result = showdown(board, holes, contributions, hi_lo=hi_lo, button=button, chip=chip)
    assert result == expected
    assert sum(result) == sum(contributions)


def test_known_answer_table_size():
    # The issue asks for the rule page's examples plus at least 40 more.
    assert len(CASES) >= 50  # 53 rows, a few of them rule-page examples


def test_explanation_steps_name_pots_and_winners():
    ruling = settle(QUARTER_BOARD, ["Ah 2h Kd Qs", "As 2s Tc Td", None], [10, 10, 10], hi_lo=True, button=1)
    text = [str(s) for s in ruling.steps]
    # Seats as the table numbers them, from 1; hand names in words.
    assert text[0] == "Main pot 30: seats 1 and 2 may win it."
    assert "High: seat 1 with three of a kind (Kd Kc Ks Ah 8h)." in text
    assert "Low: seats 1 and 2 tie with 8-4-3-2-A." in text
    assert "Odd chips go one each clockwise from the first seat left of the button." in text
    assert text[-2:] == ["Seat 1 takes 23.", "Seat 2 takes 7."]
    # Templates are fixed strings; the numbers and names sit in the parameters.
    assert all("{" in s.template or not s.params for s in ruling.steps)
    returned = settle(TRIPS_BOARD, ["Kd Kh 3c 4d", "Jd Jh 3s 4s"], [30, 80]).steps
    assert str(returned[0]) == "Seat 2 bet 50 that nobody called: it goes back."


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"holes": ["Ah 2h Kd Qs"], "contributions": [10, 10]}, "1 hands for 2 contributions"),
        ({"holes": ["Ah 2h Kd Qs"] + [None] * 10, "contributions": [1] * 11}, "2 to 10 players"),
        ({"contributions": [10, -10]}, "cannot be negative"),
        ({"chip": 0}, "smallest chip must be a positive"),
        ({"chip": 5, "contributions": [10, 12]}, "12 is not a multiple of the smallest chip 5"),
        ({"button": 2}, "button seat 2 is not a seat"),
        ({"board": "3c 4d 8h Kc"}, "board has 5 cards, got 4"),
        ({"holes": ["Ah 2h Kd", "As 2s Tc Td"]}, "seat 0: an Omaha hand has 4 hole cards, got 3"),
        ({"holes": ["Ah 2h Kd Qs", "As 2s Tc Kc"]}, "card Kc is dealt twice"),
        ({"holes": ["Ah 2h Kd Qs", "As 2s Tc Ah"]}, "card Ah is dealt twice"),
        ({"holes": [None, None]}, "every seat folded"),
    ],
)
def test_showdown_rejects_impossible_input(kwargs, message):
    args = {"board": QUARTER_BOARD, "holes": ["Ah 2h Kd Qs", "As 2s Tc Td"], "contributions": [10, 10]}
    args |= kwargs
    with pytest.raises(ValueError, match=message):
        showdown(args.pop("board"), args.pop("holes"), args.pop("contributions"), **args)


# ---------------------------------------------------------------------------------------------------
# Properties


def _brute_low(hole, board):
    """Straight from the rule page: every 2 + 3, five different ranks all 8 or lower, ace low."""
    best = None
    for two in combinations(parse_cards(hole), 2):
        for three in combinations(parse_cards(board), 3):
            ranks = sorted((1 if c.rank == 14 else c.rank for c in two + three), reverse=True)
            if len(set(ranks)) == 5 and ranks[0] <= 8 and (best is None or tuple(ranks) < best):
                best = tuple(ranks)
    return best


@settings(max_examples=300)
@given(st.randoms(use_true_random=False))
def test_best_low_is_the_rule_page_low(rng):
    deck = Deck(rng)
    hole, board = deck.draw(4), deck.draw(5)
    low = best_low(hole, board)
    assert low == _brute_low(hole, board)
    if low is not None:
        assert len(set(low)) == 5 and all(1 <= r <= 8 for r in low) and list(low) == sorted(low, reverse=True)


@st.composite
def hands(draw):
    """A random table: 2-10 seats, cards, contributions (with ties and all-ins) and folds, such that
    the chips could come from a real hand (a live seat has the top contribution)."""
    rng = draw(st.randoms(use_true_random=False))
    n = draw(st.integers(2, 10))
    levels = draw(st.lists(st.integers(0, 60), min_size=1, max_size=4))
    contributions = [draw(st.sampled_from(levels)) for _ in range(n)]
    folded = {seat for seat in range(n) if draw(st.booleans()) and draw(st.booleans())}
    top = max(contributions)
    live_top = [seat for seat in range(n) if contributions[seat] == top]
    folded.discard(draw(st.sampled_from(live_top)))
    chip = draw(st.sampled_from([1, 1, 5]))
    contributions = [c * chip for c in contributions]
    deck = Deck(rng)
    board = deck.draw(5)
    holes = [None if seat in folded else deck.draw(4) for seat in range(n)]
    return board, holes, contributions, draw(st.booleans()), draw(st.integers(0, n - 1)), chip


@settings(max_examples=300)
@given(hands())
def test_showdown_properties(table):
    board, holes, contributions, hi_lo, button, chip = table
    ruling = settle(board, holes, contributions, hi_lo=hi_lo, button=button, chip=chip)
    paid = ruling.payouts
    # Chips are conserved.
    assert sum(paid) == sum(contributions)
    assert all(p % chip == 0 and p >= 0 for p in paid)
    effective = [c - r for c, r in zip(contributions, ruling.returned, strict=True)]
    for seat in range(len(holes)):
        # A folded seat never collects more than its uncalled excess.
        if holes[seat] is None:
            assert paid[seat] == ruling.returned[seat]
        # A player never wins more from an opponent than he put in himself.
        assert paid[seat] - ruling.returned[seat] <= sum(min(effective[seat], c) for c in effective)
    # Every pot is paid out exactly, only to its eligible seats.
    for pot in ruling.pots:
        assert sum(a for _, a in pot.shares) == pot.pot.amount
        assert {s for s, _ in pot.shares} <= set(pot.pot.eligible)
    assert showdown(board, holes, contributions, hi_lo=hi_lo, button=button, chip=chip) == list(paid)


def test_showdown_is_reproducible_with_a_seed():
    deck = Deck(random.Random(3))
    board = deck.draw(5)
    holes = [deck.draw(4) for _ in range(6)]
    first = showdown(board, holes, [10, 20, 30, 40, 50, 60], hi_lo=True, button=4)
    assert first == showdown(board, holes, [10, 20, 30, 40, 50, 60], hi_lo=True, button=4)


def test_high_with_flush_draws_is_best_two_plus_three():
    """Flushes are rare in random deals; here every deal has three or more board cards of one suit and
    two or more of it in the hand, checked against all 60 two-plus-three hands."""
    from trainer.engine.evaluator import omaha_strength, strength5

    rng = random.Random(11)
    for _ in range(3000):
        suit = rng.randrange(4)
        suited = [i for i in range(52) if i % 4 == suit]
        other = [i for i in range(52) if i % 4 != suit]
        on_board = rng.randint(3, 5)
        in_hand = rng.randint(2, 4)
        picked = rng.sample(suited, on_board + in_hand)
        fill = rng.sample(other, 9 - on_board - in_hand)
        board = picked[:on_board] + fill[: 5 - on_board]
        hole = picked[on_board:] + fill[5 - on_board :]
        rng.shuffle(board)
        rng.shuffle(hole)
        expected = max(strength5(*h, *b) for h in combinations(hole, 2) for b in combinations(board, 3))
        assert omaha_strength(hole, board) == expected
