"""Russian poker drills: settlements, qualification, buys, bonus, house rules (`kinds`), the buy
decision (`decision`) and two combinations, insurance and boxes (`house`); `deals` draws the hands
they ask about."""

# Import order is registration order: the catalog lists kinds before decision.
# isort: off
from trainer.drills.russian_poker import kinds
from trainer.drills.russian_poker import decision
from trainer.drills.russian_poker import mistakes
from trainer.drills.russian_poker import house
from trainer.drills.russian_poker import spot
from trainer.drills.russian_poker import chips
from trainer.drills.russian_poker import own
# isort: on

__all__ = ["chips", "decision", "house", "kinds", "mistakes", "own", "spot"]
