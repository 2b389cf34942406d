"""`rp.spot_mistake`: boxes the simulated dealer has settled, each shown with its net; zero, one or
two nets wrong by a catalogued mistake (`trainer.drills.russian_poker.mistakes`). See
`trainer.drills.spot`.

Level 1: two boxes, one wrong; level 2: three boxes, none or one wrong; level 3: four boxes of the
level-3 settlements (buys, bonus, six cards), none, one or two wrong."""

from __future__ import annotations

import random

from trainer.drills.answers import AnswerFormat
from trainer.drills.base import Data
from trainer.drills.spot import Plan, draw_sheet, spot_kind
from trainer.engine.explain import N_
from trainer.games import RUSSIAN_POKER


def _net(fmt: AnswerFormat) -> tuple[int, ...]:
    return (fmt.labels.index("Net"),)


PLANS = {
    1: Plan(("rp.settle",) * 2, 1, {1: 1}),
    2: Plan(("rp.settle",) * 3, 2, {0: 1, 1: 3}),
    3: Plan(("rp.settle",) * 4, 3, {0: 1, 1: 2, 2: 2}),
}
PICKS = {"rp.settle": _net}


def _generate(rng: random.Random, level: int, rules: str | None) -> Data:
    return draw_sheet(PLANS[level], rng, rules)


KIND = spot_kind(RUSSIAN_POKER.id, "rp.spot_mistake", N_("Spot the dealer's mistake"), _generate, PICKS)
