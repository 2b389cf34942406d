"""Painted poker trick play: hand-made tricks for every follow, trump and joker rule, and properties.

Classic preset: the joker is the seven of spades (the seed's "ჯოკერი: ყვავი შვიდი"). Georgian Joker:
two jokers, the six of spades and the six of clubs. Plays are written as in `Play.parse`: "9h",
"7s:high", "7s:highest:d", "7s:low".
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.engine.cards import parse_cards
from trainer.engine.painted_poker import (
    JokerCall,
    Play,
    explain_trick,
    legal_cards,
    load_rules,
    trick_winner,
    trump_of,
)

CLASSIC = load_rules("classic")
GEORGIAN = load_rules("georgian-joker")

# (rules, trick, trump, position of the winner, why)
WINNERS = [
    (CLASSIC, "9h Ah 6s Kh", "s", 2, "the lowest trump beats the ace of the led suit"),
    (CLASSIC, "9h Ah 6s Kh", None, 1, "no trump: the highest heart"),
    (CLASSIC, "9h Th Jh", "s", 2, "highest of the led suit"),
    (CLASSIC, "9h Ad Kc", "s", 0, "discards of other suits never win"),
    (CLASSIC, "9h 8s As", "s", 2, "the higher trump"),
    (CLASSIC, "6s 8s Ah", "s", 1, "trump led, trump followed"),
    (CLASSIC, "As Ks Qs", "s", 0, "spades are trump; the joker 7s is not among them"),
    (CLASSIC, "8c 9c", None, 1, "no trump, clubs led"),
    (CLASSIC, "Jh Qd", "d", 1, "a trump on a heart"),
    (CLASSIC, "Jh Qd Kd", "d", 2, "the higher of two trumps"),
    (CLASSIC, "Ah Kh", None, 0, "no-trump deal: the ace of the led suit"),
    (CLASSIC, "Td 9d Jd Qd Kd Ad", "h", 5, "six players, all diamonds"),
    (CLASSIC, "Td 6h 7h Ks 9d 8h", "h", 5, "six players, three trumps: the eight is highest"),
    (CLASSIC, "9h 7s:high 6s", "s", 1, "the joker played high beats a later trump"),
    (CLASSIC, "9h 6s 7s:high", "s", 2, "the joker played high beats an earlier trump"),
    (CLASSIC, "Td 6h 7s:high 8h", "h", 2, "the joker beats the highest trump"),
    (CLASSIC, "Th 9h 7s:high", None, 2, "the joker high in a no-trump deal"),
    (CLASSIC, "9h 7s:low Th", "s", 2, "the joker thrown low takes nothing"),
    (CLASSIC, "9h 7s:low 8h", "s", 0, "the joker thrown low loses even to the led nine"),
    (CLASSIC, "As 7s:low", "s", 0, "two players: the low joker loses to the leader"),
    (CLASSIC, "7s:highest:d Qd As", "s", 0, "led calling the highest diamond: the joker wins over a trump"),
    (CLASSIC, "7s:highest:h 8h Ah", "h", 0, "led calling the highest heart when hearts are trump"),
    (CLASSIC, "7s:highest_trump As Ks", "s", 0, "led calling the highest trump"),
    (CLASSIC, "7s:highest_trump Ad Kh", "s", 0, "led calling the highest trump, nobody has one"),
    (CLASSIC, "7s:low 8d Ad 6s", "s", 3, "led low: 8d sets diamonds, the trump wins"),
    (CLASSIC, "7s:low 8d Ad", "s", 2, "led low: the highest diamond wins"),
    (CLASSIC, "7s:low 8d 6h", None, 1, "led low in a no-trump deal: 8d sets the suit, 6h is a discard"),
    (CLASSIC, "7s:low Ks 9d", "s", 1, "led low: the first card is a trump"),
    (CLASSIC, "7s:low 8s 9s", None, 2, "led low: spades, the nine wins"),
    (GEORGIAN, "6s:highest:h Ah 6c:high Kh", "d", 2, "a second joker high beats the led joker"),
    (GEORGIAN, "9h 6s:high 6c:high Ah", "d", 2, "the last high joker wins"),
    (GEORGIAN, "9h 6s:high 6c:low Ah", "d", 1, "one joker high, the other low"),
    (GEORGIAN, "6s:low 6c:low 9h Th", "d", 3, "both jokers low: 9h sets hearts"),
    (GEORGIAN, "6c:low 9d 7d Ad", "d", 3, "led low, trumps followed"),
    (GEORGIAN, "Ks Qs 6c:high As", "h", 2, "the joker beats the ace played after it"),
    (GEORGIAN, "6s:highest_trump Ad 7d 6c:low", "d", 0, "the led joker keeps the trick over a low joker"),
    (GEORGIAN, "Ts 9s 8s 7s", None, 0, "no trump, all spades"),
    (GEORGIAN, "6s:low 6c:low", "d", 0, "only two jokers, both low: the leader keeps it"),
]


@pytest.mark.parametrize(("rules", "trick", "trump", "winner", "why"), WINNERS, ids=[w[4] for w in WINNERS])
def test_hand_made_tricks(rules, trick, trump, winner, why):
    plays = Play.parse_all(trick)
    assert trick_winner(plays, trump, rules) == winner, why
    position, steps = explain_trick(plays, trump, rules)
    assert position == winner
    assert str(steps[-1]) == f"Play {winner + 1} ({plays[winner].card}) takes the trick."


# (rules, hand, trick so far, trump, legal cards in hand order)
LEGAL = [
    (CLASSIC, "Ah 6h Ks 7s", "9h", "s", "Ah 6h 7s"),  # follow suit, or the joker at any time
    (CLASSIC, "Ks 8s Ad", "9h", "s", "Ks 8s"),  # no heart: must trump
    (CLASSIC, "Ad Kc", "9h", "s", "Ad Kc"),  # neither: free
    (CLASSIC, "Ad Kc 7s", "9h", "s", "Ad Kc 7s"),
    (CLASSIC, "7s Ah", "Ts", "h", "7s Ah"),  # the joker 7s is no spade: without spades, trump
    (CLASSIC, "Ah Kh As", "9h", None, "Ah Kh"),  # no-trump deal: follow suit
    (CLASSIC, "Ad As", "9h", None, "Ad As"),  # no-trump deal: nothing to follow, free
    (CLASSIC, "9s 8s Ah", "6s", "s", "9s 8s"),  # trump led: follow with trumps
    (CLASSIC, "Qd 9d As", "7s:highest:d", "s", "Qd"),  # the highest diamond, only
    (CLASSIC, "Qd 9d As 6s", "7s:highest:h", "s", "As 6s"),  # no heart: any trump
    (CLASSIC, "Qd 9d", "7s:highest:h", "s", "Qd 9d"),  # neither: free
    (CLASSIC, "Qd 9s As", "7s:highest_trump", "s", "As"),  # the highest trump
    (CLASSIC, "Qd 9c", "7s:highest_trump", "s", "Qd 9c"),  # no trump in hand: free
    (CLASSIC, "Qd 9s Kh", "7s:low", "s", "Qd 9s Kh"),  # first after a low joker: free
    (CLASSIC, "Qd 9s Kh", "7s:low 8h", "s", "Kh"),  # 8h set hearts
    (CLASSIC, "Qd 9s Jc", "7s:low 8h", "s", "9s"),  # no heart: trump
    (CLASSIC, "Qd 9s Kh 7s", "", "s", "Qd 9s Kh 7s"),  # leading: anything
    (CLASSIC, "Kh Ah", "9h 7s:high", "s", "Kh Ah"),  # a high joker does not change the led suit
    (GEORGIAN, "6c Ah Kd", "9h", "d", "6c Ah"),
    (GEORGIAN, "6c Kd", "6s:highest:h", "d", "6c Kd"),  # the other joker, or a trump
    (GEORGIAN, "Ah Th 6c", "6s:highest:h", "d", "Ah 6c"),
    (GEORGIAN, "6c Ad 9h", "6s:low 9d", "d", "6c Ad"),
    (GEORGIAN, "Ad 9h", "6s:low 6c:low", "d", "Ad 9h"),  # no ordinary card yet: free
    (GEORGIAN, "Ah 9h Kd", "6s:highest:h 6c:high", "d", "Ah"),
]


@pytest.mark.parametrize(("rules", "hand", "trick", "trump", "legal"), LEGAL)
def test_hand_made_legal_cards(rules, hand, trick, trump, legal):
    assert legal_cards(parse_cards(hand), Play.parse_all(trick), trump, rules) == parse_cards(legal)


def test_hand_as_text_and_the_default_rules():
    assert legal_cards("Ah 6h Ks", Play.parse_all("9h"), "s") == parse_cards("Ah 6h")


@pytest.mark.parametrize(
    ("trick", "trump", "message"),
    [
        ("7s 9h", "s", "must call one of highest, highest_trump, low"),
        ("7s:high 9h", "s", "must call one of"),
        ("9h 7s:highest:h", "s", "must call one of high, low"),
        ("9h 7s", "s", "must call one of high, low"),
        ("9h Ah:high", "s", "not a joker"),
        ("7s:highest 9h", "s", "names a suit"),
        ("7s:low:h 9h", "s", "names a suit"),
        ("7s:highest_trump 9h", None, "without trump"),
        ("9h 9h", "s", "played twice"),
        ("9h 5h", "s", "not in the 36-card deck"),
        ("9h", "s", "at least two cards"),
        ("9h Th", "x", "trump must be"),
        ("9h Th Jh Qh Kh Ah 6h", "s", "at most 6 cards"),
    ],
)
def test_bad_tricks(trick, trump, message):
    with pytest.raises(ValueError, match=message):
        trick_winner(Play.parse_all(trick), trump)


@pytest.mark.parametrize(
    ("hand", "trick", "message"),
    [
        ("9h Th", "9h", "both in the hand and on the table"),
        ("2h Th", "9h", "not in the 36-card deck"),
        ("", "9h", "empty"),
        ("Ah Ah", "9h", "duplicate"),
    ],
)
def test_bad_hands(hand, trick, message):
    with pytest.raises(ValueError, match=message):
        legal_cards(hand, Play.parse_all(trick), "s")


@pytest.mark.parametrize("text", ["7s:sideways", "7s:highest:x", "zz", "7s:a:b:c", ""])
def test_play_parse_rejects(text):
    with pytest.raises(ValueError):
        Play.parse(text)


def test_play_round_trip():
    for text in ["9h", "7s:high", "7s:low", "7s:highest_trump", "7s:highest:d"]:
        assert str(Play.parse(text)) == text
    assert Play.parse("7C:HIGH").call is JokerCall.HIGH


def test_trump_of():
    card = parse_cards("Kh 7s 6s")
    assert trump_of(card[0]) == "h"
    assert trump_of(card[1]) is None  # the classic joker turned up
    assert trump_of(card[2]) == "s"
    assert trump_of(card[2], GEORGIAN) is None  # a Georgian joker
    assert trump_of(card[0], deal="no_trump") is None
    assert trump_of(None) is None


# --- properties ------------------------------------------------------------------------------------


def random_call(rng, card, rules, leading, trump):
    if not rules.is_joker(card):
        return Play(card)
    if not leading:
        return Play(card, rng.choice([JokerCall.HIGH, JokerCall.LOW]))
    calls = [JokerCall.LOW, JokerCall.HIGHEST] + ([JokerCall.HIGHEST_TRUMP] if trump else [])
    call = rng.choice(calls)
    return Play(card, call, rng.choice("shdc") if call is JokerCall.HIGHEST else None)


def oracle_winner(plays, trump, rules):
    """An independent reading of the rule page: rank every play, the unique best takes the trick."""
    ordinary = [p for p in plays if not rules.is_joker(p.card)]
    led = ordinary[0].card.suit if ordinary else None

    def key(i):
        p = plays[i]
        if rules.is_joker(p.card):
            return (3, i) if p.call is not JokerCall.LOW else (-1, 0)
        if p.card.suit == trump:
            return (2, p.card.rank)
        return (1, p.card.rank) if p.card.suit == led else (0, 0)

    keys = [key(i) for i in range(len(plays))]
    best = max(keys)
    winners = [i for i, k in enumerate(keys) if k == best]
    return winners


@settings(max_examples=300)
@given(st.integers(0, 2**32), st.sampled_from(["classic", "georgian-joker"]), st.integers(2, 6))
def test_random_deals_follow_the_rules(seed, name, players):
    rules = load_rules(name)
    players = 4 if name == "georgian-joker" else players
    rng = random.Random(seed)
    deck = list(rules.deck)
    rng.shuffle(deck)
    cards = rng.randint(1, len(deck) // players)
    hands = [deck[i * cards : (i + 1) * cards] for i in range(players)]
    trump = rng.choice([None, "s", "h", "d", "c"])
    leader = 0
    taken = [0] * players
    for _ in range(cards):  # play the whole deal
        trick = []
        for k in range(players):
            seat = (leader + k) % players
            legal = legal_cards(hands[seat], trick, trump, rules)
            assert legal, "the legal-card set is never empty"
            assert set(legal) <= set(hands[seat])
            play = random_call(rng, rng.choice(legal), rules, not trick, trump)
            hands[seat].remove(play.card)
            trick.append(play)
        position = trick_winner(trick, trump, rules)
        winners = oracle_winner(trick, trump, rules)
        assert 0 <= position < players and winners == [position], "exactly one trick winner"
        leader = (leader + position) % players
        taken[leader] += 1
    assert sum(taken) == cards and not any(hands)


@settings(max_examples=300)
@given(st.integers(0, 2**32))
def test_legal_cards_follow_suit_when_possible(seed):
    rng = random.Random(seed)
    deck = list(CLASSIC.deck)
    rng.shuffle(deck)
    lead, hand = deck[0], deck[1:8]
    if CLASSIC.is_joker(lead):
        return
    trump = rng.choice([None, "s", "h", "d", "c"])
    legal = legal_cards(hand, [Play(lead)], trump)
    plain = [c for c in legal if not CLASSIC.is_joker(c)]
    has_suit = any(c.suit == lead.suit and not CLASSIC.is_joker(c) for c in hand)
    has_trump = any(c.suit == trump and not CLASSIC.is_joker(c) for c in hand)
    if has_suit:
        assert plain and all(c.suit == lead.suit for c in plain)
    elif has_trump:
        assert plain and all(c.suit == trump for c in plain)
    else:
        assert set(legal) == set(hand)
    assert all(c in legal for c in hand if CLASSIC.is_joker(c))
