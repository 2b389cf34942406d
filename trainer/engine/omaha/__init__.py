"""Omaha and Omaha Hi/Lo 8-or-better: hands, showdown, side pots and odd chips (rule page omaha.md).

A hand is made of exactly 2 of the 4 hole cards and exactly 3 of the 5 board cards, for high and
(independently) for low. `showdown` pays every pot: uncalled bets back first, then each pot to its
best eligible high hand, or in hi/lo half to the best high and half to the best 8-or-better low, split
down to the smallest chip. Betting sizes and blinds are in `trainer.engine.omaha.betting`.

>>> board = "3c 4d 8h Kc Ks"
>>> holes = ["Ah 2h 9c 9d", "As 2s Tc Td", "Kd Qs Jc Jd"]
>>> best_high(holes[2], board).category, best_low(holes[0], board)
(<Category.THREE_OF_A_KIND: 'three_of_a_kind'>, (8, 4, 3, 2, 1))
>>> showdown(board, holes, [25, 25, 25], hi_lo=True, button=2)
[19, 18, 38]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from trainer.engine.cards import Card, parse_cards
from trainer.engine.evaluator import Category, Hand, best_omaha_hand, omaha_strength
from trainer.engine.explain import Cards, Step, step
from trainer.engine.omaha.pots import (
    Pot,
    SidePots,
    check_chips,
    check_list,
    clockwise_from_button,
    side_pots,
    split_evenly,
)

__all__ = [
    "Category",
    "Hand",
    "Pot",
    "PotResult",
    "Showdown",
    "SidePots",
    "best_high",
    "best_low",
    "format_low",
    "low_mask",
    "pot_step",
    "settle",
    "showdown",
    "side_pots",
]

CardsIn = str | Iterable[str | Card]

# Low ranks with the ace as 1; 0 marks a card that cannot play in an 8-or-better low.
_LOW_RANK = tuple(1 if i // 4 == 12 else (i // 4 + 2 if i // 4 + 2 <= 8 else 0) for i in range(52))
_LOW_BIT = tuple(1 << (r - 1) if r else 0 for r in _LOW_RANK)


def _lowest_three(mask: int) -> int:
    """The three lowest set bits of a mask of low ranks, or 0 when it has fewer than three."""
    out = 0
    for _ in range(3):
        if not mask:
            return 0
        bit = mask & -mask
        out |= bit
        mask ^= bit
    return out


# A low is held as a bit mask of its five ranks (bit 0 = ace): for masks with five bits, a smaller
# integer is exactly a better low (the highest card decides first, then the next).
_LOWEST_THREE = tuple(_lowest_three(m) for m in range(256))
_HOLE_PAIRS = tuple(
    tuple(a | b for a, b in combinations([1 << i for i in range(8) if m >> i & 1], 2)) for m in range(256)
)


def _low_mask(hole_mask: int, board_mask: int) -> int:
    """Best low (as a rank mask) from two distinct low hole ranks and three board ranks, or 0."""
    best = 0
    for pair in _HOLE_PAIRS[hole_mask]:
        three = _LOWEST_THREE[board_mask & ~pair]
        # The three lowest board ranks not duplicating the pair make this pair's best low.
        if three and (not best or pair | three < best):
            best = pair | three
    return best


def _indexes(value: object, count: int) -> bool:
    """Whether `value` is a sequence of `count` card indexes."""
    return (
        isinstance(value, list | tuple)
        and len(value) == count
        and all(type(i) is int and 0 <= i < 52 for i in value)
    )


def low_mask(hole: Sequence[int], board: Sequence[int]) -> int:
    """The fast path of `best_low`, on card indexes (0..51): the best low as a bit mask of its ranks
    (bit 0 = ace ... bit 7 = eight), 0 when there is none; among lows a smaller mask is better.

    >>> from trainer.engine.cards import parse_cards
    >>> hole, board = parse_cards("Ah 2h Kc Kd"), parse_cards("3c 4d 8h Kh Qs")
    >>> bin(low_mask([c.index for c in hole], [c.index for c in board]))  # 8-4-3-2-A
    '0b10001111'
    """
    if not (_indexes(hole, 4) and _indexes(board, 5)) or len({*hole, *board}) != 9:
        raise ValueError(
            f"expected 4 hole and 5 board card indexes 0..51, all different: {hole!r:.40}, {board!r:.40}"
        )
    hole_mask = board_mask = 0
    for i in hole:
        hole_mask |= _LOW_BIT[i]
    for i in board:
        board_mask |= _LOW_BIT[i]
    return _low_mask(hole_mask, board_mask)


def _low_ranks(mask: int) -> tuple[int, ...]:
    return tuple(r for r in range(8, 0, -1) if mask >> (r - 1) & 1)


def format_low(low: Sequence[int]) -> str:
    """ "8-4-3-2-A" for the low (8, 4, 3, 2, 1); ranks up to 13 are written too (a drill shows
    "9-5-4-3-A" as a wrong choice)."""
    if not isinstance(low, list | tuple) or not all(type(r) is int and 1 <= r <= 13 for r in low):
        raise ValueError(f"a low is a list of ranks 1..13 (ace = 1), not {low!r:.60}")
    return "-".join("A" if r == 1 else str(r) for r in low)


def _hole_and_board(hole: CardsIn, board: CardsIn) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    h, b = parse_cards(hole), parse_cards(board)
    if len(h) != 4:
        raise ValueError(f"an Omaha hand has 4 hole cards, got {len(h)}")
    if len(b) != 5:
        raise ValueError(f"the board has 5 cards, got {len(b)}")
    both = set(h) & set(b)
    if both:
        raise ValueError(f"card {min(both)} is both in the hole and on the board")
    return h, b


def best_high(hole: CardsIn, board: CardsIn) -> Hand:
    """The best high hand of exactly 2 of the 4 hole cards and exactly 3 of the 5 board cards.

    Four hearts in the hand and one on the board make no flush, and K-Q-J in the hand no straight:

    >>> str(best_high("Ah Kh Qh Jh", "Th 2c 3d 7s 9c"))
    'high card (Ah Kh Th 9c 7s)'
    """
    h, b = _hole_and_board(hole, board)
    return best_omaha_hand(h, b)


def best_low(hole: CardsIn, board: CardsIn) -> tuple[int, ...] | None:
    """The best 8-or-better low (2 hole + 3 board cards, five different ranks <= 8, ace = 1) as ranks
    from highest to lowest, or None. A smaller tuple is a better low.

    >>> best_low("Ah 2h Kc Kd", "3c 4d 8h Kh Qs")
    (8, 4, 3, 2, 1)
    >>> best_low("Ah 2h 3c 4d", "Kc Qd 8h 9h 5s") is None
    True
    """
    h, b = _hole_and_board(hole, board)
    mask = _low_mask(_mask_of(h), _mask_of(b))
    return _low_ranks(mask) if mask else None


def _mask_of(cards: Iterable[Card]) -> int:
    mask = 0
    for c in cards:
        mask |= _LOW_BIT[c.index]
    return mask


@dataclass(frozen=True, slots=True)
class PotResult:
    """How one pot was paid: high winners, low winners (empty when no qualifying low) and each
    winner's share of this pot."""

    pot: Pot
    high_winners: tuple[int, ...]
    low_winners: tuple[int, ...]
    shares: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class Showdown:
    """The whole ruling: `payouts[seat]` is what the seat collects (returned bet plus winnings)."""

    payouts: tuple[int, ...]
    returned: tuple[int, ...]
    pots: tuple[PotResult, ...]
    steps: tuple[Step, ...]


