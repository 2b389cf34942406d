"""Playing cards: the `Card` value, parsing at the edge, and a deck drawn from a seeded RNG.

Cards are interned: there are exactly 52 `Card` objects, so identity, equality and hashing are cheap,
and every card knows its small integer `index` (0..51) used by the evaluator's lookup tables.

>>> parse_cards("As Kd 10h")
(Card('As'), Card('Kd'), Card('Th'))
>>> str(Card(14, "s")), Card.from_text("♥q")
('As', Card('Qh'))
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field

from trainer.engine.explain import N_

SUITS: tuple[str, ...] = ("s", "h", "d", "c")
RANKS: tuple[int, ...] = tuple(range(2, 15))
RANK_CHARS = {
    2: "2",
    3: "3",
    4: "4",
    5: "5",
    6: "6",
    7: "7",
    8: "8",
    9: "9",
    10: "T",
    11: "J",
    12: "Q",
    13: "K",
    14: "A",
}
RANK_NAMES = {
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "jack",
    12: "queen",
    13: "king",
    14: "ace",
}
SUIT_NAMES = {"s": N_("spades"), "h": N_("hearts"), "d": N_("diamonds"), "c": N_("clubs")}
_RANK_FROM_TEXT = {v: k for k, v in RANK_CHARS.items()} | {"10": 10}
_SUIT_FROM_TEXT = {
    "s": "s",
    "h": "h",
    "d": "d",
    "c": "c",
    "♠": "s",
    "♥": "h",
    "♦": "d",
    "♣": "c",
    "♤": "s",
    "♡": "h",
    "♢": "d",
    "♧": "c",
}


# eq=False: cards are interned (`__new__` hands out the one object of each rank and suit, and copying
# or unpickling goes through it), so a card equals only itself and hashes by identity, in C: the
# generated field-by-field __eq__ and __hash__ were a tenth of dealing and settling a Russian poker box.
@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card: `rank` 2..14 (ace high), `suit` one of s h d c.

    >>> Card(14, "s") is Card.from_text("As") == parse_cards("as")[0]
    True
    """

    rank: int
    suit: str
    index: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.rank not in RANK_CHARS:
            raise ValueError(f"card rank must be 2..14, not {self.rank!r}")
        if self.suit not in SUITS:
            raise ValueError(f"card suit must be one of s h d c, not {self.suit!r}")
        object.__setattr__(self, "index", (self.rank - 2) * 4 + SUITS.index(self.suit))

    def __new__(cls, rank: int, suit: str) -> Card:
        if isinstance(rank, bool) or not isinstance(rank, int) or not isinstance(suit, str):
            raise ValueError(f"a card is a rank 2..14 and a suit s h d c, not {rank!r}, {suit!r}")
        cached = _INTERNED.get((rank, suit))
        if cached is not None:
            return cached
        return object.__new__(cls)

    def __str__(self) -> str:
        return RANK_CHARS[self.rank] + self.suit

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __reduce__(self) -> tuple[type[Card], tuple[int, str]]:
        return (Card, (self.rank, self.suit))

    @property
    def name(self) -> str:
        """English name for screen readers: "ace of spades"."""
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    @classmethod
    def from_text(cls, token: str) -> Card:
        """Parse one token such as "As", "10h", "td", "♠A" or "A♠"."""
        if not isinstance(token, str):
            raise ValueError(f"bad card {token!r}: expected text such as 'As'")
        text = token.strip()
        if len(text) < 2:
            raise ValueError(f"bad card {token!r}: expected a rank and a suit, such as 'As'")
        for rank_text, suit_text in ((text[:-1], text[-1]), (text[1:], text[0])):
            rank = _RANK_FROM_TEXT.get(rank_text.upper())
            suit = _SUIT_FROM_TEXT.get(suit_text.lower())
            if rank is not None and suit is not None:
                return cls(rank, suit)
        raise ValueError(f"bad card {token!r}: expected a rank 2-10, J, Q, K, A and a suit s, h, d, c")


class RepeatedCardError(ValueError):
    """Every card is well written, but one is named twice (no deck has it twice)."""


_INTERNED: dict[tuple[int, str], Card] = {}
for _r in RANKS:
    for _s in SUITS:
        _INTERNED[(_r, _s)] = Card(_r, _s)

FULL_DECK: tuple[Card, ...] = tuple(sorted(_INTERNED.values()))
CARD_BY_INDEX: tuple[Card, ...] = FULL_DECK


def _tokens(text: str) -> list[str]:
    """Split "As Kd", "AsKd", "10h,Qc" or "A♠K♦" into card tokens."""
    tokens: list[str] = []
    for chunk in text.replace(",", " ").split():
        i = 0
        while i < len(chunk):
            # A token is a rank (1-2 chars) plus a suit, or a suit symbol plus a rank.
            if chunk[i] in _SUIT_FROM_TEXT and chunk[i] not in "shdcSHDC":
                j = i + 1
                j += 2 if chunk[j : j + 2] == "10" else 1
            else:
                j = i + (2 if chunk[i : i + 2] == "10" else 1)
                j += 1
            tokens.append(chunk[i:j])
            i = j
    return tokens


# Card tokens already read, {token: card}: only tokens without surrounding blanks, so it holds at
# most the few hundred ways `from_text` accepts of writing the 52 cards.
_PARSED: dict[str, Card] = {}


def _parsed(token: str) -> Card:
    card = Card.from_text(token)
    if token == token.strip():
        _PARSED[token] = card
    return card


