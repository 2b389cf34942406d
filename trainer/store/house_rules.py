"""Instructors' edited house rules as the engine reads them: straight from the database.

An edited copy of a preset is kept in the `house_rules` table (its TOML text, named `house-<digest>`
by `house_name`). `StoredHouses` is the engine's `HouseSource` over one database: the drills, the
rounds and the reference pages are handed it and read the text from it when a preset of that name
is asked for. Nothing is written to files, and the process keeps no list of them: another database
(another app in the same process) has its own.

>>> from trainer.store.schema import open_db
>>> db = open_db(":memory:")
>>> houses = StoredHouses(db)
>>> houses.house_text("omaha", "house-0123456789ab") is None
True
"""

from __future__ import annotations

import hashlib

from sqlite_utils import Database

from trainer.games import BY_SLUG


def house_name(text: str) -> str:
    """`house-` and the first 12 hex digits of the text's SHA-256: the same text, the same name."""
    return "house-" + hashlib.sha256(text.encode()).hexdigest()[:12]


class StoredHouses:
    """The house presets kept in one database, by the game's rules folder name and preset name."""

    def __init__(self, db: Database) -> None:
        self.db = db
        # Only found texts are kept: a name always has the same text (it is the text's digest), and
        # a name not found yet may be saved by the next request.
        self._found: dict[tuple[str, str], str] = {}

    def house_text(self, game: str, name: str) -> str | None:
        key = (game, name)
        if key in self._found:
            return self._found[key]
        found = BY_SLUG.get(game)
        if found is None or not isinstance(name, str):
            return None
        rows = self.db.execute(
            "SELECT text FROM house_rules WHERE game = ? AND name = ?", [found.id, name]
        ).fetchall()
        if not rows:
            return None
        self._found[key] = str(rows[0][0])
        return self._found[key]
