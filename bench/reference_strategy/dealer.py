"""The dealer's four hidden cards, counted instead of enumerated (the core of the buy-decision advisor).

For a known up-card and a pool of unseen cards, `DealerModel` holds the exact distribution of the
dealer's hand over all C(len(pool), 4) hidden hands:

- hands that have a game, as a histogram of evaluator strengths (a sorted array with prefix sums, so
  the player's result against all of them is three look-ups);
- hands without a game, grouped by what buying the game would give: how many of the next cards leave
  the dealer without a game, how many give him a game below two pair, and the exact strengths of the
  rest. The player's best reply (take the ante, or buy the game) is then a short loop over groups.

Non-flush hands are counted by rank multiset (a product of binomials over the ranks left in the pool);
only the few suited combinations (a dealer flush, or four suited cards kept after a bought game) are
looked at card by card. Building a model takes a few milliseconds instead of the seconds that walking
163,185 hands and their 42 possible replacement cards would take.

>>> from trainer.engine.cards import parse_cards
>>> known = parse_cards("As Ks Qs Js Ts 2d")
>>> pool = [i for i in range(52) if i not in {c.index for c in known}]
>>> model = DealerModel(parse_cards("2d")[0].index, pool, "highest")
>>> model.hands == 163185 == model.qualifying + model.no_game
True
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from functools import cache
from itertools import accumulate, combinations, combinations_with_replacement
from math import comb

from trainer.engine.evaluator import FLUSH_TABLE, PRODUCT_TABLE

PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)  # the evaluator's rank primes, rank 2..14
# Lowest strengths of ace-king (A-K-5-4-3) and of two pair (3-3-2-2-4), both never suited.
AK_FLOOR = PRODUCT_TABLE[41 * 37 * 5 * 3 * 2]
TWO_PAIR_FLOOR = PRODUCT_TABLE[3 * 3 * 2 * 2 * 5]
_C = tuple(tuple(comb(n, k) for k in range(5)) for n in range(5))

# One rank multiset of hidden cards that leaves the dealer without a game, with what a bought game
# gives. Fields: ranks, hidden rank mask, replaced rank, kept rank mask; next-card ranks that leave no
# game and how many of those ranks are hidden; the same for a game below two pair; (rank, strength,
# hidden) for two pair or better; the kind of each next-card rank (0 = no game, 1 = below two pair,
# 2 = two pair or better); {rank: flush strength} for a next card suited with four kept suited cards.
_NoGame = tuple[
    tuple[int, ...],
    int,
    int,
    int,
    tuple[int, ...],
    int,
    tuple[int, ...],
    int,
    tuple[tuple[int, int, int], ...],
    tuple[int, ...],
    dict[int, int],
]


@cache
def _tables(up_rank: int, replace_highest: bool) -> tuple[list[tuple[int, ...]], list[_NoGame]]:
    """For an up-card rank (0..12): the qualifying multisets as (strength, r1, m1, r2, m2, ...) and the
    non-qualifying ones (always four different ranks, none the up-card's) with their buy outcomes."""
    qualifying: list[tuple[int, ...]] = []
    no_game: list[_NoGame] = []
    for ms in combinations_with_replacement(range(13), 4):
        if ms.count(up_rank) > 3 or any(ms.count(r) > 4 for r in ms):
            continue
        product = PRIMES[up_rank]
        for r in ms:
            product *= PRIMES[r]
        strength = PRODUCT_TABLE[product]
        if strength >= AK_FLOOR:
            flat: list[int] = [strength]
            for r in sorted(set(ms)):
                flat += [r, ms.count(r)]
            qualifying.append(tuple(flat))
            continue
        ranks = (*ms, up_rank)
        replaced = max(ranks) if replace_highest else min(ranks)
        kept = [r for r in ranks if r != replaced]
        kept_product = 1
        kept_mask = 0
        for r in kept:
            kept_product *= PRIMES[r]
            kept_mask |= 1 << r
        hidden_mask = sum(1 << r for r in ms)
        kinds = []
        high = []
        flushes = {}
        for x in range(13):
            s = PRODUCT_TABLE[kept_product * PRIMES[x]]
            kinds.append(0 if s < AK_FLOOR else 1 if s < TWO_PAIR_FLOOR else 2)
            if kinds[-1] == 2:
                high.append((x, s, hidden_mask >> x & 1))
            if not kept_mask >> x & 1:
                flushes[x] = FLUSH_TABLE[kept_mask | 1 << x]
        dead = tuple(x for x in range(13) if kinds[x] == 0)
        low = tuple(x for x in range(13) if kinds[x] == 1)
        dead_hidden = sum(hidden_mask >> x & 1 for x in dead)
        low_hidden = sum(hidden_mask >> x & 1 for x in low)
        no_game.append(
            (
                ms,
                hidden_mask,
                replaced,
                kept_mask,
                dead,
                dead_hidden,
                low,
                low_hidden,
                tuple(high),
                tuple(kinds),
                flushes,
            )
        )
    return qualifying, no_game


class DealerModel:
    """Exact distribution of the dealer's hand for one up-card and one pool of unseen cards.

    `pool` holds card indexes (0..51, rank = i // 4 + 2, suit = i % 4) from which the four hidden cards
    come; a bought game's card comes from what is left. `replace` is "highest" or "lowest".
    """

    def __init__(self, upcard: int, pool: Sequence[int], replace: str) -> None:
        up_rank, up_suit = divmod(upcard, 4)
        avail = [0] * 13
        suit_mask = [0, 0, 0, 0]
        for i in pool:
            r, s = divmod(i, 4)
            avail[r] += 1
            suit_mask[s] |= 1 << r
        self.hands = comb(len(pool), 4)
        self.deck_after = len(pool) - 4  # cards a bought game's card comes from
        qualifying, no_game = _tables(up_rank, replace == "highest")
        hist: dict[int, int] = {}
        c = _C
        a = avail
        for rec in qualifying:
            n = c[a[rec[1]]][rec[2]]
            if len(rec) > 3:
                n *= c[a[rec[3]]][rec[4]]
                if len(rec) > 5:
                    n *= c[a[rec[5]]][rec[6]]
                    if len(rec) > 7:
                        n *= c[a[rec[7]]][rec[8]]
            if n:
                hist[rec[0]] = hist.get(rec[0], 0) + n
        up_mask = suit_mask[up_suit]
        up_prime = PRIMES[up_rank]
        # Four hidden cards in the up-card's suit make a flush: move those single hands out of the
        # non-flush counts (the ones without a game are handled in the loop below).
        up_ranks = [r for r in range(13) if up_mask >> r & 1]
        for four in combinations(up_ranks, 4):
            s = PRODUCT_TABLE[
                PRIMES[four[0]] * PRIMES[four[1]] * PRIMES[four[2]] * PRIMES[four[3]] * up_prime
            ]
            if s >= AK_FLOOR:
                hist[s] -= 1
                f = FLUSH_TABLE[(1 << four[0] | 1 << four[1] | 1 << four[2] | 1 << four[3]) | 1 << up_rank]
                hist[f] = hist.get(f, 0) + 1
        no_game_hands = 0
        present: list[tuple[_NoGame, int]] = []  # records without a game that occur, with their hands
        for record in no_game:
            r1, r2, r3, r4 = record[0]
            n = a[r1] * a[r2] * a[r3] * a[r4]
            if not n:
                continue
            hidden_mask = record[1]
            if hidden_mask & up_mask == hidden_mask:
                # Four hidden cards in the up-card's suit: a flush (or straight flush), always a game.
                s = FLUSH_TABLE[hidden_mask | 1 << up_rank]
                hist[s] = hist.get(s, 0) + 1
                n -= 1
                if not n:
                    continue
            no_game_hands += n
            present.append((record, n))
        self.strengths = sorted(hist)
        self.counts = [hist[s] for s in self.strengths]
        self.below = [0, *accumulate(self.counts)]
        self.qualifying = self.below[-1]
        self.no_game = no_game_hands
        self._present = present
        self._avail = avail
        self._suit_mask = suit_mask
        self._upcard = (up_rank, up_suit)
        self._groups: list[tuple[int, int, int, tuple[tuple[int, int], ...]]] | None = None
        self._high: list[int] = []

    @property
    def groups(self) -> list[tuple[int, int, int, tuple[tuple[int, int], ...]]]:
        """The dealer hands without a game, grouped by what a bought game gives: (hands, next cards
        leaving no game, next cards giving a game below two pair, ((strength, next cards), ...) for the
        rest). Built on first use: a player below two pair never buys the game."""
        if self._groups is None:
            self._build_groups()
        assert self._groups is not None
        return self._groups

    @property
    def high_strengths(self) -> list[int]:
        """Every strength of two pair or better a bought game can reach, ascending: a player's result
        against the dealers without a game depends only on where his hand falls among these."""
        if self._groups is None:
            self._build_groups()
        return self._high

    def _build_groups(self) -> None:
        a = self._avail
        suit_mask = self._suit_mask
        up_rank, up_suit = self._upcard
        up_mask = suit_mask[up_suit]
        get = a.__getitem__
        groups: dict[tuple[int, int, tuple[tuple[int, int], ...]], int] = {}
        for rec, n in self._present:
            _ms, hidden_mask, replaced, kept_mask, dead_r, dead_h, low_r, low_h, high_r, kinds, flushes = rec
            dead = sum(map(get, dead_r)) - dead_h
            low = sum(map(get, low_r)) - low_h
            high = [(s, a[x] - h) for x, s, h in high_r if a[x] - h]
            # Suited draws: the four kept cards share a suit, so a next card of that suit is a flush.
            draws: list[tuple[int, int]] = []  # (hands, mask of suited next-card ranks)
            if replaced != up_rank:
                k3 = hidden_mask & ~(1 << replaced)
                if k3 & up_mask == k3:
                    hands = a[replaced] - (up_mask >> replaced & 1)
                    if hands:
                        draws.append((hands, up_mask & ~kept_mask))
            else:
                for s in range(4):
                    if s != up_suit and hidden_mask & suit_mask[s] == hidden_mask:
                        draws.append((1, suit_mask[s] & ~kept_mask))
            plain = n - sum(h for h, _ in draws)
            if plain:
                key = (dead, low, tuple(high))
                groups[key] = groups.get(key, 0) + plain
            for hands, suited in draws:
                d, lo = dead, low
                hi = dict(high)
                for x, s, _h in high_r:
                    if suited >> x & 1:
                        hi[s] -= 1
                for x in range(13):
                    if suited >> x & 1:
                        kind = kinds[x]
                        if kind == 0:
                            d -= 1
                        elif kind == 1:
                            lo -= 1
                        hi[flushes[x]] = hi.get(flushes[x], 0) + 1
                key = (d, lo, tuple(sorted((s, c) for s, c in hi.items() if c)))
                groups[key] = groups.get(key, 0) + hands
        self._groups = [(hands, dead, low, high) for (dead, low, high), hands in groups.items()]
        self._high = sorted({s for key in groups for s, _n in key[2]})

    def against(self, strength: int) -> tuple[int, int, int]:
        """Qualifying dealer hands below, equal to and above a player's strength.

        >>> from trainer.engine.cards import parse_cards
        >>> pool = [i for i in range(52) if i not in {c.index for c in parse_cards("2c 3d 4h 5s 7c 8d")}]
        >>> m = DealerModel(parse_cards("8d")[0].index, pool, "highest")
        >>> sum(m.against(3000)) == m.qualifying
        True
        """
        i = bisect.bisect_left(self.strengths, strength)
        equal = self.counts[i] if i < len(self.strengths) and self.strengths[i] == strength else 0
        below = self.below[i]
        return below, equal, self.qualifying - below - equal
