"""The Omaha showdown: who shows first, in what order the others follow, and who may muck.

Rule page: "the last player who bet or raised on the river shows first; if everybody checked the river,
the first active player left of the button shows first. A player may muck a losing hand." The others
follow clockwise from the first. With side pots (a player all-in for less than the others), the house
option `showdown.side_pots` decides: `all_in_first` (the default, issue 15: the player all-in for the
least shows first, then the next, then the rest as above) or `side_pot_first` (Robert's Rules: the
players of the last side pot show first, as above among themselves, then those all-in for the pot
below, down to the main pot).

A player whose hand is beaten, in every pot he can win, by a hand already shown may muck it (throw it
away unseen); any other hand must be shown to win its share. Seats are 0..n-1 clockwise; steps say
seat n + 1.

>>> showdown_order([0, 2, 3], button=3, seats=5, last_aggressor=2)
(2, 3, 0)
>>> showdown_order([0, 2, 3], button=3, seats=5, last_aggressor=None)
(0, 2, 3)
>>> showdown_order([0, 2, 3], button=3, seats=5, last_aggressor=2, contributions=[40, 0, 100, 100, 0])
(0, 2, 3)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from trainer.engine.cards import parse_cards
from trainer.engine.evaluator import omaha_strength
from trainer.engine.explain import Step, step
from trainer.engine.omaha import CardsIn, _low_mask, _mask_of
from trainer.engine.omaha.betting import OmahaRules, SidePotShowing, resolve_rules
from trainer.engine.omaha.pots import side_pots


def _seat(name: str, value: object, seats: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
        raise ValueError(f"{name} must be a seat 0..{seats - 1}, not {value!r:.40}")
    return value


def _check(
    live: Sequence[int], button: int, seats: int, last_aggressor: int | None, contributions: object
) -> tuple[int, ...]:
    if isinstance(seats, bool) or not isinstance(seats, int) or not 2 <= seats <= 10:
        raise ValueError(f"an Omaha table has 2 to 10 seats, not {seats!r:.40}")
    if not isinstance(live, list | tuple) or len(live) < 2:
        raise ValueError("a showdown needs at least two live seats")
    found = tuple(_seat("a live seat", s, seats) for s in live)
    if len(set(found)) != len(found):
        raise ValueError("a live seat is listed twice")
    _seat("the button", button, seats)
    if last_aggressor is not None and _seat("the last aggressor", last_aggressor, seats) not in found:
        raise ValueError(f"the last aggressor (seat {last_aggressor}) is not in the showdown")
    if contributions is not None:
        if not isinstance(contributions, list | tuple) or len(contributions) != seats:
            raise ValueError(f"contributions must be {seats} whole numbers, one per seat")
        for s in found:
            value = contributions[s]
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"seat {s} is in the showdown, so he put chips in: not {value!r:.40}")
    return found


def _clockwise_from(first: int, group: Sequence[int], seats: int) -> list[int]:
    return sorted(group, key=lambda s: (s - first) % seats)


def _in_turn(group: Sequence[int], button: int, seats: int, last_aggressor: int | None) -> list[int]:
    """The rule page's order among `group`: the last aggressor first if he is in it, else the first
    seat left of the button; then clockwise."""
    if last_aggressor is not None and last_aggressor in group:
        return _clockwise_from(last_aggressor, group, seats)
    return _clockwise_from((button + 1) % seats, group, seats)


def explain_order(
    live: Sequence[int],
    *,
    button: int,
    seats: int,
    last_aggressor: int | None,
    contributions: Sequence[int] | None = None,
    rules: OmahaRules | str | None = None,
) -> tuple[tuple[int, ...], tuple[Step, ...]]:
    """The order in which the live seats show at the showdown, and why (see `showdown_order`)."""
    r = resolve_rules(rules)
    found = _check(live, button, seats, last_aggressor, contributions)
    levels = sorted({contributions[s] for s in found}) if contributions is not None else []
    steps: list[Step] = []
    if last_aggressor is not None:
        steps.append(step("Seat {seat} made the last bet or raise on the river.", seat=last_aggressor + 1))
    else:
        steps.append(step("Everybody checked the river: the first live seat left of the button shows first."))
    if len(levels) <= 1 or contributions is None:
        order = _in_turn(found, button, seats, last_aggressor)
        steps.append(step("Seat {seat} shows first; the others follow clockwise.", seat=order[0] + 1))
        return tuple(order), tuple(steps)
    by_level = [[s for s in found if contributions[s] == level] for level in levels]
    if r.side_pot_showing is SidePotShowing.ALL_IN_FIRST:
        all_in = [s for group in by_level[:-1] for s in _clockwise_from((button + 1) % seats, group, seats)]
        order = all_in + _in_turn(by_level[-1], button, seats, last_aggressor)
        steps.append(
            step(
                "There is a side pot: the player all-in for the least, seat {seat}, shows first.",
                seat=order[0] + 1,
            )
        )
    else:
        order = [s for group in reversed(by_level) for s in _in_turn(group, button, seats, last_aggressor)]
        steps.append(
            step(
                "There is a side pot: its players show first, seat {seat} first; the player all-in for "
                "the main pot only shows last.",
                seat=order[0] + 1,
            )
        )
    steps.append(step("Order of showing: {seats}.", seats=", ".join(str(s + 1) for s in order)))
    return tuple(order), tuple(steps)


def showdown_order(
    live: Sequence[int],
    *,
    button: int,
    seats: int,
    last_aggressor: int | None,
    contributions: Sequence[int] | None = None,
    rules: OmahaRules | str | None = None,
) -> tuple[int, ...]:
    """The live seats in the order they show. `last_aggressor` is the seat that made the last bet or
    raise on the river (None: everybody checked); `contributions` (chips per seat for the whole hand)
    tells who is all-in for less, when given."""
    return explain_order(
        live,
        button=button,
        seats=seats,
        last_aggressor=last_aggressor,
        contributions=contributions,
        rules=rules,
    )[0]


@dataclass(frozen=True, slots=True)
class Reveal:
    """One player's turn at the showdown: `may_muck` when every pot he can win is already lost to a
    hand shown before him; otherwise he must show to win (`wins` a share of some pot so far)."""

    seat: int
    may_muck: bool
    steps: tuple[Step, ...]


def muck_rulings(
    board: CardsIn,
    holes: Sequence[CardsIn | None],
    order: Sequence[int],
    *,
    contributions: Sequence[int] | None = None,
    hi_lo: bool = False,
    rules: OmahaRules | str | None = None,
) -> tuple[Reveal, ...]:
    """For each seat of `order` in turn: may he muck (his hand is beaten by one shown before him in
    every pot he can win), or must he show? The first to show always shows; everyone who is not
    beaten shows, so later players are compared with every hand shown so far."""
    r = resolve_rules(rules)
    b = parse_cards(board)
    if len(b) != 5:
        raise ValueError(f"the board has 5 cards, got {len(b)}")
    seats = len(holes)
    parsed = {s: parse_cards(h) for s, h in enumerate(holes) if h is not None}
    for s in order:
        if s not in parsed or len(parsed[s]) != 4:
            raise ValueError(f"seat {s} shows at the showdown, so he needs 4 hole cards")
    chips = list(contributions) if contributions is not None else [1] * seats
    folded = {s for s in range(seats) if s not in parsed}
    pots = [p.eligible for p in side_pots(chips, folded).pots] or [tuple(order)]
    board_idx = [c.index for c in b]
    high = {s: omaha_strength([c.index for c in parsed[s]], board_idx) for s in order}
    board_low = _mask_of(b) if hi_lo else 0
    low = {s: _low_mask(_mask_of(parsed[s]), board_low) if board_low else 0 for s in order}
    shown: list[int] = []
    out: list[Reveal] = []
    for s in order:
        if not shown:
            out.append(Reveal(s, False, (step("Seat {seat} shows first.", seat=s + 1),)))
            shown.append(s)
            continue
        beaten_everywhere = True
        for eligible in pots:
            if s not in eligible:
                continue
            rivals = [t for t in shown if t in eligible]
            high_lost = any(high[t] > high[s] for t in rivals)
            low_lost = not low[s] or any(low[t] and low[t] < low[s] for t in rivals)
            if not (high_lost and (not hi_lo or low_lost)):
                beaten_everywhere = False
        if beaten_everywhere and r.muck_losing:
            if hi_lo:
                said = step(
                    "Seat {seat}'s hand is beaten, high and low, by a hand already shown: he may muck it.",
                    seat=s + 1,
                )
            else:
                said = step(
                    "Seat {seat}'s hand is beaten by a hand already shown: he may muck it.", seat=s + 1
                )
            out.append(Reveal(s, True, (said,)))
            continue
        if beaten_everywhere:
            out.append(
                Reveal(
                    s,
                    False,
                    (step("This house shows every hand at the showdown: seat {seat} shows.", seat=s + 1),),
                )
            )
        else:
            out.append(
                Reveal(
                    s,
                    False,
                    (
                        step(
                            "Seat {seat}'s hand is not beaten by the hands shown so far: he must show it to "
                            "win his share.",
                            seat=s + 1,
                        ),
                    ),
                )
            )
        shown.append(s)
    return tuple(out)


__all__ = ["Reveal", "explain_order", "muck_rulings", "showdown_order"]
