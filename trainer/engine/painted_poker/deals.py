"""Painted poker deals: the schedule of a whole game, one player's score for one deal, and the hook.

>>> score(3, 3), score(0, 0), score(2, 4), score(4, 1), score(None, 3, "gold"), score(None, 2, "miser")
(30, 5, 4, -30, 60, -20)
>>> [len(schedule(n)) for n in range(2, 7)]
[44, 37, 36, 37, 40]
>>> forbidden_bid(9, [5, 3])
1
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from trainer.engine.explain import Step, nstep, step
from trainer.engine.painted_poker.rules import DealKind, PaintedRules, Segment, resolve


def whole_number(name: str, value: object, low: int = 0, high: int | None = None) -> int:
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or value < low
        or (high is not None and value > high)
    ):
        bound = f"{low}..{high}" if high is not None else f">= {low}"
        raise ValueError(f"{name} must be a whole number {bound}, not {value!r}")
    return value


# --- the schedule -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Deal:
    """One deal of the game: `number` from 1, `cards` per player, `kind`, the `dealer`'s seat (from 0)
    and the `set` (the schedule segment, from 1) it belongs to."""

    number: int
    cards: int
    kind: DealKind
    dealer: int
    set: int
    segment: Segment


# Schedules already built, by preset identity: the sheet and the drills ask for them again and again.
_SCHEDULES: dict[tuple[int, int, int], tuple[PaintedRules, tuple[Deal, ...]]] = {}


def schedule(players: int, rules: PaintedRules | str | None = None, first_dealer: int = 0) -> list[Deal]:
    """Every deal of a whole game for `players` players; the deal passes clockwise from `first_dealer`."""
    r = resolve(rules)
    top, repeat = r.max_hand(players), r.repeats(players)
    whole_number("first_dealer", first_dealer, 0, players - 1)
    cached = _SCHEDULES.get((id(r), players, first_dealer))
    if cached is not None and cached[0] is r:
        return list(cached[1])
    if len(_SCHEDULES) > 512:
        _SCHEDULES.clear()
    deals: list[Deal] = []
    for set_number, segment in enumerate(r.segments, 1):
        if segment is Segment.RISING:
            sizes = list(range(1, top))
        elif segment is Segment.FALLING:
            sizes = list(range(top - 1, 0, -1))
        else:
            sizes = [top] * repeat
        for cards in sizes:
            number = len(deals) + 1
            dealer = (first_dealer + number - 1) % players
            deals.append(Deal(number, cards, segment.deal_kind, dealer, set_number, segment))
    _SCHEDULES[(id(r), players, first_dealer)] = (r, tuple(deals))
    return deals


def explain_deal(
    players: int, number: int, rules: PaintedRules | str | None = None, first_dealer: int = 0
) -> tuple[Deal, tuple[Step, ...]]:
    """Deal `number` of the game and why it has that many cards and that kind."""
    r = resolve(rules)
    deals = schedule(players, r, first_dealer)
    whole_number("deal number", number, 1, len(deals))
    deal = deals[number - 1]
    steps = (
        [
            nstep("The deck has {count}\u00a0card.", "The deck has {count}\u00a0cards.", count=len(r.deck)),
            nstep(
                "For {count}\u00a0player the largest hand is the deck divided by {count}, "
                "rounded down: {top}.",
                "For {count}\u00a0players the largest hand is the deck divided by {count}, "
                "rounded down: {top}.",
                count=players,
                top=r.max_hand(players),
            ),
        ]
        if r.max_cards is None
        else [
            nstep(
                "This house deals at most {count}\u00a0card.",
                "This house deals at most {count}\u00a0cards.",
                count=r.max_cards,
            )
        ]
    )
    in_set = [d for d in deals if d.set == deal.set]
    first, last = in_set[0].number, in_set[-1].number
    if deal.segment is Segment.RISING:
        steps.append(
            nstep(
                "Deals {first} to {last} rise by one card: deal {number} has {count}\u00a0card.",
                "Deals {first} to {last} rise by one card: deal {number} has {count}\u00a0cards.",
                count=deal.cards,
                first=first,
                last=last,
                number=number,
            )
        )
    elif deal.segment is Segment.FALLING:
        steps.append(
            nstep(
                "Deals {first} to {last} fall by one card from {start}: deal {number} has {count}\u00a0card.",
                "Deals {first} to {last} fall by one card from {start}: "
                "deal {number} has {count}\u00a0cards.",
                count=deal.cards,
                first=first,
                last=last,
                start=in_set[0].cards,
                number=number,
            )
        )
    else:
        steps.append(
            nstep(
                "Deals {first} to {last} are dealt at the maximum, {count}\u00a0card each; "
                "kind of deal: {kind}.",
                "Deals {first} to {last} are dealt at the maximum, {count}\u00a0cards each; "
                "kind of deal: {kind}.",
                count=deal.cards,
                first=first,
                last=last,
                kind=deal.kind.term,
            )
        )
    steps.append(
        step(
            "The deal passes clockwise: seat {dealer} deals number {number}.",
            dealer=deal.dealer + 1,
            number=number,
        )
    )
    return deal, tuple(steps)


# --- scoring one deal -----------------------------------------------------------------------------


def explain_score(
    bid: int | None,
    took: int,
    deal: DealKind | str = "normal",
    rules: PaintedRules | str | None = None,
    cards: int | None = None,
) -> tuple[int, tuple[Step, ...]]:
    """One player's points for one deal and the steps that give them (see `score`)."""
    r = resolve(rules)
    s = r.scoring
    try:
        kind = DealKind(deal)
    except ValueError:
        raise ValueError(
            f"deal must be one of {', '.join(k.value for k in DealKind)}, not {deal!r}"
        ) from None
    if kind not in r.deal_kinds:
        raise ValueError(f"the {r.name} rules have no {kind.label} deals")
    if cards is not None:
        whole_number("cards", cards, 1, r.max_hand(r.min_players))
    whole_number("tricks taken", took, 0, cards)
    steps: list[Step] = []
    if not kind.has_bids:
        if bid is not None:
            raise ValueError(f"a {kind.label} deal has no bids: bid must be None, not {bid!r}")
        per = s.gold_per_trick if kind is DealKind.GOLD else s.miser_per_trick
        assert per is not None  # checked on load for every kind the schedule has
        points = per * took
        if kind is DealKind.GOLD:
            steps.append(
                step("Gold deal: {per} per trick x {took} = {points}.", per=per, took=took, points=points)
            )
        else:
            steps.append(
                step("Miser deal: {per} per trick x {took} = {points}.", per=per, took=took, points=points)
            )
    else:
        if bid is None:
            raise ValueError(f"a {kind.label} deal needs a bid")
        whole_number("bid", bid, 0, cards)
        if took == bid == 0:
            points = s.pass_made
            steps.append(step("Pass made (bid 0, took 0): {points}.", points=points))
        elif took == bid and s.all_taken_per_trick is not None and (cards is None or bid == cards):
            if cards is None:
                raise ValueError(f"the {r.name} rules score a bid of all the cards apart: give cards=")
            points = s.all_taken_per_trick * took
            steps.append(
                nstep(
                    "All the cards bid and taken ({count}\u00a0card): {per} x {took} = {points}.",
                    "All the cards bid and taken ({count}\u00a0cards): {per} x {took} = {points}.",
                    count=cards,
                    per=s.all_taken_per_trick,
                    took=took,
                    points=points,
                )
            )
        elif took == bid:
            points = s.exact_per_trick * bid + s.exact_bonus
            if s.exact_bonus:
                steps.append(
                    step(
                        "Exact (bid {bid}, took {took}): {per} x {bid} + {bonus} = {points}.",
                        bid=bid,
                        took=took,
                        per=s.exact_per_trick,
                        bonus=s.exact_bonus,
                        points=points,
                    )
                )
            else:
                steps.append(
                    step(
                        "Exact (bid {bid}, took {took}): {per} x {bid} = {points}.",
                        bid=bid,
                        took=took,
                        per=s.exact_per_trick,
                        points=points,
                    )
                )
        elif took > bid:
            points = s.over_per_trick * took
            steps.append(
                step(
                    "Over (bid {bid}, took {took}): {per} per trick taken x {took} = {points}.",
                    bid=bid,
                    took=took,
                    per=s.over_per_trick,
                    points=points,
                )
            )
        elif took == 0 and s.khishti is not None:
            points = s.khishti
            steps.append(step("Khishti (bid {bid}, took nothing): {points}.", bid=bid, points=points))
        else:
            missing = bid - took
            points = s.under_per_missing * missing + s.under_per_taken * took
            if s.under_per_taken:
                steps.append(
                    step(
                        "Under (bid {bid}, took {took}): {per} per trick taken x {took} = {points}.",
                        bid=bid,
                        took=took,
                        per=s.under_per_taken,
                        points=points,
                    )
                    if not s.under_per_missing
                    else step(
                        "Under (bid {bid}, took {took}): {per} x {missing} missing + {per_taken} x "
                        "{took} taken = {points}.",
                        bid=bid,
                        took=took,
                        per=s.under_per_missing,
                        missing=missing,
                        per_taken=s.under_per_taken,
                        points=points,
                    )
                )
            else:
                steps.append(
                    step(
                        "Under (bid {bid}, took {took}): {per} x {missing} missing = {points}.",
                        bid=bid,
                        took=took,
                        per=s.under_per_missing,
                        missing=missing,
                        points=points,
                    )
                )
    factor = s.multiplier[kind]
    if factor != 1:
        steps.append(
            step(
                "Deals of this kind ({kind}) count x {factor}: {base} x {factor} = {points}.",
                kind=kind.term,
                factor=factor,
                base=points,
                points=points * factor,
            )
        )
        points *= factor
    return points, tuple(steps)


