"""The answers of an Omaha round's steps: each recomputed from the engines on the step's facts (the
same facts the table showed), never from what the simulation did."""

from __future__ import annotations

from typing import Any

from trainer.drills.answers import seat_label
from trainer.drills.chips import load_chips
from trainer.drills.houses import in_use
from trainer.drills.omaha.showdowns import ENTRY_CHOICES, MUCK_CHOICES
from trainer.drills.rounds import payout_answer
from trainer.engine.explain import Step, step
from trainer.engine.omaha import pot_step, settle, side_pots
from trainer.engine.omaha.betting import load_rules
from trainer.engine.omaha.explain import (
    explain_blinds,
    explain_limit,
    explain_min_raise,
    explain_missed_blinds,
    explain_pot_limit,
)
from trainer.engine.omaha.reveal import explain_order, muck_rulings
from trainer.engine.omaha.seating import new_player_entry


def solve_blind(data: dict[str, Any]) -> tuple[str, str, tuple[Step, ...]]:
    blinds, steps = explain_blinds(data["button"], data["stacks"], data["sb"], data["bb"], data.get("rules"))
    seat = blinds.small if data["blind"] == "small" else blinds.big
    # The engine's steps already number seats from 1, as the table does (renumbering them again named
    # the seat after the one that posts).
    return str(seat + 1), str(seat_label(seat)), steps[:3]


def solve_returning(data: dict[str, Any]) -> tuple[dict[str, int], str, tuple[Step, ...]]:
    post, steps = explain_missed_blinds(data["missed"], data["sb"], data["bb"], data["rules"])
    return {"Live": post.live, "Dead": post.dead}, f"Live: {post.live}; Dead: {post.dead}", steps


def solve_pot_size(data: dict[str, Any]) -> tuple[int, str, tuple[Step, ...]]:
    on_table = sum(data["bets"])
    total = data["middle"] + data["dead"] + on_table
    return (
        total,
        str(total),
        (
            step(
                "The pot is every chip in the middle ({middle}) and on the table ({bets}): {total}.",
                middle=data["middle"] + data["dead"],
                bets=on_table,
                total=total,
            ),
        ),
    )


def solve_pot_max(data: dict[str, Any]) -> tuple[int, str, tuple[Step, ...]]:
    total, steps = explain_pot_limit(data["pot"], data["to_call"], data["own"], stack=data["stack"])
    return total, str(total), steps


def solve_raise_legal(data: dict[str, Any]) -> tuple[str, str, tuple[Step, ...]]:
    attempt, own, stack = data["attempt"], data["own"], data["stack"]
    all_in = own + stack
    if data["structure"] == "limit":
        raise_to, steps = explain_limit(
            data["street"],
            data["small_bet"],
            data["big_bet"],
            bets_made=data["bets_made"],
            players=data["players"],
            rules=load_rules(data["rules"], in_use()),
        )
        legal = raise_to is not None and attempt == raise_to
    else:
        least, low_steps = explain_min_raise(data["raises"], data["bb"])
        most, high_steps = explain_pot_limit(data["pot"], data["to_call"], own, stack=stack)
        legal = attempt <= most and (attempt >= least or attempt == all_in)
        steps = (*low_steps, *high_steps)
    verdict = (
        step("A raise to {amount} is allowed.", amount=attempt)
        if legal
        else step("A raise to {amount} is not allowed.", amount=attempt)
    )
    return ("yes" if legal else "no"), ("Yes, allowed" if legal else "No, not allowed"), (*steps, verdict)


def settlement(data: dict[str, Any]) -> Any:
    return settle(
        data["board"],
        data["holes"],
        data["put"],
        hi_lo=data["hi_lo"],
        button=data["button"],
        chip=data["chip"],
    )


def solve_returned(data: dict[str, Any]) -> tuple[int, str, tuple[Step, ...]]:
    back = side_pots(data["put"], [s for s, h in enumerate(data["holes"]) if h is None]).returned[
        data["seat"]
    ]
    return (
        back,
        str(back),
        (
            step(
                "Seat {seat} put in {amount} more than anybody else could match: it goes back to him.",
                seat=data["seat"] + 1,
                amount=back,
            ),
        ),
    )


