"""Buy decisions in Russian poker: the exact value in antes of every option a player has.

For the player's five cards and the dealer's up-card, `options` values folding, betting now (and
betting and insuring, where the house offers insurance), each exchange the house allows and buying a
sixth card, best first, in antes with the ante already staked. After a draw the player makes the best
of every later choice the rules give him: fold, bet or bet and insure; when the dealer shows no game,
buy the game exactly when that pays more than the ante. Every value is an exact mean over all the
unseen cards (the draws, the dealer's four hidden cards, the card a bought game brings): no sampling,
so two options are `equivalent` only when their values are equal to the last chip (`Option.exact`
holds the value as a fraction).

House rules come from `data/rules/russian-poker/` (or any file the loader accepts): pay tables, two
combinations, the ante paid on a win, buys and their cost, which dealer card a bought game replaces,
insurance, the table maximum (which caps what the bet and the bonus can win, so it depends on the
`ante` and `bonus` stakes in chips), instant payouts (a dealt hand the house pays at once has a single
option). Lunar's Super bet is settled on the dealt cards whatever the player does: `advise` shows it
beside the options.

Four to a flush, no pair, no ace-king, against an ace: a sixth card is worth a little more than
exchanging the odd card (it keeps the deuce, which can still pair), and both far more than folding.

>>> [(o.label, round(o.ev, 4)) for o in best_options("Qh 9h 6h 3h 2c", "Ad")]
[('sixth card', -0.1516)]
>>> round(bet_value("As Ks Qs Js Ts", "2d"), 2)  # a royal flush bets: the dealer qualifies 56% of the time
134.84
"""

from __future__ import annotations

import concurrent.futures
import itertools
import os
import random
import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction

from trainer.engine.cards import CARD_BY_INDEX, Card, format_cards, parse_cards
from trainer.engine.russian_poker.rules import HouseRules, SuperCombination, resolve_rules
from trainer.engine.russian_poker.settlement import super_row
from trainer.engine.russian_poker.strategy import kernel
from trainer.engine.russian_poker.strategy.payoffs import Payoffs
from trainer.engine.russian_poker.strategy.solver import Context, Valuation

TOLERANCE = 0.0  # antes: only exact ties are equally good (kept for callers of the old estimate)


class Action(StrEnum):
    FOLD = "fold"
    BET = "bet"
    INSURE = "insure"  # bet, and insure the bet against the dealer having no game (largest stake)
    EXCHANGE = "exchange"
    SIXTH_CARD = "sixth_card"
    INSTANT = "instant_payout"  # a dealt hand the house pays at once: the round is over


_LABELS = {
    Action.FOLD: "fold",
    Action.BET: "bet",
    Action.INSURE: "bet and insure",
    Action.SIXTH_CARD: "sixth card",
    Action.INSTANT: "instant payout",
}


@dataclass(frozen=True)
class Option:
    """One option: `ev` in antes (ante already staked); `equivalent` when it is worth exactly as much
    as the best; `exact` the value as a fraction of an ante; `stderr` is always 0 (exact)."""

    action: Action
    discard: tuple[Card, ...]
    ev: float
    stderr: float = 0.0
    equivalent: bool = False
    exact: Fraction = Fraction(0)

    @property
    def label(self) -> str:
        """ "fold", "bet", "bet and insure", "sixth card" or "exchange 7c 4d"."""
        if self.action is Action.EXCHANGE:
            return f"exchange {format_cards(self.discard)}"
        return _LABELS[self.action]

    def to_json(self) -> dict[str, object]:
        return {
            "action": self.action.value,
            "discard": [str(c) for c in self.discard],
            "label": self.label,
            "ev": self.ev,
            "exact": f"{self.exact.numerator}/{self.exact.denominator}",
            "stderr": 0.0,
            "equivalent": self.equivalent,
        }


@dataclass(frozen=True)
class SuperResult:
    """Lunar's Super bet on the player's dealt five: the row it pays (None: it loses), the odds and
    the result in antes for a Super stake of `stake` antes. Settled whatever the player does."""

    row: SuperCombination | None
    odds: int
    stake: int
    result: int