def parse_cards(cards: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Cards from text ("As Kd 7c", "AsKd7c", "10h", "A♠") or an iterable of strings or `Card`s.

    Raises `ValueError` naming the bad token, or the duplicated card.

    >>> parse_cards(["Ah", Card(13, "h")])
    (Card('Ah'), Card('Kh'))
    >>> parse_cards("As As")
    Traceback (most recent call last):
    ...
    trainer.engine.cards.RepeatedCardError: duplicate card As
    """
    if isinstance(cards, str):
        items: Iterable[str | Card] = _tokens(cards)
    elif isinstance(cards, Iterable) and not isinstance(cards, bytes | bytearray | dict):
        items = cards
    else:
        raise ValueError(f"bad cards {cards!r}: expected text such as 'As Kd' or a list of cards")
    result: list[Card] = []
    seen: set[Card] = set()
    for item in items:
        if len(result) >= len(FULL_DECK):
            raise ValueError(f"more than {len(FULL_DECK)} cards given: a deck has {len(FULL_DECK)}")
        if isinstance(item, Card):
            card = item
        elif isinstance(item, str):
            card = _PARSED.get(item) or _parsed(item)
        else:
            raise ValueError(f"bad card {item!r}: expected text such as 'As' or a Card")
        if card in seen:
            raise RepeatedCardError(f"duplicate card {card}")
        seen.add(card)
        result.append(card)
    return tuple(result)


def _card_set(cards: Iterable[str | Card]) -> set[Card]:
    """The distinct cards named (a card named twice counts once), checked like `parse_cards`."""
    if isinstance(cards, str) or not isinstance(cards, Iterable):
        return set(parse_cards(cards))
    return {card for item in cards for card in parse_cards([item])}


# The card text `Card.from_text` and `parse_cards` read, as regular expressions (for the API's
# document: a client learns the notation before it sends). Ranks in any case, "10" or "T"; suits as
# letters in any case or symbols; a letter or symbol suit may come first. Whitespace as `str.split`
# reads it, every such character named (`_space_class`).


def _space_class() -> str:
    """The characters `str.split()` cuts at, written out as escapes for a regex class: Python's `\\s`
    and JavaScript's (ECMA-262) differ (U+001C-U+001F, U+0085, U+FEFF), and Schemathesis generating
    text by one and checking it by the other spent seconds drawing values it then threw away."""
    spaces = [code for code in range(0x3001) if chr(code).isspace()]
    runs: list[tuple[int, int]] = []
    for code in spaces:
        if runs and runs[-1][1] == code - 1:
            runs[-1] = (runs[-1][0], code)
        else:
            runs.append((code, code))
    return "".join(f"\\u{low:04x}" if low == high else f"\\u{low:04x}-\\u{high:04x}" for low, high in runs)


_SPACES = _space_class()
_SPACE_RE = f"[{_SPACES}]"
_RANK_RE = "(?:10|[2-9TJQKAtjqka])"
_SUIT_RE = "[" + "".join(sorted(_SUIT_FROM_TEXT)) + "SHDC]"
_SYMBOL_RE = "[" + "".join(sorted(set(_SUIT_FROM_TEXT) - set("shdc"))) + "]"
CARD_PATTERN = rf"^{_SPACE_RE}*(?:{_RANK_RE}{_SUIT_RE}|{_SUIT_RE}{_RANK_RE}){_SPACE_RE}*$"
"""One card as `Card.from_text` reads it ("As", "10h", "td", "♠A")."""
# In text, a token starts at a symbol (symbol and rank) or else is "10" or one character followed by
# one more: `_tokens` cuts them so, and `Card.from_text` then reads either order.
_TEXT_CARD_RE = rf"(?:{_SYMBOL_RE}{_RANK_RE}|{_RANK_RE}{_SUIT_RE}|[shdcSHDC][2-9TJQKAtjqka])"


def cards_pattern(low: int, high: int) -> str:
    """The text of `low` to `high` cards as `parse_cards` reads it (repeats aside), a regex.

    >>> import re
    >>> [bool(re.match(cards_pattern(5, 5), t)) for t in ("As Kd 7c 2h 10s", "AsKd7c2h♠T", "As Kd")]
    [True, True, False]
    """
    return rf"^[{_SPACES},]*(?:{_TEXT_CARD_RE}[{_SPACES},]*){{{low},{high}}}$"


def format_cards(cards: str | Iterable[str | Card]) -> str:
    """ "As Kd 7c" for a sequence of cards (checked like `parse_cards`)."""
    return " ".join(str(c) for c in parse_cards(cards))


class Deck:
    """A shuffled 52-card deck; all randomness comes from the `random.Random` passed in.

    >>> deck = Deck(random.Random(7))
    >>> len(deck.draw(5)), len(deck)
    (5, 47)
    """

    def __init__(self, rng: random.Random, exclude: Iterable[Card] = ()) -> None:
        if not isinstance(rng, random.Random):
            raise ValueError(f"a deck is shuffled by a random.Random, not {rng!r}")
        removed = _card_set(exclude)
        self._cards = [c for c in FULL_DECK if c not in removed]
        rng.shuffle(self._cards)

    def __len__(self) -> int:
        return len(self._cards)

    def draw(self, count: int = 1) -> tuple[Card, ...]:
        if isinstance(count, bool) or not isinstance(count, int):
            raise ValueError(f"the number of cards to draw must be a whole number, not {count!r}")
        if count < 0 or count > len(self._cards):
            raise ValueError(f"cannot draw {count} cards from a deck of {len(self._cards)}")
        drawn = self._cards[:count]
        del self._cards[:count]
        return tuple(drawn)

    def remove(self, cards: Iterable[Card]) -> None:
        """Take known cards out (cards already on the table)."""
        gone = _card_set(cards)
        self._cards = [c for c in self._cards if c not in gone]
