"""The typical mistakes of the Omaha rulings with an amount answer, computed from the engine (pure).

- Pots (`om.split`, `om.side_pots`): the high half only, a low made with other than two hole cards,
  the odd chip of the halves to the low, the odd chip to the wrong tied seat, every chip in one pot
  (a side pot given to a player not in it), an uncalled bet left in the pot, a pot cut at a folded
  player's level. Each is the showdown redone by `_payouts` from the engine's pieces (`side_pots`,
  the hands' strengths and lows, `split_evenly`) with that one thing done wrong; with nothing wrong it
  gives exactly the engine's payouts (a test checks it).
- Pot limit (`om.pot_limit`): the raise without the call, the raise size instead of the total, the
  earlier rounds' pot forgotten, the own bet forgotten, the stack ignored.
- Fixed limit (`om.limit`): the other street's bet size, the raise size instead of the total, the cap
  ignored or miscounted, the cap applied heads-up, the big blind not counted as the first bet.
- Blinds (`om.blinds`): a missed small blind posted live or the big blind dead, the small blind
  forgotten (a missed big blind owes the small blind dead too: the rule document); heads-up blinds
  reversed (from the house's `blinds.heads_up` rule), blinds one seat off, a short stack posting a full blind.
- Choices (`om.high`, `om.low`): the best five of all nine cards; a low missed, not the best, made with
  other than two hole cards, or with a 9 or a 10 (the near misses `om.low` offers).

The sentence of a mistake is, where the engine has one, the engine's own explanation step that the
mistake gets wrong.

Blinds 5/10; seat 3 raises to 35, seats 0 and 1 call; the big blind may raise to 10 + 115 + 2 x 25 = 175:

>>> blinds = [{"seat": 1, "action": "small_blind", "amount": 5}]
>>> blinds.append({"seat": 2, "action": "big_blind", "amount": 10})
>>> calls = [{"seat": 0, "action": "call"}, {"seat": 1, "action": "call"}]
>>> actions = [*blinds, {"seat": 3, "action": "raise", "amount": 35}, *calls]
>>> data = {"street": "preflop", "blinds": [5, 10], "pot_before": 0, "actions": actions, "actor": 2}
>>> [(m.id, m.answer) for m in catalogue_pot_limit(data)]
[('om.raise_without_call', 150), ('om.raise_size_not_total', 140), ('om.own_bet_forgotten', 165)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import combinations
from typing import Any

from trainer.drills.base import attach_mistakes
from trainer.drills.mistakes import Mistake, mistake_type
from trainer.drills.omaha.bets import replay
from trainer.drills.omaha.deals import house_rules, low_rank
from trainer.drills.omaha.kinds import _nine_or_ten_low, _rule_breaking_low, _seat_value
from trainer.drills.omaha.kinds import _pots as pot_labels
from trainer.engine.cards import Card, parse_cards
from trainer.engine.evaluator import best_hand, omaha_strength
from trainer.engine.explain import nstep, step
from trainer.engine.omaha import best_low, format_low, settle, side_pots
from trainer.engine.omaha.betting import Street, limit_bet_size, limit_cap, post_blinds, pot_limit_max
from trainer.engine.omaha.explain import explain_low, heads_up_rule, low_candidates
from trainer.engine.omaha.pots import Pot, clockwise_from_button, split_evenly

Data = dict[str, Any]
Low = tuple[int, ...]

HIGH_ONLY = mistake_type("om.high_only", "The high half only")
LOW_HOLE_RULE = mistake_type("om.low_not_two_hole_cards", "A low not made of two hole and three board cards")
ODD_CHIP_TO_LOW = mistake_type("om.odd_chip_to_low", "The odd chip of the halves to the low")
ODD_CHIP_SEAT = mistake_type("om.odd_chip_wrong_seat", "The odd chip to the wrong seat")
ONE_POT = mistake_type("om.side_pot_ignored", "A side pot given to a player not in it")
UNCALLED_IN_POT = mistake_type("om.uncalled_in_pot", "An uncalled bet left in the pot")
FOLDED_LEVEL = mistake_type("om.pot_cut_at_fold", "A pot cut at a folded player's chips")
RAISE_WITHOUT_CALL = mistake_type("om.raise_without_call", "The pot-limit raise without the call")
RAISE_SIZE = mistake_type("om.raise_size_not_total", "The raise size given instead of the total")
EARLIER_POT = mistake_type("om.earlier_pot_forgotten", "The chips of earlier rounds left out of the pot")
OWN_BET = mistake_type("om.own_bet_forgotten", "The player's own bet left out")
STACK_IGNORED = mistake_type("om.stack_ignored", "The player's stack ignored")
WRONG_BET_SIZE = mistake_type("om.wrong_bet_size", "The other street's bet size")
CAP_IGNORED = mistake_type("om.cap_ignored", "The cap ignored")
CAP_HEADS_UP = mistake_type("om.cap_heads_up", "A cap applied heads-up")
CAP_MISCOUNTED = mistake_type("om.cap_miscounted", "The raises counted wrong")
BLIND_NOT_BET = mistake_type("om.blind_not_counted", "The big blind not counted as the first bet")
DEAD_AS_LIVE = mistake_type("om.dead_blind_live", "A dead blind posted live")
LIVE_AS_DEAD = mistake_type("om.live_blind_dead", "The big blind posted dead")
SMALL_FORGOTTEN = mistake_type("om.missed_small_forgotten", "A missed small blind forgotten")
HEADS_UP_BLINDS = mistake_type("om.heads_up_blinds", "Heads-up blinds reversed")
BLINDS_OFF = mistake_type("om.blinds_one_seat_off", "The blinds one seat off")
SHORT_STACK = mistake_type("om.short_stack_blind", "A short stack posting a full blind")
NOT_TWO_PLUS_THREE = mistake_type(
    "om.hand_not_two_plus_three", "A hand not made of two hole and three board cards"
)
LOW_MISSED = mistake_type("om.low_missed", "A low missed")
LOW_NINE = mistake_type("om.low_nine_or_ten", "A 9 or a 10 counted in a low")
LOW_NOT_BEST = mistake_type("om.low_not_best", "A low that is not the best")


# Pots ----------------------------------------------------------------------------------------------


class _Table:
    """A showdown's cards, chips and hands, read once for all the variants."""

    def __init__(self, data: Data, hi_lo: bool) -> None:
        self.data = data
        self.hi_lo = hi_lo
        self.board = parse_cards(data["board"])
        self.holes = [None if h is None else parse_cards(h) for h in data["holes"]]
        self.live = [s for s, h in enumerate(self.holes) if h is not None]
        self.seats = len(self.holes)
        self.chip = data["chip"]
        self.button = data["button"]
        board = [c.index for c in self.board]
        self.high = {s: omaha_strength([c.index for c in self.holes[s] or ()], board) for s in self.live}
        self.low = {s: best_low(self.holes[s], self.board) if hi_lo else None for s in self.live}
        self.built = side_pots(data["contributions"], [s for s in range(self.seats) if s not in self.live])
        self.right = settle(
            self.board, data["holes"], data["contributions"], hi_lo=hi_lo, button=self.button, chip=self.chip
        )

    def order(self, seats: Sequence[int], reverse: bool = False) -> tuple[int, ...]:
        ordered = clockwise_from_button(seats, self.button, self.seats)
        return tuple(reversed(ordered)) if reverse else ordered

    def payouts(
        self,
        pots: Sequence[Pot] | None = None,
        returned: Sequence[int] | None = None,
        *,
        hi_lo: bool | None = None,
        lows: dict[int, Low | None] | None = None,
        odd_to_low: bool = False,
        odd_reversed: bool = False,
    ) -> list[int]:
        """What each seat collects, the engine's way unless told to do one thing wrong."""
        pots = self.built.pots if pots is None else pots
        paid = list(self.built.returned if returned is None else returned)
        split_low = self.hi_lo if hi_lo is None else hi_lo
        lows = self.low if lows is None else lows
        for pot in pots:
            top = max(self.high[s] for s in pot.eligible)
            hi = self.order([s for s in pot.eligible if self.high[s] == top], odd_reversed)
            found = [low for s in pot.eligible if (low := lows.get(s)) and split_low]
            lo = (
                self.order([s for s in pot.eligible if lows.get(s) == min(found)], odd_reversed)
                if found
                else ()
            )
            if not lo or set(lo) == set(hi):
                parts = [(pot.amount, hi)]
            else:
                low_half = pot.amount // self.chip // 2 * self.chip
                if odd_to_low:
                    low_half = pot.amount - low_half
                parts = [(pot.amount - low_half, hi), (low_half, lo)]
            for part, winners in parts:
                for seat, amount in split_evenly(part, winners, self.chip).items():
                    paid[seat] += amount
        return paid


