"""Russian poker drills: settlements, qualification, buys, bonus, house rules (`kinds`) and the buy
decision (`decision`); `deals` draws the hands they ask about."""

# Import order is registration order: the catalog lists kinds before decision.
# isort: off
from trainer.drills.russian_poker import kinds
from trainer.drills.russian_poker import decision
from trainer.drills.russian_poker import mistakes
# isort: on

__all__ = ["decision", "kinds", "mistakes"]
