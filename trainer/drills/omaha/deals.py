"""Dealing helpers for the Omaha drills: cards built to produce a chosen branch of the rules.

Generators pick the branch first (a category, a tie, no low, a counterfeit, quartering...), then these
helpers deal cards that make it likely, and the drill checks the result with the engine and deals
again when the cards came out otherwise.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence

from trainer.drills import base
from trainer.drills.base import Data, DealError, RulesError
from trainer.drills.houses import in_use
from trainer.engine.cards import FULL_DECK, SUITS, Card
from trainer.engine.evaluator import Category, category_of, strength5
from trainer.engine.omaha.betting import DEFAULT_RULES, PRESETS, OmahaRules, load_rules


def retry(make: Callable[[], Data]) -> Data:
    """The contract's `retry` with Omaha's patience: its branches (a counterfeit low, quartering) are
    rarer than a Russian poker hand, so it deals up to 400 times."""
    return base.retry(make, attempts=400)


def branch(rng: random.Random, weights: Mapping[str, int]) -> str:
    """One of a level's branches, drawn by its weight (one `rng.choices` draw)."""
    return rng.choices(list(weights), list(weights.values()))[0]


def names(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def low_rank(card: Card) -> int:
    """Rank for low (ace 1), 0 when the card cannot play in an 8-or-better low."""
    rank = 1 if card.rank == 14 else card.rank
    return rank if rank <= 8 else 0


class Dealer:
    """Hands out cards without repeats, by predicate or by rank, from a seeded rng."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.left = list(FULL_DECK)
        rng.shuffle(self.left)

    def take(self, cards: Iterable[Card]) -> list[Card]:
        out = []
        for card in cards:
            if card not in self.left:
                raise DealError(f"{card} is already dealt")
            self.left.remove(card)
            out.append(card)
        return out

    def draw(self, count: int, where: Callable[[Card], bool] = lambda c: True) -> list[Card]:
        pool = [c for c in self.left if where(c)]
        if len(pool) < count:
            raise DealError("not enough cards of the kind asked for")
        picked = pool[:count]  # the deck is shuffled already
        return self.take(picked)

    def rank(self, rank: int, avoid_suits: Sequence[str] = ()) -> Card:
        pool = [c for c in self.left if c.rank == rank and c.suit not in avoid_suits]
        if not pool:
            raise DealError(f"no card of rank {rank} left")
        return self.take([pool[0]])[0]

    def same_ranks(self, cards: Sequence[Card]) -> list[Card]:
        """Cards of the same ranks as `cards`, in other suits (a hand that ties on ranks)."""
        return [self.rank(c.rank, avoid_suits=(c.suit,)) for c in cards]


_STRAIGHT_TOPS = list(range(5, 15))


def _straight_ranks(top: int) -> list[int]:
    return [14 if r == 1 else r for r in range(top - 4, top + 1)]


def made_five(rng: random.Random, category: Category) -> list[Card]:
    """Five cards of exactly this category (checked with the evaluator)."""
    for _ in range(200):
        suit = rng.choice(SUITS)
        if category is Category.ROYAL_FLUSH:
            cards = [Card(r, suit) for r in range(10, 15)]
        elif category is Category.STRAIGHT_FLUSH:
            cards = [Card(r, suit) for r in _straight_ranks(rng.randint(5, 13))]
        elif category is Category.STRAIGHT:
            cards = [Card(r, rng.choice(SUITS)) for r in _straight_ranks(rng.choice(_STRAIGHT_TOPS))]
        elif category is Category.FLUSH:
            cards = [Card(r, suit) for r in rng.sample(range(2, 15), 5)]
        else:
            counts = {
                Category.FOUR_OF_A_KIND: (4, 1),
                Category.FULL_HOUSE: (3, 2),
                Category.THREE_OF_A_KIND: (3, 1, 1),
                Category.TWO_PAIR: (2, 2, 1),
                Category.PAIR: (2, 1, 1, 1),
                Category.HIGH_CARD: (1, 1, 1, 1, 1),
            }[category]
            ranks = rng.sample(range(2, 15), len(counts))
            cards = [Card(r, s) for r, n in zip(ranks, counts, strict=True) for s in rng.sample(SUITS, n)]
        if len(set(cards)) == 5 and category_of(strength5(*(c.index for c in cards))) is category:
            return cards
    raise DealError(f"no five cards of {category}")


def house_rules(name: str | None) -> OmahaRules:
    """A shipped preset, or a house preset of the call's `trainer.drills.houses.in_use()`, by name
    (the default when None), never a path."""
    name = DEFAULT_RULES if name is None else name
    houses = in_use()
    if not PRESETS.is_preset(name, houses):
        shipped = PRESETS.names()
        raise RulesError(f"unknown Omaha house rules {name!r}: choose one of {', '.join(shipped)}")
    return load_rules(name, houses)
