"""Omaha betting and blinds drills: `om.pot_limit`, `om.limit`, `om.blinds` (registered on import of
`trainer.drills.omaha`).

Betting situations are the actions of one round ("seat 3 raises to 35", "seat 4 calls 35"); `solve`
replays them to find what the engine needs (pot, amount to call, bets made) and asks the engine.
"""

from __future__ import annotations

import random
from typing import Any

from trainer.drills.base import AnswerFormat, AnswerKind, Data, DealError, DrillKind, Solution, define, prompt
from trainer.drills.omaha.deals import branch, house_rules, retry
from trainer.engine.explain import N_, Step, Term, nstep, step
from trainer.engine.omaha.betting import DEFAULT_RULES, Street, limit_cap, pot_limit_max
from trainer.engine.omaha.explain import (
    explain_blinds,
    explain_limit,
    explain_missed_blinds,
    explain_pot_limit,
)
from trainer.games import OMAHA

GAME = OMAHA.id
AMOUNT = AnswerFormat(AnswerKind.AMOUNT)

_BLINDS = {
    1: ((5, 10), (10, 20), (25, 50)),
    2: ((15, 30), (20, 40), (30, 60), (40, 80), (75, 150)),
    3: ((50, 100), (100, 200), (250, 500), (500, 1000)),
}


def _kind(kind_id: str, title: str, generate: Any, answer_format: Any, solve: Any) -> DrillKind:
    return define(GAME, kind_id, title, generate, answer_format, solve)


def _action(action: dict[str, Any]) -> Step:
    """One action of the round as a sentence; the situation numbers seats from 0, the table from 1."""
    seat, amount = action["seat"] + 1, action.get("amount")
    said = {
        "small_blind": lambda: step("Seat {seat} posts the small blind {amount}.", seat=seat, amount=amount),
        "big_blind": lambda: step("Seat {seat} posts the big blind {amount}.", seat=seat, amount=amount),
        "bet": lambda: step("Seat {seat} bets {amount}.", seat=seat, amount=amount),
        "raise": lambda: step("Seat {seat} raises to {amount}.", seat=seat, amount=amount),
        "call": lambda: step("Seat {seat} calls.", seat=seat),
        "check": lambda: step("Seat {seat} checks.", seat=seat),
        "fold": lambda: step("Seat {seat} folds.", seat=seat),
    }
    return said[action["action"]]()


def _actions(actions: list[dict[str, Any]]) -> list[Step]:
    return [_action(a) for a in actions] or [step("No action yet.")]


def replay(actions: list[dict[str, Any]]) -> dict[int, int]:
    """Each seat's chips put in this round after the actions (a call matches the highest bet)."""
    bets: dict[int, int] = {}
    for a in actions:
        if a["action"] == "call":
            bets[a["seat"]] = max(bets.values(), default=0)
        elif a["action"] in ("small_blind", "big_blind", "bet", "raise"):
            bets[a["seat"]] = a["amount"]
        else:
            bets.setdefault(a["seat"], 0)
    return bets


# om.pot_limit -------------------------------------------------------------------------------------


