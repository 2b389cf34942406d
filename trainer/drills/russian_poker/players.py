"""Simulated Russian poker players at the live table: what each box does with its cards.

Players decide "mostly as the strategy engine advises, sometimes as typical amateurs". The exact
advisor (`trainer.engine.russian_poker.strategy.best_options`) takes a median 0.16 s a CIS hand (up to
2 s) on this machine, beyond a round's 50 ms budget, so the bulk of decisions follow `thumb_advice`:
the strategy engine's own rules of thumb for the house (`strategy.summary`, computed from the exact advisor by
`bench/strategy.py --rules-of-thumb` and stored in `data/advisor/rules-of-thumb.json`: at CIS, bet two
pair or better and a pair of 9s or higher, exchange three cards to a lower pair, fold ace-king, buy a
sixth card to four to a flush, fold the rest), the rules the advisor page teaches. A group's edited
copy of a preset has no stored rules of its own: its players follow those of the shipped preset that
sells the same buys (`house_summary`: a CIS copy with another pay table plays CIS's rules of thumb);
a house that matches none falls back to `quick_advice` (bet a pair or better and ace-king, draw to
four to a flush or an open straight, fold the rest). `exact_advice` calls the advisor and has the
same signature, so it can be plugged in (`ADVISORS`) once the advisor is fast. Amateurs fold too
much, buy a sixth card on nothing, bet anything and buy the game with anything. The level sets the
share of amateur decisions.

>>> from trainer.engine.cards import parse_cards
>>> thumb_advice(parse_cards("5h 5d Kc 9s 2h"), parse_cards("Qd")[0], "cis")
Decision(action='exchange', discard=(Card('Kc'), Card('9s'), Card('2h')))
>>> thumb_advice(parse_cards("Ah Kd 7c 5s 2h"), parse_cards("Qd")[0], "cis").action
'fold'
>>> quick_advice(parse_cards("Qh 9h 6h 3h 2c"), parse_cards("Ad")[0], "cis")
Decision(action='sixth_card', discard=())
>>> quick_advice(parse_cards("Jh Jd 4s 4c 9h"), parse_cards("Ad")[0], "cis").action
'bet'
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from trainer.drills.russian_poker.deals import house_rules
from trainer.engine.cards import Card
from trainer.engine.russian_poker import Category, HouseRules, evaluate
from trainer.engine.russian_poker.rules import preset_names
from trainer.engine.russian_poker.strategy.summary import load_summary, rule_for

FOLD, BET, EXCHANGE, SIXTH = "fold", "bet", "exchange", "sixth_card"

# The share of amateur decisions per level (the rest follow the advice).
AMATEUR_SHARE = {1: 0.1, 2: 0.25, 3: 0.45}
# Buying the game pays more than the sure ante only with a strong hand: at about 30% the replaced card
# gives the dealer a game, and then a hand below three of a kind wins less than the ante it gave up.
BUY_GAME_FROM = Category.THREE_OF_A_KIND


@dataclass(frozen=True, slots=True)
class Decision:
    """What a box does with its dealt cards: fold, bet, or first buy (exchange `discard`, sixth card)."""

    action: str
    discard: tuple[Card, ...] = ()


Advice = Callable[[Sequence[Card], Card, HouseRules | str], Decision]


def _rules(rules: HouseRules | str) -> HouseRules:
    return rules if isinstance(rules, HouseRules) else house_rules(rules)


def _draw_buy(cards: Sequence[Card], rules: HouseRules) -> Decision | None:
    """A one-card draw to four to a flush or an open-ended straight, if the house sells one."""
    by_suit: dict[str, list[Card]] = {}
    for c in cards:
        by_suit.setdefault(c.suit, []).append(c)
    odd: Card | None = None
    flush = [s for s, cs in by_suit.items() if len(cs) == 4]
    if flush:
        odd = next(c for c in cards if c.suit != flush[0])
    else:
        ranks = sorted({c.rank for c in cards})
        for low in range(2, 12):
            run = set(range(low, low + 4))
            if run <= set(ranks) and low + 3 < 14:
                odd = next((c for c in cards if c.rank not in run), None)
                break
    if odd is None:
        return None
    if rules.sixth_card_allowed:
        return Decision(SIXTH)
    if rules.exchange_allowed and rules.exchange_min_cards <= 1:
        return Decision(EXCHANGE, (odd,))
    return None


def quick_advice(cards: Sequence[Card], upcard: Card, rules: HouseRules | str) -> Decision:
    """The rule of thumb: bet a pair or better and ace-king, draw one card to four to a flush or to
    an open-ended straight, fold the rest."""
    house = _rules(rules)
    hand = evaluate(cards)
    if hand.category is not Category.HIGH_CARD:
        return Decision(BET)
    return _draw_buy(cards, house) or Decision(FOLD)


ACTIONS = {"fold": FOLD, "bet": BET, "exchange": EXCHANGE, "sixth_card": SIXTH}


def _buys(rules: HouseRules) -> tuple[object, ...]:
    """What a house sells and pays that the rules of thumb turn on: its buys and the ante's win odds."""
    return (
        rules.exchange_allowed,
        rules.exchange_min_cards,
        rules.exchange_max_cards,
        rules.max_exchanges,
        rules.sixth_card_allowed,
        rules.sixth_card_with_exchange,
        rules.buy_game_allowed,
        rules.win_ante_odds,
    )


