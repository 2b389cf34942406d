"""Typical mistakes: the answer a trainee gives who makes exactly one known error of a ruling.

Each game's `mistakes` module keeps a catalogue per drill kind: a function of the situation's data
that asks the engines for the ruling with one thing done wrong (the stake counted in the net, the
ante paid although the dealer has a game, the high half only, the odd chip to the wrong seat, a missed
bid scored as made...) and returns one `Mistake` per error that applies: its type (a stable id and a
short title), the answer it leads to, and a sentence naming it with the one step that differs, with
this situation's numbers. The catalogue is registered with the kind (`DrillKind.mistakes`); grading a
wrong answer (`trainer.drills.grade`) names the first mistake in catalogue order whose answer it is,
and never a mistake whose answer is right.

>>> from trainer.engine.explain import step
>>> doubled = mistake_type("doc.doubled", "The amount doubled")
>>> m = Mistake(doubled, 40, step("You doubled {amount}.", amount=20))
>>> m.id, str(m.text)
('doc.doubled', 'You doubled 20.')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from trainer.engine.explain import Step


@dataclass(frozen=True)
class MistakeType:
    """One entry of a catalogue: a stable `id` (recorded with attempts) and a short English `title`
    (a message id) that names it without a situation's numbers, for progress and reports."""

    id: str
    title: str


TYPES: dict[str, MistakeType] = {}


def mistake_type(type_id: str, title: str) -> MistakeType:
    """Declare a mistake type once; its id must stay stable (attempts keep it)."""
    known = TYPES.get(type_id)
    if known is not None and known.title != title:
        raise ValueError(f"mistake type {type_id!r} is declared twice with different titles")
    TYPES[type_id] = known or MistakeType(type_id, title)
    return TYPES[type_id]


def mistake_title(type_id: str) -> str:
    """The title of a recorded mistake id (the id itself for one no catalogue declares any more)."""
    known = TYPES.get(type_id)
    return known.title if known is not None else type_id


@dataclass(frozen=True)
class Mistake:
    """A mistake in one situation: its type, the answer it leads to (as the kind's `solve` gives
    answers) and `text`, one sentence naming it with the step that differs."""

    type: MistakeType
    answer: Any
    text: Step

    @property
    def id(self) -> str:
        return self.type.id


Catalogue = Callable[[dict[str, Any]], Iterable[Mistake]]

__all__ = ["TYPES", "Catalogue", "Mistake", "MistakeType", "mistake_title", "mistake_type"]
