"""House-rules presets for display: read from `data/rules/<game>/*.toml`, a preset's `base` merged in.

The engines own the meaning of every value; this module only flattens the files so the reference page
can set presets side by side and mark where they differ.
"""

from __future__ import annotations

import re
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any

from trainer.engine.presets import merge_tables

RULES_DIR = Path(__file__).resolve().parents[2] / "data" / "rules"
_META = ("title", "source", "base", "not_applied")


def games() -> list[str]:
    return sorted(p.name for p in RULES_DIR.iterdir() if p.is_dir() and any(p.glob("*.toml")))


@lru_cache(maxsize=64)
def load(game: str, name: str) -> dict[str, Any]:
    """The preset with its `base` chain merged (the named file wins)."""
    path = RULES_DIR / game / f"{name}.toml"
    if not path.is_file():
        raise KeyError(f"no house-rules preset {game}/{name}")
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    base = data.get("base")
    if isinstance(base, str) and base != name:
        return merge_tables(load(game, base), data)
    return data


def names(game: str) -> list[str]:
    """Preset names of a game, the default (a preset without `base`) first."""
    found = sorted(p.stem for p in (RULES_DIR / game).glob("*.toml"))
    return sorted(found, key=lambda n: ("base" in _raw(game, n), n))


@lru_cache(maxsize=64)
def _raw(game: str, name: str) -> dict[str, Any]:
    with (RULES_DIR / game / f"{name}.toml").open("rb") as handle:
        return tomllib.load(handle)


def flatten(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """{"bet.odds.flush": 5, ...}: every leaf under a dotted key, meta fields left out."""
    flat: dict[str, Any] = {}
    for key, value in data.items():
        if not prefix and key in _META:
            continue
        dotted = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            flat.update(flatten(value, dotted + "."))
        else:
            flat[dotted] = value
    return flat


def side_by_side(game: str) -> tuple[list[dict[str, Any]], list[tuple[str, list[Any], bool]]]:
    """The presets' titles and rows (key, value per preset, whether they differ)."""
    presets = [{"name": n, **load(game, n)} for n in names(game)]
    flats = [flatten(p) for p in presets]
    keys: list[str] = []
    for flat in flats:
        keys.extend(k for k in flat if k not in keys)
    rows = []
    for key in keys:
        values = [flat.get(key) for flat in flats]
        rows.append((key, values, len({repr(v) for v in values}) > 1))
    return presets, rows


_WORD_VALUE = re.compile(r"[a-z][a-z_\-]*")


def key_words(game: str) -> set[str]:
    """The parts of the presets' dotted keys ("bet", "odds", "flush") and their word values
    ("highest", "ante_paid"): each is shown translated. Preset names are names, not words."""
    found, rows = side_by_side(game)
    words = {part for key, _values, _differ in rows for part in key.split(".")}
    words.update(str(p.get("title") or p["name"]) for p in found)  # the column headings
    for _key, values, _differ in rows:
        for value in values:
            for item in value if isinstance(value, list | tuple) else [value]:
                if isinstance(item, str) and _WORD_VALUE.fullmatch(item) and item not in names(game):
                    words.add(item)
    return words
