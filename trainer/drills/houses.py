"""The house presets a drill call may deal and grade under, besides the shipped ones.

The engine keeps no list of house presets: an instructor's edited copy reaches it only through the
`HouseSource` its caller passes (the store reads them from the database). The drill contract's entry
points (`issue`, `grade`, `expected_of`, `mistakes_of`, `Situation.from_dict`, and the rounds' `deal`,
`solve_step`, `grade_step`) take that source as `houses=` and hold it for the length of the call;
the kinds' own functions (`generate(rng, level, rules)`, `solve(data)`) keep their signatures and
find it with `in_use()` when they load their rules (each game's `house_rules` / `rules_of`). Outside
such a call there is none: only the shipped presets load.

>>> from trainer.engine.presets import HouseTexts
>>> houses = HouseTexts.of("omaha", "house-0123456789ab", 'base = "standard"')
>>> in_use() is None
True
>>> with using(houses):
...     in_use() is houses
True
>>> in_use() is None
True
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from trainer.engine.presets import HouseSource

# Context-local (each thread and task has its own) and set only for the length of one call.
_IN_USE: ContextVar[HouseSource | None] = ContextVar("trainer_drills_houses", default=None)


@contextmanager
def using(houses: HouseSource | None) -> Iterator[None]:
    """Deal and grade under `houses` within the block; None keeps what an enclosing call holds."""
    if houses is None:
        yield
        return
    token = _IN_USE.set(houses)
    try:
        yield
    finally:
        _IN_USE.reset(token)


def in_use() -> HouseSource | None:
    """The house presets of the call in progress, or None (the shipped presets only)."""
    return _IN_USE.get()
