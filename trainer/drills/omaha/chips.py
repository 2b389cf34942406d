"""Chip handling at the table (`trainer.drills.chip_skills`),
in the house's chip set (`chip_set` in the Omaha house rules: `poker-room` by default).

Kinds: `om.chip_change` (a buy-in or a payout in the fewest chips), `om.colour_up` (a leaving
player's small chips coloured up), `om.chip_count` (stacks drawn by colour: their total)."""

from __future__ import annotations

import random

from trainer.drills import chip_skills as skills
from trainer.drills.base import Data, attach_mistakes, define, prompt
from trainer.drills.chips import ChipSet, load_chips
from trainer.drills.omaha.deals import house_rules
from trainer.engine.explain import N_
from trainer.games import OMAHA

GAME = OMAHA.id


def _chips(rules: str | None) -> ChipSet:
    return load_chips(house_rules(rules).chip_set)


def _gen_change(rng: random.Random, level: int, rules: str | None) -> Data:
    data, said = skills.gen_change(rng, level, _chips(rules))
    return prompt(data, said)


def _gen_colour_up(rng: random.Random, level: int, rules: str | None) -> Data:
    data, said = skills.gen_colour_up(rng, level, _chips(rules))
    return prompt(data, *skills.stacks_said(data), said)


def _gen_count(rng: random.Random, level: int, rules: str | None) -> Data:
    data, said = skills.gen_count(rng, level, _chips(rules))
    return prompt(data, *skills.stacks_said(data), said)


define(
    GAME,
    "om.chip_change",
    N_("Change in the fewest chips"),
    _gen_change,
    skills.counts_format,
    skills.solve_change,
)
define(GAME, "om.colour_up", N_("Colour up"), _gen_colour_up, skills.counts_format, skills.solve_colour_up)
define(GAME, "om.chip_count", N_("Count the stacks"), _gen_count, lambda d: skills.AMOUNT, skills.solve_count)
attach_mistakes("om.chip_change", skills.mistakes_change)
attach_mistakes("om.colour_up", skills.mistakes_colour_up)
attach_mistakes("om.chip_count", skills.mistakes_count)
