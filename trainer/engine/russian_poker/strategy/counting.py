"""The dealer's hidden cards, counted exactly under any cards the player has drawn.

For the dealer's up-card and a pool of unseen cards, `DealerCounts` answers: among the dealer's
possible hidden hands (four cards from the pool, less the cards a player's draw has taken), how many
rank below, equal to and above a player's hand, and how many leave the dealer without a game.

The counts come from tables built once per pool, then inclusion-exclusion over the drawn cards: the
hands that avoid a set Z of drawn cards are all hands, less those holding one card of Z, plus those
holding two, and so on (at most four: a hidden hand has four cards). Hands holding given cards are
counted by rank: a rank multiset m of hidden cards holding the multiset s occurs
prod_r C(a_r - s_r, m_r - s_r) times (a_r = cards of rank r in the pool). Only suits can spoil that
count, and only through a dealer flush (four hidden cards in the up-card's suit): those hands are
moved from their rank strength to their flush strength by a correction table, by the same rule.

So a whole class of draws (every draw with the same ranks) is counted at once, which is what makes
the exact advisor fast: the five-card exchange has 1,370,754 draws but only 6,175 rank classes.

>>> from trainer.engine.cards import parse_cards
>>> known = [c.index for c in parse_cards("As Ks Qs Js Ts 2d")]
>>> pool = [i for i in range(52) if i not in known]
>>> counts = DealerCounts(known[-1], pool)
>>> counts.hands(), counts.no_game(())  # C(46, 4) hidden hands, and those without ace-king or better
(163185, 74334)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from math import comb

import numpy as np
import numpy.typing as npt

from trainer.engine.evaluator import FLUSH_TABLE, PRODUCT_TABLE
from trainer.engine.russian_poker.strategy import tablefile

PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)  # the evaluator's rank primes, rank 2..14
# Lowest strengths of ace-king (A-K-5-4-3) and of two pair (3-3-2-2-4), both never suited.
AK_FLOOR = PRODUCT_TABLE[41 * 37 * 5 * 3 * 2]
TWO_PAIR_FLOOR = PRODUCT_TABLE[3 * 3 * 2 * 2 * 5]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

# Binomials C(t, b) for t in -8..12 (negative t: the cards are not there, so 0), b in 0..5.
_BINOM = np.array([[comb(t, b) if t >= 0 else 0 for b in range(6)] for t in range(-8, 13)], dtype=np.float64)
_OFF = 8


def binom(top: IntArray | int, bottom: IntArray | int) -> FloatArray:
    """C(top, bottom) elementwise for small arguments (0 when top < 0)."""
    return _BINOM[np.asarray(top) + _OFF, np.asarray(bottom)]  # type: ignore[no-any-return]


@cache
def multisets(size: int) -> tuple[tuple[int, ...], ...]:
    """Every multiset of `size` ranks (0..12), as sorted tuples, no rank more than four times."""
    return tuple(
        m for m in itertools.combinations_with_replacement(range(13), size) if all(m.count(r) <= 4 for r in m)
    )


def submultisets(m: tuple[int, ...], largest: int) -> list[tuple[int, ...]]:
    """The distinct sub-multisets of m with at most `largest` elements."""
    found: set[tuple[int, ...]] = set()
    for k in range(min(len(m), largest) + 1):
        found.update(itertools.combinations(m, k))
    return sorted(found, key=lambda s: (len(s), s))


def rank_product(ranks: Iterable[int]) -> int:
    product = 1
    for r in ranks:
        product *= PRIMES[r]
    return product


# Rows of the count tables: one per multiset of up to three ranks (the cards a counted hand must
# hold), then one per set of up to three up-suit ranks (the flush corrections).
SIGMA_ROW: dict[tuple[int, ...], int] = {
    m: i for i, m in enumerate(m for k in range(4) for m in multisets(k))
}
TAU_ROW: dict[int, int] = {
    sum(1 << r for r in c): len(SIGMA_ROW) + i
    for i, c in enumerate(c for k in range(4) for c in itertools.combinations(range(13), k))
}
ROWS = len(SIGMA_ROW) + len(TAU_ROW)


def mask_table(values: Mapping[int, int], missing: int) -> IntArray:
    """`values` as a lookup array over every 13-bit rank mask (`missing` where it has no value).

    >>> mask_table({0b101: 7}, -1)[[0b101, 0b011]].tolist()
    [7, -1]
    """
    table = np.full(1 << 13, missing, dtype=np.int64)
    for mask, value in values.items():
        table[mask] = value
    return table


@cache
def tau_rows() -> IntArray:
    """`TAU_ROW` as a lookup array: the row of each mask of up to three ranks (-1 otherwise). Shared
    by the NumPy path and the kernel, which only read it."""
    return mask_table(TAU_ROW, -1)


FOURS = multisets(4)
FOUR_ID = {m: i for i, m in enumerate(FOURS)}


_HELD = np.arange(5)[None, :, None]  # s: cards of the rank a counted hand must hold
_IN_HAND = np.arange(5)[None, None, :]  # m: cards of the rank in the hand


_ONE = 13 * 25  # the factor table's entry 1 (an unused slot)
_SUITED = _ONE + 1  # then +1 per set of four up-suit ranks left in the pool, then -1 per set


def factors(avail: IntArray, present: npt.NDArray[np.bool_]) -> FloatArray:
    """A pool's count factors (see `_UpTables.slots`): C(a_r - s, m - s) for every rank r (a_r cards
    of it in the pool) and 0 <= s <= m <= 4 at r * 25 + s * 5 + m (0 where m < s); 1; then for
    each set of four up-suit ranks, 1 if they are all in the pool (`present`), and its negative."""
    top = np.maximum(np.asarray(avail)[:, None, None] - _HELD, -_OFF)
    bottom = _IN_HAND - _HELD
    binoms = (binom(top, np.maximum(bottom, 0)) * (bottom >= 0)).ravel()
    suited = present.astype(np.float64)
    return np.concatenate([binoms, [1.0], suited, -suited])


@dataclass(frozen=True)
class _UpTables:
    """Everything about the dealer's hand that depends only on the up-card's rank."""

    axis: IntArray  # every dealer strength (rank strengths and flushes), ascending
    index: npt.NDArray[np.uint16]  # index[row, j]: entries before (row, axis position j)
    # Entries, sorted by (row, axis position). A rank entry's count is prod C(a_r - s_r, m_r - s_r)
    # over its (rank, s_r, m_r) slots; a flush entry moves one suited hand (+1 or -1) when its four
    # up-suit ranks are all in the pool. Either is a product of four of a pool's `factors`:
    slots: IntArray  # (4, entries) positions in `factors`
    entries: int
    four_strength: IntArray  # rank strength of each 4-multiset of hidden ranks (0: impossible)
    suited_masks: IntArray  # the 495 sets of four up-suit ranks (bit masks)
    suited_rank: IntArray  # their rank strengths
    suited_flush: IntArray  # their flush strengths
    suited_id: dict[int, int]  # mask -> index


@cache
def up_tables(up_rank: int) -> _UpTables:
    """The tables of an up-card rank: read from the table files (`tablefile`), built there once."""
    a = tablefile.load_or_build(f"up-{up_rank}", lambda: _build_up_tables(up_rank))
    return _UpTables(
        axis=a["axis"],
        index=a["index"],
        slots=a["slots"],
        entries=int(a["slots"].shape[1]),
        four_strength=a["four_strength"],
        suited_masks=a["suited_masks"],
        suited_rank=a["suited_rank"],
        suited_flush=a["suited_flush"],
        suited_id={m: i for i, m in enumerate(a["suited_masks"].tolist())},
    )


def _build_up_tables(up_rank: int) -> tablefile.Arrays:
    hidden = [m for m in FOURS if m.count(up_rank) <= 3]
    strength = {m: PRODUCT_TABLE[PRIMES[up_rank] * rank_product(m)] for m in hidden}
    others = [r for r in range(13) if r != up_rank]
    suited = list(itertools.combinations(others, 4))
    masks = [sum(1 << r for r in d) for d in suited]
    s_rank = [PRODUCT_TABLE[PRIMES[up_rank] * rank_product(d)] for d in suited]
    s_flush = [FLUSH_TABLE[mask | 1 << up_rank] for mask in masks]
    axis = np.array(sorted(set(strength.values()) | set(s_flush)), dtype=np.int64)
    pos = {int(v): i for i, v in enumerate(axis)}
    keys: list[tuple[int, int, int, int]] = []  # (row, position, kind, payload)
    slots: list[list[tuple[int, int, int]]] = []
    for m in hidden:
        support = sorted(set(m))
        for s in submultisets(m, 3):
            keys.append((SIGMA_ROW[s], pos[strength[m]], 0, len(slots)))
            slot = [(r, s.count(r), m.count(r)) for r in support]
            slots.append(slot + [(0, 0, 0)] * (4 - len(slot)))
    flush_keys: list[tuple[int, int, int, int, int]] = []
    for d_id, d in enumerate(suited):
        for k in range(4):
            for t in itertools.combinations(d, k):
                row = TAU_ROW[sum(1 << r for r in t)]
                flush_keys.append((row, pos[s_flush[d_id]], 1, d_id, 1))
                flush_keys.append((row, pos[s_rank[d_id]], 1, d_id, -1))
    all_keys = [(*k, 0) for k in keys] + flush_keys
    all_keys.sort(key=lambda k: (k[0], k[1]))
    rank_at = [i for i, k in enumerate(all_keys) if k[2] == 0]
    flush_at = [i for i, k in enumerate(all_keys) if k[2] == 1]
    width = len(axis) + 1
    flat = np.array([k[0] * width + k[1] for k in all_keys], dtype=np.int64)
    grid = np.arange(ROWS, dtype=np.int64)[:, None] * width + np.arange(width, dtype=np.int64)[None, :]
    index = np.searchsorted(flat, grid).astype(np.uint16)
    factor_slots = np.full((4, len(all_keys)), _ONE, dtype=np.int64)
    factor_slots[:, rank_at] = (np.array([slots[all_keys[i][3]] for i in rank_at]) @ [25, 5, 1]).T
    flush_of = np.array([all_keys[i][3] for i in flush_at], dtype=np.int64)
    negative = np.array([all_keys[i][4] < 0 for i in flush_at])
    factor_slots[0, flush_at] = _SUITED + flush_of + negative * len(suited)
    fours = np.zeros(len(FOURS), dtype=np.int64)
    for m in hidden:
        fours[FOUR_ID[m]] = strength[m]
    return {
        "axis": axis,
        "index": index,
        "slots": factor_slots,
        "four_strength": fours,
        "suited_masks": np.array(masks, dtype=np.int64),
        "suited_rank": np.array(s_rank, dtype=np.int64),
        "suited_flush": np.array(s_flush, dtype=np.int64),
    }


@dataclass
class Lookups:
    """A batch of counting queries, each a signed sum of table look-ups (see `DealerCounts.count`).

    Term i belongs to query `query[i]`; it reads table row `row[i]`, or (row -1) is the single hidden
    hand of strength `single[i]`, and is weighted by `coef[i]`.
    """

    query: IntArray
    row: IntArray
    single: IntArray
    coef: FloatArray

    @staticmethod
    def join(parts: Sequence[Lookups]) -> Lookups:
        return Lookups(
            np.concatenate([t.query for t in parts]),
            np.concatenate([t.row for t in parts]),
            np.concatenate([t.single for t in parts]),
            np.concatenate([t.coef for t in parts]),
        )


class DealerCounts:
    """Exact counts of the dealer's hidden hands for one up-card and one pool of unseen cards."""

    def __init__(self, upcard: int, pool: Sequence[int]) -> None:
        self.up_rank, self.up_suit = divmod(upcard, 4)
        self.pool = tuple(pool)
        cards = np.array(self.pool, dtype=np.int64)
        self.avail = avail = np.bincount(cards // 4, minlength=13)
        self.up_suit_mask = up_suit_mask = sum(1 << int(i // 4) for i in cards[cards % 4 == self.up_suit])
        t = self.tables = up_tables(self.up_rank)
        table = factors(avail, (t.suited_masks & ~up_suit_mask) == 0)
        cum = np.empty(t.entries + 1, dtype=np.float64)  # cum[i]: the counts of the entries before i
        cum[0] = 0.0
        w = cum[1:]
        np.take(table, t.slots[0], out=w)
        for slot in t.slots[1:]:
            w *= table.take(slot)
        np.cumsum(cum, out=cum)
        self.cum = cum

    def hands(self, removed: int = 0) -> int:
        """Hidden hands when `removed` pool cards are out of reach."""
        return comb(len(self.pool) - removed, 4)

    def lo(self, strengths: IntArray) -> IntArray:
        """Axis positions: counts at `lo` are of hands strictly below each strength."""
        return np.searchsorted(self.tables.axis, strengths, "left")

    def hi(self, strengths: IntArray) -> IntArray:
        return np.searchsorted(self.tables.axis, strengths, "right")

    def count(
        self, terms: Lookups, queries: int, strengths: IntArray, *, inclusive: bool = False
    ) -> FloatArray:
        """For each query q: sum over its terms of coef x (hidden hands of the term below
        strengths[q], or at most strengths[q] with `inclusive`)."""
        s = strengths[terms.query]
        j = (self.hi if inclusive else self.lo)(strengths)[terms.query]
        t = self.tables
        table = terms.row >= 0
        rows = np.where(table, terms.row, 0)
        looked = self.cum[t.index[rows, j]] - self.cum[t.index[rows, 0]]
        single = (terms.single <= s) if inclusive else (terms.single < s)
        values = np.where(table, looked, single)
        sums = np.bincount(terms.query, weights=terms.coef * values, minlength=queries)
        return np.asarray(sums, dtype=np.float64)

    def removal_lookups(self, removals: Sequence[Sequence[int]]) -> Lookups:
        """Terms counting, for each card-level removal Z, the hidden hands that avoid Z."""
        query: list[int] = []
        row: list[int] = []
        single: list[int] = []
        coef: list[float] = []
        t = self.tables
        for q, z in enumerate(removals):
            ranks = tuple(sorted(c // 4 for c in z))
            for s in submultisets(ranks, 4):
                c = (-1) ** len(s)
                for r in set(s):
                    c *= comb(ranks.count(r), s.count(r))
                query.append(q)
                coef.append(c)
                if len(s) <= 3:
                    row.append(SIGMA_ROW[s])
                    single.append(0)
                else:
                    row.append(-1)
                    single.append(int(t.four_strength[FOUR_ID[s]]))
            suited = sorted(c // 4 for c in z if c % 4 == self.up_suit)
            for k in range(min(len(suited), 4) + 1):
                for tau in itertools.combinations(suited, k):
                    mask = sum(1 << r for r in tau)
                    if k <= 3:
                        query.append(q)
                        coef.append((-1) ** k)
                        row.append(TAU_ROW[mask])
                        single.append(0)
                    else:
                        d = t.suited_id[mask]
                        query += [q, q]
                        coef += [1.0, -1.0]
                        row += [-1, -1]
                        single += [int(t.suited_flush[d]), int(t.suited_rank[d])]
        return Lookups(
            np.array(query, dtype=np.int64),
            np.array(row, dtype=np.int64),
            np.array(single, dtype=np.int64),
            np.array(coef, dtype=np.float64),
        )

    def no_game(self, removed: Sequence[int]) -> int:
        """Hidden hands without a game among those avoiding the removed cards."""
        terms = self.removal_lookups([removed])
        return int(self.count(terms, 1, np.array([AK_FLOOR]))[0])
