"""Painted poker house rules: deck, schedule and scoring loaded from `data/rules/painted-poker/*.toml`.

Every number the scorekeeper writes down comes from a preset, never from code. The files are read by
the one house-rules loader (`trainer.engine.presets`); this module keeps `build`, which turns a
checked table into `PaintedRules`. A malformed file fails with a `PresetError` (a `ValueError`)
naming the file and the key.

>>> rules = load_rules("classic")
>>> [str(c) for c in rules.jokers], rules.scoring.pass_made, rules.max_hand(4)
(['7s'], 5, 9)
>>> georgian = load_rules("georgian-joker")
>>> (georgian.min_players, georgian.max_players), georgian.scoring.khishti
((4, 4), -200)
>>> deck54 = load_rules("deck-54")
>>> len(deck54.deck), [str(j) for j in deck54.jokers], deck54.max_hand(4), deck54.trump_mode.value
(54, ['X1', 'X2'], 13, 'circular')
>>> (deck54.min_players, deck54.max_players), deck54.max_hand(10), deck54.trump_order
((2, 10), 5, ('s', 'c', 'd', 'h'))
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from trainer.engine.cards import FULL_DECK, RANK_CHARS, SUIT_NAMES, Card
from trainer.engine.explain import N_, Worded
from trainer.engine.presets import WORD_OR_WHOLE, HouseSource, PresetFolder, Reader

DEFAULT_RULES = "classic"
PRESETS = PresetFolder("painted-poker", "painted poker", DEFAULT_RULES)
RULES_DIR = PRESETS.folder


@dataclass(frozen=True, slots=True, eq=False)
class Joker(Card):
    """One of the two real jokers of a 54-card deck ("X1", "X2"): a card with no rank or suit of its
    own, so the engine always asks `PaintedRules.is_joker` before reading a card's rank or suit. Its
    `rank` is 15 and its `suit` "x" only so that it fits where cards go."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", 51 + int(self.suit[1:]))

    def __str__(self) -> str:
        return "X" + self.suit[1:]

    def __repr__(self) -> str:
        return f"Joker({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Joker) and other.suit == self.suit

    def __hash__(self) -> int:
        return hash(("joker", self.suit))

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __reduce__(self) -> tuple[type[Card], tuple[int, str]]:
        return (Joker, (15, self.suit))

    @property
    def name(self) -> str:
        return "joker"


REAL_JOKERS: tuple[Joker, ...] = (Joker(15, "x1"), Joker(15, "x2"))


def painted_card(token: str | Card) -> Card:
    """A card of painted poker from text: "As", "10h", or a real joker "X1" / "X2".

    >>> painted_card("x2"), painted_card("Qh")
    (Joker('X2'), Card('Qh'))
    """
    if isinstance(token, Card):
        return token
    if isinstance(token, str) and token.strip().upper() in ("X1", "X2"):
        return REAL_JOKERS[int(token.strip()[1]) - 1]
    return Card.from_text(token)


