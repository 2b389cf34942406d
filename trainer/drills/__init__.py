"""Drills: generators and graders on top of the rule engines (pure, no Flask).

Importing the package registers every game's drill kinds in `REGISTRY`; the names of the drill
contract (`trainer.drills.base`) are re-exported here.
"""

from __future__ import annotations

import importlib

from trainer.drills import base
from trainer.drills.base import *  # noqa: F403  (the contract, listed once in base.__all__)

GAME_PACKAGES = ("russian_poker", "omaha", "painted_poker")

for _name in GAME_PACKAGES:
    importlib.import_module(f"{__name__}.{_name}")

__all__ = ["GAME_PACKAGES", *base.__all__]
