"""Chip handling at the table (`trainer.drills.chip_skills`),
in the standard chip set (`data/chips/standard.toml`: Russian poker houses name no other).

Kinds: `rp.chip_change` (a buy-in or a payout in the fewest chips), `rp.colour_up` (a leaving
player's small chips coloured up), `rp.chip_count` (stacks drawn by colour: their total), `rp.pay_box`
(a winning box's bet, an `rp.bet_payout` situation, paid from the float in the fewest chips)."""

from __future__ import annotations

import random

from trainer.drills import chip_skills as skills
from trainer.drills.base import Data, DealError, Solution, attach_mistakes, define, get_kind, prompt
from trainer.drills.chips import DEFAULT_CHIPS, ChipSet, load_chips
from trainer.drills.mistakes import Mistake
from trainer.drills.russian_poker.deals import house_rules
from trainer.engine.explain import N_, Cards, step
from trainer.games import RUSSIAN_POKER

GAME = RUSSIAN_POKER.id


def _chips(rules: str | None) -> ChipSet:
    house_rules(rules)  # a name that is no Russian poker house is refused, as by every rp. kind
    return load_chips(DEFAULT_CHIPS)


skills.define_chip_kinds(GAME, "rp", _chips)


def _gen_pay_box(rng: random.Random, level: int, rules: str | None) -> Data:
    base, chips = get_kind("rp.bet_payout"), _chips(rules)
    for _ in range(30):
        data = base.generate(rng, level, rules)
        win = base.solve(data)[0]
        if win > 0 and chips.payable(win):  # an odd ante's win the chips cannot pay: deal again
            data |= {"chip_set": chips.name, "folded": False}
            cards = {
                "ante": data["ante"],
                "player": Cards.of(data["player"]),
                "dealer": Cards.of(data["dealer"]),
            }
            if data.get("exchanges"):
                said = step(
                    "Ante {ante}. After an exchange the player holds {player}; the dealer has {dealer}.",
                    **cards,
                )
            else:
                said = step("Ante {ante}. The player holds {player}; the dealer has {dealer}.", **cards)
            pay = step(
                "The player's hand is higher. Pay the bet from the float: how many chips of each colour?"
            )
            return prompt(data, said, pay)
    raise DealError("no box whose win these chips pay")


def _solve_pay_box(data: Data) -> Solution:
    win, _text, steps = get_kind("rp.bet_payout").solve(data)
    counts = skills.chip_set(data).fewest(win)
    return counts, skills.chips_text(counts), (*steps, skills.chip_set(data).fewest_step(win))


def _mistakes_pay_box(data: Data) -> list[Mistake]:
    base = get_kind("rp.bet_payout")
    win = base.solve(data)[0]
    return skills.pay_in_chips(skills.chip_set(data), win, list(base.mistakes(data) if base.mistakes else ()))


define(GAME, "rp.pay_box", N_("Pay the box in chips"), _gen_pay_box, skills.counts_format, _solve_pay_box)
attach_mistakes("rp.pay_box", _mistakes_pay_box)
