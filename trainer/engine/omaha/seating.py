"""A new player at an Omaha table: post the big blind to come in at once, or wait for the big blind.

The rule page's seed: "players must post an entry fee equal to the big blind, or wait until the big
blind reaches them" (so nobody comes in late and skips the blinds). Robert's Rules adds that a new
player may not be dealt in between the blinds and the button: sitting down there, he waits until the
button has passed him. Both are house options (`[new_player]` in `data/rules/omaha/*.toml`).

Seats are numbered 0..n-1 clockwise in the engine (the explanation steps say seat n + 1, as a reader
counts). The button moves one active seat clockwise each hand; the big blind is the second active seat
after it (heads-up, the one after the button, or the button itself at a house that plays the rule
document's heads-up blinds: `blinds.heads_up`).

>>> ruling = new_player_entry(5, button=2, seats=[True] * 5 + [False] + [True] * 3, big_blind=10)
>>> ruling.may_post_now, ruling.post, ruling.hands_to_big_blind  # right after the big blind
(True, 10, 1)
>>> new_player_entry(1, button=2, seats=[True, False] + [True] * 7, big_blind=10).hands_to_big_blind
6
>>> new_player_entry(3, button=2, seats=[True, True, True, False, True, True], big_blind=10).may_post_now
False
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from trainer.engine.explain import Step, step
from trainer.engine.omaha.betting import OmahaRules, button_posts_small, heads_up_rule, resolve_rules


@dataclass(frozen=True, slots=True)
class NewPlayerRuling:
    """How a player who just sat down at `seat` comes into the game.

    `may_post_now`: he may post the big blind (`post`, live) and be dealt this hand. `hands_to_button`
    is how many hands he must sit out before posting is allowed (0 when he may post now);
    `hands_to_big_blind` how many hands until the big blind reaches his seat if he waits for it
    (1 = the next hand). `steps` explain the ruling."""

    seat: int
    may_post_now: bool
    post: int
    hands_to_button: int
    hands_to_big_blind: int
    steps: tuple[Step, ...]


def _clockwise(start: int, count: int) -> list[int]:
    """Seats after `start`, clockwise, once round the table (start itself last)."""
    return [(start + i) % count for i in range(1, count + 1)]


def _next(seat: int, active: set[int], count: int) -> int:
    return next(s for s in _clockwise(seat, count) if s in active)


def blind_seats(
    button: int, active: set[int], count: int, rules: OmahaRules | str | None = None
) -> tuple[int, int]:
    """(small blind, big blind) seats for a button and the active seats (heads-up the house's
    `blinds.heads_up` says whether the button posts the small blind, the standard, or the big one)."""
    small = button if button_posts_small(len(active), rules) else _next(button, active, count)
    return small, _next(small, active, count)


def between(seat: int, start: int, end: int, count: int) -> bool:
    """Whether `seat` lies strictly between `start` and `end`, going clockwise."""
    return 0 < (seat - start) % count < (end - start) % count


def _check(seat: int, button: int, seats: Sequence[bool], big_blind: int) -> set[int]:
    if not isinstance(seats, list | tuple) or not all(isinstance(s, bool) for s in seats):
        raise ValueError("seats must be a list of True (a player sits there) or False (empty)")
    count = len(seats)
    if not 3 <= count <= 10:
        raise ValueError(f"an Omaha table has 2 to 10 seats besides the new player's: {count} given")
    for name, value in (("the new player's seat", seat), ("the button", button)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < count:
            raise ValueError(f"{name} must be a seat 0..{count - 1}, not {value!r:.40}")
    if isinstance(big_blind, bool) or not isinstance(big_blind, int) or big_blind < 1:
        raise ValueError(f"the big blind must be a whole number of chips >= 1, not {big_blind!r:.40}")
    if seats[seat]:
        raise ValueError(f"seat {seat} is taken: the new player sits down in an empty seat")
    if not seats[button]:
        raise ValueError(f"the button is on seat {button}, which is empty")
    active = {s for s, taken in enumerate(seats) if taken}
    if len(active) < 2:
        raise ValueError("a game needs at least two players already seated")
    return active


def new_player_entry(
    seat: int,
    *,
    button: int,
    seats: Sequence[bool],
    big_blind: int,
    rules: OmahaRules | str | None = None,
) -> NewPlayerRuling:
    """The ruling for a new player sitting down at the empty `seat` before the deal; `seats[s]` says
    whether a player (already in the game) sits at seat s, `button` is where the button is this hand."""
    r = resolve_rules(rules)
    active = _check(seat, button, seats, big_blind)
    count = len(seats)
    small, big = blind_seats(button, active, count, r)
    # Heads-up the blinds follow the house's rule: named first, so the seats that follow read right.
    steps = [heads_up_rule(r)] if len(active) == 2 else []
    steps.append(
        step(
            "The button is on seat {button}; seat {small} posts the small blind and seat {big} the big "
            "blind.",
            button=button + 1,
            small=small + 1,
            big=big + 1,
        )
    )
    # Waiting for the big blind: it moves one seat a hand over the players and his seat.
    ahead = [s for s in _clockwise(big, count) if s in active or s == seat]
    hands_to_big = ahead.index(seat) + 1
    # Posting: not while he sits between the button and the big blind (the button must pass him).
    hands_to_button = 0
    if r.new_player_waits_between:
        b = button
        while between(seat, b, blind_seats(b, active, count, r)[1], count):
            b = _next(b, active, count)
            hands_to_button += 1
    may_post = r.new_player_may_post and hands_to_button == 0
    if not r.new_player_may_post:
        steps.append(step("In this house a new player may not post to come in: he waits for the big blind."))
    elif hands_to_button:
        steps.append(
            step(
                "Seat {seat} is between the button and the big blind: he may not be dealt in there; "
                "he waits until the button has passed him (hands to wait: {hands}), then posts or waits "
                "for the big blind.",
                seat=seat + 1,
                hands=hands_to_button,
            )
        )
    else:
        steps.append(
            step(
                "He may post the big blind, {amount}, live, and be dealt in at once.",
                amount=big_blind,
            )
        )
    steps.append(
        step(
            "Waiting for the big blind, he is dealt in when it reaches seat {seat}; hands until then: "
            "{hands}.",
            seat=seat + 1,
            hands=hands_to_big,
        )
    )
    return NewPlayerRuling(
        seat=seat,
        may_post_now=may_post,
        post=big_blind if may_post else 0,
        hands_to_button=hands_to_button,
        hands_to_big_blind=hands_to_big,
        steps=tuple(steps),
    )


__all__ = ["NewPlayerRuling", "between", "blind_seats", "new_player_entry"]
