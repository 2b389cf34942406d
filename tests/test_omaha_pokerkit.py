"""Differential test: `trainer.engine.omaha.showdown` against PokerKit 0.7.7 (an independent engine).

Random no-limit Omaha and Omaha Hi/Lo hands with 2-10 players are played out in PokerKit with random
folds, calls, raises and all-ins (short stacks make several all-ins common); what each seat put in and
what PokerKit paid back are then compared with our showdown on the same cards and contributions.
PokerKit seat 0 is the first seat left of the button (heads-up: the big blind), the button is the last
seat, so our `button=n-1` gives the same clockwise order.

Where the two follow different conventions (the rule page is ours), the test states it and compares
what they agree on:

1. Odd chips. Ours (rule page, Robert's Rules): among tied hands one odd chip each, clockwise from the
   first seat left of the button; players tied for both high and low split the pot as a whole (66 ->
   33/33). PokerKit: the whole remainder to the first tied winner, and halves are always split
   separately (66 -> 34/32).
2. Pots after mucking. PokerKit kills beaten hands before it builds the pots, so two side pots that
   differ only by a beaten all-in player become one pot and their odd chips are counted on the merged
   amount. Ours splits every pot built by the all-in levels separately, as the rule page says.

3. A side pot nobody in it can win low. PokerKit 0.7.7 decides once per table whether pots have a low
   half; in a side pot where no eligible player has a qualifying low it still makes a "low half" and
   splits it among the pot's players whose hands it has not mucked, the high loser included. The rule
   page gives such a pot to the high hand ("no qualifying low: the high hand scoops"), so before
   comparing, the test hands each such half (read from PokerKit's own chip pushes, with PokerKit's own
   low evaluation deciding that nobody in the pot has a low) to that pot's high winner(s).

Differences 1 and 2 move single odd chips, and only between seats that shared a split pot. So:
- `test_same_payouts_without_odd_chips`: every chip amount is a multiple of 5,040 (= 2 x lcm(1..10)), so
  no pot, half or tie ever leaves an odd chip; every seat's payout must match exactly.
- `test_odd_chips_stay_within_split_pots`: ordinary amounts; seats that never shared a split pot must
  match exactly, and every group of seats linked by shared split pots must get the same total.

Set OMAHA_DIFFERENTIAL_DEALS to play more hands (default 300 per test case, 1,200 in all, about 15 s
of CPU). 3,000 per case (12,000 hands) were run while writing this and passed.
"""

from __future__ import annotations

import functools
import os
import random
import warnings
from typing import ClassVar

import pytest

from trainer.engine.cards import Deck
from trainer.engine.omaha import settle

DEALS = int(os.environ.get("OMAHA_DIFFERENTIAL_DEALS", "300"))
NO_ODD_CHIPS = 5040  # 2 x lcm(1..10): halves and ties of up to 10 players always divide evenly
MOVED: list[int] = []  # low halves moved to the high hand (difference 3), counted for the record


@functools.cache
def _pokerkit():
    """PokerKit and the games played in it, imported when the first hand is played, not when the
    suite is collected (PokerKit builds its lookup tables on import: 0.6 s of CPU in every worker)."""
    import pokerkit

    def cached(hand_type):
        """The same hand type, with its (slow, pure) best-hand search remembered per hole and board:
        PokerKit re-evaluates every hand many times per deal. Results are PokerKit's own."""

        class Cached(hand_type):
            cache: ClassVar[dict] = {}

            @classmethod
            def from_game(cls, hole_cards, board_cards=()):
                hole_cards, board_cards = tuple(hole_cards), tuple(board_cards)  # may be one-shot iterators
                key = (tuple(map(str, hole_cards)), tuple(map(str, board_cards)))
                if key not in cls.cache:
                    try:
                        cls.cache[key] = super().from_game(hole_cards, board_cards)
                    except ValueError as err:
                        cls.cache[key] = err
                found = cls.cache[key]
                if isinstance(found, ValueError):
                    raise found
                return found

        return Cached

    class NoLimitOmaha(pokerkit.NoLimitPokerMixin, pokerkit.OmahaHoldemMixin, pokerkit.UnfixedLimitHoldem):
        hand_types = (cached(pokerkit.OmahaHoldemHand),)

    class NoLimitOmahaHiLo(
        pokerkit.NoLimitPokerMixin, pokerkit.OmahaHoldemMixin, pokerkit.UnfixedLimitHoldem
    ):
        hand_types = (cached(pokerkit.OmahaHoldemHand), cached(pokerkit.OmahaEightOrBetterLowHand))

    return pokerkit, {False: NoLimitOmaha, True: NoLimitOmahaHiLo}


def _automations(pokerkit):
    """Chips move only by our explicit calls, so stacks can be read between every step."""
    a = pokerkit.Automation
    return (
        a.ANTE_POSTING,
        a.BLIND_OR_STRADDLE_POSTING,
        a.HOLE_CARDS_SHOWING_OR_MUCKING,
        a.HAND_KILLING,
        a.RUNOUT_COUNT_SELECTION,
    )


def play(rng: random.Random, hi_lo: bool, unit: int):
    """Play one random hand in PokerKit; returns (board, holes with None for folds, contributions,
    what PokerKit paid each seat)."""
    with warnings.catch_warnings():
        # PokerKit only warns about a fold when the player could check; as an error, `can_fold` is
        # then False and nobody folds for no reason (which would leave pots nobody may win).
        warnings.simplefilter("error")
        return _play(rng, hi_lo, unit)


