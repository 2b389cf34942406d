"""What each outcome of a Russian poker hand pays, under one house's rules and one box's stakes.

The advisor compares options by exact sums, so every result is a whole number of `unit` chips (the
greatest common divisor of the ante, the bonus and the table maximum). For a final hand the results
are: `win` (the hand beats a qualifying dealer: the bet's pay-table win, two combinations where the
house pays both, the ante win where the house pays one, all capped by the table maximum), `tie`,
`lose` (ante and bet, 3 antes), `no_game` (the dealer does not qualify), `fail` (a bought game that
still fails), `fold`; each with the bonus side bet's result added (which does not depend on the
dealer, except through a table maximum that counts bet and bonus together).

>>> from trainer.engine.russian_poker.rules import load_rules
>>> pay = Payoffs.of(load_rules("cis"), ante=10, bonus=5)
>>> pay.unit, pay.outcomes(strength_of("Jh Jd 4s 4c 9h"))  # two pair: bet 20 pays 40, bonus lost
(5, Outcomes(win=7, tie=-1, lose=-7, no_game=1, fail=1, fold=-3, insure_min=0, insure_max=0))
>>> capped = Payoffs.of(load_rules("insured"), ante=100)  # table maximum 5000: a royal's 20000 is cut
>>> capped.outcomes(strength_of("As Ks Qs Js Ts")).win * capped.unit
5000
"""

from __future__ import annotations

from collections.abc import Sequence
from math import gcd
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from trainer.engine.cards import CARD_BY_INDEX, Card, parse_cards
from trainer.engine.evaluator import CLASS_COUNT, PATTERN, strength5, strength6
from trainer.engine.russian_poker.hands import category_of_strength, second_combination
from trainer.engine.russian_poker.rules import (
    CapScope,
    Category,
    FailedBuy,
    HouseRules,
    InsuranceMax,
    ReplaceCard,
)
from trainer.engine.russian_poker.strategy.counting import AK_FLOOR, rank_product

BET_ANTES = 2  # the rule page: the bet is always exactly 2 x ante


def strength_of(cards: str) -> int:
    """Evaluator strength of five cards given as text (for doctests and tests)."""
    return strength5(*(c.index for c in parse_cards(cards)))


class Outcomes(NamedTuple):
    """A final hand's results in units (see the module docstring); `insure_min`/`insure_max` are the
    insurance stakes the house accepts for it (both 0 when it cannot be insured)."""

    win: int
    tie: int
    lose: int
    no_game: int
    fail: int
    fold: int
    insure_min: int
    insure_max: int


_SECOND_CANDIDATES = (Category.PAIR, Category.TWO_PAIR, Category.THREE_OF_A_KIND, Category.FOUR_OF_A_KIND)


def _second_odds5(rules: HouseRules) -> dict[int, int]:
    """Five-card strengths whose hand has a second paid combination, with its odds (two-combination
    houses). With five cards the second can only use a kicker, so only hands holding an ace and a king
    can have one; the rule engine decides which (a test checks every other strength has none)."""
    out: dict[int, int] = {}
    for s in range(AK_FLOOR, CLASS_COUNT + 1):
        ranks = PATTERN[s]
        if category_of_strength(s) not in _SECOND_CANDIDATES or not {14, 13} <= set(ranks):
            continue
        second = second_combination(_representative(s), rules)
        if second is not None:
            out[s] = rules.bet_odds[second.category]
    return out


def _representative(strength: int) -> list[Card]:
    """Five cards of a non-flush strength class (suits spread so that no flush forms)."""
    ranks = PATTERN[strength]
    order = sorted(set(ranks))
    cards = []
    for r in order:
        for j in range(ranks.count(r)):
            cards.append(CARD_BY_INDEX[(r - 2) * 4 + (order.index(r) + j) % 4])
    return cards


_CACHE: dict[tuple[int, int, int], Payoffs] = {}