@dataclass(frozen=True)
class Advice:
    """The options of a hand, best first, and what the decision does not change."""

    options: tuple[Option, ...]
    super_bet: SuperResult | None

    @property
    def best(self) -> Option:
        return self.options[0]


def parse_situation(
    player: str | Iterable[str | Card], upcard: str | Card, dead: str | Iterable[str | Card] = ()
) -> tuple[tuple[Card, ...], Card, tuple[Card, ...]]:
    """The player's cards (5, or 6 after a sixth card), the dealer's up-card and cards known to be out
    of play (discards); `ValueError` for bad or repeated cards."""
    hand = parse_cards(player)
    if len(hand) not in (5, 6):
        raise ValueError(f"the player holds 5 cards (6 after buying a sixth card), not {len(hand)}")
    up = parse_cards([upcard] if isinstance(upcard, Card) else upcard)
    if len(up) != 1:
        raise ValueError(f"the dealer shows one up-card, not {len(up)}")
    out = parse_cards(dead)
    parse_cards([*hand, *up, *out])  # raises on a card given twice
    return hand, up[0], out


def bet_value(
    player: str | Iterable[str | Card],
    upcard: str | Card,
    *,
    dead: str | Iterable[str | Card] = (),
    rules: HouseRules | str | None = None,
) -> float:
    """Exact expected result in antes of betting (folding is -1), for 5 cards, or 6 after a bought
    sixth card; `dead` are cards known to be out of play (the player's discards). Buying the game is
    included; insurance is not (see `options`).

    >>> round(bet_value("2c 3d 4h 5s 7c", "Ad"), 4)  # seven-high never beats a dealer with a game
    -1.7441
    """
    hand, up, out = parse_situation(player, upcard, dead)
    pay = Payoffs.of(resolve_rules(rules))
    known = {c.index for c in (*hand, up, *out)}
    ctx = Context(up.index, tuple(i for i in range(52) if i not in known), pay)
    _fold, bet, _ins = Valuation(ctx).stand_now([c.index for c in hand])
    return float(bet * pay.unit / pay.ante)


def options(
    player: str | Iterable[str | Card],
    upcard: str | Card,
    *,
    rules: HouseRules | str | None = None,
    rng: random.Random | None = None,
    ante: int = 1,
    bonus: int = 0,
) -> list[Option]:
    """Every legal option with its exact value in antes, best first (see the module docstring).

    `ante` and `bonus` are the box's stakes in chips (they matter only under a table maximum, and the
    bonus where the house offers one). `rng` is accepted for compatibility and not used: the values
    are exact. Answers are cached by the hand's suit pattern, so a repeated question is immediate.
    """
    return list(advise(player, upcard, rules=rules, rng=rng, ante=ante, bonus=bonus).options)


def advise(
    player: str | Iterable[str | Card],
    upcard: str | Card,
    *,
    rules: HouseRules | str | None = None,
    rng: random.Random | None = None,
    ante: int = 1,
    bonus: int = 0,
) -> Advice:
    """`options` with the Super bet's result (Lunar) beside them."""
    hand, up, _ = parse_situation(player, upcard)
    if len(hand) != 5:
        raise ValueError(f"the options are for the five dealt cards, not {len(hand)}")
    if rng is not None and not isinstance(rng, random.Random):
        raise ValueError(f"rng must be a random.Random or None, not {rng!r:.60}")
    house = resolve_rules(rules)
    pay = Payoffs.of(house, ante, bonus)
    return _cached(hand, up, house, pay)


