"""Chip handling at the table (`trainer.drills.chip_skills`),
in the house's chip set (`chip_set` in the Omaha house rules: `poker-room` by default).

Kinds: `om.chip_change` (a buy-in or a payout in the fewest chips), `om.colour_up` (a leaving
player's small chips coloured up), `om.chip_count` (stacks drawn by colour: their total)."""

from __future__ import annotations

from trainer.drills import chip_skills as skills
from trainer.drills.chips import ChipSet, load_chips
from trainer.drills.omaha.deals import house_rules
from trainer.games import OMAHA

GAME = OMAHA.id


def _chips(rules: str | None) -> ChipSet:
    return load_chips(house_rules(rules).chip_set)


skills.define_chip_kinds(GAME, "om", _chips)
