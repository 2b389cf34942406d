"""Russian poker hands: the standard ranking plus ace-king, and the two-combination rule.

Built on `trainer.engine.evaluator`: a Russian hand keeps the evaluator's strength number (so hands are
totally ordered exactly as poker compares them, suits never breaking ties); only the category differs,
because a no-pair hand holding an ace and a king is the category ace-king. Those hands are exactly the
strongest no-pair hands, so the order by strength is also the order by category.

>>> evaluate("Ah Kd 7c 5s 2h").category, evaluate("Ah Qd 7c 5s 2h").category
(<Category.ACE_KING: 'ace_king'>, <Category.HIGH_CARD: 'high_card'>)
>>> evaluate("Jh Jd 4s 4c 9h") > evaluate("Ah Kd 7c 5s 2h")
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from trainer.engine import evaluator
from trainer.engine.cards import Card, format_cards, parse_cards
from trainer.engine.explain import Cards, Step, step
from trainer.engine.russian_poker.rules import Category, HouseRules, SuperCombination, resolve_rules

CardsLike = str | Iterable[str | Card]

# How many of the ordered cards of a hand make its combination (the rest are kickers).
_SCORING_COUNT = {
    Category.PAIR: 2,
    Category.TWO_PAIR: 4,
    Category.THREE_OF_A_KIND: 3,
    Category.FOUR_OF_A_KIND: 4,
    Category.HIGH_CARD: 0,
}


def named(category: Category, cards: Iterable[Card]) -> Step:
    """A combination named with its cards: "flush (Ad Kd 7d 5d 4d)" in English.

    >>> str(named(Category.PAIR, parse_cards("9c 9h")))
    'pair (9c 9h)'
    """
    return step("{hand} ({cards})", hand=category.term, cards=Cards.of(cards))


def scoring_count(category: Category) -> int:
    """How many cards make a combination of `category` (a second combination is named with these).

    >>> scoring_count(Category.THREE_OF_A_KIND), scoring_count(Category.ACE_KING)
    (3, 2)
    """
    return 2 if category is Category.ACE_KING else _SCORING_COUNT.get(category, 5)


@dataclass(frozen=True, order=True, slots=True)
class Hand(evaluator.RankedHand[Category]):
    """The five cards that play, best first; hands compare by `strength` (evaluator numbering)."""

    @property
    def scoring(self) -> tuple[Card, ...]:
        """The cards that make the combination, without kickers: both pair cards, the ace and the king
        of ace-king, all five of a straight, flush or full house; none for high card."""
        return self.cards[: scoring_count(self.category)]

    @property
    def said(self) -> Step:
        """The hand as a message parameter: its name translated, its cards as the reader writes them."""
        return named(self.category, self.cards)

    def __str__(self) -> str:
        return f"{self.category.label} ({format_cards(self.cards)})"


def category_of_strength(strength: int) -> Category:
    """The Russian poker category of a five-card strength (ace-king is a category of its own).

    >>> category_of_strength(evaluator.strength5(*(c.index for c in parse_cards("As Kd 7c 4h 2s"))))
    <Category.ACE_KING: 'ace_king'>
    """
    base = evaluator.category_of(strength)
    if base is evaluator.Category.HIGH_CARD:
        top = evaluator.PATTERN[strength]
        return Category.ACE_KING if top[0] == 14 and top[1] == 13 else Category.HIGH_CARD
    return Category(base.value)


def _hand_of_five(five: Sequence[Card]) -> Hand:
    h = evaluator.make_hand(five)
    return Hand(h.strength, category_of_strength(h.strength), h.cards)


def evaluate(cards: CardsLike) -> Hand:
    """The Russian poker hand of 5 cards, or the best five of 6 (after a bought sixth card).

    >>> str(evaluate("As Ks 2d 3c 4h 5h"))
    'straight (5h 4h 3c 2d As)'
    >>> evaluate("8h 8d Kc 7s 2c") == evaluate("8s 8c Kd 7h 2d")
    True
    """
    return _hand_of_five(evaluator.best_hand(_hand_cards(cards)).cards)


def _hand_cards(cards: CardsLike) -> tuple[Card, ...]:
    parsed = parse_cards(cards)
    if len(parsed) not in (5, 6):
        raise ValueError(f"a Russian poker hand has 5 or 6 cards, got {len(parsed)}")
    return parsed


def dealer_qualifies(cards: CardsLike) -> bool:
    """Whether the dealer has a game: ace-king or better.

    >>> dealer_qualifies("Ac Kd 7h 5s 2c"), dealer_qualifies("Ac Qd 7h 5s 2c")
    (True, False)
    """
    return evaluate(cards).category.rank >= Category.ACE_KING.rank


_RED = frozenset({"h", "d"})
_STRAIGHTS = (Category.STRAIGHT, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH)
# Super rows that are a poker category of the five cards, whatever their colours.
_SUPER_OF_CATEGORY = {
    Category.FOUR_OF_A_KIND: SuperCombination.FOUR_OF_A_KIND,
    Category.FULL_HOUSE: SuperCombination.FULL_HOUSE,
    Category.FLUSH: SuperCombination.FLUSH,
    Category.STRAIGHT: SuperCombination.STRAIGHT,
    Category.THREE_OF_A_KIND: SuperCombination.THREE_OF_A_KIND,
}


def super_combinations(cards: CardsLike) -> tuple[SuperCombination, ...]:
    """Every row of the Super pay table that five cards make, best first (the Super bet pays the
    best row the house's table has). A straight flush is a same colored straight (and five same
    colored cards); a flush is also five same colored cards.

    >>> [c.value for c in super_combinations("9h 8d 7h 6h 5d")]
    ['same_colored_straight', 'straight', 'same_colored']
    >>> [c.value for c in super_combinations("Ah Kc Qd 7s 2h")], super_combinations("Ah Jc Qd 7s 2h")
    (['ace_king_queen'], ())
    """
    five = parse_cards(cards)
    if len(five) != 5:
        raise ValueError(f"the Super bet is settled on five cards, got {len(five)}")
    category = _hand_of_five(five).category
    one_colour = len({c.suit in _RED for c in five}) == 1
    ranks = {c.rank for c in five}
    made = {
        SuperCombination.SAME_COLORED_STRAIGHT: one_colour and category in _STRAIGHTS,
        SuperCombination.ACE_KING_QUEEN: {14, 13, 12} <= ranks,
        SuperCombination.SAME_COLORED: one_colour,
    }
    if category in _SUPER_OF_CATEGORY:
        made[_SUPER_OF_CATEGORY[category]] = True
    if category in _STRAIGHTS:
        made[SuperCombination.STRAIGHT] = True
    return tuple(c for c in SuperCombination if made.get(c))


_FIVE_CARD = frozenset(
    {Category.FULL_HOUSE, Category.FLUSH, Category.STRAIGHT, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH}
)


def _combinations_in(cards: Sequence[Card]) -> list[tuple[Category, tuple[Card, ...]]]:
    """Every paying combination found in the cards, each with exactly the cards that make it."""
    found: list[tuple[Category, tuple[Card, ...]]] = []
    for a, b in combinations(cards, 2):
        if a.rank == b.rank:
            found.append((Category.PAIR, (a, b)))
        elif {a.rank, b.rank} == {14, 13}:
            found.append((Category.ACE_KING, (a, b)))
    for three in combinations(cards, 3):
        if three[0].rank == three[1].rank == three[2].rank:
            found.append((Category.THREE_OF_A_KIND, three))
    for four in combinations(cards, 4):
        ranks = sorted((c.rank for c in four), reverse=True)
        if ranks[0] == ranks[3]:
            found.append((Category.FOUR_OF_A_KIND, four))
        elif ranks[0] == ranks[1] and ranks[2] == ranks[3]:
            found.append((Category.TWO_PAIR, four))
    for five in combinations(cards, 5):
        category = category_of_strength(evaluator.strength5(*(c.index for c in five)))  # no display order
        if category in _FIVE_CARD:
            found.append((category, five))
    return found


@dataclass(frozen=True, slots=True)
class Combination:
    """A paid combination: its category and exactly the cards that make it."""

    category: Category
    cards: tuple[Card, ...]

    @property
    def said(self) -> Step:
        """The hand as a message parameter: its name translated, its cards as the reader writes them."""
        return named(self.category, self.cards)

    def __str__(self) -> str:
        return f"{self.category.label} ({format_cards(self.cards)})"


def second_combination(cards: CardsLike, rules: HouseRules | str) -> Combination | None:
    """The second combination paid beside the first under the two-combination rule, or None.

    The first combination is the hand's best five (`evaluate`), and its scoring cards are the ones
    that make it (`Hand.scoring`). The second is the combination that pays most on the bet table
    among all combinations in the player's cards (a pair, ace-king, three of a kind, two pair, four of
    a kind: exactly those cards; a straight, flush, full house or straight flush: five cards) that
    use at least one card outside the first's scoring cards. With 5 cards that leaves only the
    kickers, so only a pair or ace-king made with a kicker can be second; with 6 cards the sixth card
    can also complete a second straight, flush, two pair or full house. Only two are ever paid.

    >>> from trainer.engine.russian_poker.rules import load_rules
    >>> lunar = load_rules("lunar")
    >>> str(second_combination("Kh Kd Ks Kc Ah", lunar)), str(second_combination("Ah Ks Kd 3c 5h", lunar))
    ('ace-king (Ah Kh)', 'ace-king (Ah Ks)')
    >>> print(second_combination("Jh Jd 4s 4c 9h", lunar))
    None
    """
    rules = resolve_rules(rules)
    parsed = _hand_cards(cards)
    # The first is the best five (`evaluate`). When several fives are equally best (two straights
    # sharing four ranks) any may be the first: the best second over those choices is the one paid.
    fives = [(evaluator.strength5(*(c.index for c in five)), five) for five in combinations(parsed, 5)]
    top = max(strength for strength, _ in fives)
    firsts = [frozenset(_hand_of_five(five).scoring) for strength, five in fives if strength == top]
    best: Combination | None = None
    for cat, combo in _combinations_in(parsed):
        if all(set(combo) <= scoring for scoring in firsts):
            continue
        if best is None or (rules.bet_odds[cat], cat.rank) > (
            rules.bet_odds[best.category],
            best.category.rank,
        ):
            best = Combination(cat, tuple(sorted(combo, key=lambda c: (-c.rank, c.index))))
    return best
