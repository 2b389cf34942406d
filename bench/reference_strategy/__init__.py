"""Today's buy-decision advisor (before the exact one), kept as the speed reference of bench/strategy.py.

For the player's five cards and the dealer's up-card, `options` values folding (-1: the ante is
already staked), betting now, each exchange the house allows and buying a sixth card, best first.
After a draw the player folds or bets, whichever is worth more; when the dealer shows no game, the
player buys the game exactly when that pays more than the sure no-game ante.

- Folding and betting now are exact: every one of the C(46, 4) = 163,185 hidden dealer hands and every
  card a bought game can bring is counted (`strategy_dealer`), in a few milliseconds.
- A sixth card and a one-card exchange are exact too: one dealer model for each of the 46 cards drawn.
- A larger exchange is the exact mean over its draws of a control value (the hand played against the
  dealer model of the decision, which ignores that the drawn cards cannot be the dealer's), plus a
  seeded Monte Carlo estimate of the correction (the same hand against the exact dealer model of the
  cards it leaves), with its standard error. Draws are added until the runner-up (and any option
  whose interval still reaches the best) is separated from the best by more than `Z` standard errors
  of the difference, or declared equivalent: estimated within `TOLERANCE` of it. Past `MAX_SAMPLES`
  draws (rare) a close call is left to the estimates, whose standard errors are reported. The draw
  count never depends on timing, so the same hand always gets the same table.

The bonus side bet is not part of the values (they are per ante, with no bonus staked), and only one
draw-buy is considered even where a house allows more.

Four to a flush, no pair, no ace-king, against an ace: a sixth card is worth a little more than
exchanging the odd card (it keeps the deuce, which can still pair), and both far more than folding.

>>> [(o.label, round(o.ev, 3), o.equivalent) for o in options("Qh 9h 6h 3h 2c", "Ad")[:3]]
[('sixth card', -0.152, True), ('exchange 2c', -0.157, True), ('fold', -1.0, False)]
>>> round(bet_value("As Ks Qs Js Ts", "2d"), 2)  # a royal flush bets: the dealer qualifies 56% of the time
134.84
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations

from reference_strategy.dealer import DealerModel
from reference_strategy.draws import Valuer, final_strengths
from reference_strategy.terms import Terms
from trainer.engine.cards import Card, format_cards, parse_cards
from trainer.engine.evaluator import strength5, strength6
from trainer.engine.russian_poker.rules import HouseRules, resolve_rules

TOLERANCE = 0.02  # antes: options closer than this to the best count as equally good
Z = 2.0  # standard errors for "confidently" (about 95%)
FIRST_SAMPLES = 32  # Monte Carlo draws for every estimated exchange before refining the close ones
MAX_SAMPLES = 288  # draws at most (keeps `options` under 2 s); then a close call is judged by the estimate


class Action(StrEnum):
    FOLD = "fold"
    BET = "bet"
    EXCHANGE = "exchange"
    SIXTH_CARD = "sixth_card"


@dataclass(frozen=True)
class Option:
    """One option: `ev` in antes (ante already staked), `stderr` 0 when exact; `equivalent` when it is
    the best or within `TOLERANCE` of it."""

    action: Action
    discard: tuple[Card, ...]
    ev: float
    stderr: float
    equivalent: bool = False

    @property
    def label(self) -> str:
        """ "fold", "bet", "sixth card" or "exchange 7c 4d"."""
        if self.action is Action.EXCHANGE:
            return f"exchange {format_cards(self.discard)}"
        return self.action.value.replace("_", " ")

    def to_json(self) -> dict[str, object]:
        return {
            "action": self.action.value,
            "discard": [str(c) for c in self.discard],
            "label": self.label,
            "ev": self.ev,
            "stderr": self.stderr,
            "equivalent": self.equivalent,
        }


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
    sixth card; `dead` are cards known to be out of play (the player's discards).

    >>> round(bet_value("2c 3d 4h 5s 7c", "Ad"), 4)  # seven-high never beats a dealer with a game
    -1.7441
    """
    hand, up, out = parse_situation(player, upcard, dead)
    terms = Terms.of(resolve_rules(rules))
    known = {c.index for c in (*hand, up, *out)}
    pool = [i for i in range(52) if i not in known]
    valuer = Valuer(DealerModel(up.index, pool, terms.replace), terms)
    idx = [c.index for c in hand]
    return valuer.bet(strength5(*idx) if len(idx) == 5 else strength6(*idx))


class _Draw:
    """One exchange (discard of k cards) or the sixth card, while it is being valued."""

    def __init__(self, discard: tuple[int, ...], kept: tuple[int, ...], sixth: bool) -> None:
        self.discard = discard
        self.kept = kept
        self.sixth = sixth
        self.k = 1 if sixth else len(discard)
        self.exact: float | None = None
        self.control = 0.0  # exact mean of the control value over all draws
        self.corrections: dict[int, float] = {}  # sample number -> correction

    def strength(self, drawn: tuple[int, ...]) -> int:
        cards = (*self.kept, *drawn[: self.k])
        return strength6(*cards) if self.sixth else strength5(*cards)

    def value(self) -> tuple[float, float]:
        """(mean result after the buy, its standard error)."""
        if self.exact is not None:
            return self.exact, 0.0
        xs = list(self.corrections.values())
        n = len(xs)
        mean = sum(xs) / n
        var = sum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
        return self.control + mean, math.sqrt(var / n)