def _any_hole_low(hole: Sequence[Card], board: Sequence[Card]) -> Low | None:
    """The best low of five distinct ranks up to 8 with any number of hole cards (one or more)."""
    best: Low | None = None
    for count in range(1, 5):
        for h in combinations(hole, count):
            for b in combinations(board, 5 - count):
                ranks = sorted((low_rank(c) for c in (*h, *b)), reverse=True)
                if all(ranks) and len(set(ranks)) == 5 and (best is None or tuple(ranks) < best):
                    best = tuple(ranks)
    return best


Variant = tuple[Any, list[int], Sequence[Pot], Sequence[int], Any]  # type, payouts, pots, returned, text


def _pot_variants(t: _Table) -> Iterator[Variant]:
    pots, returned = t.built.pots, t.built.returned
    if t.hi_lo:
        yield (
            HIGH_ONLY,
            t.payouts(hi_lo=False),
            pots,
            returned,
            step(
                "In Hi/Lo each pot is split: half to the best high hand, half to the best low of 8 or better."
            ),
        )
        lenient = {s: _any_hole_low(t.holes[s] or (), t.board) for s in t.live}
        wrong = [s for s in t.live if lenient[s] != t.low[s] and lenient[s] is not None]
        if wrong:
            seat = min(wrong, key=lambda s: lenient[s] or ())
            yield (
                LOW_HOLE_RULE,
                t.payouts(lows=lenient),
                pots,
                returned,
                step(
                    "A low, like a high hand, uses exactly two hole cards and three board cards: seat {seat} "
                    "cannot make {low} that way.",
                    seat=seat + 1,
                    low=format_low(lenient[seat] or ()),
                ),
            )
        yield (
            ODD_CHIP_TO_LOW,
            t.payouts(odd_to_low=True),
            pots,
            returned,
            step("When a pot does not split evenly in two, the odd chip goes to the high half."),
        )
    tied = next((r for r in t.right.pots if len(r.high_winners) > 1 or len(r.low_winners) > 1), None)
    if tied is not None:
        winners = tied.high_winners if len(tied.high_winners) > 1 else tied.low_winners
        yield (
            ODD_CHIP_SEAT,
            t.payouts(odd_reversed=True),
            pots,
            returned,
            step(
                "Among tied hands the odd chip goes to the first of them left of the button: seat {seat}.",
                seat=winners[0] + 1,
            ),
        )
    if len(pots) > 1:
        whole = Pot(sum(p.amount for p in pots), tuple(t.live))
        yield (
            ONE_POT,
            t.payouts([whole]),
            [whole],
            returned,
            step(
                "A player who is all-in can win only the main pot of {amount}; the chips above it make side "
                "pots for the players who put them in.",
                amount=pots[0].amount,
            ),
        )
    if any(returned):
        seat = next(s for s, r in enumerate(returned) if r)
        kept = [*pots[:-1], Pot(pots[-1].amount + returned[seat], pots[-1].eligible)]
        yield (
            UNCALLED_IN_POT,
            t.payouts(kept, [0] * t.seats),
            kept,
            [0] * t.seats,
            step(
                "Seat {seat} bet {amount} that nobody called: it goes back.",
                seat=seat + 1,
                amount=returned[seat],
            ),
        )
    cut = _cut_at_every_level(t)
    if len(cut) != len(pots):
        yield (
            FOLDED_LEVEL,
            t.payouts(cut),
            cut,
            returned,
            step(
                "The chips of a player who folded stay in the pots they reached: only an all-in player "
                "starts a new side pot."
            ),
        )