def _gen_pot_limit(rng: random.Random, level: int, rules_name: str | None) -> Data:
    house_rules(rules_name)  # a preset this game does not have is refused, not recorded
    sb, bb = rng.choice(_BLINDS[level])
    players = rng.randint(*{1: (3, 6), 2: (4, 7), 3: (5, 9)}[level])
    street = Street.PREFLOP if rng.random() < 0.5 else rng.choice((Street.FLOP, Street.TURN, Street.RIVER))
    moves = rng.randint(*{1: (0, 2), 2: (1, 4), 3: (2, 5)}[level])
    raise_share = {1: 0.0, 2: 0.5, 3: 0.6}[level]

    def make() -> Data:
        actions: list[dict[str, Any]] = []
        pot_before = 0
        if street is Street.PREFLOP:
            actions += [
                {"seat": 1, "action": "small_blind", "amount": sb},
                {"seat": 2, "action": "big_blind", "amount": bb},
            ]
            order = [*range(3, players), 0, 1, 2]
        else:
            pot_before = rng.randint(2, 40) * bb
            order = [*range(1, players), 0]
        position = 0
        for _ in range(moves):
            seat = order[position % len(order)]
            position += 1
            bets = replay(actions)
            top = max(bets.values(), default=0)
            pot = pot_before + sum(bets.values())
            if rng.random() < raise_share or (level == 1 and street is not Street.PREFLOP and top == 0):
                own = bets.get(seat, 0)
                most = own + pot_limit_max(pot, top - own)
                least = top + max(bb, top)
                if least > most:
                    raise DealError("no room to raise")
                amount = rng.randint(least // sb, most // sb) * sb
                actions.append({"seat": seat, "action": "raise" if top else "bet", "amount": amount})
            elif top == 0:
                actions.append({"seat": seat, "action": "check"})
            else:
                actions.append({"seat": seat, "action": "call"})
        actor = order[position % len(order)]
        bets = replay(actions)
        top = max(bets.values(), default=0)
        own = bets.get(actor, 0)
        if top == own and actor in [
            a["seat"] for a in actions if a["action"] not in ("small_blind", "big_blind")
        ]:
            raise DealError("the action is closed")
        data: Data = {
            "street": street.value,
            "blinds": [sb, bb],
            "pot_before": pot_before,
            "actions": actions,
            "actor": actor,
        }
        most = own + pot_limit_max(pot_before + sum(bets.values()), top - own)
        if level == 3 and rng.random() < 0.4:
            data["stack"] = rng.randint(max(1, (top - own) // sb + 1), most // sb) * sb
        where = {
            Street.PREFLOP: lambda: step("Pot limit, blinds {sb}/{bb}, before the flop.", sb=sb, bb=bb),
            Street.FLOP: lambda: step(
                "Pot limit, blinds {sb}/{bb}, on the flop with {pot} in the pot from earlier rounds.",
                sb=sb,
                bb=bb,
                pot=pot_before,
            ),
            Street.TURN: lambda: step(
                "Pot limit, blinds {sb}/{bb}, on the turn with {pot} in the pot from earlier rounds.",
                sb=sb,
                bb=bb,
                pot=pot_before,
            ),
            Street.RIVER: lambda: step(
                "Pot limit, blinds {sb}/{bb}, on the river with {pot} in the pot from earlier rounds.",
                sb=sb,
                bb=bb,
                pot=pot_before,
            ),
        }[street]()
        said = [where, *_actions(actions), step("Seat {actor} is next.", actor=actor + 1)]
        if "stack" in data:
            said.append(
                nstep(
                    "He has {count}\u00a0chip behind.",
                    "He has {count}\u00a0chips behind.",
                    count=data["stack"],
                )
            )
        said.append(step("What is the most he may raise to?"))
        return prompt(data, *said)

    return retry(make)


def _solve_pot_limit(data: Data) -> Solution:
    bets = replay(data["actions"])
    own = bets.get(data["actor"], 0)
    pot = data["pot_before"] + sum(bets.values())
    top = max(bets.values(), default=0)
    total, steps = explain_pot_limit(pot, top - own, own, data.get("stack"))
    return total, f"{total:,}", steps


_kind("om.pot_limit", N_("Omaha: the pot-limit maximum"), _gen_pot_limit, lambda d: AMOUNT, _solve_pot_limit)


# om.limit -----------------------------------------------------------------------------------------

_LIMIT_BRANCHES = {
    1: {"open": 3, "one_more": 2, "capped": 1},
    2: {"open": 1, "one_more": 2, "capped": 2, "heads_up": 1},
    3: {"one_more": 1, "capped": 2, "heads_up": 2},
}


def _gen_limit(rng: random.Random, level: int, rules_name: str | None) -> Data:
    rules = house_rules(rules_name)
    small, big = rng.choice(_BLINDS[level])
    drawn = branch(rng, _LIMIT_BRANCHES[level])
    street = rng.choice(tuple(Street))
    players = 2 if drawn == "heads_up" else rng.randint(3, {1: 4, 2: 6, 3: 9}[level])
    cap = limit_cap(players, rules)
    size = small if street in (Street.PREFLOP, Street.FLOP) else big
    first = 1 if street is Street.PREFLOP else 0
    if drawn == "open":
        bets_made = first
    elif drawn == "capped" and cap is not None:
        bets_made = cap
    elif drawn == "heads_up":
        bets_made = rng.randint(4, 4 + 2 * level)
    else:
        # Below the cap where there is room; a house with no raises has none before the flop, where
        # the big blind is already the round's one bet.
        bets_made = rng.randint(first, max(first, (cap or 5) - 1))

    def make() -> Data:
        actions: list[dict[str, Any]] = []
        seats = list(range(players))
        if street is Street.PREFLOP:
            small_seat, big_seat = (0, 1) if players == 2 else (1, 2)
            actions += [
                {"seat": small_seat, "action": "small_blind", "amount": small // 2},
                {"seat": big_seat, "action": "big_blind", "amount": small},
            ]
            order = seats[3:] + seats[:3] if players > 2 else [0, 1]
        else:
            order = [*seats[1:], 0] if players > 2 else [1, 0]
        made, position = first, 0
        while made < bets_made:
            seat = order[position % len(order)]
            position += 1
            # Heads-up a call closes the round, so only raises there.
            if players > 2 and made > 0 and rng.random() < 0.35:
                actions.append({"seat": seat, "action": "call"})
                continue
            made += 1
            actions.append({"seat": seat, "action": "raise" if made > 1 else "bet", "amount": made * size})
        actor = order[position % len(order)]
        if actions and actions[-1]["seat"] == actor:
            raise DealError("the same seat twice in a row")
        data: Data = {
            "preset": rules_name or DEFAULT_RULES,
            "stakes": [small, big],
            "street": street.value,
            "players": players,
            "actions": actions,
            "actor": actor,
        }
        where = {
            Street.PREFLOP: lambda: step("Fixed limit {small}/{big}, before the flop.", small=small, big=big),
            Street.FLOP: lambda: step("Fixed limit {small}/{big}, on the flop.", small=small, big=big),
            Street.TURN: lambda: step("Fixed limit {small}/{big}, on the turn.", small=small, big=big),
            Street.RIVER: lambda: step("Fixed limit {small}/{big}, on the river.", small=small, big=big),
        }[street]()
        return prompt(
            data,
            where,
            nstep(
                "{count}\u00a0player is in the hand.", "{count}\u00a0players are in the hand.", count=players
            ),
            *_actions(actions),
            step(
                "Seat {actor} is next: what may he bet or raise to? Answer 0 if he may not raise.",
                actor=actor + 1,
            ),
        )

    return retry(make)


def _solve_limit(data: Data) -> Solution:
    street = Street(data["street"])
    made = sum(1 for a in data["actions"] if a["action"] in ("bet", "raise")) + (street is Street.PREFLOP)
    small, big = data["stakes"]
    raise_to, steps = explain_limit(
        street, small, big, bets_made=made, players=data["players"], rules=house_rules(data["preset"])
    )
    if raise_to is None:
        return 0, "0 (no raise: the betting is capped)", steps
    return raise_to, f"{raise_to:,}", steps


_kind("om.limit", N_("Omaha: fixed-limit bet sizes and the cap"), _gen_limit, lambda d: AMOUNT, _solve_limit)


# om.blinds ----------------------------------------------------------------------------------------

_MISSED = {1: ("big", "both"), 2: ("small", "big", "both", "both")}


def _comes_back(missed: str, seat: int) -> Step:
    """The returning player, as a sentence (`seat` numbered from 1)."""
    if missed == "both":
        return step(
            "The player on seat {seat} comes back: both blinds passed him while he was away.", seat=seat
        )
    if missed == "big":
        return step(
            "The player on seat {seat} comes back: the big blind passed him while he was away.", seat=seat
        )
    return step(
        "The player on seat {seat} comes back: only the small blind passed him while he was away.", seat=seat
    )


def _blinds_data(rules_name: str | None, sb: int, bb: int, **more: Any) -> Data:
    """The data of a blinds question: the house, the blinds, then what the question needs besides."""
    return {"preset": rules_name or DEFAULT_RULES, "blinds": [sb, bb], **more}


def _gen_blinds(rng: random.Random, level: int, rules_name: str | None) -> Data:
    house_rules(rules_name)  # an unknown preset is refused before anything is drawn
    sb, bb = rng.choice(_BLINDS[level])
    if level < 3:
        missed = rng.choice(_MISSED[level])
        seat = rng.randint(0, 8)
        return prompt(
            _blinds_data(rules_name, sb, bb, missed=missed, seat=seat),
            step("Blinds {sb}/{bb}.", sb=sb, bb=bb),
            _comes_back(missed, seat + 1),
            step(
                "He wants to play this hand rather than wait for the big "
                "blind. What does he post, live and dead?"
            ),
        )

    def make() -> Data:
        seats = rng.randint(6, 10)
        heads_up = rng.random() < 0.35
        active = sorted(rng.sample(range(seats), 2 if heads_up else rng.randint(3, seats)))
        stacks: list[int | None] = [None] * seats
        for s in active:
            stacks[s] = rng.randint(bb // sb + 1, 200) * sb
        if rng.random() < 0.4:  # a short stack that cannot cover a blind
            stacks[rng.choice(active)] = rng.randint(1, bb - 1)
        button = rng.choice(active)
        return prompt(
            _blinds_data(rules_name, sb, bb, button=button, stacks=stacks),
            step("Blinds {sb}/{bb}; the button is on seat {button}.", sb=sb, bb=bb, button=button + 1),
            *(
                step("Seat {seat} is empty.", seat=s)
                if c is None
                else step("Seat {seat} has {chips} in chips.", seat=s, chips=c)
                for s, c in enumerate(stacks, start=1)
            ),
            step("What does each seat post before the deal?"),
        )

    return retry(make)


def _blinds_format(data: Data) -> AnswerFormat:
    if "missed" in data:
        return AnswerFormat(AnswerKind.AMOUNTS, labels=(Term(N_("Live")), Term(N_("Dead"))))
    return AnswerFormat(
        AnswerKind.AMOUNTS,
        labels=tuple(
            step("Seat {seat}", seat=s) for s, c in enumerate(data["stacks"], start=1) if c is not None
        ),
    )


def _solve_blinds(data: Data) -> Solution:
    sb, bb = data["blinds"]
    if "missed" in data:
        post, steps = explain_missed_blinds(data["missed"], sb, bb, house_rules(data["preset"]))
        return [post.live, post.dead], f"Live: {post.live:,}; dead: {post.dead:,}", steps
    blinds, steps = explain_blinds(data["button"], data["stacks"], sb, bb, house_rules(data["preset"]))
    seats = [s for s, c in enumerate(data["stacks"]) if c is not None]
    values = [blinds.posted[s] for s in seats]
    text = "; ".join(f"Seat {s + 1}: {v:,}" for s, v in zip(seats, values, strict=True))
    return values, text, (*steps, step("Every other seat posts nothing."))


_kind("om.blinds", N_("Omaha: blinds and missed blinds"), _gen_blinds, _blinds_format, _solve_blinds)
