"""Cards: parsing at the edge rejects anything that is not cards with a ValueError naming the problem."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trainer.engine.cards import CARD_PATTERN, FULL_DECK, Card, Deck, cards_pattern, format_cards, parse_cards


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        (None, "expected text such as 'As Kd' or a list of cards"),
        (5, "expected text such as 'As Kd' or a list of cards"),
        (2.5, "expected text such as 'As Kd' or a list of cards"),
        (b"As Kd", "expected text such as 'As Kd' or a list of cards"),
        ({"As": 1}, "expected text such as 'As Kd' or a list of cards"),
        ([None], "bad card None"),
        (["As", 3], "bad card 3"),
        (["As", ["Kd"]], r"bad card \['Kd'\]"),
        ("As Xx", "bad card 'Xx'"),
        ("As As", "duplicate card As"),
        (["As"] * 10_000, "duplicate card As"),
        (iter(["As", "Kd", "As"]), "duplicate card As"),
    ],
)
def test_parse_cards_rejects_junk(cards: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_cards(cards)


def test_parse_cards_rejects_more_than_a_deck_without_reading_it_all() -> None:
    def endless() -> Any:
        n = 0
        while True:
            yield FULL_DECK[n % 52]
            n += 1

    with pytest.raises(ValueError, match="more than 52 cards"):
        parse_cards(endless())


@pytest.mark.parametrize(
    ("rank", "suit"), [(None, "s"), ("A", "s"), (2.0, "s"), (True, "s"), (14, None), ([14], "s")]
)
def test_card_constructor_rejects_junk(rank: Any, suit: Any) -> None:
    with pytest.raises(ValueError, match="card"):
        Card(rank, suit)


def test_card_from_text_rejects_non_text() -> None:
    with pytest.raises(ValueError, match="expected text"):
        Card.from_text(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("rng", [None, 7, "seed", random])
def test_deck_needs_a_random_generator(rng: Any) -> None:
    with pytest.raises(ValueError, match=r"random\.Random"):
        Deck(rng)


@pytest.mark.parametrize("count", ["2", 2.0, None, True, [2]])
def test_deck_draw_needs_a_whole_number(count: Any) -> None:
    with pytest.raises(ValueError, match="whole number"):
        Deck(random.Random(1)).draw(count)


@pytest.mark.parametrize("count", [-1, 53])
def test_deck_draw_rejects_impossible_counts(count: int) -> None:
    with pytest.raises(ValueError, match=f"cannot draw {count}"):
        Deck(random.Random(1)).draw(count)


def test_deck_exclude_and_remove_accept_text_and_cards_and_reject_junk() -> None:
    deck = Deck(random.Random(3), exclude="As Kd")
    assert len(deck) == 50
    deck.remove([Card(14, "s"), "Qh", "Qh"])  # a card named twice, or already gone, is simply absent
    assert len(deck) == 49
    assert Card(12, "h") not in deck.draw(49)
    with pytest.raises(ValueError, match="bad card"):
        Deck(random.Random(3), exclude=[5])
    with pytest.raises(ValueError, match="bad cards"):
        Deck(random.Random(3)).remove(None)  # type: ignore[arg-type]


def test_format_cards_round_trips_and_rejects_junk() -> None:
    assert format_cards(parse_cards("10h ♠a kd")) == "Th As Kd"
    with pytest.raises(ValueError, match="bad cards"):
        format_cards(None)  # type: ignore[arg-type]


@given(st.lists(st.sampled_from(FULL_DECK), unique=True, max_size=52))
def test_parse_cards_round_trips_any_distinct_cards(cards: list[Card]) -> None:
    assert parse_cards(format_cards(cards)) == tuple(cards)
    assert parse_cards([str(c) for c in cards]) == tuple(cards)


@given(st.integers(0, 2**32), st.integers(0, 52))
def test_seeded_decks_deal_the_same_distinct_cards(seed: int, count: int) -> None:
    a, b = Deck(random.Random(seed)).draw(count), Deck(random.Random(seed)).draw(count)
    assert a == b
    assert len(set(a)) == count


# Characters that make or break card text: ranks, suits (letters, symbols), separators, near misses.
_SPACES = " ,\t\x1c\x1f\x85\u00a0\u2007\u3000\ufeff\u200b"  # Python's spaces, JavaScript's, neither's
_NOISE = st.text(alphabet="AaKkQqJjTt1098765432sShHdDcC♠♥♦♣♤♡♢♧xX0" + _SPACES, max_size=24)
_TOKEN = st.builds(
    lambda rank, suit, suit_first: suit + rank if suit_first else rank + suit,
    st.sampled_from(["A", "a", "10", "T", "t", "2", "9", "1", "0"]),
    st.sampled_from(["s", "S", "h", "♠", "♧", "♥", "x"]),
    st.booleans(),
)
_TOKENS = st.builds(
    "".join,
    st.lists(st.one_of(_TOKEN, st.sampled_from([" ", ",", "", "\t", " , "])), max_size=14),
)
_CARD_TEXT = st.one_of(_NOISE, _TOKENS)


def _reads(text: str, count: range) -> bool:
    """Whether parse_cards reads `text` as `count` cards, a card given twice aside."""
    from trainer.engine.cards import _tokens

    try:
        parsed = [Card.from_text(token) for token in _tokens(text)]  # parse_cards without the repeat check
    except ValueError:
        return False
    return len(parsed) in count


@given(_CARD_TEXT)
def test_the_cards_pattern_matches_exactly_the_text_parse_cards_reads(text):
    """The API document states the notation with these patterns: they must say what the parser does."""
    import re

    for low, high in ((1, 1), (5, 6)):
        assert bool(re.search(cards_pattern(low, high), text)) == _reads(text, range(low, high + 1)), text


def test_the_card_patterns_read_alike_in_python_and_javascript():
    """JSON Schema patterns are ECMA-262; the server reads with Python's `re`. The classes the two read
    differently (\\s, \\w, \\d, \\b and their negations) are not used: spaces are named one by one."""
    import re

    for pattern in (CARD_PATTERN, cards_pattern(1, 1), cards_pattern(5, 5)):
        assert not re.search(r"\\[sSwWdDbB]", pattern), pattern
        for space in ("\x1c", "\x85", "\u00a0", "\u3000"):  # Python's spaces, not all of them JavaScript's
            assert re.fullmatch(cards_pattern(1, 1), f"{space}As{space}")
        assert not re.fullmatch(cards_pattern(1, 1), "\ufeffAs")  # JavaScript's space, not Python's


@given(_CARD_TEXT)
def test_the_card_pattern_matches_exactly_one_card_as_from_text_reads_it(text):
    import re

    try:
        Card.from_text(text)
        reads = True
    except ValueError:
        reads = False
    assert bool(re.search(CARD_PATTERN, text)) == reads, text
