"""Generated situations an instructor picks from a preview to keep in a quiz.

The quiz form shows a few situations of a drill kind and level, each drawn from a seed the server
drew (`secrets`), with a token that carries the seed signed with the app's secret for this group and
this instructor. The form posts back the tokens of the ones he keeps; only a token that reads back
for the same group and instructor is kept, so a tampered form cannot choose its own seeds, and a
token shown to one instructor (or for one group) does not work in another's quiz. A picked situation
is kept by its seed and drawn again from it when a trainee sits the quiz, under the group's house
rules of that day, like every drawn question.
"""

from __future__ import annotations

import secrets
from typing import Any

from flask import current_app
from itsdangerous import BadSignature, URLSafeSerializer

from trainer.drills import REGISTRY

PREVIEW_COUNT = 3
PICKS_MAX = 50
Pick = tuple[str, int, int]  # kind, level, seed


def _serializer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.secret_key or "", salt="trainer-quiz-pick")


def token(group_id: int, user_id: int, pick: Pick) -> str:
    kind, level, seed = pick
    return str(_serializer().dumps([group_id, user_id, kind, level, seed]))


def read(text: str, group_id: int, user_id: int) -> Pick | None:
    """The pick a token carries, or None when it was not made for this group and instructor (or
    names a drill kind and level the catalog no longer has)."""
    try:
        group, user, kind, level, seed = _serializer().loads(text)
    except (BadSignature, ValueError, TypeError):
        return None
    if group != group_id or user != user_id or kind not in REGISTRY or level not in REGISTRY[kind].levels:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int):
        return None
    return kind, level, seed


def read_all(texts: list[str], group_id: int, user_id: int) -> tuple[list[Pick], bool]:
    """The picks of the posted tokens (once each, in order) and whether any token was refused."""
    picks: list[Pick] = []
    refused = False
    for text in texts:
        pick = read(text, group_id, user_id)
        if pick is None:
            refused = True
        elif pick not in picks:
            picks.append(pick)
    return picks, refused


def fresh(kind: str, level: int, count: int = PREVIEW_COUNT) -> list[Pick]:
    """`count` new picks of the kind and level, their seeds drawn by the server."""
    return [(kind, level, secrets.randbelow(2**31)) for _ in range(count)]


def shown(picks: list[Pick], draw: Any, group_id: int, user_id: int) -> list[dict[str, Any]]:
    """Each pick as the form shows it: the situation `draw(kind, level, seed)` gives and its token."""
    out = []
    for pick in picks:
        situation = draw(*pick)[0]
        out.append(
            {
                "situation": situation,
                "kind": REGISTRY[pick[0]],
                "token": token(group_id, user_id, pick),
                "pick": pick,
            }
        )
    return out
