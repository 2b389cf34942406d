"""Buying the game: what the player's best reply to a dealer without a game is worth, counted exactly.

A dealer without a game holds five different ranks. If the player buys the game (1 fee), the dealer
replaces his highest (or lowest) card by the next card of the deck. For a player hand with results
`win`, `tie`, `lose`, `fail` (a bought game that still fails) and `no_game` (taking the ante), buying
beats taking the ante exactly when the sum over the cards left in the deck of (result - no_game - fee)
is positive: that sum is the buy's *margin*, and the player's reply is worth
no_game + max(0, margin) / cards left. The *excess* of a draw is the sum of max(0, margin) over the
dealer's hands without a game that avoid the drawn cards.

By rank, a dealer hand's margin depends only on its hidden rank set m and on how many cards of each
rank are left: margin(m) = sum over ranks r of (cards of r left) x (result of drawing r - no_game - fee).
Suits matter in two ways, both few hands: four hidden cards in the up-card's suit are a dealer flush
(a game, so left out of the count), and when the four cards the dealer keeps share a suit, a next
card of that suit makes him a flush ("suited" hands, corrected one by one).

A draw of ranks x leaves avail - x cards of each rank, so every draw of a rank class has the same
rank part; `Profile.class_excess` sums a whole class at once (the suited corrections by the subsets
of the class's ranks whose card of the suit it takes), `Profile.excess` values card-level draws.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from trainer.engine.evaluator import FLUSH_TABLE, PRODUCT_TABLE
from trainer.engine.russian_poker.strategy import tablefile
from trainer.engine.russian_poker.strategy.counting import (
    AK_FLOOR,
    PRIMES,
    FloatArray,
    IntArray,
    binom,
)

_BITS = np.arange(13)


def bits_of(masks: IntArray) -> IntArray:
    """0/1 rank bits (n, 13) of 13-bit masks."""
    return (np.asarray(masks)[..., None] >> _BITS) & 1


@dataclass(frozen=True)
class _NoGame:
    """The dealer's hidden rank sets that leave him without a game, for one up-card rank and one
    replacement rule, with what a bought game brings for each next rank."""

    masks: IntArray  # (n,) hidden rank set as a bit mask
    ranks: IntArray  # (n, 4)
    member: IntArray  # (n, 13): 1 where the rank is hidden
    kept: IntArray  # (n,) the four kept ranks (mask)
    replaced: IntArray  # (n,) the replaced rank
    after: IntArray  # (n, 13) the dealer's strength when the next card has rank r (not suited)
    after_flush: IntArray  # (n, 13) his flush when it also has the kept cards' suit (0: r is kept)
    after_sorted: IntArray  # every value of `after`, sorted (a player hand's band among them)
    after_at: IntArray  # (n, 13) the position of each value of `after` in `after_sorted`
    failing: int  # values of `after_sorted` below ace-king (a bought game that still fails)
    flush_sorted: IntArray  # every value of `after_flush`, sorted


@cache
def no_game_tables(up_rank: int, replace_highest: bool) -> _NoGame:
    """The no-game tables of an up-card rank and replacement rule: read from the table files
    (`tablefile`), built there once."""
    name = f"no-game-{up_rank}-{'highest' if replace_highest else 'lowest'}"
    a = tablefile.load_or_build(name, lambda: _build_no_game_tables(up_rank, replace_highest))
    return _NoGame(failing=int(np.searchsorted(a["after_sorted"], AK_FLOOR)), **a)


def _build_no_game_tables(up_rank: int, replace_highest: bool) -> tablefile.Arrays:
    rows = []
    for hidden in itertools.combinations([r for r in range(13) if r != up_rank], 4):
        product = PRIMES[up_rank]
        for r in hidden:
            product *= PRIMES[r]
        if PRODUCT_TABLE[product] >= AK_FLOOR:
            continue
        five = (*hidden, up_rank)
        out = max(five) if replace_highest else min(five)
        kept = [r for r in five if r != out]
        kept_product = PRIMES[kept[0]] * PRIMES[kept[1]] * PRIMES[kept[2]] * PRIMES[kept[3]]
        kept_mask = sum(1 << r for r in kept)
        after = [PRODUCT_TABLE[kept_product * PRIMES[r]] for r in range(13)]
        flush = [0 if kept_mask >> r & 1 else FLUSH_TABLE[kept_mask | 1 << r] for r in range(13)]
        rows.append((sum(1 << r for r in hidden), hidden, kept_mask, out, after, flush))
    after_all = np.array([r[4] for r in rows], dtype=np.int64)
    flush_all = np.array([r[5] for r in rows], dtype=np.int64)
    masks = np.array([r[0] for r in rows], dtype=np.int64)
    after_sorted = np.unique(after_all)
    return {
        "masks": masks,
        "ranks": np.array([r[1] for r in rows], dtype=np.int64),
        "member": bits_of(masks),
        "kept": np.array([r[2] for r in rows], dtype=np.int64),
        "replaced": np.array([r[3] for r in rows], dtype=np.int64),
        "after": after_all,
        "after_flush": flush_all,
        "after_sorted": after_sorted,
        "after_at": np.searchsorted(after_sorted, after_all),
        "flush_sorted": np.unique(flush_all[flush_all > 0]),
    }


class BuyTables:
    """The no-game dealer hands of one pool, for valuing the buy (see the module docstring).

    Suited hands (kept cards of one suit) are held as arrays, one row per group of hands that differ
    only in the suit of the replaced card: `kind` 2 keeps the up-card and three hidden cards of its
    suit, kind 3 (up-card replaced) four hidden cards of another suit.
    """

    def __init__(self, upcard: int, pool: Sequence[int], avail: IntArray, replace_highest: bool) -> None:
        self.up_rank, self.up_suit = divmod(upcard, 4)
        self.avail = avail
        self.cards = len(pool)
        t = self.tables = no_game_tables(self.up_rank, replace_highest)
        suit_masks = [0, 0, 0, 0]
        for c in pool:
            suit_masks[c % 4] |= 1 << (c // 4)
        self.suit_masks = suit_masks
        us = self.up_suit
        # A hidden rank set all in the up-card's suit is a dealer flush: out of the rank count.
        masks = t.masks
        self.flush_hands = (masks & ~suit_masks[us]) == 0
        present = avail[t.ranks].prod(axis=1) > 0
        rho = t.replaced
        up_kept = rho != self.up_rank
        three = masks & ~(1 << rho)
        su_rho = (suit_masks[us] >> rho) & 1
        others = avail[rho] - su_rho
        kind2 = present & up_kept & ((three & suit_masks[us]) == three) & (others > 0)
        i2 = np.nonzero(kind2)[0]
        parts = [(i2, np.full(len(i2), us), others[i2], (suit_masks[us] & ~t.kept[i2]), rho[i2])]
        for suit in range(4):
            if suit == us:
                continue
            i3 = np.nonzero(present & ~up_kept & ((masks & suit_masks[suit]) == masks))[0]
            parts.append(
                (
                    i3,
                    np.full(len(i3), suit),
                    np.ones(len(i3), dtype=np.int64),
                    suit_masks[suit] & ~masks[i3],
                    np.full(len(i3), -1),
                )
            )
        m_ids = np.concatenate([p[0] for p in parts])
        suits = np.concatenate([p[1] for p in parts])
        counts = np.concatenate([p[2] for p in parts])
        completers = np.concatenate([p[3] for p in parts])
        held = masks[m_ids]
        rho = np.concatenate([p[4] for p in parts])
        self.s_m = m_ids.astype(np.int64)
        self.s_suit = suits.astype(np.int64)
        self.s_count = counts.astype(np.float64)
        self.s_completers = completers.astype(np.int64)
        self.s_held = held.astype(np.int64)  # ranks of the hand's cards (kind 2: incl. the replaced rank)
        self.s_rho = rho.astype(np.int64)  # kind 2: the replaced rank; kind 3: -1
        self.s_suited_held = np.where(
            self.s_rho >= 0, self.s_held & ~(1 << np.maximum(self.s_rho, 0)), self.s_held
        )
        self.s_comp_bits = bits_of(self.s_completers)
        self.held14 = np.concatenate(
            [bits_of(self.s_held), np.zeros((len(self.s_m), 1), dtype=np.int64)], axis=1
        ).ravel()
        # Hands without a game of each rank set (all suits), less the dealer flushes.
        self.hands = avail[t.ranks].prod(axis=1) - self.flush_hands
        # Cards of each rank left once a rank set's are out (as floats: multiplied by float margins).
        self.left = (avail[None, :] - t.member).astype(np.float64)
        self.s_flush = t.after_flush[self.s_m]  # each suited group's dealer flush per next rank

    def profile(
        self, player: int, win: int, tie: int, lose: int, fail: int, threshold: int, *, alike: bool = False
    ) -> Profile | None:
        """The margins for a player hand of strength `player` with these results (units), where
        `threshold` = no_game + fee; None when buying can never pay. The profile serves every hand in
        the same band of the dealer's non-flush strengths; with `alike` (or when the hand is beyond
        every flush the dealer can make) also in the same band of his flushes, and then its flush
        comparisons are shared, else made hand by hand."""
        if max(win, tie, lose, fail) <= threshold:
            return None  # no next card can make buying worth more than the ante
        t = self.tables
        # Each next card's result by where the dealer's strength after it lies against the player's
        # band in `after_sorted`: below it the player wins, above it he loses, in it they tie; a
        # dealer still without a game fails (as `_result`, looked up once per distinct strength).
        lo = int(np.searchsorted(t.after_sorted, player, "left"))
        hi = int(np.searchsorted(t.after_sorted, player, "right"))
        by_band = np.empty(len(t.after_sorted))
        by_band[:lo], by_band[lo:hi], by_band[hi:], by_band[: t.failing] = win, tie, lose, fail
        value = by_band[t.after_at] - threshold
        best = max(win, tie, lose) - threshold  # the most a completed dealer flush can bring
        if value.max() <= 0 and best <= 0:
            return None
        base = np.einsum("ij,ij->i", self.left, value)
        grouped = value[self.s_m]
        shared = None
        if alike or not len(t.flush_sorted) or player < t.flush_sorted[0] or player > t.flush_sorted[-1]:
            # The dealer's flush replaces the rank's result for each completing card.
            f = self.s_flush
            suited = np.where(player > f, win, np.where(player < f, lose, tie)) - threshold
            shared = (suited - grouped) * self.s_comp_bits
            gain = np.maximum(shared, 0).sum(axis=1)
        else:
            gain = (np.maximum(best - grouped, 0) * self.s_comp_bits).sum(axis=1)
        return Profile(self, value, base, (win, tie, lose, threshold), gain, shared)


def _result(player: IntArray | int, dealer: IntArray, win: int, tie: int, lose: int, fail: int) -> FloatArray:
    out = np.where(player > dealer, win, np.where(player < dealer, lose, tie))
    return np.where(dealer < AK_FLOOR, fail, out).astype(np.float64)


@dataclass(frozen=True)
class Profile:
    """Margins of every no-game dealer hand for one band of player hands: `value[m, r]` is (result of
    a next card of rank r) - threshold, `base[m]` the margin with no card drawn by the player;
    `results` = (win, tie, lose, threshold) for the dealer's flushes, `gain[g]` the most the suited
    group g's completions can add to a margin."""

    buy: BuyTables
    value: FloatArray
    base: FloatArray
    results: tuple[int, int, int, int]
    gain: FloatArray
    shared: FloatArray | None  # (groups, 13) deltas when every hand of the profile compares alike

    def _margins(self, counts: IntArray) -> FloatArray:
        return self.base[None, :] - counts.astype(np.float64) @ self.value.T

    def _live(self, margin: FloatArray) -> tuple[IntArray, IntArray]:
        """(row, group) pairs where a suited group's correction may be non-zero."""
        b = self.buy
        rows, groups = np.nonzero(margin[:, b.s_m] + self.gain[None, :] > 0)
        return rows, groups

    def excess(self, draws: Sequence[Sequence[int]], player: IntArray) -> FloatArray:
        """Excess of each card-level draw, for player hands of the given strengths (all in this
        profile's band)."""
        b = self.buy
        t = b.tables
        q = len(draws)
        counts = np.zeros((q, 13), dtype=np.int64)
        suit_masks = np.zeros((q, 4), dtype=np.int64)
        for i, z in enumerate(draws):
            for c in z:
                counts[i, c // 4] += 1
                suit_masks[i, c % 4] |= 1 << (c // 4)
        margin = self._margins(counts)
        positive = np.maximum(margin, 0)
        used = np.nonzero(positive.any(axis=0))[0]
        total = np.zeros(q)
        if len(used):
            ranks = t.ranks[used]
            left = b.avail[None, :] - counts
            hands = left[:, ranks[:, 0]] * left[:, ranks[:, 1]] * left[:, ranks[:, 2]] * left[:, ranks[:, 3]]
            # Less the dealer flush of the rank set, when the draw left its up-suit cards in the deck.
            free = (t.masks[used][None, :] & suit_masks[:, b.up_suit, None]) == 0
            hands = hands - free * b.flush_hands[used][None, :]
            total = (positive[:, used] * hands).sum(axis=1)
        if not len(b.s_m):
            return total
        # Every (draw, suited group) pair, as (q, groups) arrays.
        taken = suit_masks[:, b.s_suit]  # ranks of the draw's cards of the group's suit
        ok = (taken & b.s_suited_held[None, :]) == 0
        rho = np.maximum(b.s_rho, 0)
        # Kind 2: the replaced card may be any card of its rank outside the up-card's suit.
        other = counts[:, rho] - ((suit_masks[:, b.up_suit, None] >> rho[None, :]) & 1)
        count = np.where(b.s_rho[None, :] >= 0, b.s_count[None, :] - other, b.s_count[None, :])
        full = self._full_shifts(player)  # (q, groups): every completer in the deck
        # Less the completers the draw took (few pairs).
        hit_q, hit_g = np.nonzero(taken & b.s_completers[None, :])
        if len(hit_q):
            full[hit_q, hit_g] -= self._taken_shifts(hit_g, player[hit_q], taken[hit_q, hit_g])
        m = margin[:, b.s_m]
        value = ok * count * (np.maximum(m + full, 0) - np.maximum(m, 0))
        return total + value.sum(axis=1)  # type: ignore[no-any-return]

    def _taken_shifts(self, groups: IntArray, player: IntArray, taken: IntArray) -> FloatArray:
        """For (draw, suited group) pairs: the margin change the completing cards the draw took
        would have brought (`taken`: the draw's ranks in the group's suit), one term per card taken
        rather than per rank, since a draw takes few."""
        b = self.buy
        pair, rank = np.nonzero(bits_of(taken & b.s_completers[groups]))
        g = groups[pair]
        if self.shared is not None:
            delta = self.shared[g, rank]
        else:
            win, tie, lose, threshold = self.results
            flush = b.tables.after_flush[b.s_m[g], rank]
            p = player[pair]
            res = np.where(p > flush, win, np.where(p < flush, lose, tie)) - threshold
            delta = res - self.value[b.s_m[g], rank]
        return np.bincount(pair, weights=delta, minlength=len(groups)).astype(np.float64)

    def _full_shifts(self, player: IntArray) -> FloatArray:
        """(players, groups): the margin change of each suited group when all its completers are in
        the deck, for each player hand."""
        if self.shared is not None:
            return np.repeat(self.shared.sum(axis=1)[None, :], len(player), axis=0)
        b = self.buy
        win, tie, lose, threshold = self.results
        levels, inverse = np.unique(player, return_inverse=True)
        g, r = np.nonzero(b.s_comp_bits)
        flush = b.tables.after_flush[b.s_m[g], r]
        v = self.value[b.s_m[g], r]
        groups = len(b.s_m)
        lowest = np.bincount(g, weights=lose - threshold - v, minlength=groups)
        # Players at or above / above each completed flush.
        at = np.searchsorted(levels, flush, "left")  # levels[j] >= flush for j >= at
        above = np.searchsorted(levels, flush, "right")  # levels[j] > flush for j >= above
        width = len(levels) + 1
        n_at = np.bincount(g * width + at, minlength=groups * width).reshape(groups, width).cumsum(axis=1)
        n_above = (
            np.bincount(g * width + above, minlength=groups * width).reshape(groups, width).cumsum(axis=1)
        )
        table = lowest[:, None] + (tie - lose) * n_at[:, :-1] + (win - tie) * n_above[:, :-1]
        return table[:, inverse.ravel()].T  # type: ignore[no-any-return]

    def class_excess(
        self, counts: IntArray, sizes: FloatArray, subsets: Subsets, player: IntArray
    ) -> FloatArray:
        """For draws by rank class (rows of `counts`, `sizes` draws each, player hands of strengths
        `player`), the excess summed over all the draws of each class; `subsets` lists the subsets of
        each row's ranks."""
        b = self.buy
        t = b.tables
        margin = self._margins(counts)
        positive = np.maximum(margin, 0)
        used = np.nonzero(positive.any(axis=0))[0]
        total = np.zeros(len(counts))
        if len(used):
            hands = _hands(b.avail, counts, t.member[used])
            total = (positive[:, used] * hands).sum(axis=1) * sizes
            # Less the dealer flushes: the class's draws that leave all four up-suit cards in the deck
            # (a share prod (a_r - x_r) / a_r of them).
            flush = np.nonzero(b.flush_hands[used])[0]
            if len(flush):
                member = t.member[used[flush]]
                share = hands[:, flush] / (b.avail[None, :] ** member).prod(axis=1)[None, :]
                free = np.rint(share * sizes[:, None])
                total -= (positive[:, used[flush]] * free).sum(axis=1)
        rows, groups = self._live(margin)
        if not len(rows):
            return total
        # Per live (row, group) pair, on the row's distinct ranks (at most five; rank 13 pads): D is
        # the group's hand, A the cards of each rank a draw can take (not D's, completer included).
        assert self.shared is not None  # rank classes are never flushes: they compare alike
        support, mult = subsets.support[rows], subsets.mult[rows]
        at = groups[:, None] * 14 + support
        avail = np.append(b.avail, 0)[support] - b.held14[at]
        n_all = binom(avail, mult).prod(axis=1) * b.s_count[groups]  # the class's draws avoiding D
        delta = np.concatenate([self.shared, np.zeros((len(b.s_m), 1))], axis=1).ravel()[at]
        full = self.shared.sum(axis=1)[groups]
        shift_lo = full - np.maximum(delta, 0).sum(axis=1)
        shift_hi = full - np.minimum(delta, 0).sum(axis=1)
        m = margin[rows, b.s_m[groups]]
        over = m + shift_lo > 0  # buys whatever completers the draw takes
        under = m + shift_hi <= 0  # never buys
        # Uniform pairs are linear in the completers taken: a draw takes the completing card of its
        # rank r with probability x_r / A_r.
        taken = np.rint(n_all[:, None] * mult / np.maximum(avail, 1))
        shifted = n_all * (full + np.minimum(m, 0)) - (delta * taken).sum(axis=1)
        linear = np.where(over, shifted, np.where(under, -n_all * np.maximum(m, 0), 0.0))
        total += np.bincount(rows, weights=linear, minlength=len(counts))
        mixed = np.nonzero(~over & ~under)[0]
        if not len(mixed):
            return total
        rows, groups = rows[mixed], groups[mixed]
        # Expand each mixed pair by the subsets J of the row's ranks that are completer ranks of the
        # group (J: the completing cards the draw takes).
        pair, entry = expand(subsets.start[rows], subsets.stop[rows])
        g = groups[pair]
        keep = (subsets.mask[entry] & ~b.s_completers[g]) == 0
        pair, entry, g = pair[keep], entry[keep], g[keep]
        r = rows[pair]
        jbits = subsets.bits[entry]
        free = b.avail[None, :] - bits_of(b.s_held[g]) - b.s_comp_bits[g]
        n = binom(free, counts[r] - jbits).prod(axis=1) * b.s_count[g]
        shift = (self.shared[g] * (1 - jbits)).sum(axis=1)
        mm = margin[r, b.s_m[g]]
        value = n * (np.maximum(mm + shift, 0) - np.maximum(mm, 0))
        total += np.bincount(r, weights=value, minlength=len(counts))
        return total


def _hands(avail: IntArray, counts: IntArray, member: IntArray) -> FloatArray:
    """(draws, rank sets): prod over the set's ranks of the cards left after the draw, exactly (the
    logarithms are summed by one matrix product; every product is a small whole number)."""
    left = (avail[None, :] - counts).astype(np.float64)
    logs = np.log(np.where(left > 0, left, 1.0))
    empty = (left <= 0).astype(np.float64) @ member.T.astype(np.float64)
    hands = np.rint(np.exp(logs @ member.T.astype(np.float64)))
    return np.where(empty > 0, 0.0, hands)


def expand(start: IntArray, stop: IntArray) -> tuple[IntArray, IntArray]:
    """For ranges start[i]:stop[i], the pairs (i, j) with j in the range, as two flat arrays."""
    lengths = stop - start
    pair = np.repeat(np.arange(len(start)), lengths)
    offsets = np.cumsum(lengths) - lengths
    entry = np.arange(int(lengths.sum())) - np.repeat(offsets, lengths) + np.repeat(start, lengths)
    return pair, entry


@dataclass(frozen=True)
class Subsets:
    """The ranks of each rank class (rows of `counts`): `support` its distinct ranks (padded with 13)
    and `mult` how many cards of each; and its subsets of distinct ranks: rows `start[x]:stop[x]` of
    `mask` / `bits`."""

    start: IntArray
    stop: IntArray
    mask: IntArray
    bits: IntArray
    support: IntArray
    mult: IntArray
