"""Dealing Russian poker situations to order: a hand of a chosen category, a dealer hand that is
lower, higher or equal, a dealer without a game (with the near misses trainees confuse), and the
stakes of each level.

Generators pick the branch first and then build cards for it, so rare rulings (a royal flush, a push,
a bought game that fails) come up as often as common ones. Every hand is checked with the engine's
`evaluate`; a construction that came out differently is dealt again.

>>> import random
>>> rng = random.Random(1)
>>> hand = build_hand(rng, Category.FULL_HOUSE, set())
>>> evaluate(hand).category
<Category.FULL_HOUSE: 'full_house'>
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Collection, Sequence
from typing import Any

from trainer.drills.base import DealError, RulesError
from trainer.drills.houses import in_use
from trainer.engine.cards import FULL_DECK, Card
from trainer.engine.presets import HouseSource
from trainer.engine.russian_poker import Category, HouseRules, evaluate, load_rules
from trainer.engine.russian_poker.rules import DEFAULT_RULES, PRESETS, preset_names

SUITS = "shdc"
TRIES = 400  # a construction fails only on bad luck with the cards already used; this is plenty

PAYING = tuple(c for c in Category if c is not Category.HIGH_CARD)  # ace-king and up: the bet table
BONUS_PAYING = (
    Category.ROYAL_FLUSH,
    Category.STRAIGHT_FLUSH,
    Category.FOUR_OF_A_KIND,
    Category.FULL_HOUSE,
    Category.FLUSH,
    Category.STRAIGHT,
)


def house_rules(name: str | None, houses: HouseSource | None = None) -> HouseRules:
    """The named preset (the default when None): shipped, or a house preset of `houses` (by default
    the drill call's, `trainer.drills.houses.in_use()`); never a file path."""
    name = DEFAULT_RULES if name is None else name
    houses = in_use() if houses is None else houses
    if PRESETS.house_text(name, houses) is not None:
        return load_rules(name, houses)  # the engine caches it by its text
    return _preset(name)


@functools.lru_cache(maxsize=16)
def _preset(name: str) -> HouseRules:
    # Cached: generators and solvers ask for the rules many times per situation.
    if not PRESETS.is_preset(name):
        raise RulesError(f"unknown house rules {name!r}: choose one of {', '.join(preset_names())}")
    return load_rules(name)


def ante_for(rng: random.Random, level: int) -> int:
    """Level 1 round antes, level 2 odd ones, level 3 large ones."""
    if level == 1:
        return rng.choice((10, 20, 25, 50, 100))
    if level == 2:
        return rng.choice([n for n in range(11, 200) if n % 10])
    return rng.choice([n for n in range(105, 5000, 5) if n % 100])


def bonus_for(rng: random.Random, level: int) -> int:
    if level == 1:
        return rng.choice((5, 10, 20))
    if level == 2:
        return rng.choice([n for n in range(3, 100) if n % 5])
    return rng.choice(range(25, 1000, 5))


def _card(rank: int, suit: str) -> Card:
    return Card(14 if rank == 1 else rank, suit)


def _distinct_ranks(rng: random.Random, count: int, avoid: Collection[int]) -> list[int]:
    return rng.sample([r for r in range(2, 15) if r not in avoid], count)


def _shape(rng: random.Random, category: Category, kickers: Sequence[int]) -> list[Card]:
    """One attempt at five cards of `category` (kicker ranks preferred where the category has kickers)."""
    suit = rng.choice(SUITS)

    def suited(ranks: Sequence[int]) -> list[Card]:
        return [_card(r, suit) for r in ranks]

    def loose(ranks: Sequence[int]) -> list[Card]:
        return [_card(r, rng.choice(SUITS)) for r in ranks]

    def sets(groups: Sequence[tuple[int, int]]) -> list[Card]:
        cards: list[Card] = []
        for rank, count in groups:
            cards += [Card(rank, s) for s in rng.sample(SUITS, count)]
        return cards

    def with_kickers(made: list[int], count: int) -> list[int]:
        wanted = [k for k in dict.fromkeys(kickers) if k not in made][:count]
        return wanted + _distinct_ranks(rng, count - len(wanted), [*made, *wanted])

    if category is Category.ROYAL_FLUSH:
        return suited(range(10, 15))
    if category in (Category.STRAIGHT_FLUSH, Category.STRAIGHT):
        top = rng.randint(5, 13 if category is Category.STRAIGHT_FLUSH else 14)
        ranks = [top - i for i in range(5)]
        return suited(ranks) if category is Category.STRAIGHT_FLUSH else loose(ranks)
    if category is Category.FLUSH:
        return suited(_distinct_ranks(rng, 5, ()))
    if category is Category.FOUR_OF_A_KIND:
        quad = _distinct_ranks(rng, 1, ())
        return sets([(quad[0], 4)]) + loose(with_kickers(quad, 1))
    if category is Category.FULL_HOUSE:
        three, two = _distinct_ranks(rng, 2, ())
        return sets([(three, 3), (two, 2)])
    if category is Category.THREE_OF_A_KIND:
        trips = _distinct_ranks(rng, 1, ())
        return sets([(trips[0], 3)]) + loose(with_kickers(trips, 2))
    if category is Category.TWO_PAIR:
        pairs = _distinct_ranks(rng, 2, ())
        return sets([(pairs[0], 2), (pairs[1], 2)]) + loose(with_kickers(pairs, 1))
    if category is Category.PAIR:
        pair = _distinct_ranks(rng, 1, ())
        return sets([(pair[0], 2)]) + loose(with_kickers(pair, 3))
    if category is Category.ACE_KING:
        return loose([14, 13, *_distinct_ranks(rng, 3, (14, 13))])
    return loose(_distinct_ranks(rng, 5, ()))


def build_hand(
    rng: random.Random,
    category: Category,
    used: Collection[Card],
    *,
    size: int = 5,
    kickers: Sequence[int] = (),
    accept: Callable[[tuple[Card, ...]], bool] | None = None,
) -> tuple[Card, ...]:
    """`size` (5 or 6) cards not in `used` whose best five are `category`, in random order.

    `accept` adds a condition of the branch (for example "has a second combination").
    """
    for _ in range(TRIES):
        cards = _shape(rng, category, kickers)
        if size == 6:
            spare = [c for c in FULL_DECK if c not in used and c not in cards]
            cards.append(rng.choice(spare))
        if len(set(cards)) != size or any(c in used for c in cards):
            continue
        hand = tuple(rng.sample(cards, size))
        if evaluate(hand).category is category and (accept is None or accept(hand)):
            return hand
    raise DealError(f"could not deal a {category.label} of {size} cards")


def no_game_hand(rng: random.Random, used: Collection[Card]) -> tuple[Card, ...]:
    """A dealer without a game, half the time a near miss: an ace without a king, a king without an
    ace, or four to a straight or a flush."""
    trap = rng.choice(("plain", "plain", "ace", "king", "straight", "flush"))
    for _ in range(TRIES):
        if trap == "ace":
            ranks = [14, *_distinct_ranks(rng, 4, (14, 13))]
        elif trap == "king":
            ranks = [13, *_distinct_ranks(rng, 4, (14, 13))]
        elif trap == "straight":
            top = rng.randint(7, 12)
            ranks = [top, top - 1, top - 2, top - 3, rng.choice([r for r in range(2, 13) if r < top - 4])]
        else:
            ranks = _distinct_ranks(rng, 5, (14,) if rng.random() < 0.5 else (13,))
        if trap == "flush":
            suit = rng.choice(SUITS)
            suits = [suit] * 4 + [rng.choice([s for s in SUITS if s != suit])]
        else:
            suits = [rng.choice(SUITS) for _ in ranks]
        cards = tuple(Card(r, s) for r, s in zip(ranks, suits, strict=True))
        fresh = len(set(cards)) == 5 and not any(c in used for c in cards)
        if fresh and evaluate(cards).category is Category.HIGH_CARD:
            return tuple(rng.sample(cards, 5))
    raise DealError("could not deal a dealer hand without a game")


def dealer_hand(
    rng: random.Random, player: Sequence[Card], relation: str, used: Collection[Card]
) -> tuple[Card, ...]:
    """A qualifying dealer hand (ace-king or better) that is "lower", "higher" or "equal" to the
    player's; a lower hand is of the same category a third of the time, the hardest comparison."""
    mine = evaluate(player)
    taken = set(used) | set(player)
    if relation == "equal":
        return _equal_hand(rng, mine.cards, taken)
    lowest, highest = Category.ACE_KING.rank, Category.ROYAL_FLUSH.rank
    if relation == "lower":
        highest = mine.category.rank
        if rng.random() > 1 / 3 and highest > lowest:
            highest -= 1
    else:
        lowest = max(lowest, mine.category.rank)
        if rng.random() > 1 / 3 and lowest < Category.STRAIGHT_FLUSH.rank:
            lowest += 1
    choices: list[Category] = [
        c for c in PAYING if lowest <= c.rank <= highest and c is not Category.ROYAL_FLUSH
    ]
    choices = choices or [Category.ROYAL_FLUSH]
    for _ in range(TRIES):
        category = rng.choice(choices)
        try:
            hand = build_hand(rng, category, taken)
        except DealError:
            continue
        theirs = evaluate(hand)
        if (theirs < mine) if relation == "lower" else (theirs > mine):
            return hand
    raise DealError(f"could not deal a dealer hand {relation} than {mine}")


def _equal_hand(rng: random.Random, cards: Sequence[Card], taken: set[Card]) -> tuple[Card, ...]:
    """The same ranks in other suits (a push); suits never break ties."""
    for _ in range(TRIES):
        picked: list[Card] = []
        for card in cards:
            free = [Card(card.rank, s) for s in SUITS if Card(card.rank, s) not in taken]
            free = [c for c in free if c not in picked]
            if not free:
                break
            picked.append(rng.choice(free))
        if len(picked) == 5 and evaluate(picked) == evaluate(cards):
            return tuple(rng.sample(picked, 5))
    raise DealError("could not deal an equal hand")


def other_cards(rng: random.Random, used: Collection[Card], count: int) -> tuple[Card, ...]:
    """Random cards not in `used`."""
    return tuple(rng.sample([c for c in FULL_DECK if c not in used], count))


def names(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


def stake_super(
    rng: random.Random, data: dict[str, Any], rules: HouseRules, level: int, used: Collection[Card]
) -> None:
    """Stake the Super where the house makes it compulsory (Lunar: "ante and Super (at least the ante),
    on own or dealer's hand"): on the dealer's hand, or on the player's own first five cards; those
    are the dealt five, so for a player who drew they are rebuilt from the final cards (the drawn
    cards replaced by discards nobody else holds). A dealt royal or straight flush would have been an
    instant payout, so such a box stakes the Super on the dealer's hand instead."""
    if not (rules.super_offered and rules.super_compulsory):
        return
    ante = data["ante"]
    low = max(1, rules.super_min_antes)
    data["super_bet"] = ante * (low if level == 1 else rng.randint(low, low + 2))
    player = tuple(Card.from_text(c) for c in data["player"])
    exchanges = data.get("exchanges", 0)
    dealt: tuple[Card, ...] | None = None
    if rng.random() < 0.5 or not rules.super_on_dealer:
        if len(player) == 6:
            dealt = tuple(rng.sample(player, 5))
        elif exchanges:
            count = rng.randint(rules.exchange_min_cards, min(5, exchanges * rules.exchange_max_cards))
            drawn = set(rng.sample(player, count))
            taken = set(used) | set(player)
            discards = rng.sample([c for c in FULL_DECK if c not in taken], count)
            dealt = (*(c for c in player if c not in drawn), *discards)
        else:
            dealt = player
        if evaluate(dealt).category in rules.instant_odds and (exchanges or len(player) == 6):
            dealt = None
    if dealt is None and rules.super_on_dealer:
        data["super_on_dealer"] = True
        return
    if dealt is None:
        raise DealError("no dealt five for the Super bet on the player's box")
    data["super_on_dealer"] = False
    if dealt != player:
        data["dealt"] = names(dealt)
