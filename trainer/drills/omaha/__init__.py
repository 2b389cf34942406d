"""Omaha drills: best hands, lows, pots and splits (`kinds`), bet sizes and blinds (`bets`), a new
player's entry and the showdown order (`showdowns`); the typical mistakes of the amount kinds
(`mistakes`); `deals` draws the tables they ask about."""

# Import order is registration order: the catalog lists kinds before bets.
# isort: off
from trainer.drills.omaha import kinds
from trainer.drills.omaha import bets
from trainer.drills.omaha import showdowns
from trainer.drills.omaha import mistakes
from trainer.drills.omaha import spot
from trainer.drills.omaha import chips
from trainer.drills.omaha import own
# isort: on

__all__ = ["bets", "chips", "kinds", "mistakes", "own", "showdowns", "spot"]
