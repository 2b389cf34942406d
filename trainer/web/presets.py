"""House-rules presets for the reference pages, read only through the one loader
(`trainer.engine.presets`): every preset is checked by its game before it is shown.

The engines own the meaning of every value; the pages show the merged files side by side and mark
where they differ.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from trainer.engine import presets as loader
from trainer.engine.omaha import betting as omaha_rules
from trainer.engine.painted_poker import rules as painted_rules
from trainer.engine.russian_poker import rules as russian_rules

_FOLDERS: dict[str, tuple[loader.PresetFolder, Callable[[str], Any]]] = {
    module.PRESETS.game: (module.PRESETS, module.load_rules)
    for module in (russian_rules, omaha_rules, painted_rules)
}


def games() -> list[str]:
    """The games with house-rules presets, by their folder names ("russian-poker")."""
    return list(_FOLDERS)


def _folder(game: str) -> tuple[loader.PresetFolder, Callable[[str], Any]]:
    if game not in _FOLDERS:
        raise KeyError(f"no house-rules presets for {game!r}")
    return _FOLDERS[game]


def names(game: str) -> tuple[str, ...]:
    """Preset names of a game, the default first."""
    return _folder(game)[0].names()


def load(game: str, name: str) -> dict[str, Any]:
    """The preset's table with its `base` chain merged (the named file wins), checked by its game."""
    folder, load_rules = _folder(game)
    load_rules(name)
    return folder.table(folder.path(name))


def side_by_side(game: str) -> dict[str, Any]:
    """The game's presets and rows, every leaf of the files a row (see `loader.side_by_side`)."""
    folder, load_rules = _folder(game)
    return loader.side_by_side(folder, load_rules)


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
    return words
