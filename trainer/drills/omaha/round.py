"""An Omaha hand at the live table: 4 to 10 seats from the blinds to the split pot, ruled by the dealer.

The deal: stacks (some short, so players go all-in), the button, the blinds, sometimes a player coming
back after missing the blinds; pot limit or fixed limit, high or hi/lo 8-or-better. Simulated players
act street by street (`_Betting`), and the trainee as the dealer rules at each point a dealer must:

1. who posts the small and the big blind; what a returning player posts, live and dead; whether a new
   player who sits down may post the big blind and play at once, or must wait (`new_player_entry`:
   not between the button and the big blind; a house may make every new player wait);
2. during the betting: the size of the pot when a player asks (pot limit), the most a player may raise
   to when he says "pot!", and whether a raise is allowed (the fixed-limit size and cap, the pot-limit
   minimum raise and maximum); an illegal raise is then made right (the most, the least, or a call);
3. after the betting: an uncalled bet returned, the pots when a player is all-in, who shows first
   (`explain_order`: the last river aggressor, else the first seat left of the button; with a side pot
   the player all-in for the least, as the house's `showdown.side_pots` says), whether the next player
   may muck his hand unseen (`muck_rulings`: only a hand beaten in every pot it could win), and for each
   pot what every seat in it collects (winners, the hi/lo split, quartering, odd chips).

Seats are numbered from 1 on the table and in the questions; the engines number them from 0. A dead
small blind goes to the pot without counting toward its poster's bet: the engines see it as the stake
of an extra folded seat after the last one, which reaches only the main pot (so a table with a dead
blind has at most 9 players).

>>> from trainer.drills.rounds import deal
>>> r = deal("omaha", 1, seed=3, seats=6)
>>> [s.kind for s in r.steps][:2]
['om.small_blind', 'om.big_blind']
"""

from __future__ import annotations

import random
from typing import Any

from trainer.drills.answers import AnswerFormat, AnswerKind, seat_label
from trainer.drills.chips import ChipSet
from trainer.drills.omaha.showdowns import ENTRY_CHOICES, MUCK_CHOICES, entry_question
from trainer.drills.rounds import GameRounds, RoundStep, StepKind
from trainer.engine.cards import Deck
from trainer.engine.evaluator import best_omaha_hand
from trainer.engine.explain import N_, Step, Term, step
from trainer.engine.omaha import settle, side_pots
from trainer.engine.omaha.betting import (
    limit_bet_size,
    limit_raise_to,
    load_rules,
    no_limit_min_raise_to,
    post_blinds,
    pot_limit_max,
)
from trainer.engine.omaha.explain import (
    explain_blinds,
    explain_limit,
    explain_min_raise,
    explain_missed_blinds,
    explain_pot_limit,
)
from trainer.engine.omaha.reveal import explain_order, muck_rulings
from trainer.engine.omaha.seating import new_player_entry

# Version 2: a new player sitting down (levels 2 and 3), the show order with side pots, the muck.
VERSION = 2
PRESETS = ("standard",)
STREETS = ("preflop", "flop", "turn", "river")
BOARD_AFTER = {"preflop": 0, "flop": 3, "turn": 4, "river": 5}
AMOUNT = AnswerFormat(AnswerKind.AMOUNT)
ALLOWED = AnswerFormat(
    AnswerKind.CHOICE, choices=(("yes", Term(N_("Yes, allowed"))), ("no", Term(N_("No, not allowed"))))
)
STRENGTH = {  # rough hand strength by category, for the simulated players
    "high_card": 0.1,
    "pair": 0.3,
    "two_pair": 0.5,
    "three_of_a_kind": 0.65,
    "straight": 0.75,
    "flush": 0.8,
    "full_house": 0.9,
    "four_of_a_kind": 0.97,
    "straight_flush": 1.0,
}


def default_seats(rng: random.Random, level: int) -> int:
    return {1: rng.randint(4, 6), 2: rng.randint(6, 8), 3: rng.randint(8, 10)}[level]