def painted_cards(cards: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Cards from "As X1 Kd" or a list; real jokers allowed, a card named twice refused."""
    tokens: Iterable[str | Card] = cards.split() if isinstance(cards, str) else cards
    if isinstance(tokens, bytes | bytearray | dict) or not isinstance(tokens, Iterable):
        raise ValueError(f"bad cards {cards!r:.60}: expected text such as 'As X1' or a list of cards")
    out: list[Card] = []
    for token in itertools.islice(tokens, len(FULL_DECK) + 3):
        card = painted_card(token)
        if card in out:
            raise ValueError(f"duplicate card {card}")
        out.append(card)
    if len(out) > len(FULL_DECK) + 2:
        raise ValueError(f"more than {len(FULL_DECK) + 2} cards: a deck has at most 54")
    return tuple(out)


class DealKind(Worded, StrEnum):
    """How a deal is bid and scored."""

    NORMAL = "normal"
    NO_TRUMP = "no_trump"
    DARK = "dark"  # bids made before looking at the cards
    GOLD = "gold"  # no bids, every trick pays
    MISER = "miser"  # no bids, every trick costs
    FRONTAL = "frontal"  # each player sees the others' cards, not his own, when he bids

    @property
    def label(self) -> str:
        """English name: "no-trump" (a message id)."""
        return _DEAL_LABELS[self]

    @property
    def has_bids(self) -> bool:
        return self not in (DealKind.GOLD, DealKind.MISER)


_DEAL_LABELS = {
    DealKind.NORMAL: N_("normal"),
    DealKind.NO_TRUMP: N_("no-trump"),
    DealKind.DARK: N_("dark"),
    DealKind.GOLD: N_("gold"),
    DealKind.MISER: N_("miser"),
    DealKind.FRONTAL: N_("frontal"),
}


class Segment(StrEnum):
    """One part of the schedule: the rising and falling runs, the run at the maximum, or a special."""

    RISING = "rising"  # 1, 2, ... max - 1 cards
    MAX = "max"  # the maximum hand, `repeat` times
    FALLING = "falling"  # max - 1, ... 1 cards
    DARK = "dark"
    GOLD = "gold"
    MISER = "miser"
    NO_TRUMP = "no_trump"
    FRONTAL = "frontal"

    @property
    def deal_kind(self) -> DealKind:
        if self in (Segment.RISING, Segment.MAX, Segment.FALLING):
            return DealKind.NORMAL
        return DealKind(self.value)


class TrumpMode(StrEnum):
    """How each deal's trump is chosen."""

    TURNED = "turned"  # the top card of the stock (the dealer's last card when none is left)
    CIRCULAR = "circular"  # the suits in a fixed order, one per deal


# The calls a player may make when he leads the joker (see `tricks.JokerCall`); a house allows some.
LEAD_CALLS = ("highest_trump", "highest", "low", "lowest_trump", "high_card", "low_card", "as_card")


class SetPremium(StrEnum):
    """The premium for making every bid of a set (a segment of the schedule)."""

    NONE = "none"
    DOUBLE_BEST = "double_best"  # the best deal of the set is counted twice


@dataclass(frozen=True)
class Scoring:
    """Points for one deal; see `trainer.engine.painted_poker.score` for how they combine."""

    exact_per_trick: int
    exact_bonus: int
    pass_made: int
    over_per_trick: int
    under_per_missing: int
    under_per_taken: int
    all_taken_per_trick: int | None  # bid all the cards and took them all (replaces the exact score)
    khishti: int | None  # bid at least one and took nothing (replaces the under score)
    gold_per_trick: int | None  # None: the preset has no gold deals
    miser_per_trick: int | None
    multiplier: Mapping[DealKind, int]
    set_premium: SetPremium


@dataclass(frozen=True)
class PaintedRules:
    """One house's painted poker rules."""

    name: str
    title: str
    source: str
    not_applied: tuple[str, ...]  # rules of this house that the engine does not model
    lowest_rank: int
    jokers: tuple[Card, ...]
    min_players: int
    max_players: int
    segments: tuple[Segment, ...]
    repeat: int | None  # deals per "max" and special segment; None: as many as players
    max_cards: int | None  # the maximum hand; None: the deck divided by the players
    hook: bool
    scoring: Scoring
    real_jokers: int = 0  # 2: a 54-card deck's two real jokers (jokers X1 and X2)
    trump_mode: TrumpMode = TrumpMode.TURNED
    trump_order: tuple[str, ...] = ("s", "c", "d", "h")  # the seed's "from spades to hearts"
    lead_calls: tuple[str, ...] = ("highest_trump", "highest", "low")
    all_pass_dealer_max: bool = False  # every other player passed: the dealer must bid all the cards

    @functools.cached_property
    def deck(self) -> tuple[Card, ...]:
        """The cards in play (36 by default: six to ace; 54 with two real jokers)."""
        return (*(c for c in FULL_DECK if c.rank >= self.lowest_rank), *REAL_JOKERS[: self.real_jokers])

    @functools.cached_property
    def deal_kinds(self) -> frozenset[DealKind]:
        """The kinds of deal this house's schedule has."""
        return frozenset(seg.deal_kind for seg in self.segments)

    def is_joker(self, card: Card) -> bool:
        return card in self.jokers

    def check_players(self, players: int) -> None:
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"players must be a whole number, not {players!r}")
        if not self.min_players <= players <= self.max_players:
            span = f"{self.min_players} to {self.max_players}"
            raise ValueError(f"the {self.name} rules are for {span} players, not {players}")

    def max_hand(self, players: int) -> int:
        """Cards per player in the largest deal: floor(deck / players) unless the preset fixes it."""
        self.check_players(players)
        return self.max_cards if self.max_cards is not None else len(self.deck) // players

    def repeats(self, players: int) -> int:
        """How many deals the maximum run and each special run last."""
        self.check_players(players)
        return self.repeat if self.repeat is not None else players


