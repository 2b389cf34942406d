"""The school's pace: a target time per question for each drill kind (`data/pace.toml`), and an
answer's time rated against it: fast, on pace or slow.

>>> paces = Paces(default_s=12, fast_share=0.6, kinds={"rp.bet_payout": 9})
>>> paces.target_s("rp.bet_payout"), paces.target_s("om.high")
(9, 12)
>>> [paces.rate("rp.bet_payout", ms).value for ms in (5_000, 9_000, 9_001)]
['fast', 'on_pace', 'slow']
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from trainer import shipped
from trainer.engine.presets import read_toml

PACE_FILE = shipped("data") / "pace.toml"


class Pace(StrEnum):
    FAST = "fast"
    ON_PACE = "on_pace"
    SLOW = "slow"


@dataclass(frozen=True)
class Paces:
    """The target seconds per kind (`kinds`), else `default_s`; fast is within `fast_share` of it."""

    default_s: float
    fast_share: float
    kinds: dict[str, float] = field(default_factory=dict)

    def target_s(self, kind: str) -> float:
        return self.kinds.get(kind, self.default_s)

    def overridden(self, kinds: dict[str, float]) -> Paces:
        """These paces with some kinds' targets replaced (a group's own).

        >>> Paces(12, 0.6, {"rp.bet_payout": 9}).overridden({"rp.bet_payout": 6}).target_s("rp.bet_payout")
        6
        """
        return Paces(self.default_s, self.fast_share, {**self.kinds, **kinds}) if kinds else self

    def rate(self, kind: str, time_ms: int) -> Pace:
        target_ms = self.target_s(kind) * 1000
        if time_ms <= target_ms * self.fast_share:
            return Pace.FAST
        return Pace.ON_PACE if time_ms <= target_ms else Pace.SLOW


def load(path: Path = PACE_FILE) -> Paces:
    """The paces from a TOML file; ValueError naming the file for a missing or impossible figure."""
    data = read_toml(path)
    try:
        default = float(data["default_seconds"])
        share = float(data["fast_share"])
        kinds = {str(k): float(v) for k, v in data.get("kinds", {}).items()}
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"{path}: {error}") from error
    if default <= 0 or not 0 < share < 1 or any(v <= 0 for v in kinds.values()):
        raise ValueError(f"{path}: targets must be positive and fast_share between 0 and 1")
    return Paces(default, share, kinds)


@functools.cache
def shipped_paces() -> Paces:
    """The paces of `data/pace.toml`, read once per process."""
    return load(PACE_FILE)
