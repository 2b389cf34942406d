"""Explanation steps: short sentences that say why a ruling is what it is.

A step keeps its English template and its parameters apart, so the web layer can translate the
template (it is the message id) and the parameters that are words (categories, actions), while the
engine and the tests read the plain English sentence with `str(step)`.

>>> step = Step("Bet {bet} pays {odds} to 1 = {win}.", {"bet": 20, "odds": 2, "win": 40})
>>> str(step)
'Bet 20 pays 2 to 1 = 40.'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True, slots=True)
class Step:
    """One explanation sentence: `template` uses `str.format` fields filled from `params`."""

    template: str
    params: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def __str__(self) -> str:
        return self.template.format(**self.params)

    def to_json(self) -> dict[str, Any]:
        return {"template": self.template, "params": dict(self.params), "text": str(self)}


def step(template: str, **params: Any) -> Step:
    """Shorthand: `step("Ante {ante} returned.", ante=10)`."""
    return Step(template, MappingProxyType(params))
