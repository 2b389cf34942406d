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

from contextvars import ContextVar, Token

from trainer.engine.presets import HouseSource

# Context-local (each thread and task has its own) and set only for the length of one call.
_IN_USE: ContextVar[HouseSource | None] = ContextVar("trainer_drills_houses", default=None)


class using:  # a context manager used as a function: `with using(houses):`
    """Deal and grade under `houses` within the block; None keeps what an enclosing call holds. (A
    class rather than a generator: an answer's path enters it several times.)"""

    __slots__ = ("_houses", "_token")

    def __init__(self, houses: HouseSource | None) -> None:
        self._houses = houses
        self._token: Token[HouseSource | None] | None = None

    def __enter__(self) -> None:
        if self._houses is not None:
            self._token = _IN_USE.set(self._houses)

    def __exit__(self, *exc: object) -> None:
        if self._token is not None:
            _IN_USE.reset(self._token)
            self._token = None


def in_use() -> HouseSource | None:
    """The house presets of the call in progress, or None (the shipped presets only)."""
    return _IN_USE.get()
