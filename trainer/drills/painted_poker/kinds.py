"""Painted poker drills: a deal's score, the schedule, the hook, who takes a trick, a sheet's total.

Each generator first picks the branch to teach with the rng (exact, pass, over, under, gold, miser,
the Georgian all-taken and khishti; dark deals; the hook hit, at 0, at all the cards, or passed by;
every joker call and trump rule), then builds the numbers or cards that produce it; `solve` asks the
engine (`trainer.engine.painted_poker`) for the answer and its explanation. Situations carry the
preset name, so a grade is always against the rules the question was drawn under.

Levels: 1 few players and small hands; 2 more seats, dark and no-trump deals, the joker led;
3 up to six players (or the whole deck to two; seven to ten where the house's 54-card deck seats them),
the largest hands, a sheet with a running total.
"""

from __future__ import annotations

import random
from typing import Any

from trainer.drills.base import AnswerFormat, AnswerKind, DrillKind, prompt, register
from trainer.drills.painted_poker.common import (
    AMOUNT,
    GAME,
    bid_and_took,
    bid_kind,
    cards_for,
    deal_said,
    players_for,
    players_said,
    rules_of,
    score_branch,
    score_branches,
)
from trainer.drills.painted_poker.play import (
    format_trick,
    generate_sheet,
    generate_trick,
    solve_sheet,
    solve_trick,
)
from trainer.engine import painted_poker as pp
from trainer.engine.explain import N_, Step, Term, nstep, step
from trainer.engine.painted_poker.rules import DealKind, PaintedRules


def _generate_score(rng: random.Random, level: int, rules_name: str | None) -> dict[str, Any]:
    rules = rules_of(rules_name)
    players = players_for(rng, level, rules)
    branch = rng.choice(score_branches(rules))
    kind = DealKind(branch) if branch in ("gold", "miser") else bid_kind(rng, level, rules)
    while True:
        cards = cards_for(rng, level, rules, players, kind)
        if kind.has_bids:
            pair = bid_and_took(rng, branch, cards, rules)
            if pair is None:
                continue
            bid, took = pair
            bid_value: int | None = bid
        else:
            bid_value, took = None, rng.randint(0, cards)
        if score_branch(bid_value, took, cards, kind, rules) == branch:
            break
    took_said = (
        step("The player bid {bid} and took {took}.", bid=bid_value, took=took)
        if kind.has_bids
        else nstep("The player took {count}\u00a0trick.", "The player took {count}\u00a0tricks.", count=took)
    )
    data = {
        "rules": rules.name,
        "players": players,
        "deal": kind.value,
        "cards": cards,
        "bid": bid_value,
        "took": took,
    }
    return prompt(data, deal_said(kind, cards), took_said, step("What does the player score?"))


def _solve_score(data: dict[str, Any]) -> tuple[Any, str, tuple[Step, ...]]:
    points, steps = pp.explain_score(
        data["bid"], data["took"], data["deal"], rules_of(data["rules"]), data["cards"]
    )
    return points, str(points), steps


# --- the schedule ---------------------------------------------------------------------------------


def _schedule_label(cards: int, kind: DealKind) -> Step:
    return nstep("{count}\u00a0card, {deal}", "{count}\u00a0cards, {deal}", count=cards, deal=kind.term)


def _schedule_choices(players: int, rules: PaintedRules) -> tuple[tuple[str, Step], ...]:
    seen: dict[str, Step] = {}
    for deal in pp.schedule(players, rules):
        seen.setdefault(f"{deal.cards}:{deal.kind.value}", _schedule_label(deal.cards, deal.kind))
    return tuple(seen.items())


def _generate_schedule(rng: random.Random, level: int, rules_name: str | None) -> dict[str, Any]:
    rules = rules_of(rules_name)
    players = players_for(rng, level, rules)
    deals = pp.schedule(players, rules)
    sets = sorted({d.set for d in deals})
    part = rng.choice(sets)
    chosen = [d for d in deals if d.set == part]
    # The edges of a part (where it turns or changes kind) are where the count goes wrong: ask them often.
    deal = rng.choice([chosen[0], chosen[-1]]) if rng.random() < 0.5 else rng.choice(chosen)
    data = {"rules": rules.name, "players": players, "number": deal.number}
    return prompt(
        data,
        nstep(
            "{count}\u00a0player: how many cards each, and what kind of deal, is deal {number}?",
            "{count}\u00a0players: how many cards each, and what kind of deal, is deal {number}?",
            count=players,
            number=deal.number,
        ),
    )


def _solve_schedule(data: dict[str, Any]) -> tuple[Any, str, tuple[Step, ...]]:
    deal, steps = pp.explain_deal(data["players"], data["number"], rules_of(data["rules"]))
    return f"{deal.cards}:{deal.kind.value}", str(_schedule_label(deal.cards, deal.kind)), steps


