"""`pp.spot_mistake`: scores the simulated scorer has written on the sheet; zero, one or two wrong by
a catalogued mistake (a missed bid scored as made, a penalty written as a plus, the multiplier
forgotten ...: `trainer.drills.painted_poker.mistakes`). See `trainer.drills.spot`.

Level 1: three deal scores, one wrong; level 2: four, none or one wrong; level 3: three deal scores
and a sheet's running total, none, one or two wrong."""

from __future__ import annotations

import random

from trainer.drills.base import Data
from trainer.drills.spot import Plan, draw_sheet, spot_kind
from trainer.engine.explain import N_
from trainer.games import PAINTED_POKER

PLANS = {
    1: Plan(("pp.score",) * 3, 1, {1: 1}),
    2: Plan(("pp.score",) * 4, 2, {0: 1, 1: 3}),
    3: Plan(("pp.score", "pp.score", "pp.score", "pp.sheet"), 3, {0: 1, 1: 2, 2: 2}),
}
PICKS = {"pp.score": None, "pp.sheet": None}


def _generate(rng: random.Random, level: int, rules: str | None) -> Data:
    return draw_sheet(PLANS[level], rng, rules)


KIND = spot_kind(PAINTED_POKER.id, "pp.spot_mistake", N_("Spot the scorer's mistake"), _generate, PICKS)