def score(
    bid: int | None,
    took: int,
    deal: DealKind | str = "normal",
    rules: PaintedRules | str | None = None,
    *,
    cards: int | None = None,
) -> int:
    """One player's points for one deal. `bid` is None for gold and miser deals.

    Classic: exact b > 0 -> 10 b; pass made -> 5; over -> 1 per trick taken; under -> -10 per missing
    trick; gold -> 20 per trick; miser -> -10 per trick. `cards` (the hand size) is checked when given
    and needed where a preset scores "all cards bid and taken" apart (Georgian Joker).
    """
    return explain_score(bid, took, deal, rules, cards)[0]


# --- the hook -------------------------------------------------------------------------------------


def explain_hook(
    cards: int,
    other_bids: Sequence[int],
    deal: DealKind | str = "normal",
    rules: PaintedRules | str | None = None,
) -> tuple[int | None, tuple[Step, ...]]:
    """The dealer's forbidden bid and why (see `forbidden_bid`)."""
    r = resolve(rules)
    whole_number("cards", cards, 1, r.max_hand(r.min_players))
    kind = DealKind(deal)
    if isinstance(other_bids, str | bytes) or not isinstance(other_bids, Sequence):
        raise ValueError(f"other_bids must be a list of bids, not {other_bids!r}")
    bids = [whole_number("bid", b, 0, cards) for b in other_bids]
    if not kind.has_bids:
        return None, (step("No bids in this deal ({kind}), so no hook.", kind=kind.term),)
    # The older article's rule speaks of every deal with bids ("if players pass, the dealer must order
    # the maximum"), so it holds in a dark deal too, where there is no hook to give way.
    if must_bid_max(bids, kind, r):
        return None, (
            step(
                "Everybody else passed: this house makes the dealer bid the maximum, {cards}; the hook "
                "gives way.",
                cards=cards,
            ),
        )
    if kind is DealKind.DARK:
        return None, (step("Dark deal: the bids may add up to the cards, so no hook."),)
    if not r.hook:
        return None, (step("This house plays without the hook."),)
    total = sum(bids)
    forbidden = cards - total
    steps = [
        nstep(
            "The other bids add up to {total}; {count}\u00a0card is dealt.",
            "The other bids add up to {total}; {count}\u00a0cards are dealt.",
            count=cards,
            total=total,
        )
    ]
    if forbidden < 0:
        steps.append(step("They already exceed the cards, so every bid is allowed."))
        return None, tuple(steps)
    steps.append(
        step(
            "The dealer may not bid {cards} - {total} = {forbidden}.",
            cards=cards,
            total=total,
            forbidden=forbidden,
        )
    )
    return forbidden, tuple(steps)