def _cut_at_every_level(t: _Table) -> list[Pot]:
    """Pots cut at every contribution, folded players' included, without joining equal neighbours."""
    chips = [c - r for c, r in zip(t.data["contributions"], t.built.returned, strict=True)]
    pots, floor = [], 0
    for level in sorted(set(chips)):
        if level == 0:
            continue
        amount = sum(min(c, level) - min(c, floor) for c in chips)
        eligible = tuple(s for s in t.live if chips[s] >= level)
        if eligible:
            pots.append(Pot(amount, eligible))
        floor = level
    return pots


def _mistakes_split(data: Data) -> Iterator[Mistake]:
    t = _Table(data, True)
    for kind, payouts, _pots, _returned, text in _pot_variants(t):
        yield Mistake(kind, payouts, text)


def _mistakes_side_pots(data: Data) -> Iterator[Mistake]:
    t = _Table(data, data["hi_lo"])
    pot_count = len(pot_labels(data))
    for kind, payouts, pots, returned, text in _pot_variants(t):
        if len(pots) > pot_count:
            continue
        values = [p.amount for p in pots] + [0] * (pot_count - len(pots))
        if data["level"] >= 2:
            values.append(sum(returned))
        yield Mistake(kind, values + payouts, text)


# Pot limit -----------------------------------------------------------------------------------------


