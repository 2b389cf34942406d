"""Fast poker hand evaluation by precomputed lookups (standard library only).

Every five-card hand falls in one of 7,462 equivalence classes; `strength` numbers them so that a
larger number is a better hand (7462 = royal flush, 1 = 7-5-4-3-2 offsuit). Non-flush hands are keyed
by the product of their rank primes (unique per rank multiset), flushes by their rank bit mask. The
same idea extends to six cards (best 5 of 6) and Omaha (exactly 2 hole + 3 board), so the hot loops
are a few multiplications and dictionary look-ups.

>>> from trainer.engine.cards import parse_cards
>>> h = best_hand(parse_cards("Jh Jd 4s 4c 9h"))
>>> h.category, [str(c) for c in h.cards]
(<Category.TWO_PAIR: 'two_pair'>, ['Jh', 'Jd', '4s', '4c', '9h'])
>>> best_hand(parse_cards("As Ks 2d 3c 4h 5h")).category
<Category.STRAIGHT: 'straight'>
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import combinations, combinations_with_replacement
from typing import Generic, TypeVar

from trainer.engine.cards import CARD_BY_INDEX, Card
from trainer.engine.explain import N_, Worded


class HandCategory(Worded, StrEnum):
    """What every hand category has: an English name (a message id) and that name as a message parameter.

    It has no members of its own: Python's enums cannot add members to one that has some, so the standard
    `Category` below and Russian poker's (the same list with ace-king before high card) each list theirs
    and share this.

    >>> Category.TWO_PAIR.label, str(Category.TWO_PAIR.term)
    ('two pair', 'two pair')
    """

    @property
    def label(self) -> str:
        """English name: "two pair" (a message id)."""
        return CATEGORY_LABELS[self.value]


class Category(HandCategory):
    """Standard hand categories, best first."""

    ROYAL_FLUSH = "royal_flush"
    STRAIGHT_FLUSH = "straight_flush"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FULL_HOUSE = "full_house"
    FLUSH = "flush"
    STRAIGHT = "straight"
    THREE_OF_A_KIND = "three_of_a_kind"
    TWO_PAIR = "two_pair"
    PAIR = "pair"
    HIGH_CARD = "high_card"


CATEGORY_LABELS: Mapping[str, str] = {
    Category.ROYAL_FLUSH: N_("royal flush"),
    Category.STRAIGHT_FLUSH: N_("straight flush"),
    Category.FOUR_OF_A_KIND: N_("four of a kind"),
    Category.FULL_HOUSE: N_("full house"),
    Category.FLUSH: N_("flush"),
    Category.STRAIGHT: N_("straight"),
    Category.THREE_OF_A_KIND: N_("three of a kind"),
    Category.TWO_PAIR: N_("two pair"),
    Category.PAIR: N_("pair"),
    Category.HIGH_CARD: N_("high card"),
}


_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)  # for ranks 2..14
PRIME = tuple(_PRIMES[i // 4] for i in range(52))
SUIT = tuple(i % 4 for i in range(52))
RANKBIT = tuple(1 << (i // 4) for i in range(52))

# Straights by top rank, best first; the wheel A-2-3-4-5 is five-high.
_STRAIGHTS: list[tuple[int, ...]] = [tuple(range(top, top - 5, -1)) for top in range(14, 5, -1)]
_STRAIGHTS.append((5, 4, 3, 2, 14))
_STRAIGHT_SETS = [frozenset(s) for s in _STRAIGHTS]


def _build_classes() -> list[tuple[Category, tuple[int, ...], bool]]:
    """All 7,462 classes, best first, as (category, ranks in order of significance, suited)."""
    ranks_desc = list(range(14, 1, -1))
    distinct = [c for c in combinations(ranks_desc, 5) if frozenset(c) not in _STRAIGHT_SETS]
    out: list[tuple[Category, tuple[int, ...], bool]] = []
    for i, s in enumerate(_STRAIGHTS):
        out.append((Category.ROYAL_FLUSH if i == 0 else Category.STRAIGHT_FLUSH, s, True))
    out += [
        (Category.FOUR_OF_A_KIND, (q,) * 4 + (k,), False) for q in ranks_desc for k in ranks_desc if k != q
    ]
    out += [
        (Category.FULL_HOUSE, (t,) * 3 + (p,) * 2, False) for t in ranks_desc for p in ranks_desc if p != t
    ]
    out += [(Category.FLUSH, c, True) for c in distinct]
    out += [(Category.STRAIGHT, s, False) for s in _STRAIGHTS]
    out += [
        (Category.THREE_OF_A_KIND, (t,) * 3 + ks, False)
        for t in ranks_desc
        for ks in combinations([r for r in ranks_desc if r != t], 2)
    ]
    out += [
        (Category.TWO_PAIR, (hi,) * 2 + (lo,) * 2 + (k,), False)
        for hi, lo in combinations(ranks_desc, 2)
        for k in ranks_desc
        if k not in (hi, lo)
    ]
    out += [
        (Category.PAIR, (p,) * 2 + ks, False)
        for p in ranks_desc
        for ks in combinations([r for r in ranks_desc if r != p], 3)
    ]
    out += [(Category.HIGH_CARD, c, False) for c in distinct]
    return out


_CLASSES = _build_classes()
CLASS_COUNT = len(_CLASSES)  # 7462
# Strength of class i (best first) is CLASS_COUNT - i.
FLUSH_TABLE: dict[int, int] = {}
PRODUCT_TABLE: dict[int, int] = {}
PATTERN: dict[int, tuple[int, ...]] = {}  # strength -> ranks in order of significance
_CATEGORY_FLOOR: list[int] = []  # ascending lowest strength of each category
_CATEGORY_BY_FLOOR: list[Category] = []


def _product(ranks: Iterable[int]) -> int:
    p = 1
    for r in ranks:
        p *= _PRIMES[r - 2]
    return p


for _i, (_cat, _ranks, _suited) in enumerate(_CLASSES):
    _strength = CLASS_COUNT - _i
    PATTERN[_strength] = _ranks
    if _suited:
        mask = 0
        for _r in _ranks:
            mask |= 1 << (_r - 2)
        FLUSH_TABLE[mask] = _strength
    else:
        PRODUCT_TABLE[_product(_ranks)] = _strength
for _i in range(len(_CLASSES) - 1, -1, -1):
    _cat = _CLASSES[_i][0]
    if not _CATEGORY_BY_FLOOR or _CATEGORY_BY_FLOOR[-1] != _cat:
        _CATEGORY_FLOOR.append(CLASS_COUNT - _i)
        _CATEGORY_BY_FLOOR.append(_cat)


def category_of(strength: int) -> Category:
    """The category of a strength number."""
    return _CATEGORY_BY_FLOOR[bisect.bisect_right(_CATEGORY_FLOOR, strength) - 1]


def _best_subtable(size: int) -> tuple[dict[int, int], dict[int, int]]:
    """Best-5 strength for every non-flush rank multiset of `size` cards (by prime product), and for
    every set of `size` suited ranks (by bit mask)."""
    by_product: dict[int, int] = {}
    for multiset in combinations_with_replacement(range(2, 15), size):
        if any(multiset.count(r) > 4 for r in set(multiset)):
            continue
        by_product[_product(multiset)] = max(
            PRODUCT_TABLE[_product(five)] for five in combinations(multiset, 5)
        )
    by_mask: dict[int, int] = {}
    for suited in combinations(range(2, 15), size):
        by_mask[sum(1 << (r - 2) for r in suited)] = max(
            FLUSH_TABLE[sum(1 << (r - 2) for r in five)] for five in combinations(suited, 5)
        )
    return by_product, by_mask


PRODUCT6, FLUSH6 = _best_subtable(6)


def strength5(a: int, b: int, c: int, d: int, e: int) -> int:
    """Strength of five cards given as indexes 0..51."""
    s = SUIT[a]
    if s == SUIT[b] == SUIT[c] == SUIT[d] == SUIT[e]:
        return FLUSH_TABLE[RANKBIT[a] | RANKBIT[b] | RANKBIT[c] | RANKBIT[d] | RANKBIT[e]]
    return PRODUCT_TABLE[PRIME[a] * PRIME[b] * PRIME[c] * PRIME[d] * PRIME[e]]


def strength6(a: int, b: int, c: int, d: int, e: int, f: int) -> int:
    """Strength of the best five of six cards given as indexes 0..51."""
    suits = (SUIT[a], SUIT[b], SUIT[c], SUIT[d], SUIT[e], SUIT[f])
    for s in set(suits):
        n = suits.count(s)
        if n >= 5:
            # Five or six suited cards: at most a pair beside them, so the flush is the best hand.
            mask = 0
            for i in (a, b, c, d, e, f):
                if SUIT[i] == s:
                    mask |= RANKBIT[i]
            return FLUSH_TABLE[mask] if n == 5 else FLUSH6[mask]
    return PRODUCT6[PRIME[a] * PRIME[b] * PRIME[c] * PRIME[d] * PRIME[e] * PRIME[f]]


RANK = tuple(i // 4 for i in range(52))  # 0 (deuce) .. 12 (ace)
# The 91 rank pairs a hole pair can have, and the index of each: PAIR_AT[13 * r1 + r2].
_PAIRS = tuple((r1, r2) for r1 in range(13) for r2 in range(r1, 13))
_PAIR_PRIMES = tuple(_PRIMES[r1] * _PRIMES[r2] for r1, r2 in _PAIRS)
PAIR_AT = [0] * 169
for _k, (_r1, _r2) in enumerate(_PAIRS):
    PAIR_AT[13 * _r1 + _r2] = PAIR_AT[13 * _r2 + _r1] = _k
# Per rank triple (by its prime product, 455 of them): the non-flush strength of each of the 91 hole
# rank pairs with it (0 where the five cards would need five of a rank, which one deck cannot deal).
_TRIPLE_ROWS = {
    _PRIMES[t0] * _PRIMES[t1] * _PRIMES[t2]: tuple(
        PRODUCT_TABLE.get(pair * _PRIMES[t0] * _PRIMES[t1] * _PRIMES[t2], 0) for pair in _PAIR_PRIMES
    )
    for t0, t1, t2 in combinations_with_replacement(range(13), 3)
}
# Per board rank multiset (by its prime product): the best non-flush strength of each hole rank pair
# with three of its cards, the pair by pair maximum of its triples' rows. Filled as boards come (at
# most 6,175 rows of 91, about 5 MB; a row costs about as much as one hand did before it), so later
# hands on a board of those ranks cost six look-ups, not sixty.
_BY_BOARD: dict[int, tuple[int, ...]] = {}


def _board_row(b0: int, b1: int, b2: int, b3: int, b4: int) -> tuple[int, ...]:
    t = _TRIPLE_ROWS
    rows = {
        b0 * b1 * b2,
        b0 * b1 * b3,
        b0 * b1 * b4,
        b0 * b2 * b3,
        b0 * b2 * b4,
        b0 * b3 * b4,
        b1 * b2 * b3,
        b1 * b2 * b4,
        b1 * b3 * b4,
        b2 * b3 * b4,
    }
    row = tuple(map(max, *(t[triple] for triple in rows))) if len(rows) > 1 else t[rows.pop()]
    _BY_BOARD[b0 * b1 * b2 * b3 * b4] = row
    return row


def omaha_strength(hole: Sequence[int], board: Sequence[int]) -> int:
    """Strength of the best Omaha high hand: exactly 2 of the 4 hole and 3 of the 5 board cards."""
    # The hot loop of every Omaha showdown: six look-ups in the board's row (`_BY_BOARD`) for the
    # non-flush hands, then the flush, if the suits allow one.
    p = PRIME
    a, b, c, d = hole
    v, w, x, y, z = board
    row = _BY_BOARD.get(p[v] * p[w] * p[x] * p[y] * p[z])
    if row is None:
        row = _board_row(p[v], p[w], p[x], p[y], p[z])
    r, at = RANK, PAIR_AT
    ra, rb, rc = 13 * r[a], 13 * r[b], 13 * r[c]
    rd = r[d]
    best = max(
        row[at[ra + r[b]]],
        row[at[ra + r[c]]],
        row[at[ra + rd]],
        row[at[rb + r[c]]],
        row[at[rb + rd]],
        row[at[rc + rd]],
    )
    # A flush needs three board cards of one suit (only one suit can have three of five, and one of
    # the first three cards has it) and two hole cards of that suit.
    s = SUIT
    sv, sw, sx, sy, sz = s[v], s[w], s[x], s[y], s[z]
    for suit in (sv, sw, sx):
        if (sv == suit) + (sw == suit) + (sx == suit) + (sy == suit) + (sz == suit) >= 3:
            break
    else:
        return best
    hs = [RANKBIT[i] for i in hole if s[i] == suit]
    if len(hs) < 2:
        return best
    bs = [RANKBIT[i] for i in board if s[i] == suit]
    for hm in combinations(hs, 2):
        hmask = hm[0] | hm[1]
        for bm in combinations(bs, 3):
            f = FLUSH_TABLE[hmask | bm[0] | bm[1] | bm[2]]
            if f > best:
                best = f
    return best


def _order_for_display(five: Sequence[Card], strength: int) -> tuple[Card, ...]:
    """The five cards in order of significance (pair cards first, then kickers; wheel 5-4-3-2-A)."""
    # Cards of one rank keep the order they were given in.
    of_rank: dict[int, list[Card]] = {}
    for card in five:
        of_rank.setdefault(card.rank, []).append(card)
    return tuple(of_rank[rank].pop(0) for rank in PATTERN[strength])


CategoryT = TypeVar("CategoryT", bound=HandCategory)


@dataclass(frozen=True, order=True, slots=True)
class RankedHand(Generic[CategoryT]):
    """Five cards as poker compares them: by `strength` only (suits never break ties), the category
    and the cards beside it. The standard `Hand` below and Russian poker's (whose category may be
    ace-king) are both one."""

    strength: int
    category: CategoryT = field(compare=False)
    cards: tuple[Card, ...] = field(compare=False)


@dataclass(frozen=True, order=True, slots=True)
class Hand(RankedHand[Category]):
    """An evaluated five-card hand. Hands compare by `strength` only: suits never break ties."""

    @property
    def ranks(self) -> tuple[int, ...]:
        """Ranks in order of significance, as the hand is compared."""
        return PATTERN[self.strength]

    def __str__(self) -> str:
        return f"{self.category.value.replace('_', ' ')} ({' '.join(str(c) for c in self.cards)})"


def make_hand(five: Sequence[Card]) -> Hand:
    strength = strength5(*(c.index for c in five))
    return Hand(strength, category_of(strength), _order_for_display(five, strength))


def best_hand(cards: Sequence[Card]) -> Hand:
    """Best five-card hand out of five or more cards."""
    if len(cards) < 5:
        raise ValueError(f"a hand needs at least 5 cards, got {len(cards)}")
    best = max(combinations(cards, 5), key=lambda five: strength5(*(c.index for c in five)))
    return make_hand(best)


def best_omaha_hand(hole: Sequence[Card], board: Sequence[Card]) -> Hand:
    """Best high hand of exactly two hole cards and three board cards."""
    best = max(
        (h + b for h in combinations(hole, 2) for b in combinations(board, 3)),
        key=lambda five: strength5(*(c.index for c in five)),
    )
    return make_hand(best)


def cards_of(indexes: Iterable[int]) -> tuple[Card, ...]:
    return tuple(CARD_BY_INDEX[i] for i in indexes)
