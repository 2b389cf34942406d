"""Omaha drills on who comes in and who shows: `om.new_player` (post the big blind or wait for it) and
`om.showdown` (who shows first, and who may muck a losing hand). Registered on import of
`trainer.drills.omaha`.

Seats in the situations are numbered from 1, as the trainee counts them (`first_seat` = 1); the
engine's seats are those numbers minus one.
"""

from __future__ import annotations

import random
from typing import Any

from trainer.drills.answers import seat_label
from trainer.drills.base import AnswerFormat, AnswerKind, DrillKind, attach_mistakes, prompt, register
from trainer.drills.mistakes import Mistake, mistake_type
from trainer.drills.omaha.deals import Dealer, DealError, house_rules, names, retry
from trainer.engine.explain import N_, Step, Term, step
from trainer.engine.omaha.reveal import explain_order, muck_rulings
from trainer.engine.omaha.seating import blind_seats, new_player_entry

GAME = "omaha"
Data = dict[str, Any]
Solution = tuple[Any, str, tuple[Step, ...]]
AMOUNT = AnswerFormat(AnswerKind.AMOUNT)
_BLINDS = {1: ((5, 10), (10, 20)), 2: ((15, 30), (25, 50), (50, 100)), 3: ((100, 200), (250, 500))}


# om.new_player --------------------------------------------------------------------------------------

ENTRY_CHOICES = (
    ("post", Term(N_("He posts the big blind, live, and plays this hand"))),
    ("wait_button", Term(N_("He waits: he may not come in between the button and the big blind"))),
    ("wait_big_blind", Term(N_("He waits for the big blind: this house lets no new player post"))),
    ("small", Term(N_("He posts the small blind and plays this hand"))),
    ("both", Term(N_("He posts both blinds, the small one dead, and plays this hand"))),
)


def entry_question(*, sb: int, bb: int, button: int, small: int, big: int, seat: int) -> Step:
    """What does a new player do, asked with the seats numbered from 1 (this drill's question and the
    live table's)."""
    return step(
        "Blinds {sb}/{bb}; the button is on seat {button}, the blinds on seats {small} and {big}. A new "
        "player sits down on seat {seat} and wants to play this hand. What does he do?",
        sb=sb,
        bb=bb,
        button=button,
        small=small,
        big=big,
        seat=seat,
    )


def _gen_new_player(rng: random.Random, level: int, rules_name: str | None) -> Data:
    rules = house_rules(rules_name)

    def make() -> Data:
        count = {1: 6, 2: 9, 3: rng.randint(6, 10)}[level]
        empty = rng.sample(range(count), 1 if level == 1 else rng.randint(1, 3))
        seated = [s not in empty for s in range(count)]
        if level == 3 and rng.random() < 0.25:  # heads-up before he sits down
            keep = rng.sample([s for s in range(count) if seated[s]], 2)
            seated = [s in keep for s in range(count)]
        seat = rng.choice([s for s in range(count) if not seated[s]])
        button = rng.choice([s for s in range(count) if seated[s]])
        active = {s for s in range(count) if seated[s]}
        if len(active) < 2:
            raise DealError("too few players")
        sb, bb = rng.choice(_BLINDS[level])
        ruling = new_player_entry(seat, button=button, seats=seated, big_blind=bb, rules=rules)
        # Level 1 asks only whether he may post; later levels also how long waiting takes.
        question = "entry" if level == 1 or rng.random() < 0.5 else "wait"
        if question == "entry" and rng.random() < 0.5 and ruling.may_post_now:
            raise DealError("ask the positions where he must wait about as often")
        small, big = blind_seats(button, active, count, rules)
        data: Data = {
            "preset": rules.name,
            "blinds": [sb, bb],
            "first_seat": 1,
            "seats": count,
            "stacks": [rng.randint(20, 150) * bb if seated[s] else None for s in range(count)],
            "button": button + 1,
            "new_seat": seat + 1,
            "question": question,
        }
        if question == "entry":
            return prompt(
                data,
                entry_question(sb=sb, bb=bb, button=button + 1, small=small + 1, big=big + 1, seat=seat + 1),
            )
        return prompt(
            data,
            step(
                "Blinds {sb}/{bb}; the button is on seat {button}, the blinds on seats {small} and {big}. A "
                "new player sits down on seat {seat} and waits for the big blind. In how many hands is he "
                "dealt in (1 = the next hand)?",
                sb=sb,
                bb=bb,
                button=button + 1,
                small=small + 1,
                big=big + 1,
                seat=seat + 1,
            ),
        )

    return retry(make)


