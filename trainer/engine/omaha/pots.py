"""Side pots, uncalled bets and the splitting of a pot down to the smallest chip (Omaha rule page).

Contributions are what each seat put in during the whole hand (seats 0..n-1, clockwise). The highest
contribution that nobody matched is an uncalled bet: its excess over the second-highest contribution
goes back to its owner before any pot is built. Pots are then cut at every contribution level: the
main pot takes from everybody up to the smallest level, each side pot the next slice. Folded seats'
chips stay in the pots they reached, but only live seats are eligible to win; two neighbouring slices
with the same eligible seats are one pot.

>>> result = side_pots([20, 50, 50])
>>> [(p.amount, p.eligible) for p in result], result.returned
([(60, (0, 1, 2)), (60, (1, 2))], (0, 0, 0))
>>> side_pots([10, 5, 20, 10, 20]).amounts
(25, 20, 20)
>>> side_pots([10, 40, 100], folded={0}).returned
(0, 0, 60)
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot: its `amount` and the live seats that may win it (clockwise seat numbers)."""

    amount: int
    eligible: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SidePots:
    """The pots, main pot first, and what each seat gets back as an uncalled bet (`returned[seat]`).

    Iterating, indexing and `len` go over the pots, so it reads like the list of pots.
    """

    pots: tuple[Pot, ...]
    returned: tuple[int, ...]

    def __iter__(self) -> Iterator[Pot]:
        return iter(self.pots)

    def __len__(self) -> int:
        return len(self.pots)

    def __getitem__(self, index: int) -> Pot:
        return self.pots[index]

    @property
    def amounts(self) -> tuple[int, ...]:
        return tuple(p.amount for p in self.pots)


MOST_SEATS = 64  # a sanity bound on seat lists and counts, well above any table


def _whole(what: str, value: object, least: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ValueError(f"{what} must be a whole number >= {least}, not {value!r:.60}")


def check_list(value: object, what: str, longest: int = MOST_SEATS) -> None:
    """Raise `ValueError` unless `value` is a list or tuple (one entry per seat) of a sane length; the
    callers check the exact number of seats with their own message."""
    if not isinstance(value, list | tuple):
        raise ValueError(f"{what} must be a list with one entry per seat, not {value!r:.60}")
    if len(value) > longest:
        raise ValueError(f"{what}: at most {longest} seats, got {len(value)}")


def check_chips(contributions: Sequence[int], what: str = "contribution") -> None:
    """Raise `ValueError` unless every entry is a non-negative whole number of chips."""
    check_list(contributions, f"{what}s")
    for seat, amount in enumerate(contributions):
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise ValueError(f"seat {seat}: {what} must be a whole number of chips, not {amount!r}")
        if amount < 0:
            raise ValueError(f"seat {seat}: {what} cannot be negative ({amount})")


def check_seats(seats: Collection[int], count: int, what: str) -> frozenset[int]:
    """The seats as a set, each checked to be one of 0..count-1."""
    if isinstance(seats, str | bytes) or not isinstance(seats, Collection):
        raise ValueError(f"{what} seats must be a collection of seat numbers, not {seats!r:.60}")
    result: set[int] = set()
    for seat in seats:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < count:
            raise ValueError(f"{what} seat {seat!r} is not a seat at this table (0..{count - 1})")
        result.add(seat)
    return frozenset(result)


def uncalled(contributions: Sequence[int]) -> tuple[int, ...]:
    """What each seat gets back as an uncalled bet: the top contributor's excess over the next one."""
    check_chips(contributions)
    returned = [0] * len(contributions)
    if len(contributions) < 2:
        return tuple(returned)
    top = max(contributions)
    leaders = [seat for seat, c in enumerate(contributions) if c == top]
    if len(leaders) == 1:
        second = max(c for seat, c in enumerate(contributions) if seat != leaders[0])
        returned[leaders[0]] = top - second
    return tuple(returned)


def side_pots(contributions: Sequence[int], folded: Collection[int] = ()) -> SidePots:
    """Main pot and side pots from each seat's total contribution; `folded` is a collection of seats.

    Raises `ValueError` for negative or non-integer chips, unknown seats, nobody left in the hand, or
    chips that no live seat could win (a folded seat put in more than every live seat, which cannot
    happen in a real hand because the last bet is then uncalled and returned).

    >>> side_pots([100, 100, 30], folded={1}).pots
    (Pot(amount=90, eligible=(0, 2)), Pot(amount=140, eligible=(0,)))
    """
    check_chips(contributions)
    n = len(contributions)
    if n < 2:
        raise ValueError(f"a pot needs at least 2 seats, got {n}")
    out = check_seats(folded, n, "folded")
    if len(out) == n:
        raise ValueError("every seat folded: somebody must be left in the hand")
    returned = uncalled(contributions)
    live = [c - r for c, r in zip(contributions, returned, strict=True)]
    pots: list[Pot] = []
    previous = 0
    for level in sorted({c for c in live if c > 0}):
        amount = sum(min(c, level) - min(c, previous) for c in live)
        eligible = tuple(seat for seat, c in enumerate(live) if c >= level and seat not in out)
        if not eligible:
            raise ValueError(
                f"{amount} chips above {previous} came only from folded seats: no live seat can win them"
            )
        if pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        else:
            pots.append(Pot(amount, eligible))
        previous = level
    return SidePots(tuple(pots), returned)


def clockwise_from_button(seats: Collection[int], button: int, count: int) -> tuple[int, ...]:
    """Seats in the order odd chips are handed out: clockwise, starting left of the button."""
    _whole("the seat count", count, 1)
    if count > MOST_SEATS:
        raise ValueError(f"at most {MOST_SEATS} seats, got {count}")
    _whole("the button", button, 0)
    if button >= count:
        raise ValueError(f"the button {button} is not a seat at this table (0..{count - 1})")
    check_seats(seats, count, "a")
    return tuple(sorted(seats, key=lambda seat: (seat - button - 1) % count))


def split_evenly(amount: int, winners: Sequence[int], chip: int) -> dict[int, int]:
    """Split `amount` among `winners` (already in clockwise order from the button's left) down to the
    smallest chip: equal shares, then one odd chip each to the first winners in that order.

    >>> split_evenly(25, (3, 0), 5)
    {3: 15, 0: 10}
    """
    _whole("the amount", amount, 0)
    _whole("the smallest chip", chip, 1)
    check_list(winners, "winners")
    if not winners:
        raise ValueError("a split needs at least one winner")
    for seat in winners:
        _whole("a winner's seat", seat, 0)
    if len(set(winners)) != len(winners):
        raise ValueError(f"a seat is named twice among the winners {winners!r}")
    units, rest = divmod(amount, chip)
    if rest:
        raise ValueError(f"{amount} is not a whole number of {chip}-chips")
    share, odd = divmod(units, len(winners))
    return {seat: (share + (1 if i < odd else 0)) * chip for i, seat in enumerate(winners)}
