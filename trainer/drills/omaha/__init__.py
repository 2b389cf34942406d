"""Omaha drills: best hands, lows, pots and splits (`kinds`) and bet sizes and blinds (`bets`); the
typical mistakes of the amount kinds (`mistakes`);
`deals` draws the tables they ask about."""

# Import order is registration order: the catalog lists kinds before bets.
# isort: off
from trainer.drills.omaha import kinds
from trainer.drills.omaha import bets
from trainer.drills.omaha import mistakes
# isort: on

__all__ = ["bets", "kinds", "mistakes"]
