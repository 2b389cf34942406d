"""The drills' one error hierarchy: every refusal a drill makes is a `DrillError` whose message says
why, in a sentence for the trainee or the API client.

- `UnknownKindError`: no drill kind has this id (404 on the web).
- `LevelError`, `RulesError`: the kind has no such level, or cannot be drawn under these house rules
  (an unknown preset, a table without the bet asked about): 400.
- `AnswerError`: the answer cannot be read; nothing is graded, the question stays open (422 in the
  API, the form again on the pages).
- `DealError`: a generator found no cards for the branch it picked; generators deal again (`retry`),
  and only a kind that never finds one lets it out.

Any other exception from a generator or a solver is a bug, not a refusal.
"""

from __future__ import annotations

from typing import Any

from trainer.engine.explain import Step


class DrillError(ValueError):
    """A drill cannot be issued or graded as asked (the message says why)."""


class UnknownKindError(DrillError, LookupError):
    """No drill kind has this id."""


class LevelError(DrillError):
    """The kind has no such level."""


class RulesError(DrillError):
    """The house rules asked for cannot be used for this kind."""


class AnswerError(DrillError):
    """The answer cannot be read; the message is meant for the trainee. Raised with a `Step`, the
    sentence is kept as a message (`said`) that the pages write in the trainee's language; `str()` is
    the English sentence (the API's)."""

    def __init__(self, message: Any = "", *args: Any) -> None:
        super().__init__(str(message), *args)
        self.said: Step | None = message if isinstance(message, Step) else None


class DealError(DrillError):
    """No cards could be found for the branch asked for (the generator deals again)."""