def best_options(
    player: str | Iterable[str | Card],
    upcard: str | Card,
    *,
    rules: HouseRules | str | None = None,
    ante: int = 1,
    bonus: int = 0,
) -> list[Option]:
    """The best option, exactly, with every option exactly as good (a tie): the same as `options`'
    equivalent options, sooner. Standing, the sixth card and the exchanges of one or two cards are
    valued exactly (they cost little); of the larger exchanges only those whose quick upper bound
    (`Valuation.exchanges(bound=True)`, in the compiled kernel where it is built) reaches the best
    value found so far, the highest bound first. An answer `options` has cached is used as it is.

    >>> [o.label for o in best_options("Qh 9h 6h 3h 2c", "Ad")]
    ['sixth card']
    """
    hand, up, _ = parse_situation(player, upcard)
    if len(hand) != 5:
        raise ValueError(f"the options are for the five dealt cards, not {len(hand)}")
    house = resolve_rules(rules)
    pay = Payoffs.of(house, ante, bonus)
    advice = _cached(hand, up, house, pay, best_only=True)
    return [o for o in advice.options if o.equivalent]


def warm() -> dict[str, object]:
    """Make every table the advisor reads ready in this process, so that its first question is
    answered as fast as its thousandth: the compiled kernel, the counting tables of every up-card rank,
    the rank classes of every draw size, the no-game tables, the shipped houses' payoffs. Read from the
    table files (`tablefile`: memory-mapped, shared by every process) where they are, else built and
    written there (about 4 s, once per version of the code). A server calls this before it starts its
    workers: forked workers share what it read. Returns what was done: the seconds taken, whether
    the kernel is in use and the table folder (None: in memory only).

    >>> done = warm()
    >>> done["tables"] is None or done["tables"].name.startswith("advisor-tables-")
    True
    >>> best_options("Qh 9h 6h 3h 2c", "Ad")[0].label  # from the tables just made ready
    'sixth card'
    """
    import time

    from trainer.engine.russian_poker.rules import load_rules, preset_names
    from trainer.engine.russian_poker.strategy.buying import no_game_tables
    from trainer.engine.russian_poker.strategy.counting import tau_rows, up_tables
    from trainer.engine.russian_poker.strategy.solver import draw_classes
    from trainer.engine.russian_poker.strategy.tablefile import tables_dir, touch

    t0 = time.perf_counter()
    for k in range(6):
        draw_classes(k)
    for r in range(13):
        up_tables(r)
        no_game_tables(r, True)
        no_game_tables(r, False)
    tau_rows()
    ready = kernel.warm(draw_classes)
    for name in preset_names():
        _ = Payoffs.of(load_rules(name)).array5
    touch()
    return {"seconds": time.perf_counter() - t0, "kernel": ready, "tables": tables_dir()}


# Suit-canonical cache -----------------------------------------------------------------------------

_PERMUTATIONS = list(itertools.permutations(range(4)))
_CACHE: OrderedDict[tuple[object, ...], tuple[HouseRules, Advice]] = OrderedDict()
_CACHE_SIZE = 4096
_LOCK = threading.Lock()


def _canonical(hand: tuple[Card, ...], up: Card) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
    """The hand and up-card with their suits renamed to the smallest form, and the renaming used."""
    best: tuple[tuple[int, ...], int, tuple[int, ...]] | None = None
    for perm in _PERMUTATIONS:
        h = tuple(sorted(c.index - c.index % 4 + perm[c.index % 4] for c in hand))
        u = up.index - up.index % 4 + perm[up.index % 4]
        if best is None or (h, u) < best[:2]:
            best = (h, u, perm)
    assert best is not None
    return best


def _cached(
    hand: tuple[Card, ...], up: Card, house: HouseRules, pay: Payoffs, *, best_only: bool = False
) -> Advice:
    h, u, perm = _canonical(hand, up)
    key = (id(house), house.name, pay.ante, pay.bonus, h, u, best_only)
    with _LOCK:
        found = key
        if key not in _CACHE and best_only:  # every option's value holds the best ones too
            found = (*key[:-1], False)
        hit = _CACHE.get(found)
        if hit is not None and hit[0] is house:
            _CACHE.move_to_end(found)
            advice = hit[1]
        else:
            hit = None
    if hit is None:
        advice = _solve(tuple(CARD_BY_INDEX[i] for i in h), CARD_BY_INDEX[u], house, pay, best_only=best_only)
        with _LOCK:
            _CACHE[key] = (house, advice)
            while len(_CACHE) > _CACHE_SIZE:
                _CACHE.popitem(last=False)
    return _map_back(advice, hand, perm)