def _check_table(
    board: CardsIn, holes: Sequence[CardsIn | None], contributions: Sequence[int], button: int, chip: int
) -> tuple[tuple[Card, ...], list[tuple[Card, ...] | None]]:
    check_chips(contributions)
    check_list(holes, "hands")
    n = len(contributions)
    if len(holes) != n:
        raise ValueError(f"{len(holes)} hands for {n} contributions: give one entry per seat")
    if not 2 <= n <= 10:
        raise ValueError(f"Omaha is played by 2 to 10 players, got {n} seats")
    if isinstance(chip, bool) or not isinstance(chip, int) or chip < 1:
        raise ValueError(f"the smallest chip must be a positive whole number, not {chip!r}")
    for seat, amount in enumerate(contributions):
        if amount % chip:
            raise ValueError(
                f"seat {seat}: contribution {amount} is not a multiple of the smallest chip {chip}"
            )
    if isinstance(button, bool) or not isinstance(button, int) or not 0 <= button < n:
        raise ValueError(f"button seat {button!r} is not a seat at this table (0..{n - 1})")
    b = parse_cards(board)
    if len(b) != 5:
        raise ValueError(f"the board has 5 cards, got {len(b)}")
    seen = {c: "the board" for c in b}
    parsed: list[tuple[Card, ...] | None] = []
    for seat, hole in enumerate(holes):
        if hole is None:
            parsed.append(None)
            continue
        h = parse_cards(hole)
        if len(h) != 4:
            raise ValueError(f"seat {seat}: an Omaha hand has 4 hole cards, got {len(h)}")
        for c in h:
            if c in seen:
                raise ValueError(f"card {c} is dealt twice (seat {seat} and {seen[c]})")
            seen[c] = f"seat {seat}"
        parsed.append(h)
    return b, parsed