def options(
    player: str | Iterable[str | Card],
    upcard: str | Card,
    *,
    rules: HouseRules | str | None = None,
    rng: random.Random | None = None,
) -> list[Option]:
    """Every legal option with its expected value in antes, best first (see the module docstring).

    `rng` drives the Monte Carlo part; by default it is seeded from the cards, so the same hand always
    gets the same answer.
    """
    hand, up, _ = parse_situation(player, upcard)
    if len(hand) != 5:
        raise ValueError(f"the options are for the five dealt cards, not {len(hand)}")
    rules = resolve_rules(rules)
    terms = Terms.of(rules)
    if rng is not None and not isinstance(rng, random.Random):
        raise ValueError(f"rng must be a random.Random or None, not {rng!r:.60}")
    if rng is None:
        rng = random.Random(f"{format_cards(sorted(hand))}|{up}|{rules.name}")
    idx = tuple(c.index for c in hand)
    known = set(idx) | {up.index}
    pool = [i for i in range(52) if i not in known]
    model = DealerModel(up.index, pool, terms.replace)
    base = Valuer(model, terms)
    control = Valuer(model, terms, coarse=True)
    fee = terms.buy_fee
    draws: list[_Draw] = []
    for k in terms.exchange_sizes:
        for discard in combinations(idx, k):
            draws.append(_Draw(discard, tuple(i for i in idx if i not in discard), sixth=False))
    if terms.sixth_card:
        draws.append(_Draw((), idx, sixth=True))
    one_card = [d for d in draws if d.k == 1]
    if one_card:
        # Exact: a dealer model for each of the 46 cards that can come.
        sums = [0.0] * len(one_card)
        for c in pool:
            valuer = Valuer(DealerModel(up.index, [i for i in pool if i != c], terms.replace), terms)
            for j, d in enumerate(one_card):
                sums[j] += valuer.play(d.strength((c,)))
        for j, d in enumerate(one_card):
            d.exact = sums[j] / len(pool)
    sampled = [d for d in draws if d.exact is None]
    for d in sampled:
        dist = final_strengths(d.kept, pool, d.k)
        d.control = sum(n * control.play(s) for s, n in dist.items()) / math.comb(len(pool), d.k)
    samples = 0

    def sample(group: list[_Draw], count: int) -> None:
        nonlocal samples
        for _ in range(count):
            drawn = tuple(rng.sample(pool, 5))
            by_k: dict[int, Valuer] = {}
            for d in group:
                valuer = by_k.get(d.k)
                if valuer is None:
                    left = [i for i in pool if i not in drawn[: d.k]]
                    valuer = by_k[d.k] = Valuer(DealerModel(up.index, left, terms.replace), terms)
                s = d.strength(drawn)
                d.corrections[samples] = valuer.play(s) - control.play(s)
            samples += 1

    sample(sampled, FIRST_SAMPLES)
    Row = tuple[Action, tuple[int, ...], float, float, _Draw | None]
    fixed: list[Row] = [
        (Action.FOLD, (), float(terms.fold), 0.0, None),
        (Action.BET, (), base.bet(strength5(*idx)), 0.0, None),
    ]

    def table() -> list[Row]:
        rows = list(fixed)
        for d in draws:
            mean, se = d.value()
            rows.append((Action.SIXTH_CARD if d.sixth else Action.EXCHANGE, d.discard, mean - fee, se, d))
        rows.sort(key=lambda r: -r[2])
        return rows

    while True:
        rows = table()
        best = rows[0]
        # The runner-up must be separated from the best (more than Z standard errors below it) or
        # declared equivalent (estimated within TOLERANCE of it); so must any other option whose
        # interval still reaches the best.
        open_rows = []
        for r in rows[1:]:
            gap, se = best[2] - r[2], _diff_se(best[4], r[4])
            if TOLERANCE < gap <= Z * se:
                open_rows.append(r)
        group = [dr for r in (best, *open_rows) if (dr := r[4]) is not None and dr.exact is None]
        if not open_rows or not group or samples >= MAX_SAMPLES:
            break
        sample(group, min(samples, MAX_SAMPLES - samples))
    top = rows[0][2]
    return [
        Option(action, tuple(c for c in hand if c.index in discard), ev, se, top - ev <= TOLERANCE)
        for action, discard, ev, se, _d in rows
    ]


def _diff_se(a: _Draw | None, b: _Draw | None) -> float:
    """Standard error of the difference of two options' values (paired on their common samples)."""
    sa = a.value()[1] if a is not None else 0.0
    sb = b.value()[1] if b is not None else 0.0
    if a is None or b is None or a.exact is not None or b.exact is not None:
        return math.hypot(sa, sb)
    common = a.corrections.keys() & b.corrections.keys()
    if len(common) < 2:
        return math.hypot(sa, sb)
    diffs = [a.corrections[j] - b.corrections[j] for j in common]
    mean = sum(diffs) / len(diffs)
    var = sum((x - mean) ** 2 for x in diffs) / (len(diffs) - 1)
    return math.sqrt(var / len(diffs))
