"""What each outcome of a Russian poker hand is worth in antes, read from the house rules.

The advisor values every option in antes with the ante already staked: a fold is -1, a lost bet -3
(ante and the bet of 2 antes), a win against a qualifying dealer the bet's pay-table win plus whatever
the house pays on the ante. The numbers come from the `HouseRules` of `russian_rules` (for
Caribbean Stud, `win_ante_odds` pays the ante 1 to 1 beside the bet).

>>> from trainer.engine.russian_poker.rules import load_rules
>>> terms = Terms.of(load_rules("cis"))
>>> terms.fold, terms.lose, terms.no_game, terms.buy_fee, terms.buy_game
(-1, -3, 1, 1, True)
>>> terms.win[strength_of("Jh Jd 4s 4c 9h")]  # two pair: the bet 2 pays 2 to 1, ante returned
4
>>> Terms.of(load_rules("caribbean")).win[strength_of("Jh Jd 4s 4c 9h")]  # and the ante paid 1 to 1
5
"""

from __future__ import annotations

from dataclasses import dataclass

from reference_strategy.dealer import AK_FLOOR
from trainer.engine.cards import parse_cards
from trainer.engine.evaluator import CLASS_COUNT, PATTERN, category_of, strength5
from trainer.engine.russian_poker.rules import Category, FailedBuy, HouseRules, ReplaceCard

BET_ANTES = 2  # the rule page: the bet is always exactly 2 x ante
FOLD = -1


def strength_of(cards: str) -> int:
    """Evaluator strength of five cards given as text (for doctests and tests)."""
    return strength5(*(c.index for c in parse_cards(cards)))


def _russian_category(strength: int) -> Category:
    base = category_of(strength).value
    if base == "high_card":
        top = PATTERN[strength]
        return Category.ACE_KING if top[0] == 14 and top[1] == 13 else Category.HIGH_CARD
    return Category(base)


@dataclass(frozen=True)
class Terms:
    """Outcome values in antes. `win[strength]` is the player's result when his hand of that strength
    beats a qualifying dealer; every other field is one number."""

    name: str
    win: tuple[int, ...]
    lose: int
    fold: int
    no_game: int
    buy_game: bool
    buy_fee: int
    buy_fail: int  # a bought game that still fails: ante paid (no_game) or returned (0)
    replace: str
    exchange_sizes: tuple[int, ...]
    sixth_card: bool

    @staticmethod
    def of(rules: HouseRules) -> Terms:
        """The terms of a house; `ValueError` for rules the advisor does not model."""
        # HouseRules holds mapping proxies (not hashable); the loader hands out one object per file.
        cached = _CACHE.get(id(rules))
        if cached is None or cached[0] is not rules:
            cached = _CACHE[id(rules)] = (rules, _terms(rules))
        return cached[1]


_CACHE: dict[int, tuple[HouseRules, Terms]] = {}


def _terms(rules: HouseRules) -> Terms:
    if rules.two_combinations:
        raise ValueError(f"{rules.title}: the advisor does not model paying two combinations in one hand")
    if rules.instant_odds:
        raise ValueError(f"{rules.title}: the advisor does not model instant payouts")
    ante_win = rules.win_ante_odds
    win = [0] * (CLASS_COUNT + 1)
    for s in range(AK_FLOOR, CLASS_COUNT + 1):
        win[s] = BET_ANTES * rules.bet_odds[_russian_category(s)] + ante_win
    no_game = rules.no_game_ante_odds
    fee = rules.buy_cost_antes
    if rules.buy_game_allowed and win[AK_FLOOR] and max(win[:_TWO_PAIR]) - fee > no_game:
        # Below two pair we rely on a bought game never paying (true whenever a pair pays at most
        # no-game + fee); a house paying more on a pair would need the slow exact path.
        raise ValueError(
            f"{rules.title}: the advisor does not model buying the game when a pair pays this much"
        )
    return Terms(
        name=rules.name,
        win=tuple(win),
        lose=-(1 + BET_ANTES),
        fold=FOLD,
        no_game=no_game,
        buy_game=rules.buy_game_allowed,
        buy_fee=fee,
        buy_fail=no_game if rules.buy_game_on_fail is FailedBuy.ANTE_PAID else 0,
        replace="highest" if rules.buy_game_replaces is ReplaceCard.HIGHEST else "lowest",
        exchange_sizes=tuple(range(rules.exchange_min_cards, rules.exchange_max_cards + 1))
        if rules.exchange_allowed and rules.max_exchanges
        else (),
        sixth_card=rules.sixth_card_allowed,
    )


_TWO_PAIR = strength_of("3s 3h 2s 2h 4d")
