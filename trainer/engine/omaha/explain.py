"""Omaha rulings with their explanation steps, for drills and reference pages.

Each `explain_*` returns the engine's answer together with the `Step`s that justify it; templates are
fixed English sentences (message ids), numbers and cards are parameters.

>>> value, steps = explain_pot_limit(pot=15, to_call=10, own_bet=0)
>>> value, [str(s) for s in steps][-1]
(35, 'The most he may raise to is 0 + 35 = 35.')
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from trainer.engine.cards import Card, parse_cards
from trainer.engine.evaluator import Hand
from trainer.engine.explain import Cards, Step, nstep, step
from trainer.engine.omaha import CardsIn, best_high, best_low, format_low
from trainer.engine.omaha.betting import (
    BlindPost,
    Blinds,
    MissedBlinds,
    OmahaRules,
    Street,
    heads_up_rule,
    limit_bet_size,
    limit_cap,
    limit_raise_to,
    missed_blinds_post,
    no_limit_min_raise_to,
    post_blinds,
    pot_limit_max,
    resolve_rules,
)


def explain_high(hole: CardsIn, board: CardsIn) -> tuple[Hand, tuple[Step, ...]]:
    """The best high hand and why: which two hole and three board cards play.

    >>> hand, steps = explain_high("Ah Kh Qh Jh", "Th 2c 3d 7s 9c")
    >>> str(steps[-1])
    'Best high hand: high card with Ah Kh from the hand and Th 9c 7s from the board.'
    """
    hand = best_high(hole, board)
    h = set(parse_cards(hole))
    from_hand = [c for c in hand.cards if c in h]
    from_board = [c for c in hand.cards if c not in h]
    return hand, (
        step("A hand uses exactly two of the four hole cards and three of the five board cards."),
        step(
            "Best high hand: {hand} with {hole} from the hand and {board} from the board.",
            hand=hand.category.term,
            hole=Cards.of(from_hand),
            board=Cards.of(from_board),
        ),
    )


def explain_low(hole: CardsIn, board: CardsIn) -> tuple[tuple[int, ...] | None, tuple[Step, ...]]:
    """The best 8-or-better low and why, or why there is none.

    >>> low, steps = explain_low("Ah 2h Kc Kd", "3c 4d 8h Kh Qs")
    >>> low, str(steps[-1])
    ((8, 4, 3, 2, 1), 'Best low: 8-4-3-2-A.')
    """
    low = best_low(hole, board)
    h, b = parse_cards(hole), parse_cards(board)
    rule = step(
        "A low uses exactly two hole cards and three board cards: five different ranks, all 8 or lower, "
        "the ace low."
    )
    board_low = sorted({_low(c) for c in b if _low(c)})
    hole_low = sorted({_low(c) for c in h if _low(c)})
    if low is not None:
        return low, (rule, step("Best low: {low}.", low=format_low(low)))
    if len(board_low) < 3:
        why = _too_few_lows(
            step("The board has no low rank: no low."),
            nstep(
                "The board has only {count} low rank ({ranks}): a low needs three from the board.",
                "The board has only {count} different low ranks ({ranks}): a low needs three from the board.",
                count=len(board_low),
                ranks=_ranks(board_low),
            ),
            board_low,
        )
    elif len(hole_low) < 2:
        why = _too_few_lows(
            step("The hand has no low rank: no low."),
            step(
                "The hand has only one low rank ({ranks}): a low needs two different ones from the hand.",
                ranks=_ranks(hole_low),
            ),
            hole_low,
        )
    else:
        why = step("Every pair of low hole cards pairs the board's low cards: no low (counterfeited).")
    return None, (rule, why)


def _low(card: Card) -> int:
    rank = 1 if card.rank == 14 else card.rank
    return rank if rank <= 8 else 0


def _ranks(ranks: Sequence[int]) -> list[str]:
    return ["A" if r == 1 else str(r) for r in sorted(ranks, reverse=True)]


def _too_few_lows(none: Step, some: Step, ranks: Sequence[int]) -> Step:
    return some if ranks else none


def low_candidates(hole: CardsIn, board: CardsIn) -> list[tuple[int, ...]]:
    """Every distinct qualifying low of any two hole and three board cards, best first (for drills that
    offer the right low among near misses)."""
    found: set[tuple[int, ...]] = set()
    for two in combinations(parse_cards(hole), 2):
        for three in combinations(parse_cards(board), 3):
            ranks = sorted((_low(c) for c in two + three), reverse=True)
            if all(ranks) and len(set(ranks)) == 5:
                found.add(tuple(ranks))
    return sorted(found)


def explain_pot_limit(
    pot: int, to_call: int, own_bet: int = 0, stack: int | None = None
) -> tuple[int, tuple[Step, ...]]:
    """The most a player may raise to in pot limit (his bet already on the table included), step by
    step: the pot, his call into it, the raise by the pot after the call (P + 2 x C), and the figure
    the school's old examples taught (raising by the pot before the call, P + C), named as a mistake.

    >>> total, steps = explain_pot_limit(pot=200, to_call=100)
    >>> total, [str(s) for s in steps][1:4]  # doctest: +NORMALIZE_WHITESPACE
    (400, ['First he calls 100: the pot becomes 200 + 100 = 300.',
           'Then he may raise by the whole pot after his call, 300: he puts in 100 + 300 = 400
            (P + 2 x C = 200 + 2 x 100).',
           "Common mistake: raising by the pot before the call, 100 + 200 = 300, as the school's old
            examples did (pot 10, bet 10, raise to 30; pot 100, bet 100, raise to 300). The call goes
            into the pot first: 400."])
    """
    most = pot_limit_max(pot, to_call)
    steps = [step("The pot counts every chip in the middle and on the table: {pot}.", pot=pot)]
    if to_call:
        after = pot + to_call
        steps += [
            step(
                "First he calls {call}: the pot becomes {pot} + {call} = {after}.",
                call=to_call,
                pot=pot,
                after=after,
            ),
            step(
                "Then he may raise by the whole pot after his call, {after}: he puts in {call} + {after} "
                "= {most} (P + 2 x C = {pot} + 2 x {call}).",
                after=after,
                call=to_call,
                most=most,
                pot=pot,
            ),
            step(
                "Common mistake: raising by the pot before the call, {call} + {pot} = {wrong}, as the "
                "school's old examples did (pot 10, bet 10, raise to 30; pot 100, bet 100, raise to 300). "
                "The call goes into the pot first: {most}.",
                call=to_call,
                pot=pot,
                wrong=to_call + pot,
                most=most,
            ),
        ]
    else:
        steps.append(step("Nothing to call: he may bet the whole pot, {most}.", most=most))
    if stack is not None and stack < most:
        steps.append(step("He has only {stack} left: all-in is the most.", stack=stack))
        most = pot_limit_max(pot, to_call, stack=stack)
    steps.append(
        step(
            "The most he may raise to is {own} + {most} = {total}.",
            own=own_bet,
            most=most,
            total=own_bet + most,
        )
    )
    return own_bet + most, tuple(steps)


def explain_limit(
    street: Street | str,
    small_bet: int,
    big_bet: int,
    *,
    bets_made: int,
    players: int,
    rules: OmahaRules | str | None = None,
) -> tuple[int | None, tuple[Step, ...]]:
    """What the next player may bet or raise to in fixed limit, or None when capped."""
    rules = resolve_rules(rules)
    size = limit_bet_size(street, small_bet, big_bet)
    raise_to = limit_raise_to(street, small_bet, big_bet, bets_made=bets_made, players=players, rules=rules)
    cap = limit_cap(players, rules)
    steps = [
        step("Pre-flop and on the flop every bet and raise is the small bet, {size}.", size=size)
        if Street(street) in (Street.PREFLOP, Street.FLOP)
        else step("On the turn and the river every bet and raise is the big bet, {size}.", size=size),
        step("Bets so far this round (the bet and raises): {made}.", made=bets_made),
    ]
    if cap is None:
        steps.append(step("Only two players are left: the raises are not capped."))
    else:
        steps.append(
            nstep(
                "The cap is {cap}\u00a0bets: one bet and {count} raise.",
                "The cap is {cap}\u00a0bets: one bet and {count} raises.",
                count=cap - 1,
                cap=cap,
            )
        )
    if raise_to is None:
        steps.append(step("The betting is capped: he may only call or fold."))
    else:
        steps.append(
            nstep(
                "He may make it {count}\u00a0bet: {count} x {size} = {total}.",
                "He may make it {count}\u00a0bets: {count} x {size} = {total}.",
                count=bets_made + 1,
                size=size,
                total=raise_to,
            )
        )
    return raise_to, tuple(steps)


def explain_min_raise(bets: Sequence[int], big_blind: int) -> tuple[int, tuple[Step, ...]]:
    """The smallest legal bet or raise (a total) in no limit."""
    least = no_limit_min_raise_to(bets, big_blind)
    if not bets:
        return least, (step("No bet yet: a bet is at least the big blind, {bb}.", bb=big_blind),)
    increments = [b - a for a, b in zip([0, *bets[:-1]], bets, strict=True)]
    return least, (
        step(
            "The largest bet or raise this round is {inc} (at least the big blind).",
            inc=max([*increments, big_blind]),
        ),
        step(
            "A raise goes to at least {bet} + {inc} = {least}.",
            bet=bets[-1],
            inc=least - bets[-1],
            least=least,
        ),
    )


def explain_blinds(
    button: int,
    stacks: Sequence[int | None],
    small_blind: int,
    big_blind: int,
    rules: OmahaRules | str | None = None,
) -> tuple[Blinds, tuple[Step, ...]]:
    """Who posts the blinds and how much, and who acts first; heads-up the first step names the
    house's rule (`blinds.heads_up`).

    >>> blinds, steps = explain_blinds(0, [50, 50], 5, 10)
    >>> str(steps[0])  # doctest: +NORMALIZE_WHITESPACE
    'Heads-up this house plays the standard rule: the button posts the small blind and acts first
     before the flop, the other player posts the big blind.'
    """
    blinds = post_blinds(button, stacks, small_blind, big_blind, rules)
    active = sum(s is not None for s in stacks)
    steps = []
    if active == 2:
        steps.append(heads_up_rule(rules))
    else:
        steps.append(step("The small blind is the first player left of the button, the big blind the next."))
    steps.append(
        step(
            "Seat {seat} posts the small blind: {amount}.",
            seat=blinds.small + 1,
            amount=blinds.posted[blinds.small],
        )
    )
    steps.append(
        step(
            "Seat {seat} posts the big blind: {amount}.",
            seat=blinds.big + 1,
            amount=blinds.posted[blinds.big],
        )
    )
    for seat in blinds.all_in:
        steps.append(
            step("Seat {seat} cannot cover the blind: he posts all he has and is all-in.", seat=seat + 1)
        )
    steps.append(step("Seat {seat} acts first before the flop.", seat=blinds.first_preflop + 1))
    return blinds, tuple(steps)


def explain_missed_blinds(
    missed: MissedBlinds | str, small_blind: int, big_blind: int, rules: OmahaRules | str | None = None
) -> tuple[BlindPost, tuple[Step, ...]]:
    """What a returning player posts, live and dead (missed the big blind: both, as the rule document
    has it).

    >>> post, steps = explain_missed_blinds("big", 15, 30)
    >>> post, str(steps[-1])
    (BlindPost(live=30, dead=15), 'Live 30 (counts toward his bet), dead 15 (goes to the pot).')
    """
    post = missed_blinds_post(missed, small_blind, big_blind, rules)
    kind = MissedBlinds(missed)
    said = {
        MissedBlinds.BOTH: step("He missed both blinds: the big blind live and the small blind dead."),
        MissedBlinds.BIG: step(
            "He missed the big blind, so he also had to sit out the small blind and the button: he has "
            "missed both blinds and posts the big blind live and the small blind dead."
        ),
        MissedBlinds.SMALL: step("He missed only the small blind: the house rules say what he posts."),
        MissedBlinds.NONE: step("He missed no blind: nothing to post."),
    }[kind]
    return post, (
        said,
        step(
            "Live {live} (counts toward his bet), dead {dead} (goes to the pot).",
            live=post.live,
            dead=post.dead,
        ),
    )