def settle(
    board: CardsIn,
    holes: Sequence[CardsIn | None],
    contributions: Sequence[int],
    *,
    hi_lo: bool = False,
    button: int = 0,
    chip: int = 1,
    explain: bool = True,
) -> Showdown:
    """`showdown` with the full ruling: pots, winners, shares and the explanation steps.

    >>> ruling = settle("2c 7d 9h Jc Ks", ["Ah Ad 3c 4d", "Kd Kh 5c 6d", None], [50, 50, 20], button=2)
    >>> ruling.payouts
    (0, 120, 0)
    >>> print("\\n".join(str(s) for s in ruling.steps))
    Main pot 120: seats 1 and 2 may win it.
    High: seat 2 with three of a kind (Kd Kh Ks Jc 9h).
    Seat 2 takes 120.
    """
    if not isinstance(hi_lo, bool):
        # Truthiness would turn "no" or [] into a hi/lo split: the choice of game is a yes or no.
        raise ValueError(f"hi_lo must be True or False, not {hi_lo!r:.60}")
    b, parsed = _check_table(board, holes, contributions, button, chip)
    n = len(contributions)
    folded = [seat for seat in range(n) if parsed[seat] is None]
    built = side_pots(contributions, folded)
    steps: list[Step] = []
    payouts = list(built.returned)
    for seat, amount in enumerate(built.returned):
        if amount and explain:
            steps.append(
                step(
                    "Seat {seat} bet {amount} that nobody called: it goes back.", seat=seat + 1, amount=amount
                )
            )

    board_idx = [c.index for c in b]
    board_low = _mask_of(b) if hi_lo else 0
    high: dict[int, int] = {}
    low: dict[int, int] = {}
    for seat, hole in enumerate(parsed):
        if hole is None or not any(seat in p.eligible for p in built.pots):
            continue
        high[seat] = omaha_strength([c.index for c in hole], board_idx)
        if board_low:
            low[seat] = _low_mask(_mask_of(hole), board_low)

    results: list[PotResult] = []
    for number, pot in enumerate(built.pots):
        if explain:
            steps.append(pot_step(number, pot))
        top = max(high[s] for s in pot.eligible)
        hi_winners = clockwise_from_button([s for s in pot.eligible if high[s] == top], button, n)
        lows = [low[s] for s in pot.eligible if low.get(s)]
        lo_winners: tuple[int, ...] = ()
        if lows:
            best = min(lows)
            lo_winners = clockwise_from_button([s for s in pot.eligible if low.get(s) == best], button, n)
        if not lo_winners or set(lo_winners) == set(hi_winners):
            # One set of winners takes both halves: split the pot as a whole (66 tied both ways: 33 each).
            parts = [(pot.amount, hi_winners)]
        else:
            low_half = pot.amount // chip // 2 * chip  # the odd chip of the halves stays with the high half
            parts = [(pot.amount - low_half, hi_winners), (low_half, lo_winners)]
        shares: dict[int, int] = {}
        odd = False
        for part, winners in parts:
            odd = odd or part // chip % len(winners) != 0
            for seat, amount in split_evenly(part, winners, chip).items():
                shares[seat] = shares.get(seat, 0) + amount
        for seat, amount in shares.items():
            payouts[seat] += amount
        results.append(PotResult(pot, hi_winners, lo_winners, tuple(sorted(shares.items()))))
        if explain:
            steps += _winner_steps(pot, parsed, b, (hi_winners, lo_winners), low, shares, hi_lo, chip, odd)
    return Showdown(tuple(payouts), built.returned, tuple(results), tuple(steps))