def _map_back(advice: Advice, hand: tuple[Card, ...], perm: tuple[int, ...]) -> Advice:
    """The advice for the canonical hand, told in the player's own suits and card order."""
    inverse = [perm.index(s) for s in range(4)]
    position = {c: i for i, c in enumerate(hand)}

    def back(c: Card) -> Card:
        return CARD_BY_INDEX[c.index - c.index % 4 + inverse[c.index % 4]]

    def told(o: Option) -> Option:
        if not o.discard:
            return o
        discard = tuple(sorted((back(c) for c in o.discard), key=position.__getitem__))
        return Option(o.action, discard, o.ev, o.stderr, o.equivalent, o.exact)

    return replace(advice, options=tuple(told(o) for o in advice.options))


def clear_cache() -> None:
    """Forget every cached answer (for benchmarks and tests)."""
    with _LOCK:
        _CACHE.clear()


# Solving -------------------------------------------------------------------------------------------


def _solve(
    hand: tuple[Card, ...], up: Card, house: HouseRules, pay: Payoffs, *, best_only: bool = False
) -> Advice:
    idx = [c.index for c in hand]
    known = set(idx) | {up.index}
    pool = tuple(i for i in range(52) if i not in known)
    super_bet = _super(hand, house, pay)
    per_ante = Fraction(pay.unit, pay.ante)
    instant = pay.instant(hand)
    if instant is not None:
        value = instant * per_ante
        only = Option(Action.INSTANT, (), float(value), 0.0, True, value)
        return Advice((only,), super_bet)
    v = Valuation(Context(up.index, pool, pay))
    sizes = list(range(house.exchange_min_cards, house.exchange_max_cards + 1))
    if not house.exchange_allowed or not house.max_exchanges:
        sizes = []
    at_once = None
    if not best_only and len(sizes) > 1 and v.kernel_ready():
        # the kernel sums the exchanges on worker threads while this thread values the rest
        at_once = _exchanges_at_once(v, hand, sizes)
        sizes = []
    order = sorted(sizes, key=lambda k: (k > 2, k))
    sets = {k: _exchange_sets(hand, k) for k in order}
    large = [k for k in order if k > 2] if best_only else []
    bounding: dict[int, concurrent.futures.Future[list[Fraction]]] = {}
    if large and v.kernel_ready():
        # the kernel bounds the large exchanges on worker threads while this thread values the rest
        workers = _workers()
        for k in sorted(large, reverse=True):  # the largest first: the most work
            # made here, run there: a worker thread then never waits for this one's GIL
            bounding[k] = workers.submit(v.kernel_job(sets[k][1], k, bound=True))
    rows: list[tuple[Action, tuple[Card, ...], Fraction]] = []
    fold, bet, insure = v.stand_now(idx)
    rows.append((Action.FOLD, (), fold))
    rows.append((Action.BET, (), bet))
    if insure is not None:
        rows.append((Action.INSURE, (), insure))
    if house.sixth_card_allowed:
        rows.append((Action.SIXTH_CARD, (), v.sixth_card(idx) - pay.fee))
    if at_once is not None:
        for discards, job in at_once:
            rows += [
                (Action.EXCHANGE, d, value - pay.fee) for d, value in zip(discards, job.result(), strict=True)
            ]
    found: dict[tuple[int, int], Fraction] = {}  # (size, discard's number): value after the fee
    for k in order:
        if k in large:
            continue  # below: only those that could reach the best
        found.update(((k, j), value - pay.fee) for j, value in enumerate(v.exchanges(sets[k][1], k)))
    if best_only:
        # The exchanges of three cards or more that could reach the best so far, valued exactly one
        # by one, the highest bound first: each value found raises the bar the others must reach.
        top = max([r[2] for r in rows] + list(found.values()))
        bounds = [
            (bound - pay.fee, k, j)
            for k in large
            for j, bound in enumerate(_bounds(v, sets[k][1], k, bounding.get(k)))
        ]
        for bound, k, j in sorted(bounds, key=lambda b: b[0], reverse=True):
            if bound < top:
                break
            value = v.exchanges([sets[k][1][j]], k)[0] - pay.fee
            found[k, j] = value
            top = max(top, value)
    for k in order:
        discards = sets[k][0]
        rows += [(Action.EXCHANGE, discards[j], found[k, j]) for j in range(len(discards)) if (k, j) in found]
    # Best first, ties in the order above. A float is the fraction correctly rounded, so the floats
    # order the values exactly where they differ; the fractions decide where they are equal.
    rows.sort(key=lambda r: (float(r[2]), r[2]), reverse=True)
    top = rows[0][2]
    if best_only:
        rows = [r for r in rows if r[2] == top]
    table = []
    for action, discard, value in rows:
        exact = value * per_ante if per_ante != 1 else value
        table.append(Option(action, discard, float(exact), 0.0, value == top, exact))
    return Advice(tuple(table), super_bet)


