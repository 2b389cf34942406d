"""Drills: generators and graders on top of the rule engines (pure, no Flask).

Importing the package imports every registered game's drills package (`trainer.games`), which
registers its drill kinds in `REGISTRY`; the names of the drill contract (`trainer.drills.base`) are
re-exported here.
"""

from __future__ import annotations

import importlib

from trainer.drills import base
from trainer.drills.base import *  # noqa: F403  (the contract, listed once in base.__all__)
from trainer.games import GAMES

for _game in GAMES:
    importlib.import_module(_game.drills)

__all__ = base.__all__