def seat_choices(seats: list[int]) -> AnswerFormat:
    return AnswerFormat(AnswerKind.CHOICE, choices=tuple((str(s + 1), seat_label(s)) for s in seats))


def from_one(steps: tuple[Step, ...] | list[Step]) -> tuple[Step, ...]:
    """The engines' explanation steps with seats numbered from 1, as the table shows them."""
    out = []
    for s in steps:
        params = dict(s.params)
        for key, value in params.items():
            if key in ("seat", "button") and isinstance(value, int):
                params[key] = value + 1
            elif key == "seats" and isinstance(value, str):
                params[key] = ", ".join(str(int(x) + 1) for x in value.split(", "))
        out.append(step(s.template, **params))
    return tuple(out)


class _Betting:
    """The hand while it is dealt and bet: stacks, bets, the board, the log, and the steps asked."""

    def __init__(self, rng: random.Random, level: int, seats: int, rules: str) -> None:
        self.rng, self.level, self.n = rng, level, seats
        self.rules = rules
        self.structure = rng.choice(("pot_limit", "limit"))
        self.hi_lo = rng.random() < {1: 0.0, 2: 0.5, 3: 0.6}[level]
        big = {1: 10, 2: rng.choice((20, 50)), 3: rng.choice((30, 50, 100))}[level]
        self.sb, self.bb = big // 2, big
        self.small_bet, self.big_bet = big, 2 * big
        self.chip = 5 if level == 3 else 1
        unit = 5
        self.stacks = [rng.randint(40, 150) * big // unit * unit for _ in range(seats)]
        for seat in rng.sample(range(seats), {1: 1, 2: rng.randint(1, 2), 3: rng.randint(2, 3)}[level]):
            self.stacks[seat] = rng.randint(3, 15) * big // unit * unit
        self.button = rng.randrange(seats)
        deck = Deck(rng)
        self.holes = [deck.draw(4) for _ in range(seats)]
        self.board = deck.draw(5)
        self.bet = [0] * seats  # in front of each seat this street
        self.put = [0] * seats  # live chips put in over the hand
        self.dead = 0  # a dead small blind: in the pot, not anyone's bet
        self.middle = 0  # collected from earlier streets
        self.folded: set[int] = set()
        self.all_in: set[int] = set()
        self.street = "preflop"
        self.log: list[dict[str, Any]] = []
        self.returning: dict[str, Any] | None = None
        self.newcomer: dict[str, Any] | None = None  # a new player: his seat and whether he posts
        self.shown: set[int] = set()
        self.steps: list[RoundStep] = []
        self.asked = {"pot": 0, "legal": 0, "max": 0}
        self.last_aggressor: int | None = None

    # The table as the dealer sees it ---------------------------------------------------------------

    def table(self, focus: int | None = None, phase: str = "betting") -> dict[str, Any]:
        board = [str(c) for c in self.board[: BOARD_AFTER[self.street]]]
        # Built fresh each time (the log's entries are not changed once the next step is asked); the
        # round contract passes every table through JSON, which copies it.
        return {
            "game": "omaha",
            "rules": self.rules,
            "structure": self.structure,
            "hi_lo": self.hi_lo,
            "blinds": [self.sb, self.bb],
            "limits": [self.small_bet, self.big_bet] if self.structure == "limit" else None,
            "chip": self.chip,
            "button": self.button + 1,
            "street": self.street,
            "phase": phase,
            "board": board,
            "pot": self.middle,
            "dead": self.dead,
            "seats": [
                {
                    "seat": s + 1,
                    "stack": self.stacks[s],
                    "bet": self.bet[s],
                    "folded": s in self.folded,
                    "all_in": s in self.all_in,
                    "cards": [str(c) for c in self.holes[s]] if s in self.shown else None,
                    "returning": (self.returning or {}).get("missed") if self._is_returning(s) else None,
                    "new": self._newcomer(s),
                }
                for s in range(self.n)
            ],
            "actions": list(self.log),
            "focus": None if focus is None else focus + 1,
        }

    def _is_returning(self, seat: int) -> bool:
        return self.returning is not None and self.returning["seat"] == seat

    def _newcomer(self, seat: int) -> str | None:
        """ "sits_down" for the seat of a new player, then "posts" or "waits" once the dealer has ruled;
        None for every other seat."""
        if self.newcomer is None or self.newcomer["seat"] != seat:
            return None
        entry: str = self.newcomer["entry"]
        return entry

    def ask(
        self, kind: str, question: Step, fmt: AnswerFormat, data: dict[str, Any], focus: int | None
    ) -> None:
        phase = "showdown" if kind in ("om.show_first", "om.pot") else "betting"
        self.steps.append(RoundStep(kind, question, fmt, self.table(focus, phase), data))

    def act(self, seat: int, action: str, amount: int = 0) -> None:
        """Move chips for an action; `amount` is the total the seat's bet goes to this street."""
        if action in ("call", "bet", "raise", "all_in", "post"):
            put = amount - self.bet[seat]
            self.stacks[seat] -= put
            self.put[seat] += put
            self.bet[seat] = amount
            if self.stacks[seat] == 0:
                self.all_in.add(seat)
        elif action == "fold":
            self.folded.add(seat)
        entry: dict[str, Any] = {"seat": seat + 1, "action": action, "street": self.street}
        if amount:
            entry["amount"] = amount
        self.log.append(entry)

    # Blinds ----------------------------------------------------------------------------------------

    def blinds(self) -> None:
        # A new player sits down (levels 2 and 3, never on the button): the blinds are found as if his
        # seat were empty, which is right whichever way he is ruled (allowed to post, he is not between
        # the button and the big blind, so he moves neither blind).
        newcomer = None
        if self.rng.random() < {1: 0.0, 2: 0.3, 3: 0.3}[self.level]:
            newcomer = self.rng.choice([s for s in range(self.n) if s != self.button])
            self.newcomer = {"seat": newcomer, "entry": "sits_down"}
        stacks: list[int | None] = [None if s == newcomer else v for s, v in enumerate(self.stacks)]
        blinds = post_blinds(self.button, stacks, self.sb, self.bb)
        data = {"button": self.button, "stacks": stacks, "sb": self.sb, "bb": self.bb}
        seats = list(range(self.n))
        self.ask(
            "om.small_blind",
            step("The button is on seat {button}. Who posts the small blind?", button=self.button + 1),
            seat_choices(seats),
            {**data, "blind": "small"},
            None,
        )
        self.act(blinds.small, "post", blinds.posted[blinds.small])
        self.log[-1]["action"] = "small_blind"
        self.ask(
            "om.big_blind",
            step("Who posts the big blind?"),
            seat_choices(seats),
            {**data, "blind": "big"},
            None,
        )
        self.act(blinds.big, "post", blinds.posted[blinds.big])
        self.log[-1]["action"] = "big_blind"
        self.first_preflop = blinds.first_preflop
        if newcomer is not None:
            self.new_player(newcomer, blinds.small, blinds.big)
            return
        others = [s for s in seats if s not in (blinds.small, blinds.big, self.button)]
        chance = {1: 0.0, 2: 0.35, 3: 0.45}[self.level]
        if others and self.rng.random() < chance:
            seat = self.rng.choice(others)
            missed = self.rng.choice(("big", "both")) if self.n < 10 else "big"
            self.returning = {"seat": seat, "missed": missed}
            self.ask(
                "om.returning",
                step(
                    "Seat {seat} comes back after missing the blinds. What does he post, live and dead?",
                    seat=seat + 1,
                ),
                AnswerFormat(AnswerKind.AMOUNTS, labels=(Term(N_("Live")), Term(N_("Dead")))),
                {"missed": missed, "sb": self.sb, "bb": self.bb, "rules": self.rules},
                seat,
            )
            live = self.bb
            dead = self.sb if missed == "both" else 0
            self.act(seat, "post", live)
            self.log[-1]["action"] = "returning"
            self.stacks[seat] -= dead
            self.dead += dead
            if dead:
                self.log[-1]["dead"] = dead

    def new_player(self, seat: int, small: int, big: int) -> None:
        """The dealer rules on the new player: he posts the big blind live and plays, or sits out this
        hand (no cards, no stake: the engines see a folded seat that put nothing in)."""
        data = {
            "seat": seat,
            "button": self.button,
            "n": self.n,
            "sb": self.sb,
            "bb": self.bb,
            "small": small,
            "big": big,
            "rules": self.rules,
        }
        self.ask(
            "om.new_player",
            entry_question(
                sb=self.sb, bb=self.bb, button=self.button + 1, small=small + 1, big=big + 1, seat=seat + 1
            ),
            AnswerFormat(AnswerKind.CHOICE, choices=ENTRY_CHOICES),
            data,
            seat,
        )
        if _entry(data).may_post_now:
            self.newcomer = {"seat": seat, "entry": "posts"}
            self.act(seat, "post", self.bb)
            self.log[-1]["action"] = "new_player"
        else:
            self.newcomer = {"seat": seat, "entry": "waits"}
            self.folded.add(seat)
            self.holes[seat] = ()
            self.log.append({"seat": seat + 1, "action": "sits_out", "street": self.street})

    # Betting ---------------------------------------------------------------------------------------

    def live(self) -> list[int]:
        return [s for s in range(self.n) if s not in self.folded]

    def strength(self, seat: int) -> float:
        shown = BOARD_AFTER[self.street]
        if shown < 3:
            base = 0.2 + 0.5 * self.rng.random()
        else:
            hand = best_omaha_hand(self.holes[seat], self.board[:shown])
            base = STRENGTH.get(hand.category.value, 1.0)
        return base + self.rng.uniform(-0.15, 0.15)

    def order(self, first: int) -> list[int]:
        return [(first + i) % self.n for i in range(self.n)]

    def betting_round(self) -> None:
        live = self.live()
        if len(live) < 2 or (len([s for s in live if s not in self.all_in]) < 2 and not self._to_call_any()):
            return
        if self.street == "preflop":
            first = self.first_preflop
            raises = [self.bb]
            bets_made = 1
        else:
            first = next(s for s in self.order((self.button + 1) % self.n) if s not in self.folded)
            raises = []
            bets_made = 0
        top = max(self.bet)
        needs = {s for s in live if s not in self.all_in}
        can_raise = set(needs)
        raised_here = 0
        seat = first
        guard = 0
        while needs and guard < 200:
            guard += 1
            if seat in needs:
                needs.discard(seat)
                top, bets_made, raised_here = self.turn(
                    seat, top, raises, bets_made, can_raise, raised_here, needs
                )
                if len(self.live()) < 2:
                    return
            seat = (seat + 1) % self.n

    def _to_call_any(self) -> bool:
        top = max(self.bet)
        return any(self.bet[s] < top for s in self.live() if s not in self.all_in)

    def turn(
        self,
        seat: int,
        top: int,
        raises: list[int],
        bets_made: int,
        can_raise: set[int],
        raised_here: int,
        needs: set[int],
    ) -> tuple[int, int, int]:
        """One player's action; returns the new top bet, bets made and raises made this round."""
        rng = self.rng
        to_call = top - self.bet[seat]
        stack = self.stacks[seat]
        pot = self.middle + self.dead + sum(self.bet)
        strong = self.strength(seat)
        others = [s for s in self.live() if s != seat and s not in self.all_in]
        may_raise = seat in can_raise and raised_here < 3 and stack > to_call and bool(others)
        if self.structure == "pot_limit" and self.asked["pot"] < 2 and rng.random() < 0.15:
            self.asked["pot"] += 1
            self.ask(
                "om.pot_size",
                step("Seat {seat} asks how much is in the pot. What do you say?", seat=seat + 1),
                AMOUNT,
                {"middle": self.middle, "dead": self.dead, "bets": list(self.bet)},
                seat,
            )
        wants_raise = may_raise and strong > 0.55 and rng.random() < 0.6
        own = self.bet[seat]
        players = len(self.live())
        if wants_raise:
            amount = (
                self._limit_raise(seat, top, to_call, pot, raises, bets_made, players)
                if self.structure == "limit"
                else self._pot_limit_raise(seat, top, to_call, pot, raises, bets_made, players)
            )
        else:
            amount = None
        if amount is None:
            # Most hands are folded before the flop, as at a real table; weak ones fold to a bet later.
            facing = (
                0.5
                if self.street == "preflop" and to_call > self.bb
                else 0.35
                if self.street == "preflop"
                else 0.3
            )
            if to_call == 0:
                self.act(seat, "check")
            elif strong < facing and rng.random() < 0.75:
                self.act(seat, "fold")
            else:
                self.act(seat, "all_in" if stack <= to_call else "call", own + min(stack, to_call))
            return top, bets_made, raised_here
        increments = [b - a for a, b in zip([0, *raises], raises, strict=False)]
        full = amount - top >= max([*increments, self.bb])
        all_in = amount == own + stack
        self.act(seat, "all_in" if all_in else ("bet" if top == 0 else "raise"), amount)
        self.last_aggressor = seat
        raises.append(amount)
        bets_made += 1
        raised_here += 1
        for other in self.live():
            if other != seat and other not in self.all_in:
                needs.add(other)
                # An all-in short of a full raise does not reopen the raising to those who acted.
                if full:
                    can_raise.add(other)
        can_raise.discard(seat)
        return amount, bets_made, raised_here

    def _limit_raise(
        self, seat: int, top: int, to_call: int, pot: int, raises: list[int], bets_made: int, players: int
    ) -> int | None:
        """The fixed-limit bet or raise (None: capped, or too short to make it: he calls)."""
        own, stack = self.bet[seat], self.stacks[seat]
        size = limit_bet_size(self.street, self.small_bet, self.big_bet)
        legal_to = limit_raise_to(
            self.street, self.small_bet, self.big_bet, bets_made=bets_made, players=players
        )
        ask = self.asked["legal"] < 2 and self.rng.random() < 0.35
        if legal_to is None:
            if ask:  # he tries to raise a capped round; the dealer stops him and he calls
                self._ask_legal(seat, top + size, top, to_call, pot, raises, bets_made, players)
            return None
        if own + stack < legal_to:
            return None
        if ask:
            attempt = legal_to
            if self.rng.random() < 0.5:
                attempt = legal_to + self.rng.choice((-1, 1)) * (size // 2)
            self._ask_legal(seat, attempt, top, to_call, pot, raises, bets_made, players)
        return legal_to

    def _pot_limit_raise(
        self, seat: int, top: int, to_call: int, pot: int, raises: list[int], bets_made: int, players: int
    ) -> int | None:
        """The pot-limit bet or raise: the least, the most ("pot!") or in between; None: he calls."""
        rng = self.rng
        own, stack = self.bet[seat], self.stacks[seat]
        least = no_limit_min_raise_to(raises, self.bb)
        most = own + pot_limit_max(pot, to_call, stack=stack)
        if most <= top:
            return None
        least = min(least, most)  # short of a full raise he may still go all-in
        if self.asked["max"] < 2 and rng.random() < 0.3:
            self.asked["max"] += 1
            self.ask(
                "om.pot_max",
                step("Seat {seat} says: pot! To how much may he raise?", seat=seat + 1),
                AMOUNT,
                {"pot": pot, "to_call": to_call, "own": own, "stack": stack},
                seat,
            )
            return most
        amount = rng.choice((least, most, max(least, (least + most) // 2 // 5 * 5)))
        if self.asked["legal"] < 2 and rng.random() < 0.3:
            attempt = amount
            if rng.random() < 0.5:
                over_pot = most < own + stack  # the pot, not his stack, limits him
                under = least - top > 5 and least < own + stack
                if over_pot and (rng.random() < 0.5 or not under):
                    attempt = most + 5 * rng.randint(1, max(1, (own + stack - most) // 5))
                elif under:
                    attempt = top + 5 * rng.randint(1, (least - top - 1) // 5)
            self._ask_legal(seat, attempt, top, to_call, pot, raises, bets_made, players)
            if attempt > most:
                return most
            if attempt < least and attempt != own + stack:
                return least
            return attempt
        return amount

    def _ask_legal(
        self,
        seat: int,
        attempt: int,
        top: int,
        to_call: int,
        pot: int,
        raises: list[int],
        bets_made: int,
        players: int,
    ) -> None:
        self.asked["legal"] += 1
        self.ask(
            "om.raise_legal",
            step("Seat {seat} raises to {amount}. Is the raise allowed?", seat=seat + 1, amount=attempt),
            ALLOWED,
            {
                "structure": self.structure,
                "street": self.street,
                "attempt": attempt,
                "own": self.bet[seat],
                "stack": self.stacks[seat],
                "pot": pot,
                "to_call": to_call,
                "raises": list(raises),
                "bb": self.bb,
                "small_bet": self.small_bet,
                "big_bet": self.big_bet,
                "bets_made": bets_made,
                "players": players,
                "rules": self.rules,
            },
            seat,
        )

    def next_street(self, street: str) -> None:
        self.middle += sum(self.bet)
        self.bet = [0] * self.n
        self.street = street
        self.last_aggressor = None

    # After the betting -----------------------------------------------------------------------------

    def engine_table(self) -> tuple[list[Any], list[int]]:
        """Holes (None when folded) and contributions as the engines take them: a dead blind is an
        extra folded seat's stake."""
        holes: list[Any] = [
            None if s in self.folded else [str(c) for c in self.holes[s]] for s in range(self.n)
        ]
        put = list(self.put)
        if self.dead:
            holes.append(None)
            put.append(self.dead)
        return holes, put

    def finish(self) -> dict[str, Any]:
        self.middle += sum(self.bet)
        self.bet = [0] * self.n
        holes, put = self.engine_table()
        folded = [s for s, h in enumerate(holes) if h is None]
        built = side_pots(put, folded)
        facts = {
            "board": [str(c) for c in self.board],
            "holes": holes,
            "put": put,
            "hi_lo": self.hi_lo,
            "button": self.button,
            "chip": self.chip,
        }
        for seat, amount in enumerate(built.returned):
            if amount and seat < self.n:
                self.ask(
                    "om.returned",
                    step(
                        "Nobody called all of seat {seat}'s last bet. How much goes back to him?",
                        seat=seat + 1,
                    ),
                    AMOUNT,
                    {**facts, "seat": seat},
                    seat,
                )
                self.stacks[seat] += amount
                self.middle -= amount
        live = self.live()
        if len(live) == 1:
            winner = live[0]
            self.ask(
                "om.uncontested",
                step("Everybody else has folded. What does seat {seat} collect?", seat=winner + 1),
                AMOUNT,
                {**facts, "seat": winner},
                winner,
            )
            return self.table(phase="over")
        self.street = "river"
        pots = [p for p in built.pots]
        if len(pots) > 1:
            labels = (
                Term(N_("Main pot")),
                *(step("Side pot {number}", number=i) for i in range(1, len(pots))),
            )
            self.ask(
                "om.side_pots",
                step("A player is all-in. What is in each pot?"),
                AnswerFormat(AnswerKind.AMOUNTS, labels=labels),
                {"put": put, "folded": folded},
                None,
            )
        # What each live seat put in, less what came back: all-in for less shows as a lower amount.
        contributions = [p - r for p, r in zip(put, built.returned, strict=True)][: self.n]
        showing = {
            "live": live,
            "button": self.button,
            "n": self.n,
            "aggressor": self.last_aggressor,
            "contributions": contributions,
            "rules": self.rules,
        }
        self.ask(
            "om.show_first", step("Showdown. Who shows his cards first?"), seat_choices(live), showing, None
        )
        order = _order(showing)[0]
        first, following = order[0], order[1]
        self.shown = {first, following}  # the hand shown, and the one whose turn it is
        self.ask(
            "om.muck",
            step(
                "At the showdown seats {shown} have shown their hands, in turn; seat {seat} is next. May he "
                "muck his hand without showing it?",
                shown=first + 1,
                seat=following + 1,
            ),
            AnswerFormat(AnswerKind.CHOICE, choices=MUCK_CHOICES),
            {**facts, **showing, "first": first, "asked": following},
            following,
        )
        self.shown = set(live)
        for number, pot in enumerate(pots):
            if len(pot.eligible) < 2:
                continue
            question = (
                step("The main pot is {amount}. What does each seat in it collect?", amount=pot.amount)
                if number == 0
                else step(
                    "Side pot {number} is {amount}. What does each seat in it collect?",
                    number=number,
                    amount=pot.amount,
                )
            )
            self.ask(
                "om.pot",
                question,
                AnswerFormat(AnswerKind.AMOUNTS, labels=tuple(seat_label(s) for s in pot.eligible)),
                {**facts, "pot": number},
                None,
            )
        return self.table(phase="over")


def deal_steps(
    rng: random.Random, level: int, seats: int, rules: str, chips: ChipSet, payout: str
) -> tuple[list[RoundStep], dict[str, Any]]:
    hand = _Betting(rng, level, seats, rules)
    hand.blinds()
    for number, street in enumerate(STREETS):
        if number:
            hand.next_street(street)
        hand.betting_round()
        if len(hand.live()) < 2:
            break
    end = hand.finish()
    return hand.steps, end


# Solvers: each recomputes its answer from the engines on the step's facts ----------------------------


def _solve_blind(data: dict[str, Any]) -> tuple[str, str, tuple[Step, ...]]:
    blinds, steps = explain_blinds(data["button"], data["stacks"], data["sb"], data["bb"])
    seat = blinds.small if data["blind"] == "small" else blinds.big
    return str(seat + 1), str(seat_label(seat)), from_one(steps[:3])


def _solve_returning(data: dict[str, Any]) -> tuple[dict[str, int], str, tuple[Step, ...]]:
    post, steps = explain_missed_blinds(data["missed"], data["sb"], data["bb"], data["rules"])
    return {"Live": post.live, "Dead": post.dead}, f"Live: {post.live}; Dead: {post.dead}", steps


def _solve_pot_size(data: dict[str, Any]) -> tuple[int, str, tuple[Step, ...]]:
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


def _solve_pot_max(data: dict[str, Any]) -> tuple[int, str, tuple[Step, ...]]:
    total, steps = explain_pot_limit(data["pot"], data["to_call"], data["own"], stack=data["stack"])
    return total, str(total), steps


def _solve_raise_legal(data: dict[str, Any]) -> tuple[str, str, tuple[Step, ...]]:
    attempt, own, stack = data["attempt"], data["own"], data["stack"]
    all_in = own + stack
    if data["structure"] == "limit":
        raise_to, steps = explain_limit(
            data["street"],
            data["small_bet"],
            data["big_bet"],
            bets_made=data["bets_made"],
            players=data["players"],
            rules=data["rules"],
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


def _ruling(data: dict[str, Any]) -> Any:
    return settle(
        data["board"],
        data["holes"],
        data["put"],
        hi_lo=data["hi_lo"],
        button=data["button"],
        chip=data["chip"],
    )


def _solve_returned(data: dict[str, Any]) -> tuple[int, str, tuple[Step, ...]]:
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


def _solve_uncontested(data: dict[str, Any]) -> tuple[int, str, tuple[Step, ...]]:
    ruling = _ruling(data)
    seat = data["seat"]
    won = ruling.payouts[seat] - ruling.returned[seat]
    return (
        won,
        str(won),
        (step("The last player left takes the pot without a showdown: {amount}.", amount=won),),
    )


def _solve_side_pots(data: dict[str, Any]) -> tuple[list[int], str, tuple[Step, ...]]:
    built = side_pots(data["put"], data["folded"])
    steps = [
        step(
            "Each pot takes from every seat up to the smallest all-in still in it; folded chips stay in "
            "the pots they reached."
        )
    ]
    for number, pot in enumerate(built.pots):
        seats = ", ".join(str(s + 1) for s in pot.eligible)
        steps.append(
            step("Main pot {amount}: seats {seats} may win it.", amount=pot.amount, seats=seats)
            if number == 0
            else step(
                "Side pot {number} {amount}: seats {seats} may win it.",
                number=number,
                amount=pot.amount,
                seats=seats,
            )
        )
    amounts = list(built.amounts)
    return amounts, "; ".join(str(a) for a in amounts), tuple(steps)


def _entry(data: dict[str, Any]) -> Any:
    seat = data["seat"]
    return new_player_entry(
        seat,
        button=data["button"],
        seats=[s != seat for s in range(data["n"])],
        big_blind=data["bb"],
        rules=data["rules"],
    )


def _solve_new_player(data: dict[str, Any]) -> tuple[str, str, tuple[Step, ...]]:
    ruling = _entry(data)
    may_post = load_rules(data["rules"]).new_player_may_post
    key = "post" if ruling.may_post_now else "wait_button" if may_post else "wait_big_blind"
    return key, str(dict(ENTRY_CHOICES)[key]), ruling.steps


def _order(data: dict[str, Any]) -> tuple[tuple[int, ...], tuple[Step, ...]]:
    return explain_order(
        data["live"],
        button=data["button"],
        seats=data["n"],
        last_aggressor=data["aggressor"],
        contributions=data["contributions"],
        rules=data["rules"],
    )


def _solve_show_first(data: dict[str, Any]) -> tuple[str, str, tuple[Step, ...]]:
    order, steps = _order(data)
    return str(order[0] + 1), str(seat_label(order[0])), steps


def _solve_muck(data: dict[str, Any]) -> tuple[str, str, tuple[Step, ...]]:
    first, asked = data["first"], data["asked"]
    # Only the first hand is shown when he must say: he is compared with that hand alone.
    ruling = muck_rulings(
        data["board"],
        data["holes"],
        (first, asked),
        contributions=data["put"],
        hi_lo=data["hi_lo"],
        rules=data["rules"],
    )[-1]
    key = "muck" if ruling.may_muck else "show"
    return key, str(dict(MUCK_CHOICES)[key]), ruling.steps


def _solve_pot(data: dict[str, Any]) -> tuple[dict[str, int], str, tuple[Step, ...]]:
    ruling = _ruling(data)
    result = ruling.pots[data["pot"]]
    shares = dict(result.shares)
    answer = {str(seat_label(s)): shares.get(s, 0) for s in result.pot.eligible}
    # The engine explains every pot in turn; keep this pot's part.
    starts = [i for i, s in enumerate(ruling.steps) if s.template.startswith(("Main pot", "Side pot"))]
    begin = starts[data["pot"]]
    end = starts[data["pot"] + 1] if data["pot"] + 1 < len(starts) else len(ruling.steps)
    text = "; ".join(f"{k}: {v}" for k, v in answer.items())
    return answer, text, from_one(ruling.steps[begin:end])


ROUNDS = GameRounds(
    game="omaha",
    version=VERSION,
    seats=range(4, 11),
    default_seats=default_seats,
    presets=PRESETS,
    default_rules="standard",
    deal_steps=deal_steps,
    seat_word=N_("Seats"),
    kinds={
        "om.small_blind": StepKind("om.small_blind", _solve_blind),
        "om.big_blind": StepKind("om.big_blind", _solve_blind),
        "om.returning": StepKind("om.returning", _solve_returning),
        "om.pot_size": StepKind("om.pot_size", _solve_pot_size),
        "om.pot_max": StepKind("om.pot_max", _solve_pot_max),
        "om.raise_legal": StepKind("om.raise_legal", _solve_raise_legal),
        "om.returned": StepKind("om.returned", _solve_returned),
        "om.uncontested": StepKind("om.uncontested", _solve_uncontested),
        "om.side_pots": StepKind("om.side_pots", _solve_side_pots),
        "om.new_player": StepKind("om.new_player", _solve_new_player),
        "om.show_first": StepKind("om.show_first", _solve_show_first),
        "om.muck": StepKind("om.muck", _solve_muck),
        "om.pot": StepKind("om.pot", _solve_pot),
    },
)