def _paid(data: dict[str, Any], amount: int, steps: tuple[Step, ...]) -> tuple[Any, str, tuple[Step, ...]]:
    """A payout in the step's form: the amount, or (a chips step) its fewest chips in the house's set,
    the explanation then ending with the fewest-chips way."""
    if not data.get("chips"):
        return amount, str(amount), steps
    chips = load_chips(data["chips"])
    return payout_answer(chips, "chips", amount), str(amount), (*steps, chips.fewest_step(amount))


def solve_uncontested(data: dict[str, Any]) -> tuple[Any, str, tuple[Step, ...]]:
    ruling = settlement(data)
    seat = data["seat"]
    won = ruling.payouts[seat] - ruling.returned[seat]
    return _paid(
        data, won, (step("The last player left takes the pot without a showdown: {amount}.", amount=won),)
    )


def solve_side_pots(data: dict[str, Any]) -> tuple[list[int], str, tuple[Step, ...]]:
    built = side_pots(data["put"], data["folded"])
    steps = [
        step(
            "Each pot takes from every seat up to the smallest all-in still in it; folded chips stay in "
            "the pots they reached."
        )
    ]
    steps += [pot_step(number, pot) for number, pot in enumerate(built.pots)]
    amounts = list(built.amounts)
    return amounts, "; ".join(str(a) for a in amounts), tuple(steps)


def entry(data: dict[str, Any]) -> Any:
    seat = data["seat"]
    return new_player_entry(
        seat,
        button=data["button"],
        seats=[s != seat for s in range(data["n"])],
        big_blind=data["bb"],
        rules=load_rules(data["rules"], in_use()),
    )


def solve_new_player(data: dict[str, Any]) -> tuple[str, str, tuple[Step, ...]]:
    ruling = entry(data)
    may_post = load_rules(data["rules"], in_use()).new_player_may_post
    key = "post" if ruling.may_post_now else "wait_button" if may_post else "wait_big_blind"
    return key, str(dict(ENTRY_CHOICES)[key]), ruling.steps


def show_order(data: dict[str, Any]) -> tuple[tuple[int, ...], tuple[Step, ...]]:
    return explain_order(
        data["live"],
        button=data["button"],
        seats=data["n"],
        last_aggressor=data["aggressor"],
        contributions=data["contributions"],
        rules=load_rules(data["rules"], in_use()),
    )


def solve_show_first(data: dict[str, Any]) -> tuple[str, str, tuple[Step, ...]]:
    order, steps = show_order(data)
    return str(order[0] + 1), str(seat_label(order[0])), steps


def solve_muck(data: dict[str, Any]) -> tuple[str, str, tuple[Step, ...]]:
    first, asked = data["first"], data["asked"]
    # Only the first hand is shown when he must say: he is compared with that hand alone.
    ruling = muck_rulings(
        data["board"],
        data["holes"],
        (first, asked),
        contributions=data["put"],
        hi_lo=data["hi_lo"],
        rules=load_rules(data["rules"], in_use()),
    )[-1]
    key = "muck" if ruling.may_muck else "show"
    return key, str(dict(MUCK_CHOICES)[key]), ruling.steps


def pot_shares(data: dict[str, Any]) -> tuple[Any, dict[int, int], tuple[Step, ...]]:
    """Pot `data["pot"]` at the showdown: the engine's result, what each seat collects from it, and
    the part of the engine's explanation about this pot (the engine's showdown steps already number
    seats from 1, as the table does: they are not renumbered)."""
    ruling = settlement(data)
    result = ruling.pots[data["pot"]]
    # The engine explains every pot in turn; keep this pot's part.
    starts = [i for i, s in enumerate(ruling.steps) if s.template.startswith(("Main pot", "Side pot"))]
    begin = starts[data["pot"]]
    end = starts[data["pot"] + 1] if data["pot"] + 1 < len(starts) else len(ruling.steps)
    return result, dict(result.shares), tuple(ruling.steps[begin:end])


def solve_pot(data: dict[str, Any]) -> tuple[dict[str, int], str, tuple[Step, ...]]:
    result, shares, steps = pot_shares(data)
    answer = {str(seat_label(s)): shares.get(s, 0) for s in result.pot.eligible}
    text = "; ".join(f"{k}: {v}" for k, v in answer.items())
    return answer, text, steps


def solve_payout(data: dict[str, Any]) -> tuple[Any, str, tuple[Step, ...]]:
    """What seat `data["seat"]` is paid from pot `data["pot"]`, as chips (the step after the pot's)."""
    _result, shares, steps = pot_shares(data)
    return _paid(data, shares.get(data["seat"], 0), steps)
