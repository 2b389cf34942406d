"""The evaluator against every one of the 2,598,960 five-card hands, and spot checks."""

import random
from collections import Counter
from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from trainer.engine.cards import FULL_DECK, parse_cards
from trainer.engine.evaluator import (
    CLASS_COUNT,
    Category,
    best_hand,
    best_omaha_hand,
    category_of,
    omaha_strength,
    strength5,
    strength6,
)

EXPECTED_FIVE = {
    Category.ROYAL_FLUSH: 4,
    Category.STRAIGHT_FLUSH: 36,
    Category.FOUR_OF_A_KIND: 624,
    Category.FULL_HOUSE: 3744,
    Category.FLUSH: 5108,
    Category.STRAIGHT: 10200,
    Category.THREE_OF_A_KIND: 54912,
    Category.TWO_PAIR: 123552,
    Category.PAIR: 1098240,
    Category.HIGH_CARD: 1302540,
}


def _naive_key(cards):
    """An independent, slow ranking: (category order, tie-break ranks) straight from the rules."""
    ranks = sorted((c.rank for c in cards), reverse=True)
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    flush = len({c.suit for c in cards}) == 1
    distinct = sorted(set(ranks), reverse=True)
    straight_top = None
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            straight_top = distinct[0]
        elif distinct == [14, 5, 4, 3, 2]:
            straight_top = 5
    if straight_top and flush:
        return (8, straight_top)
    if groups[0][1] == 4:
        return (7, groups[0][0], groups[1][0])
    if groups[0][1] == 3 and groups[1][1] == 2:
        return (6, groups[0][0], groups[1][0])
    if flush:
        return (5, *ranks)
    if straight_top:
        return (4, straight_top)
    if groups[0][1] == 3:
        return (3, groups[0][0], *[r for r in ranks if r != groups[0][0]])
    if groups[0][1] == 2 and groups[1][1] == 2:
        return (2, groups[0][0], groups[1][0], groups[2][0])
    if groups[0][1] == 2:
        return (1, groups[0][0], *[r for r in ranks if r != groups[0][0]])
    return (0, *ranks)


def test_every_five_card_hand():
    counts = Counter()
    key_of_strength = {}
    idx = range(52)
    strengths = [0] * 7463
    for a, b, c, d, e in combinations(idx, 5):
        strengths[strength5(a, b, c, d, e)] += 1
    for s, n in enumerate(strengths):
        if n:
            counts[category_of(s)] += n
    assert counts == EXPECTED_FIVE
    assert sum(counts.values()) == 2_598_960
    # Every one of the 7,462 classes occurs, and ace-king high (no pair) hands number 167,280.
    assert sum(1 for n in strengths if n) == CLASS_COUNT
    # Ordering: the strengths sort exactly as the naive rule-book key sorts, one class per distinct key.
    rng = random.Random(5)
    for a, b, c, d, e in combinations(idx, 5):
        if rng.random() < 0.01:
            cards = [FULL_DECK[i] for i in (a, b, c, d, e)]
            key_of_strength.setdefault(strength5(a, b, c, d, e), set()).add(_naive_key(cards))
    assert all(len(keys) == 1 for keys in key_of_strength.values())
    ordered = [next(iter(key_of_strength[s])) for s in sorted(key_of_strength)]
    assert ordered == sorted(ordered)


def test_ace_king_count():
    ak = 0
    for five in combinations(range(52), 5):
        s = strength5(*five)
        if category_of(s) is Category.HIGH_CARD:
            ranks = {i // 4 + 2 for i in five}
            ak += 14 in ranks and 13 in ranks
    assert ak == 167_280


@given(st.lists(st.sampled_from(range(52)), min_size=6, max_size=6, unique=True))
def test_six_cards_is_best_of_six_fives(six):
    assert strength6(*six) == max(strength5(*five) for five in combinations(six, 5))


@given(st.lists(st.sampled_from(range(52)), min_size=9, max_size=9, unique=True))
def test_omaha_is_best_two_plus_three(nine):
    hole, board = nine[:4], nine[4:]
    expected = max(strength5(*h, *b) for h in combinations(hole, 2) for b in combinations(board, 3))
    assert omaha_strength(hole, board) == expected
    hand = best_omaha_hand([FULL_DECK[i] for i in hole], [FULL_DECK[i] for i in board])
    assert hand.strength == expected


def test_known_hands():
    cases = {
        "As Ks Qs Js Ts": Category.ROYAL_FLUSH,
        "5d 4d 3d 2d Ad": Category.STRAIGHT_FLUSH,
        "9c 9d 9h 9s 2c": Category.FOUR_OF_A_KIND,
        "Ah 2d 3c 4s 5h": Category.STRAIGHT,
        "Ah Kd Qc Js 9h": Category.HIGH_CARD,
    }
    for text, category in cases.items():
        assert best_hand(parse_cards(text)).category is category
    wheel = best_hand(parse_cards("Ah 2d 3c 4s 5h"))
    six_high = best_hand(parse_cards("6h 2d 3c 4s 5h"))
    assert wheel < six_high
    # Suits never break ties.
    assert best_hand(parse_cards("As Kd 9c 7h 3s")) == best_hand(parse_cards("Ac Kh 9d 7s 3c"))
    # Omaha: four hearts in hand and one on board is no flush.
    omaha = best_omaha_hand(parse_cards("Ah Kh Qh Jh"), parse_cards("Th 2c 3d 7s 9c"))
    assert omaha.category is not Category.FLUSH


def test_omaha_board_rows_built_and_reused_give_the_best_two_plus_three(monkeypatch):
    """The Omaha high path keeps one row per board's ranks: the hand that builds it and the hands that
    reuse it (other holes, other suits on the same ranks) all get the best 2 + 3, paired and trip
    boards included."""
    from trainer.engine import evaluator

    monkeypatch.setattr(evaluator, "_BY_BOARD", {})
    rng = random.Random(11)
    boards = []
    for _ in range(150):
        ranks = [rng.randrange(13) for _ in range(3)]
        ranks += [rng.choice(ranks), rng.randrange(13)]  # often paired, sometimes trips or two pair
        deck = list(range(52))
        rng.shuffle(deck)
        board = []
        for r in ranks:
            card = next((c for c in deck if c // 4 == r), None)
            if card is not None:
                deck.remove(card)
                board.append(card)
        if len(board) == 5:
            boards.append((board, deck))
    for board, deck in boards:
        for _ in range(4):  # the first builds the row, the others reuse it
            hole = rng.sample(deck, 4)
            expected = max(strength5(*h, *b) for h in combinations(hole, 2) for b in combinations(board, 3))
            assert omaha_strength(hole, board) == expected
    assert 0 < len(evaluator._BY_BOARD) <= len(boards)