@functools.lru_cache(maxsize=64)
def house_summary(name: str) -> dict[str, Any] | None:
    """The rules of thumb the players follow at a house: its own stored ones; for a house without
    (a group's edited copy), those of the first shipped preset that sells the same buys; else None.

    >>> house_summary("cis")["house"], house_summary("lunar")["house"]
    ('cis', 'lunar')
    """
    own = load_summary(name)
    if own is not None:
        return own
    wanted = _buys(house_rules(name))
    for shipped in preset_names():
        if shipped != name and _buys(house_rules(shipped)) == wanted:
            found = load_summary(shipped)
            if found is not None:
                return found
    return None


def thumb_advice(cards: Sequence[Card], upcard: Card, rules: HouseRules | str) -> Decision:
    """The strategy engine's rule of thumb for this hand at this house (its stored summary); the
    quick rule where the house has none, or where its rule would buy what the house does not sell."""
    house = _rules(rules)
    summary = house_summary(house.name)
    rule = rule_for(summary, cards, upcard) if summary else None
    if rule is None:
        return quick_advice(cards, upcard, house)
    decision = Decision(ACTIONS[rule.action], tuple(rule.discard))
    sold = house.exchange_min_cards <= len(decision.discard) <= house.exchange_max_cards
    if decision.action == EXCHANGE and not (house.exchange_allowed and sold):
        return quick_advice(cards, upcard, house)
    if decision.action == SIXTH and not house.sixth_card_allowed:
        return quick_advice(cards, upcard, house)
    return decision


def exact_advice(cards: Sequence[Card], upcard: Card, rules: HouseRules | str) -> Decision:
    """The advisor's best option (0.3 to 1 s a hand today)."""
    from trainer.engine.russian_poker import strategy

    best = strategy.options(list(cards), upcard, rules=_rules(rules))[0]
    return Decision(ACTIONS[best.action.value], tuple(best.discard))


ADVISORS: dict[str, Advice] = {"thumb": thumb_advice, "quick": quick_advice, "exact": exact_advice}
# The advice simulated players follow at the live table (see docs/trainees.md, 'Live table').
ADVISOR = "thumb"


def amateur(cards: Sequence[Card], rng: random.Random, rules: HouseRules) -> Decision:
    """A typical amateur: folds a small pair or ace-king, buys a sixth card on nothing, exchanges
    all but his highest card, or bets whatever he holds."""
    hand = evaluate(cards)
    choices = [Decision(BET)]
    if hand.category in (Category.PAIR, Category.ACE_KING, Category.HIGH_CARD):
        choices.append(Decision(FOLD))
    if rules.sixth_card_allowed:
        choices.append(Decision(SIXTH))
    if rules.exchange_allowed:
        keep = max(cards, key=lambda c: c.rank)
        count = min(rules.exchange_max_cards, 4)
        discard = tuple(c for c in cards if c != keep)[:count]
        if len(discard) >= rules.exchange_min_cards:
            choices.append(Decision(EXCHANGE, discard))
    return rng.choice(choices)


def first_decision(
    cards: Sequence[Card], upcard: Card, rules: HouseRules, rng: random.Random, level: int
) -> tuple[Decision, bool]:
    """The box's first decision and whether it was an amateur's."""
    if rng.random() < AMATEUR_SHARE[level]:
        return amateur(cards, rng, rules), True
    return ADVISORS[ADVISOR](cards, upcard, rules), False


def without_draw(cards: Sequence[Card]) -> Decision:
    """When the stock cannot sell the draw the player wanted: bet a pair or ace-king, fold the rest."""
    return Decision(BET if evaluate(cards).category is not Category.HIGH_CARD else FOLD)


def bets_after_draw(cards: Sequence[Card], rng: random.Random, amateur_player: bool) -> bool:
    """After a buy the player bets or folds: with a pair or ace-king; an amateur sometimes anyway."""
    if evaluate(cards).category is not Category.HIGH_CARD:
        return True
    return amateur_player and rng.random() < 0.5


def buys_game(cards: Sequence[Card], rng: random.Random, amateur_player: bool) -> bool:
    """Against a dealer with no game: buy the game with three of a kind or better; an amateur buys it
    with anything half the time."""
    if amateur_player and rng.random() < 0.5:
        return True
    return evaluate(cards).category.rank >= BUY_GAME_FROM.rank