class Payoffs:
    """Outcome results of a house for one ante and bonus stake (chips), in units of `unit` chips."""

    def __init__(self, rules: HouseRules, ante: int, bonus: int) -> None:
        self.rules = rules
        self.ante = ante
        self.bonus = bonus
        self.unit = gcd(ante, bonus, rules.table_max_payout)
        self._five: tuple[Outcomes, ...] | None = None
        self._array: npt.NDArray[np.int64] | None = None
        self._by_category: dict[tuple[Category, int, int], Outcomes] = {}
        self._second6: dict[tuple[int, int], int] = {}  # see `_second_odds6`

    @staticmethod
    def of(rules: HouseRules, ante: int = 1, bonus: int = 0) -> Payoffs:
        """The payoffs of a house and stakes (cached: the loader hands out one object per rules file,
        and `HouseRules` holds mappings, so it is not hashable)."""
        if isinstance(ante, bool) or not isinstance(ante, int) or ante < 1:
            raise ValueError(f"ante must be a whole number of chips >= 1, got {ante!r:.40}")
        if isinstance(bonus, bool) or not isinstance(bonus, int) or bonus < 0:
            raise ValueError(f"bonus must be a whole number of chips >= 0, got {bonus!r:.40}")
        if bonus and not rules.bonus_offered:
            raise ValueError(f"{rules.title}: the table offers no bonus bet")
        key = (id(rules), ante, bonus)
        hit = _CACHE.get(key)
        if hit is None or hit.rules is not rules:
            if len(_CACHE) > 256:
                _CACHE.clear()
            hit = _CACHE[key] = Payoffs(rules, ante, bonus)
        return hit

    @property
    def fee(self) -> int:
        """One buy (exchange, sixth card or the game), in units."""
        return self.rules.buy_cost_antes * self.ante // self.unit

    @property
    def insurance_odds(self) -> int:
        return self.rules.insurance_odds

    @property
    def buy_game(self) -> bool:
        return self.rules.buy_game_allowed

    @property
    def replace_highest(self) -> bool:
        return self.rules.buy_game_replaces is ReplaceCard.HIGHEST

    def _bonus(self, category: Category, cards: int, main_paid: int) -> int:
        """The bonus result in chips for a player who bet (or whose bonus stands after a fold)."""
        if not self.bonus:
            return 0
        table = self.rules.bonus_odds6 if cards == 6 else self.rules.bonus_odds5
        odds = table.get(category, 0)
        if not odds:
            return -self.bonus
        win = odds * self.bonus
        cap = self.rules.table_max_payout
        if cap and self.rules.table_max_scope is not CapScope.BET:
            win = min(win, cap if self.rules.table_max_scope is CapScope.EACH else cap - main_paid)
        return win

    def _capped(self, win: int) -> int:
        cap = self.rules.table_max_payout
        return min(win, cap) if cap else win

    def _outcomes(self, category: Category, cards: int, second_odds: int) -> Outcomes:
        key = (category, cards, second_odds)
        found = self._by_category.get(key)
        if found is None:
            found = self._by_category[key] = self._outcomes_of(category, cards, second_odds)
        return found

    def _outcomes_of(self, category: Category, cards: int, second_odds: int) -> Outcomes:
        r = self.rules
        a = self.ante
        odds = r.bet_odds.get(category, 0) + second_odds if category is not Category.HIGH_CARD else 0
        bet_win = odds * BET_ANTES * a
        main = self._capped(bet_win)
        flat = self._bonus(category, cards, 0)
        win = r.win_ante_odds * a + main + self._bonus(category, cards, main)
        no_game = r.no_game_ante_odds * a + flat
        fail = (r.no_game_ante_odds * a if r.buy_game_on_fail is FailedBuy.ANTE_PAID else 0) + flat
        fold = -a + (-self.bonus if r.bonus_requires_bet else flat)
        insure_min = insure_max = 0
        if r.insurance_offered and category.rank >= r.insurance_min_category.rank:
            low = r.insurance_min_antes * a
            high = bet_win if r.insurance_max is InsuranceMax.BET_PAYOUT else r.insurance_max_antes * a
            if low <= high and high > 0:
                insure_min, insure_max = low, high
        u = self.unit
        return Outcomes(
            win // u,
            flat // u,
            (-(1 + BET_ANTES) * a + flat) // u,
            no_game // u,
            fail // u,
            fold // u,
            insure_min // u,
            insure_max // u,
        )

    def outcomes(self, strength: int) -> Outcomes:
        """The results of a five-card final hand of this strength."""
        return self.table5[strength]

    @property
    def table5(self) -> tuple[Outcomes, ...]:
        """`outcomes` of every strength (index 0 unused)."""
        if self._five is None:
            second = _second_odds5(self.rules) if self.rules.two_combinations else {}
            rows = [self._outcomes(Category.HIGH_CARD, 5, 0)]
            rows += [
                self._outcomes(category_of_strength(s), 5, second.get(s, 0))
                for s in range(1, CLASS_COUNT + 1)
            ]
            self._five = tuple(rows)
        return self._five

    @property
    def array5(self) -> npt.NDArray[np.int64]:
        """`table5` as an array (strengths x the eight fields of `Outcomes`)."""
        if self._array is None:
            self._array = np.array(self.table5, dtype=np.int64)
        return self._array

    def outcomes6(self, cards: tuple[Card, ...], strength: int | None = None) -> Outcomes:
        """The results of six cards (after a bought sixth card: the best five play); `strength` is
        their evaluator strength when the caller has it."""
        second = self._second_odds6(cards) if self.rules.two_combinations else 0
        if strength is None:
            strength = strength6(*(c.index for c in cards))
        return self._outcomes(category_of_strength(strength), 6, second)

    def _second_odds6(self, cards: tuple[Card, ...]) -> int:
        """The bet odds of six cards' second combination (0: none). Every combination is made by
        ranks, except a flush, which only the cards of a suit holding five or six can make: so the
        second is the same for any six cards with the same ranks and the same ranks in such a suit
        (the cards correspond one to one), and it is kept by those."""
        masks = [0, 0, 0, 0]
        for c in cards:
            masks[c.index % 4] |= 1 << (c.index // 4)
        suited = max(masks, key=int.bit_count)
        key = (rank_product(c.index // 4 for c in cards), suited if suited.bit_count() >= 5 else 0)
        odds = self._second6.get(key)
        if odds is None:
            if len(self._second6) >= 100_000:
                self._second6.clear()
            combo = second_combination(cards, self.rules)
            odds = self._second6[key] = self.rules.bet_odds[combo.category] if combo is not None else 0
        return odds

    def outcomes6_array(
        self, finals: Sequence[Sequence[int]], strengths: Sequence[int]
    ) -> npt.NDArray[np.int64]:
        """`outcomes6` of six-card hands given as card indexes, with their strengths (hands x 8)."""
        if self.rules.two_combinations:
            rows = [
                self.outcomes6(tuple(CARD_BY_INDEX[i] for i in f), s)
                for f, s in zip(finals, strengths, strict=True)
            ]
        else:  # the results depend on the category alone
            rows = [self._outcomes(category_of_strength(s), 6, 0) for s in strengths]
        return np.array(rows, dtype=np.int64)

    def instant(self, dealt: tuple[Card, ...]) -> int | None:
        """The instant payout (units) when the dealt five are paid at once and the round ends, else None."""
        category = category_of_strength(strength5(*(c.index for c in dealt)))
        odds = self.rules.instant_odds.get(category)
        if odds is None:
            return None
        main = self._capped(odds * self.ante)
        return (main + self._bonus(category, 5, main)) // self.unit
