"""`om.spot_mistake`: showdowns the simulated dealer has split, each shown with what every seat
collects; zero, one or two splits wrong by a catalogued mistake (the high half only, the odd chip to
the wrong seat, a side pot to a player not in it ...: `trainer.drills.omaha.mistakes`). See
`trainer.drills.spot`.

Level 1: one split pot, wrong; level 2: two split pots, none or one wrong; level 3: two showdowns
with side pots, none, one or two wrong."""

from __future__ import annotations

import random

from trainer.drills.answers import AnswerFormat
from trainer.drills.base import Data
from trainer.drills.spot import Plan, draw_sheet, spot_kind
from trainer.engine.explain import N_
from trainer.games import OMAHA


def _seats(fmt: AnswerFormat) -> tuple[int, ...]:
    return tuple(i for i, label in enumerate(fmt.labels) if label.startswith("Seat "))


PLANS = {
    1: Plan(("om.split",), 1, {1: 1}),
    2: Plan(("om.split",) * 2, 2, {0: 1, 1: 3}),
    3: Plan(("om.side_pots",) * 2, 3, {0: 1, 1: 2, 2: 2}),
}
PICKS = {"om.split": None, "om.side_pots": _seats}


def _generate(rng: random.Random, level: int, rules: str | None) -> Data:
    return draw_sheet(PLANS[level], rng, rules)


KIND = spot_kind(OMAHA.id, "om.spot_mistake", N_("Spot the dealer's mistake"), _generate, PICKS)