def showdown(
    board: CardsIn,
    holes: Sequence[CardsIn | None],
    contributions: Sequence[int],
    *,
    hi_lo: bool = False,
    button: int = 0,
    chip: int = 1,
) -> list[int]:
    """What each seat collects at the end of the hand; `holes[seat]` is None for a folded seat.

    Applies uncalled-bet return, side pots, high/low halves, ties, quartering and odd chips (odd chip
    of a hi/lo split to the high half; among tied hands one chip each clockwise from the first seat
    left of the button; each pot split separately; `chip` is the smallest chip in play). The result
    always sums to the contributions.

    >>> showdown("2c 3d 4h 9s Kc", ["As 5s Qh Qd", "Ac 5c Jh Jd"], [10, 10])
    [10, 10]
    >>> showdown("Kc Kd 7s 2h 3d", ["Ah 4c Qs Jd", "Ad 4s Ks 9c", "As 4h 5c 6c"], [20, 20, 20],
    ...          hi_lo=True, button=2)
    [10, 40, 10]
    """
    return list(
        settle(board, holes, contributions, hi_lo=hi_lo, button=button, chip=chip, explain=False).payouts
    )


def _seats_text(seats: Iterable[int]) -> list[int]:
    """Seats as the table numbers them, from 1 (the engine counts from 0)."""
    return [s + 1 for s in seats]


def pot_step(number: int, pot: Pot) -> Step:
    """The sentence that opens pot `number` (0: the main pot): its amount and who may win it.

    >>> str(pot_step(1, Pot(40, (2,)))), str(pot_step(0, Pot(60, (0, 1, 2))))
    ('Side pot 1 40: only seat 3 may win it.', 'Main pot 60: seats 1, 2 and 3 may win it.')
    """
    seats = _seats_text(pot.eligible)
    if len(seats) == 1:  # everybody else folded, or the others are all-in for less
        if number == 0:
            return step("Main pot {amount}: only seat {seat} may win it.", amount=pot.amount, seat=seats[0])
        return step(
            "Side pot {number} {amount}: only seat {seat} may win it.",
            number=number,
            amount=pot.amount,
            seat=seats[0],
        )
    if number == 0:
        return step("Main pot {amount}: seats {seats} may win it.", amount=pot.amount, seats=seats)
    return step(
        "Side pot {number} {amount}: seats {seats} may win it.", number=number, amount=pot.amount, seats=seats
    )


def _winner_steps(
    pot: Pot,
    parsed: Sequence[tuple[Card, ...] | None],
    board: tuple[Card, ...],
    winners: tuple[tuple[int, ...], tuple[int, ...]],
    low: dict[int, int],
    shares: dict[int, int],
    hi_lo: bool,
    chip: int,
    odd: bool,
) -> list[Step]:
    hi_winners, lo_winners = winners
    out: list[Step] = []
    if len(pot.eligible) == 1:
        out.append(step("Only seat {seat} is left in this pot.", seat=pot.eligible[0] + 1))
    else:
        hole = parsed[hi_winners[0]]
        assert hole is not None
        hand = best_omaha_hand(hole, board)
        cards = Cards.of(hand.cards)
        if len(hi_winners) == 1:
            out.append(
                step(
                    "High: seat {seat} with {hand} ({cards}).",
                    seat=hi_winners[0] + 1,
                    hand=hand.category.term,
                    cards=cards,
                )
            )
        else:
            out.append(
                step(
                    "High: seats {seats} tie with {hand} ({cards}).",
                    seats=_seats_text(hi_winners),
                    hand=hand.category.term,
                    cards=cards,
                )
            )
        if hi_lo and not lo_winners:
            out.append(step("No qualifying low: the high hand takes the whole pot."))
        elif lo_winners:
            text = format_low(_low_ranks(low[lo_winners[0]]))
            if len(lo_winners) == 1:
                out.append(step("Low: seat {seat} with {low}.", seat=lo_winners[0] + 1, low=text))
            else:
                out.append(
                    step("Low: seats {seats} tie with {low}.", seats=_seats_text(lo_winners), low=text)
                )
            if set(lo_winners) == set(hi_winners):
                out.append(step("The same hands win high and low: the pot is split as a whole."))
            elif pot.amount // chip % 2:
                out.append(step("The pot does not halve evenly: the odd chip goes to the high half."))
    if odd:
        out.append(step("Odd chips go one each clockwise from the first seat left of the button."))
    for seat in sorted(shares):
        out.append(step("Seat {seat} takes {amount}.", seat=seat + 1, amount=shares[seat]))
    return out
