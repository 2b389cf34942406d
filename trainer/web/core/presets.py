"""House-rules presets for the reference pages, read only through the one loader
(`trainer.engine.presets`): every preset is checked by its game before it is shown.

The engines own the meaning of every value; the pages show the merged files side by side and mark
where they differ.
"""

from __future__ import annotations

import re
from typing import Any

from trainer import games as registry
from trainer.engine import presets as loader
from trainer.games import Game


def games() -> list[str]:
    """The games with house-rules presets, by their slugs ("russian-poker")."""
    return [game.slug for game in registry.GAMES]


def _game(slug: str) -> Game:
    game = registry.BY_SLUG.get(slug)
    if game is None:
        raise KeyError(f"no house-rules presets for {slug!r}")
    return game


def names(game: str) -> tuple[str, ...]:
    """Preset names of a game, the default first."""
    return _game(game).preset_names()


def load(game: str, name: str, houses: loader.HouseSource | None = None) -> dict[str, Any]:
    """The preset's table with its `base` chain merged (the named file wins), checked by its game;
    `houses` holds the instructors' edited copies, if one may be named."""
    found = _game(game)
    found.load_rules(name, houses)
    return found.presets.table_of(name, houses)


def side_by_side(
    game: str, extra: tuple[str, ...] = (), houses: loader.HouseSource | None = None
) -> dict[str, Any]:
    """The game's presets and rows, every leaf of the files a row (see `loader.side_by_side`); `extra`
    adds house presets of the game that `houses` holds (a group's edited copy) as columns."""
    found = _game(game)

    def load_rules(name: str) -> Any:
        return found.load_rules(name, houses)

    return loader.side_by_side(found.presets, load_rules, extra=extra, houses=houses)


_WORD_VALUE = re.compile(r"[a-z][a-z_\-]*")


def key_words(game: str) -> set[str]:
    """The parts of the presets' dotted keys ("bet", "odds", "flush") and their word values
    ("highest", "ante_paid"): each is shown translated. Preset names are names, not words."""
    table = side_by_side(game)
    preset_names = set(names(game))
    words = {part for row in table["rows"] for part in row["key"].split(".")}
    words.update(str(p["title"] or p["name"]) for p in table["presets"])  # the column headings
    for row in table["rows"]:
        for value in row["values"].values():
            for item in value if isinstance(value, list | tuple) else [value]:
                if isinstance(item, str) and _WORD_VALUE.fullmatch(item) and item not in preset_names:
                    words.add(item)
    # Every value a choice may take, used by a shipped file or not: the rules form offers them all.
    found = _game(game)
    reader = loader.SchemaReader("words", found.presets.table_of(found.default_preset))
    found.build(found.default_preset, reader)
    for _key, convert, _required in reader.read:
        if isinstance(convert, loader.Choice):
            words.update(convert.values)
    return words