def catalogue_pot_limit(data: Data) -> list[Mistake]:
    bets = replay(data["actions"])
    own = bets.get(data["actor"], 0)
    top = max(bets.values(), default=0)
    call = top - own
    pot = data["pot_before"] + sum(bets.values())
    stack = data.get("stack")
    most = pot_limit_max(pot, call)
    capped = stack is not None and stack < most
    right = own + pot_limit_max(pot, call, stack=stack)
    found = []
    if not capped:
        if call:
            found.append(
                Mistake(
                    RAISE_WITHOUT_CALL,
                    own + call + pot,
                    step(
                        "He may put in the call ({call}) and then raise the pot after his call: "
                        "{pot} + 2 x {call} = {most}.",
                        pot=pot,
                        call=call,
                        most=most,
                    ),
                )
            )
        found.append(
            Mistake(
                RAISE_SIZE,
                right - top,
                step("The answer is the total he raises to, his whole bet: {total}.", total=right),
            )
        )
        if data["pot_before"]:
            smaller = pot - data["pot_before"]
            if call <= smaller:
                found.append(
                    Mistake(
                        EARLIER_POT,
                        own + pot_limit_max(smaller, call),
                        step("The pot counts every chip in the middle and on the table: {pot}.", pot=pot),
                    )
                )
    if own:
        found.append(
            Mistake(
                OWN_BET,
                right - own,
                step(
                    "The most he may raise to is {own} + {most} = {total}.",
                    own=own,
                    most=right - own,
                    total=right,
                ),
            )
        )
    if capped:
        found.append(
            Mistake(
                STACK_IGNORED,
                own + most,
                step("He has only {stack} left: all-in is the most.", stack=stack),
            )
        )
    return found


# Fixed limit ---------------------------------------------------------------------------------------


