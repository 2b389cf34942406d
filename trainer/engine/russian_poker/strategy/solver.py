"""Exact values of a player's options: stand (fold, bet, insure), each exchange, the sixth card.

A *stand* is the last decision: fold, bet (and buy the game from a dealer without a game when that
pays: `buying`), or bet and insure. Its value for a final hand is a sum over the dealer's hidden
hands, counted by `dealer.DealerCounts`. A draw's value is the mean over every card-level draw of the
best stand after it; draws are taken a rank class at a time (every draw with the same ranks, any
suits) and split further only where the best stand could differ inside a class:

- the counts of one draw differ from its class's only through the dealer flushes it blocks (the
  up-suit cards it takes), by at most the number of dealer flushes. A class whose best stand is the
  same at both ends of that range is summed as a whole; the others are walked card by card;
- a draw that makes the player a flush is valued on its own.

All sums are whole numbers (results in `Payoffs` units times hand counts), kept exact in float64
(every partial sum stays far below 2^53) and added as Python integers, so ties are exact.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from math import comb

import numpy as np
import numpy.typing as npt

from trainer.engine.cards import CARD_BY_INDEX
from trainer.engine.evaluator import FLUSH_TABLE, PRODUCT_TABLE, strength5, strength6
from trainer.engine.russian_poker.strategy import kernel, tablefile
from trainer.engine.russian_poker.strategy.buying import BuyTables, Profile, Subsets, _result, bits_of, expand
from trainer.engine.russian_poker.strategy.counting import (
    AK_FLOOR,
    FOUR_ID,
    SIGMA_ROW,
    TAU_ROW,
    DealerCounts,
    FloatArray,
    IntArray,
    Lookups,
    binom,
    multisets,
    rank_product,
    submultisets,
    tau_rows,
)
from trainer.engine.russian_poker.strategy.payoffs import Payoffs

FOLD, BET, INSURE = 0, 1, 2
UNDECIDED = -1

_KEYS = np.array(sorted(PRODUCT_TABLE), dtype=np.int64)
_VALUES = np.array([PRODUCT_TABLE[k] for k in sorted(PRODUCT_TABLE)], dtype=np.int64)


def rank_strength(products: IntArray) -> IntArray:
    """Strength of five cards (not a flush) from their rank-prime products."""
    return _VALUES[np.searchsorted(_KEYS, products)]


def strength_of_cards(cards: Sequence[int]) -> int:
    """Strength of 5 cards, or the best five of 6."""
    return strength5(*cards) if len(cards) == 5 else strength6(*cards)


@dataclass(frozen=True)
class _Classes:
    """Every rank class of a draw of k cards, with the inclusion-exclusion terms of each (sorted by
    class: class x owns rows sig_start[x]:sig_stop[x] and sub_start[x]:sub_stop[x])."""

    counts: IntArray  # (n, 13)
    product: IntArray  # (n,)
    index: dict[tuple[int, ...], int]  # sorted ranks -> class
    sig_start: IntArray  # sub-multisets s of the class (at most 4 cards): a hidden hand holding s
    sig_stop: IntArray
    sig_row: IntArray  # table row (-1: four cards, a single hidden hand)
    sig_four: IntArray  # four-card multiset id (when sig_row is -1)
    sig_coef: FloatArray  # (-1)^|s| x the ways to pick s from the class
    sub_start: IntArray  # subsets of the class's distinct ranks: flush blocks, completers taken
    sub_stop: IntArray
    sub_mask: IntArray
    sub_bits: IntArray
    sub_size: IntArray
    support: IntArray  # (n, 5): the class's distinct ranks, padded with 13
    mult: IntArray  # (n, 5): cards of each
    kept_index: dict[tuple[int, ...], int]  # sorted ranks of the 5 - k cards kept -> column of `final`
    final: IntArray  # (n, kept rank multisets): strength of the class's ranks with the kept ranks (0:
    # more than four cards of a rank; a flush is valued apart)
    needs: IntArray  # (4, n): row t, the ranks (bit mask) the class holds more than t cards of

    def feasible(self, avail: IntArray) -> IntArray:
        """The classes a pool with `avail` cards of each rank can deal."""
        short = np.zeros(self.needs.shape[1], dtype=np.int64)
        for t, need in enumerate(self.needs):
            have = sum(1 << r for r in range(13) if avail[r] > t)
            short |= need & ~have
        return np.flatnonzero(short == 0)

    def kept_ids(self, kept_sets: Sequence[Sequence[int]]) -> IntArray:
        """The `final` column of each kept set of cards."""
        return np.array([self.kept_index[tuple(sorted(c // 4 for c in kept))] for kept in kept_sets])


@cache
def draw_classes(k: int) -> _Classes:
    """The rank classes of a draw of k cards: read from the table files (`tablefile`), built there
    once."""
    a = tablefile.load_or_build(f"draw-{k}", lambda: _build_draw_classes(k))
    return _Classes(
        index={x: i for i, x in enumerate(multisets(k))},
        kept_index={m: i for i, m in enumerate(multisets(5 - k))},
        **{name: a[name] for name in _CLASS_ARRAYS},
    )


_CLASS_ARRAYS = (
    "counts",
    "product",
    "sig_start",
    "sig_stop",
    "sig_row",
    "sig_four",
    "sig_coef",
    "sub_start",
    "sub_stop",
    "sub_mask",
    "sub_bits",
    "sub_size",
    "support",
    "mult",
    "final",
    "needs",
)


def _build_draw_classes(k: int) -> tablefile.Arrays:
    xs = multisets(k)
    sig: list[tuple[int, int, int, float]] = []
    subs: list[tuple[int, int, int]] = []
    for i, x in enumerate(xs):
        for s in submultisets(x, 4):
            c = (-1) ** len(s)
            for r in set(s):
                c *= comb(x.count(r), s.count(r))
            if len(s) <= 3:
                sig.append((i, SIGMA_ROW[s], -1, c))
            else:
                sig.append((i, -1, FOUR_ID[s], c))
        ranks = sorted(set(x))
        for size in range(len(ranks) + 1):
            for t in itertools.combinations(ranks, size):
                subs.append((i, sum(1 << r for r in t), size))
    counts = np.zeros((len(xs), 13), dtype=np.int64)
    for i, x in enumerate(xs):
        for r in x:
            counts[i, r] += 1
    sig_x = np.array([t[0] for t in sig], dtype=np.int64)
    sub_x = np.array([t[0] for t in subs], dtype=np.int64)
    sub_mask = np.array([t[1] for t in subs], dtype=np.int64)
    n = np.arange(len(xs))
    kept = multisets(5 - k)
    products = np.array([rank_product(x) for x in xs], dtype=np.int64)
    with_kept = products[:, None] * np.array([rank_product(m) for m in kept], dtype=np.int64)[None, :]
    at = np.minimum(np.searchsorted(_KEYS, with_kept), len(_KEYS) - 1)
    final = np.where(_KEYS[at] == with_kept, _VALUES[at], 0)
    support = np.full((len(xs), 5), 13, dtype=np.int64)
    mult = np.zeros((len(xs), 5), dtype=np.int64)
    for i, x in enumerate(xs):
        for j, r in enumerate(sorted(set(x))):
            support[i, j] = r
            mult[i, j] = x.count(r)
    return {
        "counts": counts,
        "product": products,
        "sig_start": np.searchsorted(sig_x, n, "left"),
        "sig_stop": np.searchsorted(sig_x, n, "right"),
        "sig_row": np.array([t[1] for t in sig], dtype=np.int64),
        "sig_four": np.array([max(t[2], 0) for t in sig], dtype=np.int64),
        "sig_coef": np.array([t[3] for t in sig], dtype=np.float64),
        "sub_start": np.searchsorted(sub_x, n, "left"),
        "sub_stop": np.searchsorted(sub_x, n, "right"),
        "sub_mask": sub_mask,
        "sub_bits": bits_of(sub_mask),
        "sub_size": np.array([t[2] for t in subs], dtype=np.int64),
        "support": support,
        "mult": mult,
        "final": final,
        "needs": np.stack([((counts > t) << np.arange(13)).sum(axis=1) for t in range(4)]),
    }


@dataclass
class Context:
    """One decision: the up-card, the unseen cards, the house's payoffs."""

    up: int
    pool: tuple[int, ...]
    pay: Payoffs
    dealer: DealerCounts = field(init=False)
    buy: BuyTables | None = field(init=False)
    out5: IntArray = field(init=False)
    _profiles: dict[tuple[int, ...], Profile | None] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.dealer = DealerCounts(self.up, self.pool)
        self.buy = (
            BuyTables(self.up, self.pool, self.dealer.avail, self.pay.replace_highest)
            if self.pay.buy_game
            else None
        )
        self.out5 = self.pay.array5  # (7463, 8)

    def profiles(self, strength: IntArray, out: IntArray, *, alike: bool = False) -> list[Profile | None]:
        """Buy margins for player hands of these strengths and results (None where buying the game
        never pays). Hands in the same band of the dealer's strengths after a bought game with the
        same results share one profile; with `alike` only if they also compare alike with every
        dealer flush (`_flush_band`)."""
        if self.buy is None:
            return [None] * len(strength)
        t = self.buy.tables
        columns = [
            np.searchsorted(t.after_sorted, strength, "left"),
            np.searchsorted(t.after_sorted, strength, "right"),
            out[:, :5],
            *self._flush_band(strength, alike),
        ]
        found = []
        for i, key in enumerate(map(tuple, np.column_stack(columns).tolist())):
            if key not in self._profiles:
                win, tie, lose, no_game, fail = key[2:7]
                threshold = no_game + self.pay.fee
                self._profiles[key] = self.buy.profile(
                    int(strength[i]), win, tie, lose, fail, threshold, alike=alike
                )
            found.append(self._profiles[key])
        return found

    def _flush_band(self, strength: IntArray, alike: bool) -> tuple[IntArray, IntArray]:
        """The band of each hand among the dealer's flushes where its profile shares its flush
        comparisons (with `alike`, or beyond every flush: `BuyTables.profile`), else (-1, -1): two
        hands may share a profile only if they share this too."""
        assert self.buy is not None
        f = self.buy.tables.flush_sorted
        lo = np.searchsorted(f, strength, "left")
        hi = np.searchsorted(f, strength, "right")
        shared = np.full(len(strength), alike or not len(f)) | (hi == 0) | (lo == len(f))
        return np.where(shared, lo, -1), np.where(shared, hi, -1)

    def buy_bound(self, strength: IntArray, out: IntArray, k: int) -> FloatArray:
        """For final hands (strengths and results), an upper bound of what buying the game can add
        against one dealer hand without a game (its margin, summed over the next cards, in units),
        whatever k cards the player's draw took: each next card is worth at most the better of its
        rank's result and its suited (dealer flush) result, and the draw can take at most k of the
        cards worth least."""
        bound = np.zeros(len(strength))
        if self.buy is None:
            return bound
        b, t = self.buy, self.buy.tables
        threshold = out[:, 3] + self.pay.fee
        live = np.nonzero(np.maximum(np.maximum(out[:, 0], out[:, 1]), out[:, 4]) > threshold)[0]
        if not len(live):
            return bound
        keys = np.column_stack(
            [
                np.searchsorted(t.after_sorted, strength[live], "left"),
                np.searchsorted(t.after_sorted, strength[live], "right"),
                np.searchsorted(t.flush_sorted, strength[live], "left"),
                np.searchsorted(t.flush_sorted, strength[live], "right"),
                out[live, :5],
            ]
        )
        _unique, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
        left = b.left
        present = (left >= 0).all(axis=1)
        found = np.zeros(len(first))
        for j, i in enumerate(live[first]):
            win, tie, lose, no_game, fail = (int(v) for v in out[i, :5])
            thr = no_game + self.pay.fee
            player = int(strength[i])
            value = _result(player, t.after, win, tie, lose, fail) - thr
            flush = t.after_flush
            suited = np.where(player > flush, win, np.where(player < flush, lose, tie)) - thr
            v_hi = np.where(flush > 0, np.maximum(value, suited), value)
            margin = (np.maximum(left, 0) * v_hi).sum(axis=1) + k * np.maximum(0.0, -v_hi.min(axis=1))
            found[j] = max(0.0, float(margin[present].max(initial=0.0)))
        bound[live] = found[inverse.ravel()]
        return bound

    def draw_lookups(self, draws: Sequence[Sequence[int]]) -> Lookups:
        """Lookups counting, for each card-level draw (all of one size), the hidden hands that avoid
        it."""
        d = self.dealer
        us = d.up_suit
        cls = draw_classes(len(draws[0]))
        c = np.array([cls.index[tuple(sorted(x // 4 for x in z))] for z in draws], dtype=np.int64)
        up_ranks = np.array([sum(1 << (x // 4) for x in z if x % 4 == us) for z in draws], dtype=np.int64)
        pair, entry = expand(cls.sig_start[c], cls.sig_stop[c])
        single = d.tables.four_strength[cls.sig_four[entry]]
        rank = Lookups(pair, cls.sig_row[entry], single, cls.sig_coef[entry])
        pair, entry = expand(cls.sub_start[c], cls.sub_stop[c])
        mask = cls.sub_mask[entry]
        keep = ((mask & ~up_ranks[pair]) == 0) & (cls.sub_size[entry] <= 4)
        return Lookups.join(
            [rank, self._tau_lookups(pair[keep], mask[keep], cls.sub_size[entry][keep], None)]
        )

    def _tau_lookups(
        self, query: IntArray, mask: IntArray, size: IntArray, coef: FloatArray | None
    ) -> Lookups:
        """Flush-correction lookups for up-suit rank sets (coef default: (-1)^size)."""
        t = self.dealer.tables
        weight: FloatArray = np.power(-1.0, size) if coef is None else coef
        small = size <= 3
        big = np.nonzero(~small)[0]
        four = np.array([t.suited_id[int(m)] for m in mask[big]], dtype=np.int64)
        return Lookups.join(
            [
                Lookups(
                    query[small],
                    tau_rows()[mask[small]],
                    np.zeros(int(small.sum()), dtype=np.int64),
                    weight[small],
                ),
                Lookups(query[big], np.full(len(big), -1), t.suited_flush[four], weight[big]),
                Lookups(query[big], np.full(len(big), -1), t.suited_rank[four], -weight[big]),
            ]
        )


@dataclass
class Stand:
    """Numerators (units x hidden hands x deck) of the stand actions for a batch of final hands."""

    fold: FloatArray
    base: FloatArray  # bet, without the value of buying the game
    insure: FloatArray  # bet and insure at the largest stake (-inf where not allowed)


def stand(
    lt: FloatArray,
    le: FloatArray,
    ng: FloatArray,
    strength: IntArray,
    out: IntArray,
    hands: float | FloatArray,
    deck: int,
    odds: int,
) -> Stand:
    """The stand numerators from the counts of hidden hands below / at most / without a game, out of
    `hands` (for sums over a class of draws: the class's draws x hidden hands)."""
    qualifies = strength >= AK_FLOOR
    below = np.where(qualifies, lt - ng, 0.0)
    equal = np.where(qualifies, le - lt, 0.0)
    above = hands - ng - below - equal
    win, tie, lose, no_game, _fail, fold, _imin, imax = (out[:, i].astype(np.float64) for i in range(8))
    base = deck * (win * below + tie * equal + lose * above + no_game * ng)
    insure = np.where(imax > 0, base + deck * imax * (odds * ng - (hands - ng)), -np.inf)
    return Stand(fold * hands * deck, base, insure)


@dataclass(frozen=True)
class Draws:
    """Card-level draws (same size) with the player's final hands: exact best stands."""

    best: FloatArray
    action: IntArray
    stand: Stand
    excess: FloatArray


class Valuation:
    """The values of one state's draws (see the module docstring)."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._kernel: kernel.KernelContext | None = None

    def draws(self, draws: Sequence[Sequence[int]], strengths: Sequence[int], outcomes: IntArray) -> Draws:
        """Exact stands for card-level draws of one size, with the final hands' strengths and results."""
        ctx = self.ctx
        k = len(draws[0])
        n = len(ctx.pool) - k
        hands, deck = comb(n, 4), n - 4
        lookups = ctx.draw_lookups(draws)
        q = len(draws)
        st = np.asarray(strengths, dtype=np.int64)
        d = ctx.dealer
        lt = d.count(lookups, q, st)
        le = d.count(lookups, q, st, inclusive=True)
        ng = d.count(lookups, q, np.full(q, AK_FLOOR))
        s = stand(lt, le, ng, st, outcomes, hands, deck, ctx.pay.insurance_odds)
        excess = self._excess(draws, st, outcomes)
        values = np.stack([s.fold, s.base + excess, s.insure])
        return Draws(values.max(axis=0), values.argmax(axis=0), s, excess)

    def _excess(self, draws: Sequence[Sequence[int]], st: IntArray, outcomes: IntArray) -> FloatArray:
        """Excess of each card-level draw (0 where buying never pays)."""
        ctx = self.ctx
        excess = np.zeros(len(draws))
        if ctx.buy is None:
            return excess
        groups: dict[int, list[int]] = {}
        found: dict[int, Profile] = {}
        for i, prof in enumerate(ctx.profiles(st, outcomes)):
            if prof is not None:
                groups.setdefault(id(prof), []).append(i)
                found[id(prof)] = prof
        for key, members in groups.items():
            excess[members] = found[key].excess([draws[i] for i in members], st[members])
        return excess

    def exchange(self, kept: Sequence[int], k: int) -> Fraction:
        """Mean best stand (in units, before the fee) after discarding all but `kept` and drawing k."""
        return self.exchanges([kept], k)[0]

    def exchanges(self, kept_sets: Sequence[Sequence[int]], k: int, *, bound: bool = False) -> list[Fraction]:
        """`exchange` for several kept sets of one size at once: they share the draw's rank classes,
        whose dealer side depends only on the cards drawn. With `bound`, a quick upper bound of each
        value instead (buying the game counted as if every no-game dealer were bought at the best
        result, a player flush as if it beat every dealer). The compiled kernel values them when it
        is available (`kernel.py`), NumPy alone otherwise (`exchanges_numpy`): the same sums."""
        if kernel.available():
            try:
                return self.exchanges_kernel(kept_sets, k, bound=bound)
            except kernel.KernelLimit:  # a house whose tables exceed the kernel's sizes
                pass
        return self.exchanges_numpy(kept_sets, k, bound=bound)

    def kernel_ready(self) -> bool:
        """The compiled kernel will value this state's exchanges (its tables are built now, so that
        several sizes may be valued at once from threads)."""
        if not kernel.available():
            return False
        if self._kernel is None:
            self._kernel = kernel.kernel_context(self.ctx)
        return True

    def exchanges_kernel(
        self, kept_sets: Sequence[Sequence[int]], k: int, *, bound: bool = False
    ) -> list[Fraction]:
        """`exchanges` by the compiled kernel (kernel.c); with `bound`, the bounds of
        `exchanges_numpy(bound=True)`, in whole numbers."""
        return self.kernel_job(kept_sets, k, bound=bound)()

    def kernel_job(
        self, kept_sets: Sequence[Sequence[int]], k: int, *, bound: bool = False
    ) -> Callable[[], list[Fraction]]:
        """`exchanges_kernel` with its arrays made here (NumPy, under the GIL), as a call that another
        thread may run: the kernel's sums hold no Python lock, so this thread goes on meanwhile.
        The call raises `kernel.KernelLimit` where the kernel cannot value these exchanges."""
        ctx = self.ctx
        cls = draw_classes(k)
        feasible = cls.feasible(ctx.dealer.avail)
        n = len(ctx.pool) - k
        hands, deck = comb(n, 4), n - 4
        opts = len(kept_sets)
        u_class = np.tile(feasible, opts)
        u_option = np.repeat(np.arange(opts, dtype=np.int64), len(feasible))
        u_strength = cls.final[u_class, cls.kept_ids(kept_sets)[u_option]]
        if self._kernel is None:
            self._kernel = kernel.kernel_context(ctx)
        call = kernel.exchange_call(
            self._kernel, ctx, cls, kept_sets, k, (u_class, u_option, u_strength), hands, deck, bound=bound
        )
        den = comb(len(ctx.pool), k) * hands * deck

        def run() -> list[Fraction]:
            return [Fraction(t, den) for t in call()]

        return run

    def exchanges_numpy(
        self, kept_sets: Sequence[Sequence[int]], k: int, *, bound: bool = False
    ) -> list[Fraction]:
        """`exchanges` with NumPy alone (the path the kernel is tested against)."""
        ctx = self.ctx
        d = ctx.dealer
        cls = draw_classes(k)
        avail = d.avail
        feasible = cls.feasible(avail)
        counts = cls.counts[feasible]
        size = binom(avail[None, :], counts).prod(axis=1)
        nx = len(feasible)
        n = len(ctx.pool) - k
        hands, deck = comb(n, 4), n - 4
        odds = ctx.pay.insurance_odds
        opts = len(kept_sets)
        # Rows: (option, class), option-major.
        row_class = np.tile(np.arange(nx), opts)
        row_option = np.repeat(np.arange(opts), nx)
        strength = cls.final[feasible[row_class], cls.kept_ids(kept_sets)[row_option]]
        out = ctx.out5[strength]
        # Counts for the distinct (class, strength) pairs.
        pairs, inverse = np.unique(np.column_stack([row_class, strength]), axis=0, return_inverse=True)
        inverse = inverse.ravel()
        u_class, u_strength = pairs[:, 0], pairs[:, 1]
        u = len(pairs)
        # Rank part (per draw): the class's sub-multisets.
        pair, entry = expand(cls.sig_start[feasible][u_class], cls.sig_stop[feasible][u_class])
        rank = Lookups(
            pair, cls.sig_row[entry], d.tables.four_strength[cls.sig_four[entry]], cls.sig_coef[entry]
        )
        r_lt = d.count(rank, u, u_strength)[inverse]
        r_le = d.count(rank, u, u_strength, inclusive=True)[inverse]
        empty = Lookups(np.arange(u), np.full(u, TAU_ROW[0]), np.zeros(u, dtype=np.int64), np.ones(u))
        c_lt = d.count(empty, u, u_strength)[inverse]
        c_le = d.count(empty, u, u_strength, inclusive=True)[inverse]
        # No game: independent of the player's hand, per class.
        ak = np.full(nx, AK_FLOOR)
        pair, entry = expand(cls.sig_start[feasible], cls.sig_stop[feasible])
        rank = Lookups(
            pair, cls.sig_row[entry], d.tables.four_strength[cls.sig_four[entry]], cls.sig_coef[entry]
        )
        r_ng = d.count(rank, nx, ak)[row_class]
        c_ng = float(
            d.count(
                Lookups(
                    np.zeros(1, dtype=np.int64),
                    np.full(1, TAU_ROW[0]),
                    np.zeros(1, dtype=np.int64),
                    np.ones(1),
                ),
                1,
                ak[:1],
            )[0]
        )
        rsize = size[row_class]
        # Bounds of each action over the draws of a class: each count lies between its rank part plus
        # the full flush correction and its rank part; the value is linear in the three counts, so
        # its bounds are at the corners.
        corners = [
            stand(a, b, c, strength, out, hands, deck, odds)
            for a in (r_lt + c_lt, r_lt)
            for b in (r_le + c_le, r_le)
            for c in (r_ng + c_ng, r_ng)
        ]
        base_lo = np.min([s.base for s in corners], axis=0)
        base_hi = np.max([s.base for s in corners], axis=0)
        ins_lo = np.min([s.insure for s in corners], axis=0)
        ins_hi = np.max([s.insure for s in corners], axis=0)
        fold = corners[0].fold
        if bound:
            # Buying may pay wherever the house sells the game (the bound's buy gain is 0 where no
            # result can pay for it).
            eligible = np.full(len(strength), ctx.buy is not None)
            return self._bounds(
                kept_sets,
                k,
                eligible,
                strength,
                out,
                r_ng,
                base_hi,
                ins_hi,
                fold,
                row_option,
                row_class,
                rsize,
            )
        profiles = ctx.profiles(strength, out, alike=True)
        eligible = np.array([p is not None for p in profiles], dtype=bool)
        # The bet is worth at least `base` (buying is optional); its upper bound is known only when
        # buying never pays.
        bet_hi = np.where(eligible, np.inf, base_hi)
        action = np.select(
            [
                (fold >= bet_hi) & (fold >= ins_hi),
                (base_lo >= fold) & (base_lo >= ins_hi),
                (ins_lo >= fold) & (ins_lo >= bet_hi),
            ],
            [FOLD, BET, INSURE],
            UNDECIDED,
        )
        # Flush corrections (class sums): a draw blocks the dealer flushes through its up-suit cards.
        pair, entry = expand(cls.sub_start[feasible][u_class], cls.sub_stop[feasible][u_class])
        mask = cls.sub_mask[entry]
        keep = ((mask & ~d.up_suit_mask) == 0) & (cls.sub_size[entry] <= 4)
        pair, mask, tsize = pair[keep], mask[keep], cls.sub_size[entry][keep]
        bits = bits_of(mask)
        e = binom(avail[None, :] - bits, counts[u_class[pair]] - bits).prod(axis=1) * (-1.0) ** tsize
        tau = ctx._tau_lookups(pair, mask, tsize, e)
        t_lt = d.count(tau, u, u_strength)[inverse]
        t_le = d.count(tau, u, u_strength, inclusive=True)[inverse]
        pair, entry = expand(cls.sub_start[feasible], cls.sub_stop[feasible])
        mask = cls.sub_mask[entry]
        keep = ((mask & ~d.up_suit_mask) == 0) & (cls.sub_size[entry] <= 4)
        pair, mask, tsize = pair[keep], mask[keep], cls.sub_size[entry][keep]
        bits = bits_of(mask)
        e = binom(avail[None, :] - bits, counts[pair] - bits).prod(axis=1) * (-1.0) ** tsize
        t_ng = d.count(ctx._tau_lookups(pair, mask, tsize, e), nx, ak)[row_class]
        whole = stand(
            rsize * r_lt + t_lt,
            rsize * r_le + t_le,
            rsize * r_ng + t_ng,
            strength,
            out,
            hands * rsize,
            deck,
            odds,
        )
        row_sum = np.select(
            [action == FOLD, action == BET, action == INSURE], [whole.fold, whole.base, whole.insure], 0.0
        )
        # Buying the game: once per (class, profile).
        bets = np.nonzero((action == BET) & eligible)[0]
        by_profile: dict[int, list[int]] = {}
        for r in bets:
            by_profile.setdefault(id(profiles[r]), []).append(int(r))
        for members in by_profile.values():
            prof = profiles[members[0]]
            assert prof is not None
            rows = np.array(members)
            classes, first, back = np.unique(row_class[rows], return_index=True, return_inverse=True)
            static = feasible[classes]
            subsets = Subsets(
                cls.sub_start[static],
                cls.sub_stop[static],
                cls.sub_mask,
                cls.sub_bits,
                cls.support[static],
                cls.mult[static],
            )
            excess = prof.class_excess(counts[classes], size[classes], subsets, strength[rows[first]])
            row_sum[rows] += excess[back.ravel()]
        totals = [0] * opts
        decided = action != UNDECIDED
        sums = np.bincount(row_option[decided], weights=np.rint(row_sum[decided]), minlength=opts)
        totals = [int(x) for x in sums]
        # Flush draws: out of their class (valued there by the class's action), valued on their own.
        where = np.full(len(cls.counts), -1, dtype=np.int64)
        where[feasible] = np.arange(nx)
        flush_sets: list[set[tuple[int, ...]]] = []
        for j, kept in enumerate(kept_sets):
            flushes = self._flush_draws(kept, k)
            flush_sets.append({tuple(sorted(f[0])) for f in flushes})
            if not flushes:
                continue
            draws = [f[0] for f in flushes]
            own = [f[1] for f in flushes]
            totals[j] += int(np.rint(self.draws(draws, own, ctx.out5[own]).best).astype(np.int64).sum())
            of = j * nx + where[[cls.index[tuple(sorted(c // 4 for c in z))] for z in draws]]
            sure = action[of] != UNDECIDED
            if sure.any():
                sub = [z for z, ok in zip(draws, sure, strict=True) if ok]
                rows = of[sure]
                as_class = self.draws(sub, strength[rows], out[rows])
                st_ = as_class.stand
                chosen = np.select(
                    [action[rows] == FOLD, action[rows] == BET, action[rows] == INSURE],
                    [st_.fold, st_.base + as_class.excess, st_.insure],
                )
                totals[j] -= int(np.rint(chosen).astype(np.int64).sum())
        # Classes whose best stand may differ inside: walk their draws.
        for r in np.nonzero(action == UNDECIDED)[0]:
            j = int(row_option[r])
            totals[j] += self._walk(counts[row_class[r]], int(strength[r]), flush_sets[j])
        den = comb(len(ctx.pool), k) * hands * deck
        return [Fraction(t, den) for t in totals]

    def _bounds(
        self,
        kept_sets: Sequence[Sequence[int]],
        k: int,
        eligible: npt.NDArray[np.bool_],
        strength: IntArray,
        out: IntArray,
        r_ng: FloatArray,
        base_hi: FloatArray,
        ins_hi: FloatArray,
        fold: FloatArray,
        row_option: IntArray,
        row_class: IntArray,
        where_sizes: FloatArray,
    ) -> list[Fraction]:
        ctx = self.ctx
        n = len(ctx.pool) - k
        hands, deck = comb(n, 4), n - 4
        bet_hi = base_hi + np.where(eligible, r_ng * ctx.buy_bound(strength, out, k), 0.0)
        best = np.maximum(np.maximum(fold, bet_hi), ins_hi) * where_sizes
        totals = np.bincount(row_option, weights=best, minlength=len(kept_sets))
        for j, kept in enumerate(kept_sets):
            flushes = self._flush_draws(kept, k)
            if not flushes:
                continue
            o = ctx.out5[[f[1] for f in flushes]]
            top = np.maximum(
                o[:, 0], o[:, 3] + np.maximum(0, np.maximum(o[:, 0], o[:, 4]) - ctx.pay.fee - o[:, 3])
            )
            totals[j] += float(np.maximum(top, o[:, 5]).sum()) * hands * deck
            # The flush draws are in their rank classes' bounds too: an extra upper bound is harmless.
        den = comb(len(ctx.pool), k) * hands * deck
        return [Fraction(int(np.ceil(t)), den) for t in totals]

    def _flush_draws(self, kept: Sequence[int], k: int) -> list[tuple[tuple[int, ...], int]]:
        """Card-level draws that make the player's five cards a flush, with the flush's strength."""
        suits = {c % 4 for c in kept}
        if len(suits) > 1:
            return []
        out = []
        for s in suits or {0, 1, 2, 3}:
            cards = [c for c in self.ctx.pool if c % 4 == s]
            for drawn in itertools.combinations(cards, k):
                mask = sum(1 << (c // 4) for c in (*kept, *drawn))
                out.append((drawn, FLUSH_TABLE[mask]))
        return out

    def _walk(self, x: IntArray, strength: int, flushes: set[tuple[int, ...]]) -> int:
        """Sum of the best stand over the draws of one class, card by card (flush draws excluded)."""
        ctx = self.ctx
        by_rank: dict[int, list[int]] = {}
        for card in ctx.pool:
            by_rank.setdefault(card // 4, []).append(card)
        choices = [list(itertools.combinations(by_rank.get(r, []), int(x[r]))) for r in range(13) if x[r]]
        draws = [tuple(sorted(itertools.chain.from_iterable(pick))) for pick in itertools.product(*choices)]
        draws = [z for z in draws if z not in flushes]
        if not draws:
            return 0
        out = np.repeat(ctx.out5[[strength]], len(draws), axis=0)
        return int(np.rint(self.draws(draws, [strength] * len(draws), out).best).astype(np.int64).sum())

    def sixth_card(self, hand: Sequence[int]) -> Fraction:
        """Mean best stand (units, before the fee) after buying a sixth card."""
        ctx = self.ctx
        draws = [(c,) for c in ctx.pool]
        finals = [(*hand, c) for c in ctx.pool]
        strengths = [strength_of_cards(f) for f in finals]
        outcomes = ctx.pay.outcomes6_array(finals, strengths)
        best = self.draws(draws, strengths, outcomes).best
        n = len(ctx.pool) - 1
        return Fraction(int(np.rint(best).astype(np.int64).sum()), len(ctx.pool) * comb(n, 4) * (n - 4))

    def stand_now(self, hand: Sequence[int]) -> tuple[Fraction, Fraction, Fraction | None]:
        """(fold, bet, bet and insure or None) for the player's cards as they are, in units."""
        ctx = self.ctx
        strength = strength_of_cards(hand)
        if len(hand) == 5:
            o = ctx.out5[[strength]]
        else:
            o = np.array([ctx.pay.outcomes6(tuple(CARD_BY_INDEX[i] for i in hand))], dtype=np.int64)
        r = self.draws([()], [strength], o)
        n = len(ctx.pool)
        den = comb(n, 4) * (n - 4)
        s = r.stand
        ins = Fraction(int(np.rint(s.insure[0])), den) if np.isfinite(s.insure[0]) else None
        return (
            Fraction(int(s.fold[0]), den),
            Fraction(int(np.rint(s.base[0] + r.excess[0])), den),
            ins,
        )
