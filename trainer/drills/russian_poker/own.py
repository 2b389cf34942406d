"""Own questions: a Russian poker hand an instructor enters (the player's five cards, the dealer's
five, the ante) made into a `rp.settle` situation, checked by the engine as it is entered and graded
by it like a drawn one (the same kind, answer format and solution).

>>> situation = own_settle("As Ks Qs Js 9s", "2c 2d 7h 8s Kc", 25, "cis")
>>> situation.kind, situation.data["player"], situation.data["ante"]
('rp.settle', ['As', 'Ks', 'Qs', 'Js', '9s'], 25)
>>> own_settle("As Ks Qs Js 9s", "As 2d 7h 8s Kc", 25, "cis")
Traceback (most recent call last):
...
trainer.drills.own.OwnQuestionError: repeated
"""

from __future__ import annotations

import json
from typing import Any

from trainer.drills.base import Situation, get_kind, prompt
from trainer.drills.houses import using
from trainer.drills.own import OwnKind, OwnQuestionError, cards_of, register_own, whole_in
from trainer.drills.russian_poker.deals import house_rules, names
from trainer.drills.russian_poker.kinds import _holds, _stakes, settle_data
from trainer.engine.cards import parse_cards
from trainer.engine.explain import Cards, step
from trainer.engine.presets import HouseSource

KIND = "rp.settle"
LEVEL = 1
ANTE_MAX = 100_000
# Reasons of `OwnQuestionError` here: "cards" (not cards), "count" (not five and five), "repeated" (a
# card in both hands or twice), "ante" (not a whole number from 1 to `ANTE_MAX`), "impossible" (the
# engine cannot settle it).


def fixed_of(player: Any, dealer: Any, ante: Any) -> dict[str, Any]:
    """The question as an exam keeps it: the two hands (card codes) and the ante, checked."""
    mine, his = cards_of(player), cards_of(dealer)
    if len(mine) != 5 or len(his) != 5:
        raise OwnQuestionError("count")
    if len({*mine, *his}) != 10:
        raise OwnQuestionError("repeated")
    if not whole_in(ante, 1, ANTE_MAX):
        raise OwnQuestionError("ante")
    return {"player": names(mine), "dealer": names(his), "ante": ante}


def own_settle(
    player: Any, dealer: Any, ante: Any, rules_name: str | None, *, houses: HouseSource | None = None
) -> Situation:
    """The situation of an own question under the house rules `rules_name` (None: the default; a
    house preset that `houses` holds)."""
    with using(houses):
        return _situation(fixed_of(player, dealer, ante), rules_name)


def _situation(fixed: dict[str, Any], rules_name: str | None) -> Situation:
    rules = house_rules(rules_name)
    data: dict[str, Any] = {"rules": rules.name, **fixed, "folded": False, "own": True}
    try:
        settle_data(data)
    except (ValueError, IndexError):
        raise OwnQuestionError("impossible") from None
    prompt(
        data,
        _stakes(data),
        _holds(data, parse_cards(fixed["player"])),
        step("The dealer opens {dealer}.", dealer=Cards.of(fixed["dealer"])),
        step("What is the result on each spot and the net (a loss as a negative amount)?"),
    )
    data = json.loads(json.dumps(data))
    kind = get_kind(KIND)
    return Situation(kind.id, LEVEL, 0, kind.version, rules_name, data, kind.answer_format(data))


register_own(
    OwnKind(
        KIND,
        LEVEL,
        lambda facts: fixed_of(facts.get("player"), facts.get("dealer"), facts.get("ante")),
        _situation,
    )
)