def _size_step(street: Street, size: int) -> Any:
    if street in (Street.PREFLOP, Street.FLOP):
        return step("Pre-flop and on the flop every bet and raise is the small bet, {size}.", size=size)
    return step("On the turn and the river every bet and raise is the big bet, {size}.", size=size)


def catalogue_limit(data: Data) -> list[Mistake]:
    street = Street(data["street"])
    small, big = data["stakes"]
    preflop = street is Street.PREFLOP
    made = sum(1 for a in data["actions"] if a["action"] in ("bet", "raise")) + preflop
    size = limit_bet_size(street, small, big)
    other = big if size == small else small
    cap = limit_cap(data["players"], house_rules(data["preset"]))
    open_raise = cap is None or made < cap
    found = []
    if open_raise:
        found.append(Mistake(WRONG_BET_SIZE, (made + 1) * other, _size_step(street, size)))
        if made:
            found.append(
                Mistake(
                    RAISE_SIZE,
                    size,
                    step(
                        "He may make it {count}\u00a0bets: {count} x {size} = {total}.",
                        count=made + 1,
                        size=size,
                        total=(made + 1) * size,
                    ),
                )
            )
        if cap is not None and made == cap - 1:
            found.append(
                Mistake(
                    CAP_MISCOUNTED,
                    0,
                    nstep(
                        "The cap is {cap}\u00a0bets: one bet and {count} raise.",
                        "The cap is {cap}\u00a0bets: one bet and {count} raises.",
                        count=cap - 1,
                        cap=cap,
                    ),
                )
            )
        if cap is None and made >= (limit_cap(3, house_rules(data["preset"])) or made + 1):
            found.append(
                Mistake(CAP_HEADS_UP, 0, step("Only two players are left: the raises are not capped."))
            )
    else:
        found.append(
            Mistake(CAP_IGNORED, (made + 1) * size, step("The betting is capped: he may only call or fold."))
        )
    if preflop:
        uncounted = made - 1
        answer = (uncounted + 1) * size if cap is None or uncounted < cap else 0
        found.append(
            Mistake(BLIND_NOT_BET, answer, step("Before the flop the big blind counts as the first bet."))
        )
    return found


# Blinds --------------------------------------------------------------------------------------------


def catalogue_blinds(data: Data) -> list[Mistake]:
    sb, bb = data["blinds"]
    if "missed" in data:
        return _missed(data["missed"], sb, bb, house_rules(data["preset"]).small_only_posts_dead)
    stacks = data["stacks"]
    active = [s for s, c in enumerate(stacks) if c is not None]
    rules = house_rules(data["preset"])
    right = post_blinds(data["button"], stacks, sb, bb, rules)

    def answer(small: int, big: int, full: bool = False) -> list[int]:
        posted = {small: sb, big: bb}
        return [
            min(posted.get(s, 0), stacks[s]) if not full else posted.get(s, 0)
            for s in active  # an all-in blind posts what the stack holds
        ]

    found = []
    if len(active) == 2:
        found.append(
            Mistake(
                HEADS_UP_BLINDS,
                answer(right.big, right.small),
                heads_up_rule(rules),
            )
        )
    else:
        nxt = active[(active.index(right.big) + 1) % len(active)]
        found.append(
            Mistake(
                BLINDS_OFF,
                answer(data["button"], right.small),
                step("The small blind is the first player left of the button, the big blind the next."),
            )
        )
        found.append(
            Mistake(
                BLINDS_OFF,
                answer(right.big, nxt),
                step("The small blind is the first player left of the button, the big blind the next."),
            )
        )
    if right.all_in:
        found.append(
            Mistake(
                SHORT_STACK,
                answer(right.small, right.big, full=True),
                step(
                    "Seat {seat} cannot cover the blind: he posts all he has and is all-in.",
                    seat=right.all_in[0] + 1,
                ),
            )
        )
    return found


