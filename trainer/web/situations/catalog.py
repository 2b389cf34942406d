"""The games and drill kinds as the pages show them: translated names, grouped by game."""

from __future__ import annotations

import contextlib
from typing import Any

from flask import abort
from flask_babel import gettext

from trainer import games
from trainer.drills import REGISTRY, DrillKind
from trainer.engine.presets import HouseSource


def game_title(game: str) -> str:
    """The translated title of a registered game; any other game id (a test's toy kinds) as is."""
    known = games.get(game)
    return gettext(known.title) if known is not None else gettext(game)


def kind_title(kind: DrillKind | str) -> str:
    kind = kind if isinstance(kind, DrillKind) else REGISTRY.get(kind) or kind
    return gettext(kind.title) if isinstance(kind, DrillKind) else str(kind)


def sprint_title(what: str) -> str:
    """What a sprint drilled, for a heading or a table of bests: a drill kind's title with its game,
    or for a mixed sprint (its scope names a game) the game's drills mixed."""
    kind = REGISTRY.get(what)
    if kind is not None and games.get(kind.game) is not None:
        return gettext("%(drill)s (%(game)s)", drill=kind_title(kind), game=game_title(kind.game))
    if kind is not None or games.get(what) is None:
        return kind_title(what)
    return gettext("%(game)s: all drills mixed", game=game_title(what))


def mixed_kinds(game: str, level: int) -> list[DrillKind]:
    """The drills a mixed sprint of this game at this level draws from, in the game's order."""
    known = games.get(game)
    kinds = [REGISTRY[k] for k in known.kinds if k in REGISTRY] if known is not None else []
    return [kind for kind in kinds if level in kind.levels]


def games_with_kinds() -> list[dict[str, Any]]:
    """[{id, title, kinds: [DrillKind]}]: the registered games in their order, each game's kinds in
    the registry's order; only games that have drills (kinds of no registered game come last)."""
    by_game = {game.id: [REGISTRY[k] for k in game.kinds if k in REGISTRY] for game in games.GAMES}
    others: dict[str, list[DrillKind]] = {}
    for kind in REGISTRY.values():
        if games.get(kind.game) is None:
            others.setdefault(kind.game, []).append(kind)
    by_game |= dict(sorted(others.items()))
    return [{"id": g, "title": game_title(g), "kinds": kinds} for g, kinds in by_game.items() if kinds]


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
        abort(400, description=level_refusal(kind))
    return level


def level_refusal(kind: DrillKind) -> str:
    """What a level outside the kind's levels is told (a link's `?level=` or a form's field)."""
    return gettext("Choose a level from %(first)s to %(last)s.", first=kind.levels[0], last=kind.levels[-1])


def rules_in_force(
    kind_id: str, rules: str | None = None, houses: HouseSource | None = None
) -> dict[str, Any] | None:
    """The house rules a drill of this kind is played under: the game's slug (for the presets page),
    the preset's name and its title (translated where shown); None for a kind of no registered game.
    `houses` holds the instructors' edited copies (`db.houses()`), whose titles are read from it."""
    game = games.game_of(kind_id)
    if game is None:
        return None
    name = rules or game.default_preset
    title = name  # a preset removed since the drill was recorded: its name still says which it was
    with contextlib.suppress(OSError, ValueError):
        title = getattr(game.load_rules(name, houses), "title", None) or name
    return {"slug": game.slug, "name": name, "title": title}
