"""The school's pace (`data/pace.toml`): for each drill kind the time a question should take, rated
two ways. The live class rates a right answer fast, on pace or slow against the kind's `target`;
today's practice reviews a right answer's card Easy, Good or Hard by its `easy` and `hard` bounds
(`trainer.store.practice.rating`).

>>> paces = Paces(default=KindPace(12, 6, 20), fast_share=0.6, kinds={"rp.bet_payout": KindPace(9, 6, 20)})
>>> paces.target_s("rp.bet_payout"), paces.target_s("om.high")
(9, 12)
>>> [paces.rate("rp.bet_payout", ms).value for ms in (5_000, 9_000, 9_001)]
['fast', 'on_pace', 'slow']
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

from trainer import shipped
from trainer.engine.presets import read_toml

PACE_FILE = shipped("data") / "pace.toml"


class Pace(StrEnum):
    FAST = "fast"
    ON_PACE = "on_pace"
    SLOW = "slow"


@dataclass(frozen=True)
class KindPace:
    """One kind's figures, in seconds: the live class's `target_s`; the bounds of today's practice,
    faster than `easy_s` is Easy, slower than `hard_s` is Hard."""

    target_s: float
    easy_s: float
    hard_s: float


@dataclass(frozen=True)
class Paces:
    """The figures per kind (`kinds`), else `default`; fast is within `fast_share` of the target."""

    default: KindPace
    fast_share: float
    kinds: dict[str, KindPace] = field(default_factory=dict)

    def of(self, kind: str) -> KindPace:
        return self.kinds.get(kind, self.default)

    def target_s(self, kind: str) -> float:
        return self.of(kind).target_s

    def overridden(self, targets: dict[str, float]) -> Paces:
        """These paces with some kinds' live targets replaced (a group's own); practice's bounds stay.

        >>> school = Paces(KindPace(12, 6, 20), 0.6, {"rp.bet_payout": KindPace(9, 6, 20)})
        >>> school.overridden({"rp.bet_payout": 6}).of("rp.bet_payout")
        KindPace(target_s=6, easy_s=6, hard_s=20)
        """
        if not targets:
            return self
        kinds = dict(self.kinds)
        for kind, seconds in targets.items():
            kinds[kind] = replace(self.of(kind), target_s=seconds)
        return Paces(self.default, self.fast_share, kinds)

    def rate(self, kind: str, time_ms: int) -> Pace:
        target_ms = self.target_s(kind) * 1000
        if time_ms <= target_ms * self.fast_share:
            return Pace.FAST
        return Pace.ON_PACE if time_ms <= target_ms else Pace.SLOW


_FIGURES = {"target": "target_s", "easy": "easy_s", "hard": "hard_s"}


def _kind_pace(raw: Any, base: dict[str, float] | None, where: str) -> KindPace:
    if not isinstance(raw, dict):
        raise ValueError(f"{where}: a table of {', '.join(_FIGURES)} (seconds)")
    unknown = sorted(set(raw) - set(_FIGURES))
    if unknown:
        raise ValueError(f"{where}: unknown key {unknown[0]!r}")
    figures = dict(base or {})
    for key, value in raw.items():
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 600:
            raise ValueError(f"{where}.{key}: seconds from above 0 to 600, not {value!r}")
        figures[key] = float(value)
    missing = [key for key in _FIGURES if key not in figures]
    if missing:
        raise ValueError(f"{where}: missing {missing[0]!r}")
    if figures["easy"] >= figures["hard"]:
        raise ValueError(f"{where}: easy must be below hard")
    return KindPace(figures["target"], figures["easy"], figures["hard"])


def load(path: Path = PACE_FILE) -> Paces:
    """The paces from a TOML file; ValueError naming the file for a missing or impossible figure."""
    data = read_toml(path)
    try:
        unknown = sorted(set(data) - {"fast_share", "default", "kinds"})
        if unknown:
            raise ValueError(f"unknown key {unknown[0]!r}")
        share = data["fast_share"]
        if isinstance(share, bool) or not isinstance(share, int | float) or not 0 < share < 1:
            raise ValueError(f"fast_share must be between 0 and 1, not {share!r}")
        default = _kind_pace(data["default"], None, "default")
        base = {"target": default.target_s, "easy": default.easy_s, "hard": default.hard_s}
        kinds = {str(k): _kind_pace(v, base, f"kinds.{k}") for k, v in data.get("kinds", {}).items()}
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"{path}: {error}") from error
    return Paces(default, float(share), kinds)


@functools.cache
def shipped_paces() -> Paces:
    """The paces of `data/pace.toml`, read once per process."""
    return load(PACE_FILE)