def _word_or_int(reader: Reader, key: str, word: str) -> int | None:
    """`word` ("players": as many as there are players; "deck": deck / players) or a whole number."""
    value = reader.value(key)
    if value == word:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < WORD_OR_WHOLE.low:
        raise reader.fail(
            key,
            f"expected a whole number >= {WORD_OR_WHOLE.low} or {word!r}, got {value!r}",
            code="whole_or_word",
            word=word,
            value=value,
        )
    if value > WORD_OR_WHOLE.high:  # no house rule's number beyond the limit, as for every other
        raise reader.fail(
            key,
            f"expected a whole number <= {WORD_OR_WHOLE.high}, got {value!r}",
            code="at_most",
            maximum=WORD_OR_WHOLE.high,
            value=value,
        )
    return value


def rules_from_mapping(name: str, data: Mapping[str, Any], source: str = "<rules>") -> PaintedRules:
    """Build and check a preset from a parsed TOML table (`source` names it in error messages)."""
    reader = Reader(source, data)
    rules = build(name, reader)
    reader.finish()
    return rules


def build(name: str, r: Reader) -> PaintedRules:
    """The frozen rules of a checked preset table (`PresetFolder.load` reads it)."""
    lowest = r.whole("deck.lowest_rank")
    if lowest not in RANK_CHARS:
        raise r.fail("deck.lowest_rank", f"expected a rank 2..14, got {lowest}", code="rank", value=lowest)
    joker_texts = r.value("deck.jokers")
    if not isinstance(joker_texts, list) or not all(isinstance(t, str) for t in joker_texts):
        raise r.fail("deck.jokers", 'expected a list of cards such as ["7c"]', code="cards", example='["7c"]')
    real = r.whole("deck.real_jokers", 0)
    if real not in (0, 2):
        raise r.fail(
            "deck.real_jokers", f"a deck has 0 or 2 real jokers, not {real}", code="real_jokers", value=real
        )
    jokers: list[Card] = []
    for token in joker_texts:
        try:
            card = Card.from_text(token)
        except ValueError as error:
            raise r.fail("deck.jokers", str(error), code="bad_card", value=token, example="7c") from None
        if card.rank < lowest or card in jokers:
            raise r.fail(
                "deck.jokers", f"{token!r} is not a distinct card of the deck", code="joker_card", card=token
            )
        jokers.append(card)
    min_players = r.whole("players.min", 2)
    max_players = r.whole("players.max", min_players)
    segment_texts = r.value("schedule.segments")
    names = tuple(s.value for s in Segment)
    if not isinstance(segment_texts, list) or not segment_texts:
        raise r.fail(
            "schedule.segments",
            f"expected a list of {', '.join(names)}",
            code="list_of",
            allowed=", ".join(names),
        )
    for token in segment_texts:
        if token not in names:
            raise r.fail(
                "schedule.segments",
                f"expected one of {', '.join(names)}, got {token!r}",
                code="choice",
                allowed=", ".join(names),
                value=token,
            )
    repeat = _word_or_int(r, "schedule.repeat", "players")
    max_cards = _word_or_int(r, "schedule.max_cards", "deck")
    deck_size = sum(1 for c in FULL_DECK if c.rank >= lowest) + real
    if max_cards is not None and max_cards * max_players > deck_size:
        raise r.fail(
            "schedule.max_cards",
            f"{max_cards} cards for {max_players} players exceed the deck",
            code="deck_too_small",
            cards=max_cards,
            players=max_players,
            deck=deck_size,
        )
    multiplier = {kind: r.whole(f"scoring.multiplier.{kind.value}", 1) for kind in DealKind}
    scoring = Scoring(
        exact_per_trick=r.whole("scoring.exact_per_trick"),
        exact_bonus=r.whole("scoring.exact_bonus"),
        pass_made=r.whole("scoring.pass_made"),
        over_per_trick=r.whole("scoring.over_per_trick"),
        under_per_missing=r.whole("scoring.under_per_missing"),
        under_per_taken=r.whole("scoring.under_per_taken"),
        all_taken_per_trick=r.optional_whole("scoring.all_taken_per_trick"),
        khishti=r.optional_whole("scoring.khishti"),
        gold_per_trick=r.optional_whole("scoring.gold_per_trick"),
        miser_per_trick=r.optional_whole("scoring.miser_per_trick"),
        multiplier=multiplier,
        set_premium=r.choice("scoring.set_premium", SetPremium),
    )
    segments = tuple(Segment(t) for t in segment_texts)
    suit_of = {name: letter for letter, name in SUIT_NAMES.items()}
    order = r.value("trump.order")
    strings = isinstance(order, list) and all(isinstance(name, str) for name in order)
    if not strings or sorted(order) != sorted(suit_of):
        example = '["clubs", "diamonds", "hearts", "spades"]'
        raise r.fail(
            "trump.order",
            f"expected the four suits in order, such as {example}",
            code="suit_order",
            example=example,
        )
    letters = tuple(suit_of[name] for name in order)
    calls = r.value("joker.lead_calls")
    if not isinstance(calls, list) or not calls or not all(c in LEAD_CALLS for c in calls):
        raise r.fail(
            "joker.lead_calls",
            f"expected a list of {', '.join(LEAD_CALLS)}",
            code="list_of",
            allowed=", ".join(LEAD_CALLS),
        )
    for seg, key in ((Segment.GOLD, "scoring.gold_per_trick"), (Segment.MISER, "scoring.miser_per_trick")):
        if seg in segments and getattr(scoring, key.split(".")[1]) is None:
            deal = seg.deal_kind.label  # a message id: the page says it in its language
            raise r.fail(
                key, f"missing, and the schedule has {seg.value} deals", code="needed_by_schedule", deal=deal
            )
    rules = PaintedRules(
        name=name,
        title=r.text("title"),
        source=r.text("source"),
        not_applied=r.texts("not_applied"),
        lowest_rank=lowest,
        jokers=(*jokers, *REAL_JOKERS[:real]),
        min_players=min_players,
        max_players=max_players,
        segments=segments,
        repeat=repeat,
        max_cards=max_cards,
        hook=r.flag("bidding.hook"),
        scoring=scoring,
        real_jokers=real,
        trump_mode=r.choice("trump.mode", TrumpMode),
        trump_order=letters,
        lead_calls=tuple(dict.fromkeys(calls)),
        all_pass_dealer_max=r.flag("bidding.all_pass_dealer_max"),
    )
    return rules


def available_rules() -> tuple[str, ...]:
    """The names of the presets in `data/rules/painted-poker/`, the default first."""
    return PRESETS.names()


def load_rules(name_or_path: str | Path | None = None, houses: HouseSource | None = None) -> PaintedRules:
    """The preset `name` (default "classic") from `data/rules/painted-poker/<name>.toml`, or a
    rules file by path. Cached: the same file gives the same (frozen) object.

    >>> load_rules("no-such-house")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    trainer.engine.presets.PresetError: painted poker rules: no preset 'no-such-house' (have: classic, ...)
    """
    return PRESETS.load(name_or_path, build, houses)


def resolve(rules: PaintedRules | str | None) -> PaintedRules:
    """A preset object from a preset, its name, or None (the default)."""
    return rules if isinstance(rules, PaintedRules) else load_rules(rules)