def _format_schedule(data: dict[str, Any]) -> AnswerFormat:
    return AnswerFormat(
        AnswerKind.CHOICE, choices=_schedule_choices(data["players"], rules_of(data["rules"]))
    )


# --- the hook -------------------------------------------------------------------------------------

HOOK_BRANCHES = ("middle", "zero", "all", "over", "dark")


def _spread(rng: random.Random, total: int, seats: int, cap: int) -> list[int]:
    """`seats` bids of at most `cap` each adding up to `total`."""
    bids = [0] * seats
    for _ in range(total):
        bids[rng.choice([i for i in range(seats) if bids[i] < cap])] += 1
    return bids


def _generate_hook(rng: random.Random, level: int, rules_name: str | None) -> dict[str, Any]:
    rules = rules_of(rules_name)
    while True:
        players = players_for(rng, level, rules)
        branch = rng.choice(HOOK_BRANCHES)
        if branch == "dark" and DealKind.DARK not in rules.deal_kinds:
            continue
        kind = DealKind.DARK if branch == "dark" else bid_kind(rng, level, rules)
        if kind is DealKind.DARK and branch != "dark":
            continue
        cards = cards_for(rng, level, rules, players, kind)
        others = players - 1
        if branch == "middle" and cards >= 2:
            total = cards - rng.randint(1, cards - 1)
        elif branch == "zero":
            total = cards
        elif branch == "all":
            total = 0
        elif branch == "over" and others * cards > cards:
            total = rng.randint(cards + 1, others * cards)
        elif branch == "dark":
            total = rng.randint(0, others * cards)
        else:
            continue
        break
    dealer = rng.randrange(players)
    bids = _spread(rng, total, others, cards)
    order = [(dealer + 1 + i) % players for i in range(others)]  # left of the dealer first
    said = [{"seat": seat + 1, "bid": bid} for seat, bid in zip(order, bids, strict=True)]
    data = {
        "rules": rules.name,
        "players": players,
        "cards": cards,
        "deal": kind.value,
        "dealer": dealer + 1,
        "bids": said,
    }
    # Each bid its own marked message: extraction does not see a marked call inside a comprehension
    # that is itself an argument of one.
    bid_said = [step("seat {seat}: {bid}", seat=b["seat"], bid=b["bid"]) for b in said]
    return prompt(
        data,
        players_said(players),
        deal_said(kind, cards),
        step("Seat {dealer} deals and bids last.", dealer=dealer + 1),
        step("The others bid: {bids}.", bids=bid_said),
        step("Which bid may the dealer not make?"),
    )


MUST_BID_ALL = ("max", Term(N_("He must bid all the cards: any other bid is refused")))


def _format_hook(data: dict[str, Any]) -> AnswerFormat:
    options: list[tuple[str, Term | str]] = [("none", ANY_BID)]
    options += [(str(b), str(b)) for b in range(data["cards"] + 1)]
    if rules_of(data["rules"]).all_pass_dealer_max:
        options.append(MUST_BID_ALL)
    return AnswerFormat(AnswerKind.CHOICE, choices=tuple(options))


ANY_BID = Term(N_("Any bid is allowed"))


def _solve_hook(data: dict[str, Any]) -> tuple[Any, str, tuple[Step, ...]]:
    others = [b["bid"] for b in data["bids"]]
    rules = rules_of(data["rules"])
    forbidden, steps = pp.explain_hook(data["cards"], others, data["deal"], rules)
    if pp.must_bid_max(others, data["deal"], rules):
        return MUST_BID_ALL[0], str(MUST_BID_ALL[1]), steps
    if forbidden is None:
        return "none", "Any bid is allowed", steps
    return str(forbidden), str(forbidden), steps


KINDS = (
    DrillKind(
        "pp.score", GAME, N_("Score one deal"), 1, (1, 2, 3), _generate_score, lambda d: AMOUNT, _solve_score
    ),
    DrillKind(
        "pp.schedule",
        GAME,
        N_("Cards and kind of a deal"),
        1,
        (1, 2, 3),
        _generate_schedule,
        _format_schedule,
        _solve_schedule,
    ),
    DrillKind(
        "pp.hook",
        GAME,
        N_("The dealer's forbidden bid"),
        1,
        (1, 2, 3),
        _generate_hook,
        _format_hook,
        _solve_hook,
    ),
    DrillKind(
        "pp.trick", GAME, N_("Who takes the trick"), 1, (1, 2, 3), generate_trick, format_trick, solve_trick
    ),
    DrillKind(
        "pp.sheet",
        GAME,
        N_("A player's total on the sheet"),
        1,
        (1, 2, 3),
        generate_sheet,
        lambda d: AMOUNT,
        solve_sheet,
    ),
)

for _kind in KINDS:
    register(_kind)

__all__ = ["KINDS", "score_branch", "score_branches"]
