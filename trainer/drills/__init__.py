"""Drills: generators and graders on top of the rule engines (pure, no Flask).

Importing the package registers every game's drill kinds in `REGISTRY`. A game module that has not
been written yet is skipped (looked up with `find_spec`); a module that exists but fails to import
raises, so a broken drill module is never silently missing.
"""

from __future__ import annotations

import importlib
import importlib.util

from trainer.drills.base import (
    REGISTRY,
    AnswerError,
    AnswerFormat,
    AnswerKind,
    DrillError,
    DrillKind,
    Grade,
    LevelError,
    UnknownKindError,
    card_list,
    expected_of,
    get_kind,
    grade,
    issue,
    parse_amount,
    parse_answer,
    register,
)

GAME_MODULES = ("russian_poker", "omaha", "painted_poker", "decision")

for _name in GAME_MODULES:
    if importlib.util.find_spec(f"{__name__}.{_name}") is not None:
        importlib.import_module(f"{__name__}.{_name}")

__all__ = [
    "GAME_MODULES",
    "REGISTRY",
    "AnswerError",
    "AnswerFormat",
    "AnswerKind",
    "DrillError",
    "DrillKind",
    "Grade",
    "LevelError",
    "UnknownKindError",
    "card_list",
    "expected_of",
    "get_kind",
    "grade",
    "issue",
    "parse_amount",
    "parse_answer",
    "register",
]