def _missed(missed: str, sb: int, bb: int, small_dead: bool) -> list[Mistake]:
    both = step("He missed both blinds: the big blind live and the small blind dead.")
    if missed == "both":
        return [
            Mistake(DEAD_AS_LIVE, [bb + sb, 0], both),
            Mistake(SMALL_FORGOTTEN, [bb, 0], both),
            Mistake(LIVE_AS_DEAD, [0, bb + sb], both),
        ]
    if missed == "big":
        # The rule document: missing the big blind he sits out the small blind too, so he owes both.
        big = step(
            "He missed the big blind, so he also had to sit out the small blind and the button: he has "
            "missed both blinds and posts the big blind live and the small blind dead."
        )
        return [
            Mistake(SMALL_FORGOTTEN, [bb, 0], big),
            Mistake(DEAD_AS_LIVE, [bb + sb, 0], big),
            Mistake(LIVE_AS_DEAD, [0, bb + sb], big),
        ]
    rule = step(
        "Live {live} (counts toward his bet), dead {dead} (goes to the pot).",
        live=0,
        dead=sb if small_dead else 0,
    )
    found = [Mistake(DEAD_AS_LIVE, [sb, 0], rule)]
    found.append(
        Mistake(SMALL_FORGOTTEN, [0, 0], rule) if small_dead else Mistake(LIVE_AS_DEAD, [0, sb], rule)
    )
    return found


# Choices: the high hand and the low -------------------------------------------------------------------

TWO_PLUS_THREE = "A hand uses exactly two of the four hole cards and three of the five board cards."


def catalogue_high(data: Data) -> list[Mistake]:
    """The category a reader of any five of the nine cards would name (three or four hole cards, or
    the board alone)."""
    hole, board = parse_cards(data["hole"]), parse_cards(data["board"])
    return [Mistake(NOT_TWO_PLUS_THREE, best_hand([*hole, *board]).category.value, step(TWO_PLUS_THREE))]


def catalogue_winner(data: Data) -> list[Mistake]:
    """The seats a reader of any five of the nine cards would name as the winners."""
    board = parse_cards(data["board"])
    strengths = [best_hand([*parse_cards(h), *board]).strength for h in data["holes"]]
    winners = tuple(s for s, v in enumerate(strengths) if v == max(strengths))
    return (
        [Mistake(NOT_TWO_PLUS_THREE, _seat_value(winners), step(TWO_PLUS_THREE))] if len(winners) <= 2 else []
    )


def catalogue_low(data: Data) -> list[Mistake]:
    """The offered lows a trainee picks by one known mistake (`_low_format` offers these near misses)."""
    hole, board = list(parse_cards(data["hole"])), list(parse_cards(data["board"]))
    low, steps = explain_low(hole, board)
    rule, verdict = steps[0], steps[-1]
    found = []
    if low is not None:
        found.append(Mistake(LOW_MISSED, "none", verdict))
        found += [
            Mistake(LOW_NOT_BEST, format_low(other), verdict) for other in low_candidates(hole, board)[1:]
        ]
    for count in (3, 4, 1, 0):
        found += [Mistake(LOW_HOLE_RULE, format_low(v), rule) for v in _rule_breaking_low(hole, board, count)]
    found += [Mistake(LOW_NINE, format_low(v), rule) for v in _nine_or_ten_low(hole, board)]
    return found


_CATALOGUES: dict[str, Callable[[Data], Any]] = {
    "om.split": lambda d: list(_mistakes_split(d)),
    "om.side_pots": lambda d: list(_mistakes_side_pots(d)),
    "om.pot_limit": catalogue_pot_limit,
    "om.limit": catalogue_limit,
    "om.blinds": catalogue_blinds,
    "om.high": catalogue_high,
    "om.winner": catalogue_winner,
    "om.low": catalogue_low,
}

for _kind_id, _catalogue in _CATALOGUES.items():
    attach_mistakes(_kind_id, _catalogue)

__all__ = ["catalogue_blinds", "catalogue_limit", "catalogue_pot_limit"]
