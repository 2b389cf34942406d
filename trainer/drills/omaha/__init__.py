"""Omaha drills: best hands, lows, pots and splits (`kinds`) and bet sizes and blinds (`bets`);
`deals` draws the tables they ask about."""

# Import order is registration order: the catalog lists kinds before bets.
# isort: off
from trainer.drills.omaha import kinds
from trainer.drills.omaha import bets
# isort: on

__all__ = ["bets", "kinds"]