def _entry_ruling(data: Data) -> Any:
    seated = [stack is not None for stack in data["stacks"]]
    return new_player_entry(
        data["new_seat"] - 1,
        button=data["button"] - 1,
        seats=seated,
        big_blind=data["blinds"][1],
        rules=house_rules(data["preset"]),
    )


def _format_new_player(data: Data) -> AnswerFormat:
    if data["question"] == "wait":
        return AMOUNT
    return AnswerFormat(AnswerKind.CHOICE, choices=ENTRY_CHOICES)


def _solve_new_player(data: Data) -> Solution:
    ruling = _entry_ruling(data)
    if data["question"] == "wait":
        return ruling.hands_to_big_blind, str(ruling.hands_to_big_blind), ruling.steps
    rules = house_rules(data["preset"])
    key = "post" if ruling.may_post_now else "wait_button" if rules.new_player_may_post else "wait_big_blind"
    return key, str(dict(ENTRY_CHOICES)[key]), ruling.steps


register(
    DrillKind(
        "om.new_player",
        GAME,
        N_("Omaha: a new player posts or waits for the big blind"),
        1,
        (1, 2, 3),
        _gen_new_player,
        _format_new_player,
        _solve_new_player,
    )
)


# om.showdown ----------------------------------------------------------------------------------------

MUCK_CHOICES = (
    ("muck", Term(N_("He may muck: his hand is beaten by a hand already shown"))),
    ("show", Term(N_("He must show to win his share"))),
)


def _river_actions(
    rng: random.Random, live: list[int], button: int, count: int, aggressor: int | None, bb: int
) -> list[dict[str, Any]]:
    """The river's actions (seats from 1), in turn from the first live seat left of the button, such
    that `aggressor` (an engine seat) makes the last bet or raise, or everybody checks."""
    order = sorted(live, key=lambda s: (s - button - 1) % count)
    if aggressor is None:
        return [{"seat": s + 1, "action": "check"} for s in order]
    actions: list[dict[str, Any]] = []
    start = order.index(aggressor)
    raiser = None
    if rng.random() < 0.5 and len(order) > 2:
        # Somebody bets first and the aggressor raises over him.
        raiser = order[(start - 1) % len(order)]
    first = raiser if raiser is not None else aggressor
    amount = rng.randint(1, 6) * bb
    turn = order[order.index(first) :] + order[: order.index(first)]
    checks = order[: order.index(first)]
    actions += [{"seat": s + 1, "action": "check"} for s in checks]
    actions.append({"seat": first + 1, "action": "bet", "amount": amount})
    rest = turn[1:]
    if raiser is not None:
        amount *= 3
        actions.append({"seat": aggressor + 1, "action": "raise", "amount": amount})
        rest = [s for s in turn[2:]] + [raiser]
    actions += [{"seat": s + 1, "action": "call"} for s in rest]
    return actions