def must_bid_max(other_bids: Sequence[int], deal: DealKind | str, rules: PaintedRules) -> bool:
    """Whether the dealer must bid all his cards: the house rule "if everybody passes, the dealer must
    bid the maximum" (`bidding.all_pass_dealer_max`), every other bid a pass, in a deal with bids.

    >>> from trainer.engine.painted_poker.rules import load_rules
    >>> must_bid_max([0, 0, 0], "normal", load_rules("odessa-house")), must_bid_max([0, 0], "normal", None)
    (True, False)
    """
    r = resolve(rules)
    return r.all_pass_dealer_max and DealKind(deal).has_bids and bool(other_bids) and not any(other_bids)


def dealer_bids(
    cards: int,
    other_bids: Sequence[int],
    deal: DealKind | str = "normal",
    rules: PaintedRules | str | None = None,
) -> tuple[int, ...]:
    """The bids the dealer may make after the others: all but the hook's forbidden bid, or only the
    maximum where the house makes him bid it when everybody passed.

    >>> dealer_bids(3, [1, 1]), dealer_bids(3, [0, 0], rules="odessa-house")
    ((0, 2, 3), (3,))
    """
    r = resolve(rules)
    whole_number("cards", cards, 1)
    if must_bid_max(other_bids, deal, r):
        return (cards,)
    banned = forbidden_bid(cards, other_bids, deal, r)
    return tuple(b for b in range(cards + 1) if b != banned)


def forbidden_bid(
    cards: int,
    other_bids: Sequence[int],
    deal: DealKind | str = "normal",
    rules: PaintedRules | str | None = None,
) -> int | None:
    """The dealer's forbidden bid (the hook): cards - sum(other bids) when that is 0..cards, else None.

    Dark deals have no hook (the bids may add up to the cards); gold and miser deals have no bids.
    """
    return explain_hook(cards, other_bids, deal, rules)[0]