_WORKERS: tuple[int, concurrent.futures.ThreadPoolExecutor] | None = None  # (process id, pool)


def _bounds(
    v: Valuation, kept: list[list[int]], k: int, job: concurrent.futures.Future[list[Fraction]] | None
) -> list[Fraction]:
    """The quick upper bounds of these exchanges: the kernel's job started on a worker, else (none
    started, or the kernel cannot value them) found here."""
    if job is not None:
        try:
            return job.result()
        except kernel.KernelLimit:  # a house whose tables exceed the kernel's sizes
            return v.exchanges_numpy(kept, k, bound=True)
    return v.exchanges(kept, k, bound=True)


def _workers() -> concurrent.futures.ThreadPoolExecutor:
    """The threads the kernel's exchanges are started on (this process's)."""
    global _WORKERS
    with _LOCK:
        # a forked server worker starts with the parent's pool object but none of its threads
        if _WORKERS is None or _WORKERS[0] != os.getpid():
            _WORKERS = (os.getpid(), concurrent.futures.ThreadPoolExecutor(kernel.threads(), "advisor"))
        return _WORKERS[1]


def _exchange_sets(hand: tuple[Card, ...], k: int) -> tuple[list[tuple[Card, ...]], list[list[int]]]:
    """Every discard of k cards from the hand, and the indexes of the cards each keeps (picked by
    position: cards compare slowly)."""
    picks = list(itertools.combinations(range(len(hand)), k))
    discards = [tuple(hand[i] for i in p) for p in picks]
    kept = [[hand[i].index for i in range(len(hand)) if i not in p] for p in picks]
    return discards, kept


def _exchanges_at_once(
    v: Valuation, hand: tuple[Card, ...], sizes: list[int]
) -> list[tuple[list[tuple[Card, ...]], concurrent.futures.Future[list[Fraction]]]]:
    """Every exchange of every size started on the kernel's worker threads (the compiled kernel
    lets go of the GIL: one size's Python runs while another's sums are made), each size's discards
    with its values to come, in the order the sizes are valued one by one."""
    workers = _workers()
    jobs = {}
    for k in sorted(sizes, reverse=True):  # the largest first: the most work
        discards, kept = _exchange_sets(hand, k)
        jobs[k] = (discards, workers.submit(v.exchanges, kept, k))
    return [jobs[k] for k in sorted(sizes, key=lambda k: (k > 2, k))]


def _super(hand: tuple[Card, ...], house: HouseRules, pay: Payoffs) -> SuperResult | None:
    if not house.super_offered:
        return None
    stake = max(house.super_min_antes, 1)
    row = super_row(hand, house)
    odds = house.super_odds[row] if row is not None else 0
    return SuperResult(row, odds, stake, odds * stake if row is not None else -stake)


__all__ = [
    "TOLERANCE",
    "Action",
    "Advice",
    "Option",
    "SuperResult",
    "advise",
    "best_options",
    "bet_value",
    "clear_cache",
    "options",
    "parse_situation",
    "warm",
]
