"""Russian poker engine under the default (CIS) rules: categories, qualification, settlement.

Every expected amount below is worked out by hand from shared/rules/russian-poker.md (pay tables:
bet = 2 x ante, bet odds 100/50/20/7/5/4/3/2/1/1, bonus 1000/500/300/100/50/25 on 5 cards and
300/150/100/30/15/8 on 6, buys 1 ante each), not copied from the engine's output.
"""

from collections import Counter
from math import comb, prod

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.engine import evaluator
from trainer.engine.cards import FULL_DECK, Card, format_cards, parse_cards
from trainer.engine.russian_poker import (
    Category,
    dealer_qualifies,
    evaluate,
    load_rules,
    settle,
)

D_AK = "As Kd 7c 5h 2d"  # ace-king: the lowest qualifying hand
D_NG = "Qs Jd 8c 4d 2s"  # queen high: no game
D_KK = "Ks Kd 7c 5h 2d"  # pair of kings
D_J = "Js 8d 7c 4h 3d"  # jack high: no game, for buying the game

# (id, player, dealer, ante, keyword arguments, (ante, bet, bonus, fees, net))
CASES = [
    # Each bet pay-table row, won against a dealer with ace-king, ante 10 (bet 20) ...
    ("royal-10", "Ah Kh Qh Jh Th", D_AK, 10, {}, (0, 2000, 0, 0, 2000)),
    ("straight-flush-10", "9s 8s 7s 6s 5s", D_AK, 10, {}, (0, 1000, 0, 0, 1000)),
    ("quads-10", "Qc Qd Qh Qs 3c", D_AK, 10, {}, (0, 400, 0, 0, 400)),
    ("full-house-10", "Jc Jd Jh 4c 4s", D_AK, 10, {}, (0, 140, 0, 0, 140)),
    ("flush-10", "Kc Jc 9c 6c 3c", D_AK, 10, {}, (0, 100, 0, 0, 100)),
    ("straight-10", "Th 9d 8c 7s 6h", D_AK, 10, {}, (0, 80, 0, 0, 80)),
    ("trips-10", "9c 9d 9h Qc 3s", D_AK, 10, {}, (0, 60, 0, 0, 60)),
    ("two-pair-10", "Jh Jd 4s 4c 9h", D_AK, 10, {}, (0, 40, 0, 0, 40)),
    ("pair-10", "3c 3d Qh Jc 9s", D_AK, 10, {}, (0, 20, 0, 0, 20)),
    ("ace-king-10", "Ac Kc Qd 9s 3h", D_AK, 10, {}, (0, 20, 0, 0, 20)),
    # ... and ante 100 (bet 200): the rule page's "win on ante 100" column.
    ("royal-100", "Ah Kh Qh Jh Th", D_AK, 100, {}, (0, 20000, 0, 0, 20000)),
    ("straight-flush-100", "9s 8s 7s 6s 5s", D_AK, 100, {}, (0, 10000, 0, 0, 10000)),
    ("quads-100", "Qc Qd Qh Qs 3c", D_AK, 100, {}, (0, 4000, 0, 0, 4000)),
    ("full-house-100", "Jc Jd Jh 4c 4s", D_AK, 100, {}, (0, 1400, 0, 0, 1400)),
    ("flush-100", "Kc Jc 9c 6c 3c", D_AK, 100, {}, (0, 1000, 0, 0, 1000)),
    ("straight-100", "Th 9d 8c 7s 6h", D_AK, 100, {}, (0, 800, 0, 0, 800)),
    ("trips-100", "9c 9d 9h Qc 3s", D_AK, 100, {}, (0, 600, 0, 0, 600)),
    ("two-pair-100", "Jh Jd 4s 4c 9h", D_AK, 100, {}, (0, 400, 0, 0, 400)),
    ("pair-100", "3c 3d Qh Jc 9s", D_AK, 100, {}, (0, 200, 0, 0, 200)),
    ("ace-king-100", "Ac Kc Qd 9s 3h", D_AK, 100, {}, (0, 200, 0, 0, 200)),
    # Bonus, 5 cards, dealer without a game: ante 1 to 1, bet returned, bonus by the 5-card column.
    ("bonus5-royal", "Ah Kh Qh Jh Th", D_NG, 10, {"bonus": 10}, (10, 0, 10000, 0, 10010)),
    ("bonus5-straight-flush", "9h 8h 7h 6h 5h", D_NG, 10, {"bonus": 10}, (10, 0, 5000, 0, 5010)),
    ("bonus5-quads", "Kc Kd Kh Ks 3c", D_NG, 10, {"bonus": 10}, (10, 0, 3000, 0, 3010)),
    ("bonus5-full-house", "Jc Jh Js 4c 4s", D_NG, 10, {"bonus": 10}, (10, 0, 1000, 0, 1010)),
    ("bonus5-flush", "Ac Tc 9c 6c 3c", D_NG, 10, {"bonus": 10}, (10, 0, 500, 0, 510)),
    ("bonus5-straight", "Th 9d 8s 7s 6h", D_NG, 10, {"bonus": 10}, (10, 0, 250, 0, 260)),
    ("bonus5-trips-loses", "9c 9d 9h Kc 3s", D_NG, 10, {"bonus": 10}, (10, 0, -10, 0, 0)),
    ("bonus5-example-2", "6h 7h 8h 9h Th", D_NG, 25, {"bonus": 5}, (25, 0, 2500, 0, 2525)),
    # Bonus, 6 cards (a bought sixth card, fee 1 ante), dealer with ace-king beaten.
    ("bonus6-royal", "Ah Kh Qh Jh Th 3c", D_AK, 10, {"bonus": 10}, (0, 2000, 3000, -10, 4990)),
    ("bonus6-straight-flush", "9s 8s 7s 6s 5s 2c", D_AK, 10, {"bonus": 10}, (0, 1000, 1500, -10, 2490)),
    ("bonus6-quads", "Qc Qd Qh Qs 3c 4d", D_AK, 10, {"bonus": 10}, (0, 400, 1000, -10, 1390)),
    ("bonus6-full-house", "Jc Jd Jh 4c 4s 9d", D_AK, 10, {"bonus": 10}, (0, 140, 300, -10, 430)),
    ("bonus6-flush-example-3", "Kc Jc 9c 6c 3c 2h", D_AK, 10, {"bonus": 10}, (0, 100, 150, -10, 240)),
    ("bonus6-straight", "Th 9d 8c 7s 6h 2c", D_AK, 10, {"bonus": 10}, (0, 80, 80, -10, 150)),
    ("bonus6-pair-loses", "3c 3d Qh Jc 9s 6h", D_AK, 10, {"bonus": 10}, (0, 20, -10, -10, 0)),
    ("sixth-card-makes-pair", "9h 7d 5c 3s 2c 9c", D_AK, 10, {}, (0, 20, 0, -10, 10)),
    # The dealer's hand is higher: ante and bet lost; the bonus still pays on its own table.
    ("dealer-pair-beats-pair", "Qc Qd 9h 6s 3c", D_KK, 10, {}, (-10, -20, 0, 0, -30)),
    ("dealer-pair-beats-high-card", "Qc Jd 9h 6s 3c", D_KK, 10, {}, (-10, -20, 0, 0, -30)),
    ("dealer-pair-beats-ace-king", "Ac Kc Qd 9s 3h", D_KK, 10, {}, (-10, -20, 0, 0, -30)),
    ("dealer-wins-bonus-lost", "Qc Qd 9h 6s 3c", D_KK, 10, {"bonus": 5}, (-10, -20, -5, 0, -35)),
    ("dealer-wins-ante-25", "Qc Qd 9h 6s 3c", D_KK, 25, {}, (-25, -50, 0, 0, -75)),
    ("dealer-ace-king-beats-ace-king", "Ac Kc 6d 5s 3h", D_AK, 10, {}, (-10, -20, 0, 0, -30)),
    (
        "dealer-flush-bonus-straight",
        "Th 9d 8c 7h 6h",
        "Ks Qs 9s 6s 2s",
        10,
        {"bonus": 10},
        (-10, -20, 250, 0, 220),
    ),
    ("dealer-wins-after-exchange", "Qc Qd 9h 6s 3c", D_KK, 10, {"exchanges": 1}, (-10, -20, 0, -10, -40)),
    # Equal hands: push.
    ("tie-example-4", "8h 8d Kc 7s 2c", "8s 8c Kd 7h 2d", 50, {}, (0, 0, 0, 0, 0)),
    ("tie-ace-king", "Ah Kc 7d 5c 2h", D_AK, 10, {}, (0, 0, 0, 0, 0)),
    ("tie-straight-bonus", "Th 9d 8c 7s 6h", "Ts 9c 8d 7h 6c", 10, {"bonus": 10}, (0, 0, 250, 0, 250)),
    ("flush-kicker-decides", "Ah Jh 9h 6h 3h", "Ac Jc 9c 6c 2c", 10, {}, (0, 100, 0, 0, 100)),
    # Fold: the ante is lost, and by default the bonus; buys are never returned.
    ("fold-example-5", "9h 7d 5c 3s 2c", D_AK, 20, {"folded": True}, (-20, 0, 0, 0, -20)),
    ("fold-with-bonus", "9h 7d 5c 3s 2c", D_AK, 10, {"folded": True, "bonus": 10}, (-10, 0, -10, 0, -20)),
    (
        "fold-straight-bonus-lost",
        "Th 9d 8c 7s 6h",
        D_AK,
        10,
        {"folded": True, "bonus": 5},
        (-10, 0, -5, 0, -15),
    ),
    (
        "fold-after-exchange",
        "9h 7d 5c 3s 2c",
        D_AK,
        10,
        {"folded": True, "exchanges": 1},
        (-10, 0, 0, -10, -20),
    ),
    ("fold-after-sixth-card", "9h 7d 5c 3s 2c 4h", D_AK, 10, {"folded": True}, (-10, 0, 0, -10, -20)),
    # No game: the ante is paid 1 to 1 and the bet returned, whatever the player holds.
    ("no-game-pair", "3c 3d Qh Jc 9s", D_NG, 10, {}, (10, 0, 0, 0, 10)),
    ("no-game-high-card", "9h 7d 5c 3s 2c", D_NG, 10, {}, (10, 0, 0, 0, 10)),
    ("no-game-royal-no-bonus", "Ah Kh Qh Jh Th", D_NG, 10, {}, (10, 0, 0, 0, 10)),
    ("no-game-after-exchange", "3c 3d Qh Jc 9s", D_NG, 10, {"exchanges": 1}, (10, 0, 0, -10, 0)),
    ("no-game-ante-40", "3c 3d Qh Jc 9s", D_NG, 40, {}, (40, 0, 0, 0, 40)),
    # Buying the game (fee 1 ante): the dealer swaps his highest card (Js) for the card drawn.
    ("buy-game-player-wins", "Qc Qd 9h 6s 3c", D_J, 10, {"buy_game_card": "8s"}, (0, 20, 0, -10, 10)),
    ("buy-game-dealer-wins", "5c 5s Ah 9d 2h", D_J, 10, {"buy_game_card": "8s"}, (-10, -20, 0, -10, -40)),
    ("buy-game-tie", "8c 8h 7d 4s 3c", D_J, 10, {"buy_game_card": "8s"}, (0, 0, 0, -10, -10)),
    ("buy-game-fails", "Qc Qd 9h 6s 3c", D_J, 10, {"buy_game_card": "2c"}, (10, 0, 0, -10, 0)),
    ("buy-game-ace-without-king", "Qc Qd 9h 6s 3c", D_J, 10, {"buy_game_card": "Ac"}, (10, 0, 0, -10, 0)),
    (
        "buy-game-straight-bonus",
        "Th 9d 8c 7s 6h",
        D_J,
        10,
        {"buy_game_card": "8s", "bonus": 10},
        (0, 80, 250, -10, 320),
    ),
    (
        "buy-game-after-exchange",
        "Qc Qd 9h 6s 3c",
        D_J,
        10,
        {"buy_game_card": "8s", "exchanges": 1},
        (0, 20, 0, -20, 0),
    ),
]


