"""The betting of an Omaha round: the simulated players act street by street, and the dealer rules on
the size of the pot, the most a player may raise to and whether a raise is allowed."""

from __future__ import annotations

from trainer.drills.omaha.round.hand import ALLOWED, AMOUNT, Hand
from trainer.engine.explain import step
from trainer.engine.omaha.betting import (
    limit_bet_size,
    limit_raise_to,
    no_limit_min_raise_to,
    pot_limit_max,
)


def betting_round(hand: Hand) -> None:
    live = hand.live()
    if len(live) < 2 or (len([s for s in live if s not in hand.all_in]) < 2 and not _to_call_any(hand)):
        return
    if hand.street == "preflop":
        first = hand.first_preflop
        raises = [hand.bb]
        bets_made = 1
    else:
        first = next(s for s in hand.order((hand.button + 1) % hand.n) if s not in hand.folded)
        raises = []
        bets_made = 0
    top = max(hand.bet)
    needs = {s for s in live if s not in hand.all_in}
    can_raise = set(needs)
    raised_here = 0
    seat = first
    guard = 0
    while needs and guard < 200:
        guard += 1
        if seat in needs:
            needs.discard(seat)
            top, bets_made, raised_here = _turn(
                hand, seat, top, raises, bets_made, can_raise, raised_here, needs
            )
            if len(hand.live()) < 2:
                return
        seat = (seat + 1) % hand.n


def _to_call_any(hand: Hand) -> bool:
    top = max(hand.bet)
    return any(hand.bet[s] < top for s in hand.live() if s not in hand.all_in)


def _turn(
    hand: Hand,
    seat: int,
    top: int,
    raises: list[int],
    bets_made: int,
    can_raise: set[int],
    raised_here: int,
    needs: set[int],
) -> tuple[int, int, int]:
    """One player's action; returns the new top bet, bets made and raises made this round."""
    rng = hand.rng
    to_call = top - hand.bet[seat]
    stack = hand.stacks[seat]
    pot = hand.middle + hand.dead + sum(hand.bet)
    strong = hand.strength(seat)
    others = [s for s in hand.live() if s != seat and s not in hand.all_in]
    may_raise = seat in can_raise and raised_here < 3 and stack > to_call and bool(others)
    if hand.structure == "pot_limit" and hand.asked["pot"] < 2 and rng.random() < 0.15:
        hand.asked["pot"] += 1
        hand.ask(
            "om.pot_size",
            step("Seat {seat} asks how much is in the pot. What do you say?", seat=seat + 1),
            AMOUNT,
            {"middle": hand.middle, "dead": hand.dead, "bets": list(hand.bet)},
            seat,
        )
    wants_raise = may_raise and strong > 0.55 and rng.random() < 0.6
    own = hand.bet[seat]
    players = len(hand.live())
    if wants_raise:
        amount = (
            _limit_raise(hand, seat, top, to_call, pot, raises, bets_made, players)
            if hand.structure == "limit"
            else _pot_limit_raise(hand, seat, top, to_call, pot, raises, bets_made, players)
        )
    else:
        amount = None
    if amount is None:
        # Most hands are folded before the flop, as at a real table; weak ones fold to a bet later.
        facing = (
            0.5
            if hand.street == "preflop" and to_call > hand.bb
            else 0.35
            if hand.street == "preflop"
            else 0.3
        )
        if to_call == 0:
            hand.act(seat, "check")
        elif strong < facing and rng.random() < 0.75:
            hand.act(seat, "fold")
        else:
            hand.act(seat, "all_in" if stack <= to_call else "call", own + min(stack, to_call))
        return top, bets_made, raised_here
    increments = [b - a for a, b in zip([0, *raises], raises, strict=False)]
    full = amount - top >= max([*increments, hand.bb])
    all_in = amount == own + stack
    hand.act(seat, "all_in" if all_in else ("bet" if top == 0 else "raise"), amount)
    hand.last_aggressor = seat
    raises.append(amount)
    bets_made += 1
    raised_here += 1
    for other in hand.live():
        if other != seat and other not in hand.all_in:
            needs.add(other)
            # An all-in short of a full raise does not reopen the raising to those who acted.
            if full:
                can_raise.add(other)
    can_raise.discard(seat)
    return amount, bets_made, raised_here


