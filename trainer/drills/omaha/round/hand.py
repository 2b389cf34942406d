"""The Omaha hand at the live table while it is dealt and bet: stacks, bets, board, the log, the
table as the dealer sees it, and the steps asked so far (seats from 0 inside, from 1 on the table)."""

from __future__ import annotations

import random
from typing import Any

from trainer.drills.answers import AnswerFormat, AnswerKind, seat_label
from trainer.drills.houses import in_use
from trainer.drills.rounds import RoundStep
from trainer.engine.cards import Deck
from trainer.engine.evaluator import best_omaha_hand
from trainer.engine.explain import N_, Step, Term
from trainer.engine.omaha.betting import load_rules

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


def seat_choices(seats: list[int]) -> AnswerFormat:
    return AnswerFormat(AnswerKind.CHOICE, choices=tuple((str(s + 1), seat_label(s)) for s in seats))


class Hand:
    """The hand while it is dealt and bet: stacks, bets, the board, the log, and the steps asked.
    The dealer's rulings are asked by `blinds`, `betting` and `showdown`, in that order."""

    def __init__(self, rng: random.Random, level: int, seats: int, rules: str) -> None:
        self.rng, self.level, self.n = rng, level, seats
        self.rules = rules  # the preset's name, as the steps record it
        self.house = load_rules(rules, in_use())  # its rules, for the engine (a house copy too)
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
        phase = "showdown" if kind in ("om.show_first", "om.pot", "om.payout") else "betting"
        # Chips pushed to a seat are paid out by the dealer: more than the share gives chips away (the
        # round's "chips from mistakes" read 0 after 108,800 paid for 60).
        money = "pay" if kind == "om.payout" else ""
        self.steps.append(RoundStep(kind, question, fmt, self.table(focus, phase), data, money))

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

    def next_street(self, street: str) -> None:
        self.middle += sum(self.bet)
        self.bet = [0] * self.n
        self.street = street
        self.last_aggressor = None

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
