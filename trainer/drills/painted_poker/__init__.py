"""Painted poker drills: deal scores, the schedule, the forbidden bid (`kinds`), trick winners and
score sheets (`play`), the typical mistakes of the scores and the hook (`mistakes`); `common` holds
what they share."""

# Import order is registration order: the catalog lists kinds before play.
# isort: off
from trainer.drills.painted_poker import kinds
from trainer.drills.painted_poker import play
from trainer.drills.painted_poker import mistakes
from trainer.drills.painted_poker import spot
# isort: on

__all__ = ["kinds", "mistakes", "play", "spot"]