def _limit_raise(
    hand: Hand, seat: int, top: int, to_call: int, pot: int, raises: list[int], bets_made: int, players: int
) -> int | None:
    """The fixed-limit bet or raise (None: capped, or too short to make it: he calls)."""
    own, stack = hand.bet[seat], hand.stacks[seat]
    size = limit_bet_size(hand.street, hand.small_bet, hand.big_bet)
    legal_to = limit_raise_to(
        hand.street, hand.small_bet, hand.big_bet, bets_made=bets_made, players=players, rules=hand.house
    )
    ask = hand.asked["legal"] < 2 and hand.rng.random() < 0.35
    if legal_to is None:
        if ask:  # he tries to raise a capped round; the dealer stops him and he calls
            _ask_legal(hand, seat, top + size, top, to_call, pot, raises, bets_made, players)
        return None
    if own + stack < legal_to:
        return None
    if ask:
        attempt = legal_to
        if hand.rng.random() < 0.5:
            attempt = legal_to + hand.rng.choice((-1, 1)) * (size // 2)
        _ask_legal(hand, seat, attempt, top, to_call, pot, raises, bets_made, players)
    return legal_to


def _pot_limit_raise(
    hand: Hand, seat: int, top: int, to_call: int, pot: int, raises: list[int], bets_made: int, players: int
) -> int | None:
    """The pot-limit bet or raise: the least, the most ("pot!") or in between; None: he calls."""
    rng = hand.rng
    own, stack = hand.bet[seat], hand.stacks[seat]
    least = no_limit_min_raise_to(raises, hand.bb)
    most = own + pot_limit_max(pot, to_call, stack=stack)
    if most <= top:
        return None
    least = min(least, most)  # short of a full raise he may still go all-in
    if hand.asked["max"] < 2 and rng.random() < 0.3:
        hand.asked["max"] += 1
        hand.ask(
            "om.pot_max",
            step("Seat {seat} says: pot! To how much may he raise?", seat=seat + 1),
            AMOUNT,
            {"pot": pot, "to_call": to_call, "own": own, "stack": stack},
            seat,
        )
        return most
    amount = rng.choice((least, most, max(least, (least + most) // 2 // 5 * 5)))
    if hand.asked["legal"] < 2 and rng.random() < 0.3:
        attempt = amount
        if rng.random() < 0.5:
            over_pot = most < own + stack  # the pot, not his stack, limits him
            under = least - top > 5 and least < own + stack
            if over_pot and (rng.random() < 0.5 or not under):
                attempt = most + 5 * rng.randint(1, max(1, (own + stack - most) // 5))
            elif under:
                attempt = top + 5 * rng.randint(1, (least - top - 1) // 5)
        _ask_legal(hand, seat, attempt, top, to_call, pot, raises, bets_made, players)
        if attempt > most:
            return most
        if attempt < least and attempt != own + stack:
            return least
        return attempt
    return amount


def _ask_legal(
    hand: Hand,
    seat: int,
    attempt: int,
    top: int,
    to_call: int,
    pot: int,
    raises: list[int],
    bets_made: int,
    players: int,
) -> None:
    hand.asked["legal"] += 1
    hand.ask(
        "om.raise_legal",
        step("Seat {seat} raises to {amount}. Is the raise allowed?", seat=seat + 1, amount=attempt),
        ALLOWED,
        {
            "structure": hand.structure,
            "street": hand.street,
            "attempt": attempt,
            "own": hand.bet[seat],
            "stack": hand.stacks[seat],
            "pot": pot,
            "to_call": to_call,
            "raises": list(raises),
            "bb": hand.bb,
            "small_bet": hand.small_bet,
            "big_bet": hand.big_bet,
            "bets_made": bets_made,
            "players": players,
            "rules": hand.rules,
        },
        seat,
    )