@pytest.mark.parametrize(
    ("player", "dealer", "ante", "kwargs", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_settlement_known_answers(player, dealer, ante, kwargs, expected):
    s = settle(player, dealer, ante, **kwargs)
    assert (s.ante, s.bet, s.bonus, s.fees, s.net) == expected
    assert s.insurance == s.super_bet == s.capped == 0
    assert str(s.steps[-1]) == f"Net result: {expected[4]}."


def test_at_least_sixty_known_answers():
    assert len(CASES) >= 60


def test_buy_game_replaces_highest_and_reports_it():
    s = settle("Qc Qd 9h 6s 3c", D_J, 10, buy_game_card="8s")
    assert [str(c) for c in s.replaced] == ["Js", "8s"]
    assert s.dealer_qualifies and s.dealer_hand.category is Category.PAIR
    assert format_cards(sorted(s.dealer_hand.cards)) == format_cards(sorted(parse_cards("8d 7c 4h 3d 8s")))
    assert any("replaces his highest card Js with 8s" in str(x) for x in s.steps)


def test_ace_king_after_buying_is_still_no_game_when_the_ace_is_replaced():
    # Highest card replaced: an ace-high dealer loses his ace, so a king drawn cannot make ace-king.
    s = settle("Qc Qd 9h 6s 3c", "As Jd 8c 4d 2s", 10, buy_game_card="Kc")
    assert not s.dealer_qualifies and s.ante == 10 and s.replaced[0] == parse_cards("As")[0]


ERRORS = [
    ("player-4-cards", ("9h 7d 5c 3s", D_AK, 10), {}, "5 cards, or 6"),
    ("player-7-cards", ("9h 7d 5c 3s 2c 4h 6d", D_AK, 10), {}, "5 cards, or 6"),
    ("dealer-4-cards", ("9h 7d 5c 3s 2c", "As Kd 7c 5h", 10), {}, "dealer has 5 cards"),
    ("duplicate-across-hands", ("As 7d 5c 3s 2c", D_AK, 10), {}, "As is dealt twice"),
    ("duplicate-buy-card", ("Qc Qd 9h 6s 3c", D_J, 10), {"buy_game_card": "Qc"}, "Qc is dealt twice"),
    ("ante-zero", ("9h 7d 5c 3s 2c", D_AK, 0), {}, "ante must be"),
    ("ante-negative", ("9h 7d 5c 3s 2c", D_AK, -10), {}, "ante must be"),
    ("ante-not-whole", ("9h 7d 5c 3s 2c", D_AK, 2.5), {}, "ante must be"),
    ("bonus-negative", ("9h 7d 5c 3s 2c", D_AK, 10), {"bonus": -1}, "bonus must be"),
    ("buy-game-dealer-qualified", ("Qc Qd 9h 6s 3c", D_AK, 10), {"buy_game_card": "8s"}, "no game to buy"),
    ("buy-game-after-fold", ("Qc Qd 9h 6s 3c", D_J, 10), {"buy_game_card": "8s", "folded": True}, "folded"),
    ("two-exchanges", ("Qc Qd 9h 6s 3c", D_AK, 10), {"exchanges": 2}, "at most 1 exchange"),
    ("exchange-and-sixth", ("Qc Qd 9h 6s 3c 4h", D_AK, 10), {"exchanges": 1}, "alternatives"),
    ("bad-card", ("Qc Qd 9h 6s 1c", D_AK, 10), {}, "bad card '1c'"),
]


@pytest.mark.parametrize(("args", "kwargs", "message"), [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS])
def test_illegal_input_raises_clear_value_error(args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        settle(*args, **kwargs)


# Categories and ordering


@pytest.mark.parametrize(
    ("cards", "category"),
    [
        ("Ah Kh Qh Jh Th", Category.ROYAL_FLUSH),
        ("5d 4d 3d 2d Ad", Category.STRAIGHT_FLUSH),
        ("Ac Ad As Ah 2c", Category.FOUR_OF_A_KIND),
        ("2c 2d 2s Ah Ac", Category.FULL_HOUSE),
        ("Ac Jc 9c 6c 3c", Category.FLUSH),
        ("Ac 2d 3c 4h 5s", Category.STRAIGHT),
        ("7c 7d 7s Kh 2c", Category.THREE_OF_A_KIND),
        ("7c 7d Ks Kh 2c", Category.TWO_PAIR),
        ("Ac Ad Ks Qh 2c", Category.PAIR),
        ("Ac Kd 4s 3h 2c", Category.ACE_KING),
        ("Ac Qd Js 9h 8c", Category.HIGH_CARD),
        ("Kc Qd Js 9h 8c", Category.HIGH_CARD),
        ("Ac Kd 4s 3h 2c 7d", Category.ACE_KING),
        ("Ac Kd 4s 3h 2c 3d", Category.PAIR),
        ("Ac Kd Qs Jh 2c Td", Category.STRAIGHT),
    ],
)
def test_categories(cards, category):
    assert evaluate(cards).category is category


def test_category_values_are_the_issue_api():
    assert [c.value for c in Category] == [
        "royal_flush",
        "straight_flush",
        "four_of_a_kind",
        "full_house",
        "flush",
        "straight",
        "three_of_a_kind",
        "two_pair",
        "pair",
        "ace_king",
        "high_card",
    ]


def test_categories_are_the_standard_ones_with_ace_king_before_high_card():
    # One list of names and labels (evaluator.Category's), one category added by Russian poker.
    standard = [(c.value, c.label) for c in evaluator.Category]
    russian = [(c.value, c.label) for c in Category]
    assert russian == [*standard[:-1], ("ace_king", "ace-king"), *standard[-1:]]
    assert [str(c.term) for c in Category] == [c.label for c in Category]


def test_category_counts_over_all_five_card_hands():
    # Each of the 7,462 evaluator classes, evaluated on one representative hand and weighted by how
    # many of the 2,598,960 hands fall in it, gives the issue's category counts.
    flush_strengths = set(evaluator.FLUSH_TABLE.values())
    counts = Counter()
    for strength, ranks in evaluator.PATTERN.items():
        if strength in flush_strengths:
            cards, weight = [Card(r, "h") for r in ranks], 4
        else:
            seen = Counter()
            cards = []
            for r in ranks:
                cards.append(Card(r, "shdc"[seen[r]]))
                seen[r] += 1
            if len(seen) == 5:
                cards[0] = Card(ranks[0], "c")  # no flush among the representatives
                weight = 4**5 - 4
            else:
                weight = prod(comb(4, n) for n in seen.values())
        counts[evaluate(cards).category] += weight
    assert counts == {
        Category.ROYAL_FLUSH: 4,
        Category.STRAIGHT_FLUSH: 36,
        Category.FOUR_OF_A_KIND: 624,
        Category.FULL_HOUSE: 3744,
        Category.FLUSH: 5108,
        Category.STRAIGHT: 10200,
        Category.THREE_OF_A_KIND: 54912,
        Category.TWO_PAIR: 123552,
        Category.PAIR: 1098240,
        Category.ACE_KING: 167280,
        Category.HIGH_CARD: 1135260,
    }


def test_ace_king_hands_order_between_high_card_and_pair():
    worst_pair = evaluate("2c 2d 3s 4h 5c")
    best_ace_king = evaluate("Ac Kd Qs Jh 9c")
    worst_ace_king = evaluate("Ac Kd 4s 3h 2c")
    best_high = evaluate("Ac Qd Js Th 8c")
    assert best_high < worst_ace_king < best_ace_king < worst_pair


def test_dealer_qualification():
    assert dealer_qualifies("Ac Kd 4s 3h 2c")
    assert dealer_qualifies("2c 2d 4s 3h 7c")
    assert not dealer_qualifies("Ac Qd Js 9h 8c")
    assert not dealer_qualifies(D_NG)


def test_suits_never_break_ties_and_cards_accept_strings_or_cards():
    assert evaluate("Ah Kh 9d 5c 3s") == evaluate(["As", "Ks", "9h", "5d", "3c"])
    assert evaluate(parse_cards("Ah Kh 9d 5c 3s")).cards[0] == parse_cards("Ah")[0]


def test_evaluate_rejects_wrong_counts():
    with pytest.raises(ValueError, match="5 or 6 cards"):
        evaluate("Ah Kh 9d 5c")


# Properties

deals = st.permutations(FULL_DECK).map(lambda d: d[:12])


@st.composite
def boxes(draw):
    deck = draw(deals)
    six = draw(st.booleans())
    player = deck[:6] if six else deck[:5]
    dealer = deck[6:11]
    ante = draw(st.integers(1, 500))
    bonus = draw(st.sampled_from([0, 0, draw(st.integers(1, 100))]))
    folded = draw(st.booleans())
    exchanges = 0 if six else draw(st.integers(0, 1))
    buy = not folded and not dealer_qualifies(dealer) and draw(st.booleans())
    kwargs = {"bonus": bonus, "folded": folded, "exchanges": exchanges}
    if buy:
        kwargs["buy_game_card"] = deck[11]
    return player, dealer, ante, kwargs


@settings(max_examples=300)
@given(boxes())
def test_net_is_the_sum_of_the_parts(box):
    s = settle(*box[:3], **box[3])
    assert s.net == s.ante + s.bet + s.bonus + s.fees + s.insurance + s.super_bet


@settings(max_examples=300)
@given(boxes())
def test_a_fold_never_wins(box):
    player, dealer, ante, kwargs = box
    assert settle(player, dealer, ante, **(kwargs | {"folded": True, "buy_game_card": None})).net < 0


@settings(max_examples=300)
@given(boxes())
def test_fees_are_one_ante_per_buy(box):
    player, dealer, ante, kwargs = box
    buys = kwargs["exchanges"] + (len(player) == 6) + ("buy_game_card" in kwargs)
    assert settle(player, dealer, ante, **kwargs).fees == -ante * buys


@settings(max_examples=300)
@given(boxes())
def test_no_game_pays_exactly_one_ante(box):
    player, dealer, ante, kwargs = box
    if dealer_qualifies(dealer) or kwargs["folded"]:
        return
    s = settle(player, dealer, ante, **(kwargs | {"buy_game_card": None}))
    assert (s.ante, s.bet) == (ante, 0)


@settings(max_examples=300)
@given(boxes())
def test_results_are_multiples_of_the_ante_or_bonus(box):
    player, dealer, ante, kwargs = box
    s = settle(player, dealer, ante, **kwargs)
    assert s.ante % ante == s.bet % ante == s.fees % ante == 0
    if kwargs["bonus"]:
        assert s.bonus % kwargs["bonus"] == 0
    else:
        assert s.bonus == 0


@settings(max_examples=200)
@given(deals)
def test_hand_order_matches_category_order(deck):
    a, b = evaluate(deck[:5]), evaluate(deck[5:10])
    if a.category != b.category:
        assert (a < b) == (a.category.rank < b.category.rank)


def test_default_rules_are_cis():
    assert (
        settle("Jh Jd 4s 4c 9h", D_AK, 10).net
        == settle("Jh Jd 4s 4c 9h", D_AK, 10, rules=load_rules("cis")).net
    )
