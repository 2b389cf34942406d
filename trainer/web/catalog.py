"""The games and drill kinds as the pages show them: translated names, grouped by game."""

from __future__ import annotations

from typing import Any

from flask import abort
from flask_babel import gettext
from flask_babel import lazy_gettext as _l

from trainer.drills import REGISTRY, DrillKind

# Display order and names of the games; a game id from the drills that is not listed still shows.
GAMES: dict[str, Any] = {
    "russian_poker": _l("Russian poker"),
    "omaha": _l("Omaha"),
    "painted_poker": _l("Painted poker"),
    "decision": _l("Buy decisions"),
}


def game_title(game: str) -> str:
    title = GAMES.get(game)
    return str(title) if title is not None else gettext(game)


def kind_title(kind: DrillKind | str) -> str:
    kind = kind if isinstance(kind, DrillKind) else REGISTRY.get(kind) or kind
    return gettext(kind.title) if isinstance(kind, DrillKind) else str(kind)


def games_with_kinds() -> list[dict[str, Any]]:
    """[{id, title, kinds: [DrillKind]}] in display order, only games that have drills."""
    by_game: dict[str, list[DrillKind]] = {}
    for kind in REGISTRY.values():
        by_game.setdefault(kind.game, []).append(kind)
    order = [g for g in GAMES if g in by_game] + sorted(g for g in by_game if g not in GAMES)
    return [{"id": g, "title": game_title(g), "kinds": by_game[g]} for g in order]


def kind_or_404(kind_id: str) -> DrillKind:
    kind = REGISTRY.get(kind_id)
    if kind is None:
        abort(404, description=gettext("There is no drill %(kind)s.", kind=kind_id))
    return kind


def level_or_400(kind: DrillKind, raw: Any) -> int:
    try:
        level = int(raw if raw is not None else kind.levels[0])
    except (TypeError, ValueError):
        level = -1
    if level not in kind.levels:
        abort(
            400,
            description=gettext(
                "Choose a level from %(first)s to %(last)s.", first=kind.levels[0], last=kind.levels[-1]
            ),
        )
    return level