def _play(rng: random.Random, hi_lo: bool, unit: int):
    n = rng.randint(2, 10)
    stacks = [unit * rng.choice([rng.randint(1, 12), rng.randint(10, 300)]) for _ in range(n)]
    deck = Deck(rng)
    holes = [deck.draw(4) for _ in range(n)]
    board = deck.draw(5)
    pokerkit, games = _pokerkit()
    game = games[hi_lo](
        _automations(pokerkit), False, 0, (unit, 2 * unit), 2 * unit, mode=pokerkit.Mode.CASH_GAME
    )
    state = game(stacks, n)
    lowest = list(stacks)
    folded: set[int] = set()
    dealt = 0
    while state.status:
        # Stacks only fall while chips go in; the lowest point is what the seat put in.
        lowest = [min(a, b) for a, b in zip(lowest, state.stacks, strict=True)]
        if state.can_collect_bets():
            state.collect_bets()
        elif state.can_push_chips():
            state.push_chips()
        elif state.can_pull_chips():
            state.pull_chips()
        elif state.can_deal_hole():
            state.deal_hole("".join(map(str, holes[state.hole_dealee_index])))
        elif state.can_burn_card():
            state.burn_card("??")
        elif state.can_deal_board():
            count = state.street.board_dealing_count
            state.deal_board("".join(map(str, board[dealt : dealt + count])))
            dealt += count
        else:
            assert state.actor_index is not None, "PokerKit stalled"
            actor, roll = state.actor_index, rng.random()
            if roll < 0.15 and state.can_fold():
                state.fold()
                folded.add(actor)
            elif roll < 0.6 or not state.can_complete_bet_or_raise_to():
                state.check_or_call()
            else:
                low = state.min_completion_betting_or_raising_to_amount // unit
                high = state.max_completion_betting_or_raising_to_amount // unit
                to = high if rng.random() < 0.3 else rng.randint(low, high)
                state.complete_bet_or_raise_to(to * unit)
    contributions = [start - low for start, low in zip(stacks, lowest, strict=True)]
    paid = [final - low for final, low in zip(state.stacks, lowest, strict=True)]
    if hi_lo:
        _give_lowless_halves_to_high(state, holes, board, paid)
    return board, [None if i in folded else holes[i] for i in range(n)], contributions, paid


def _give_lowless_halves_to_high(state, holes, board, paid) -> None:
    """Difference 3 (module docstring): move a pot's "low half" that PokerKit paid although nobody in
    the pot has a low to the pot's high winners, as the rule page rules."""
    pokerkit, _ = _pokerkit()
    has_low = [
        pokerkit.OmahaEightOrBetterLowHand.from_game_or_none("".join(map(str, h)), "".join(map(str, board)))
        is not None
        for h in holes
    ]
    pushes = [op for op in state.operations if isinstance(op, pokerkit.ChipsPushing)]
    for push in pushes:
        if push.hand_type_index != 1:
            continue
        takers = [seat for seat, amount in enumerate(push.amounts) if amount]
        if any(has_low[seat] for seat in takers):
            continue
        high = next(p for p in pushes if p.pot_index == push.pot_index and p.hand_type_index == 0)
        winners = [seat for seat, amount in enumerate(high.amounts) if amount]
        for seat in takers:
            paid[seat] -= push.amounts[seat]
        share, odd = divmod(sum(push.amounts), len(winners))
        for i, seat in enumerate(winners):
            paid[seat] += share + (odd if i == 0 else 0)
        MOVED.append(sum(push.amounts))


def _describe(board, holes, contributions, paid, ours):
    return (
        f"board {' '.join(map(str, board))}; holes "
        f"{[None if h is None else ' '.join(map(str, h)) for h in holes]}; put in {contributions}; "
        f"PokerKit paid {paid}; we paid {list(ours.payouts)}; pots {ours.pots}"
    )


@pytest.mark.parametrize("hi_lo", [False, True], ids=["high", "hi-lo"])
def test_same_payouts_without_odd_chips(hi_lo):
    rng = random.Random(2024 + hi_lo)
    showdowns = all_ins = 0
    for _ in range(DEALS):
        board, holes, contributions, paid = play(rng, hi_lo, NO_ODD_CHIPS)
        ours = settle(board, holes, contributions, hi_lo=hi_lo, button=len(holes) - 1, explain=False)
        assert list(ours.payouts) == paid, _describe(board, holes, contributions, paid, ours)
        showdowns += sum(h is not None for h in holes) > 1
        all_ins += len(ours.pots) > 1
    # The random play must reach showdowns and side pots often, or this test proves little.
    assert showdowns > DEALS // 3 and all_ins > DEALS // 5


@pytest.mark.parametrize("hi_lo", [False, True], ids=["high", "hi-lo"])
def test_odd_chips_stay_within_split_pots(hi_lo):
    rng = random.Random(7 + hi_lo)
    exact = 0
    for _ in range(DEALS):
        board, holes, contributions, paid = play(rng, hi_lo, 1)
        ours = settle(board, holes, contributions, hi_lo=hi_lo, button=len(holes) - 1, explain=False)
        # Link the seats that shared any pot: only between them may the conventions move odd chips.
        group = list(range(len(holes)))

        def root(seat, group=group):
            while group[seat] != seat:
                seat = group[seat]
            return seat

        for pot in ours.pots:
            seats = [seat for seat, _ in pot.shares]
            for seat in seats[1:]:
                group[root(seat)] = root(seats[0])
        totals_ours: dict[int, int] = {}
        totals_theirs: dict[int, int] = {}
        for seat in range(len(holes)):
            totals_ours[root(seat)] = totals_ours.get(root(seat), 0) + ours.payouts[seat]
            totals_theirs[root(seat)] = totals_theirs.get(root(seat), 0) + paid[seat]
        assert totals_ours == totals_theirs, _describe(board, holes, contributions, paid, ours)
        exact += list(ours.payouts) == paid
    # Most hands have no odd chip at all and match seat by seat.
    assert exact > DEALS // 2