def _gen_showdown(rng: random.Random, level: int, rules_name: str | None) -> Data:
    rules = house_rules(rules_name)

    def make() -> Data:
        count = rng.randint(*{1: (4, 6), 2: (5, 8), 3: (6, 9)}[level])
        live_count = rng.randint(2, 3) if level == 1 else rng.randint(3, min(5, count))
        live = sorted(rng.sample(range(count), live_count))
        button = rng.randrange(count)
        sb, bb = rng.choice(_BLINDS[level])
        hi_lo = level == 3 and rng.random() < 0.5
        dealer = Dealer(rng)
        board = dealer.draw(5)
        holes: list[list[str] | None] = [None] * count
        for s in live:
            holes[s] = names(dealer.draw(4))
        contributions = [0] * count
        base = rng.randint(4, 30) * bb
        for s in range(count):
            if s in live:
                contributions[s] = base
            elif rng.random() < 0.5:
                contributions[s] = rng.randint(0, 3) * bb  # folded on the way
        side = level == 3 and rng.random() < 0.6
        all_in: list[int] = []
        if side:
            all_in = rng.sample(live, rng.randint(1, max(1, len(live) - 2)))
            for s in all_in:
                contributions[s] = rng.randint(1, base // bb - 1) * bb
        betting = [s for s in live if s not in all_in]
        aggressor = rng.choice(betting) if rng.random() < 0.6 else None
        actions = _river_actions(rng, betting, button, count, aggressor, bb) if len(betting) > 1 else []
        if aggressor is not None and len(betting) < 2:
            raise DealError("nobody to bet against")
        question = "first" if level == 1 or rng.random() < 0.5 else "muck"
        data: Data = {
            "preset": rules.name,
            "blinds": [sb, bb],
            "first_seat": 1,
            "seats": count,
            "button": button + 1,
            "board": names(board),
            "holes": holes,
            "contributions": contributions,
            "hi_lo": hi_lo,
            "actions": actions,
            "last_aggressor": None if aggressor is None else aggressor + 1,
            "all_in": [s + 1 for s in sorted(all_in)],
            "question": question,
        }
        order = _order(data)
        if question == "first" and all_in:
            return prompt(
                data,
                step(
                    "The river is over and seats {seats} go to the showdown (all-in for less than the "
                    "others: "
                    "{all_in}); the button is on seat {button}. Who shows first?",
                    seats=[s + 1 for s in live],
                    all_in=data["all_in"],
                    button=button + 1,
                ),
            )
        if question == "first":
            return prompt(
                data,
                step(
                    "The river is over and seats {seats} go to the showdown; the button is on seat {button}. "
                    "Who shows first?",
                    seats=[s + 1 for s in live],
                    button=button + 1,
                ),
            )
        rulings = _mucks(data, order)
        # Ask about a later player; a beaten hand and a hand that must be shown come up evenly.
        want = rng.random() < 0.5
        candidates = [r for r in rulings[1:] if r.may_muck == want]
        if not candidates:
            raise DealError("no player of the kind wanted")
        asked = rng.choice(candidates)
        before = rulings[: rulings.index(asked)]
        data["shown"] = [r.seat + 1 for r in before if not r.may_muck]
        data["asked"] = asked.seat + 1
        # A player before him whose hand was already beaten mucked it: the question says so, or the
        # trainee sees a live seat skipped.
        mucked = [r.seat + 1 for r in before if r.may_muck]
        return prompt(
            data,
            *_turns(data["shown"], mucked),
            step("Seat {seat} is next. May he muck his hand without showing it?", seat=data["asked"]),
        )

    return retry(make)


def _turns(shown: list[int], mucked: list[int]) -> list[Step]:
    """Who has shown and who has mucked at the showdown so far (seats from 1), one sentence each."""
    said = [
        step("At the showdown seat {seat} has shown his hand.", seat=shown[0])
        if len(shown) == 1
        else step("At the showdown seats {seats} have shown their hands, in turn.", seats=shown)
    ]
    if len(mucked) == 1:
        said.append(
            step("Seat {seat} mucked his hand: it was beaten by a hand shown before.", seat=mucked[0])
        )
    elif mucked:
        said.append(
            step("Seats {seats} mucked their hands: each was beaten by a hand shown before.", seats=mucked)
        )
    return said


def _live(data: Data) -> list[int]:
    """The seats still in the hand (0-based)."""
    return [s for s, hole in enumerate(data["holes"]) if hole is not None]


def _explained_order(data: Data) -> tuple[tuple[int, ...], tuple[Step, ...]]:
    """The order of showing and why, from the situation's seats (1-based in the data)."""
    aggressor = data["last_aggressor"]
    return explain_order(
        _live(data),
        button=data["button"] - 1,
        seats=data["seats"],
        last_aggressor=None if aggressor is None else aggressor - 1,
        contributions=data["contributions"],
        rules=house_rules(data["preset"]),
    )


def _order(data: Data) -> tuple[int, ...]:
    return _explained_order(data)[0]


def _mucks(data: Data, order: tuple[int, ...]) -> Any:
    return muck_rulings(
        data["board"],
        data["holes"],
        order,
        contributions=data["contributions"],
        hi_lo=data["hi_lo"],
        rules=house_rules(data["preset"]),
    )


def _format_showdown(data: Data) -> AnswerFormat:
    if data["question"] == "muck":
        return AnswerFormat(AnswerKind.CHOICE, choices=MUCK_CHOICES)
    return AnswerFormat(AnswerKind.CHOICE, choices=tuple((str(s + 1), seat_label(s)) for s in _live(data)))


def _solve_showdown(data: Data) -> Solution:
    order, steps = _explained_order(data)
    if data["question"] == "first":
        return str(order[0] + 1), f"Seat {order[0] + 1}", steps
    shown = [s - 1 for s in data["shown"]]
    asked = data["asked"] - 1
    # The hands shown before him, then his turn: the ruling compares him with those hands only.
    ruling = _mucks(data, (*shown, asked))[-1]
    key = "muck" if ruling.may_muck else "show"
    # The players before him in the order who did not show mucked (the question says so too).
    mucked = [s + 1 for s in order[: order.index(asked)] if s not in shown]
    words = _turns([s + 1 for s in shown], mucked)
    return key, str(dict(MUCK_CHOICES)[key]), (*steps, *words, *ruling.steps)


register(
    DrillKind(
        "om.showdown",
        GAME,
        N_("Omaha: who shows first, and who may muck"),
        1,
        (1, 2, 3),
        _gen_showdown,
        _format_showdown,
        _solve_showdown,
    )
)

__all__ = ["ENTRY_CHOICES", "MUCK_CHOICES"]


# Typical mistakes of the amount question (hands until his big blind) --------------------------------

EMPTY_SEATS_COUNTED = mistake_type("om.empty_seats_counted", "Empty seats counted as hands")
SEATS_BETWEEN = mistake_type("om.seats_between", "The seats in between counted, not the hands")
FROM_THE_BUTTON = mistake_type("om.from_the_button", "Counted from the button, not from the big blind")


def _new_player_mistakes(data: Data) -> list[Mistake]:
    if data["question"] != "wait":
        return []
    seated = [stack is not None for stack in data["stacks"]]
    count, seat, button = len(seated), data["new_seat"] - 1, data["button"] - 1
    active = {s for s in range(count) if seated[s]}
    big = blind_seats(button, active, count, house_rules(data["preset"]))[1]
    right = _entry_ruling(data).hands_to_big_blind
    ring = [s for s in range(count) if s in active or s == seat]
    from_button = sorted(ring, key=lambda s: (s - button) % count).index(seat)
    return [
        Mistake(
            EMPTY_SEATS_COUNTED,
            (seat - big) % count,
            step("The big blind moves over players only, never over empty seats: {hands}.", hands=right),
        ),
        Mistake(
            SEATS_BETWEEN,
            right - 1,
            step(
                "The big blind reaches him in the hand after it has passed the seats in between: {hands}.",
                hands=right,
            ),
        ),
        Mistake(
            FROM_THE_BUTTON,
            from_button,
            step(
                "Count from the big blind, seat {big}, not from the button: {hands}.",
                big=big + 1,
                hands=right,
            ),
        ),
    ]


attach_mistakes("om.new_player", _new_player_mistakes)
