"""Counting the player's side: the value of betting a hand, and the hands a draw can end in.

`Valuer` turns a `DealerModel` (the dealer's hidden hands, counted) into the exact value in antes of
betting a hand of a given strength, with the player buying the game from a dealer without a game
exactly when that pays more than the sure no-game ante.

`final_strengths` gives, for kept cards and `k` new cards from a pool, how many of the C(len(pool), k)
draws end in each strength: non-flush hands are counted by rank multiset (a product of binomials), the
few all-suited draws one by one.

>>> from trainer.engine.cards import parse_cards
>>> kept = [c.index for c in parse_cards("As Ks Qs Js")]
>>> pool = [i for i in range(52) if i not in kept]
>>> dist = final_strengths(kept, pool, 1)
>>> sum(dist.values()), dist[7462]  # 48 cards; one of them, the ten of spades, makes the royal
(48, 1)
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import comb

from reference_strategy.dealer import PRIMES, TWO_PAIR_FLOOR, DealerModel
from reference_strategy.terms import Terms
from trainer.engine.evaluator import CLASS_COUNT, FLUSH_TABLE, PRODUCT_TABLE, category_of

_FLOORS: dict[str, int] = {}
for _s in range(1, CLASS_COUNT + 1):
    _FLOORS.setdefault(category_of(_s).value, _s)
CATEGORY_FLOOR = tuple([0] + [_FLOORS[category_of(s).value] for s in range(1, CLASS_COUNT + 1)])
_C = tuple(tuple(comb(n, k) for k in range(6)) for n in range(5))


class Valuer:
    """Exact value in antes of betting a hand against one dealer model under one house's terms."""

    def __init__(self, model: DealerModel, terms: Terms, *, coarse: bool = False) -> None:
        self.model = model
        self.terms = terms
        # A coarse valuer treats every hand of two pair or better as the lowest hand of its category
        # against the dealers without a game: not exact, used only as a control value for sampling.
        self.coarse = coarse
        self._no_game_memo: dict[tuple[int, int, bool], float] = {}
        self._memo: dict[int, float] = {}

    def bet(self, strength: int) -> float:
        """Expected result of betting a hand of this evaluator strength."""
        value = self._memo.get(strength)
        if value is None:
            t = self.terms
            below, _equal, above = self.model.against(strength)
            total = t.win[strength] * below + t.lose * above + self._no_game(strength)
            value = self._memo[strength] = total / self.model.hands
        return value

    def play(self, strength: int) -> float:
        """The better of folding and betting."""
        return max(self.terms.fold, self.bet(strength))

    def _no_game(self, strength: int) -> float:
        """Sum over dealer hands without a game of the better of taking the ante and buying the game."""
        t = self.terms
        m = self.model
        if not t.buy_game or strength < TWO_PAIR_FLOOR:
            # Below two pair a bought game never pays (Terms checks the pay table guarantees it).
            return float(t.no_game * m.no_game)
        w = t.win[strength]
        if self.coarse:
            strength = CATEGORY_FLOOR[strength]
        hs = m.high_strengths
        i = bisect.bisect_left(hs, strength)
        key = (w, i, i < len(hs) and hs[i] == strength)
        total = self._no_game_memo.get(key)
        if total is not None:
            return total
        lose = t.lose
        fail = t.buy_fail
        deck = m.deck_after
        threshold = (t.no_game + t.buy_fee) * deck  # buy when the sum over next cards beats this
        total = 0.0
        for hands, dead, low, high in m.groups:
            v = dead * fail + low * w
            for s, n in high:
                if s < strength:
                    v += n * w
                elif s > strength:
                    v += n * lose
            total += hands * (v / deck - t.buy_fee if v > threshold else t.no_game)
        self._no_game_memo[key] = total
        return total


@cache
def _multisets(k: int) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """Every multiset of k ranks (0..12) as (prime product, ((rank, multiplicity), ...))."""
    out = []
    for ms in combinations_with_replacement(range(13), k):
        product = 1
        for r in ms:
            product *= PRIMES[r]
        out.append((product, tuple((r, ms.count(r)) for r in sorted(set(ms)))))
    return tuple(out)


def final_strengths(kept: Sequence[int], pool: Sequence[int], k: int) -> dict[int, int]:
    """How many of the C(len(pool), k) draws of k cards, added to the kept cards (5 in all), end in
    each evaluator strength."""
    if len(kept) + k != 5:
        raise ValueError(f"{len(kept)} kept cards and {k} drawn do not make five")
    avail = [0] * 13
    suit_mask = [0, 0, 0, 0]
    for i in pool:
        r, s = divmod(i, 4)
        avail[r] += 1
        suit_mask[s] |= 1 << r
    kept_product = 1
    kept_mask = 0
    for i in kept:
        kept_product *= PRIMES[i // 4]
        kept_mask |= 1 << (i // 4)
    hist: dict[int, int] = {}
    c = _C
    for product, mult in _multisets(k):
        n = 1
        for r, m in mult:
            n *= c[avail[r]][m]
            if not n:
                break
        if n:
            s = PRODUCT_TABLE[kept_product * product]
            hist[s] = hist.get(s, 0) + n
    # All five suited: move those single draws from their non-flush strength to the flush.
    suits = {i % 4 for i in kept} if kept else {0, 1, 2, 3}
    if len(suits) == 1 or not kept:
        for suit in suits:
            ranks = [r for r in range(13) if suit_mask[suit] >> r & 1]
            for drawn in combinations(ranks, k):
                product = kept_product
                mask = kept_mask
                for r in drawn:
                    product *= PRIMES[r]
                    mask |= 1 << r
                s = PRODUCT_TABLE[product]
                hist[s] -= 1
                f = FLUSH_TABLE[mask]
                hist[f] = hist.get(f, 0) + 1
    return {s: n for s, n in hist.items() if n}
