"""Own questions: situations an instructor enters (cards, chips, stakes) rather than draws, each
checked by the engine as it is entered and graded like a drawn situation of its drill kind.

A game's own-question module registers its kind here with `register_own`: how to check the
question's facts as a client hands them (`check`, returning what a quiz keeps) and how to make the
situation from the kept facts under a house-rules preset (`situation`). Today: `rp.settle`
(`trainer.drills.russian_poker.own`) and `om.side_pots` (`trainer.drills.omaha.own`).

>>> from trainer.drills import own
>>> sorted(own.OWN_KINDS)
['om.side_pots', 'rp.settle']
>>> own.cards_of("A♠, 10h")
[Card('As'), Card('Th')]
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from trainer.drills.base import DrillError, Situation
from trainer.drills.houses import using
from trainer.engine.cards import Card, parse_cards
from trainer.engine.presets import HouseSource


class OwnQuestionError(DrillError):
    """An own question the engine refuses; `reason` names why, for the page to say it in its
    language (each game's module lists its reasons)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class OwnKind:
    """How a drill kind takes own questions: `check(facts)` the kept facts (or `OwnQuestionError`),
    `situation(kept, rules_name)` the situation, at `level`, graded by the kind's own solver."""

    kind: str
    level: int
    check: Callable[[dict[str, Any]], dict[str, Any]]
    situation: Callable[[dict[str, Any], str | None], Situation]


OWN_KINDS: dict[str, OwnKind] = {}


def register_own(own: OwnKind) -> OwnKind:
    OWN_KINDS[own.kind] = own
    return own


def own_kind(kind: Any) -> OwnKind:
    found = OWN_KINDS.get(kind) if isinstance(kind, str) else None
    if found is None:
        raise OwnQuestionError("kind")
    return found


def checked(kind: Any, facts: Any) -> dict[str, Any]:
    """The facts of an own question of `kind` as a quiz keeps them, checked by the engine."""
    if not isinstance(facts, dict):
        raise OwnQuestionError("shape")
    return own_kind(kind).check(facts)


def own_situation(
    kind: str, facts: dict[str, Any], rules_name: str | None, *, houses: HouseSource | None = None
) -> Situation:
    """The situation of a checked own question under `rules_name` (a preset `houses` may hold)."""
    own = own_kind(kind)
    with using(houses):
        return own.situation(own.check(facts), rules_name)


def cards_of(text: Any) -> list[Card]:
    """The cards as typed ("As Ks", "A♠, 10♥" or a list of codes), token by token, so a card named
    twice is said to be named twice rather than not to be a card."""
    tokens = (
        text
        if isinstance(text, list)
        else re.split(r"[\s,]+", text.strip())
        if isinstance(text, str)
        else None
    )
    if not tokens or tokens == [""]:
        raise OwnQuestionError("cards")
    try:
        return [card for token in tokens for card in parse_cards([str(token)])]
    except (ValueError, TypeError):
        raise OwnQuestionError("cards") from None


def whole_in(value: Any, low: int, high: int) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and low <= value <= high
