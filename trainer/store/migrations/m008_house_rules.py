"""Migration m008 of the progress database, run in the order of `MIGRATIONS` in `__init__.py`."""

from __future__ import annotations

from sqlite_utils import Database


def m008_house_rules(db: Database) -> None:
    """Instructors' own house rules: an edited copy of a preset, kept as its TOML text under a name
    made from the text's digest (`house-<12 hex digits>`), so a name always means the same rules."""
    db.create_table(
        "house_rules",
        {"id": int, "game": str, "name": str, "text": str, "made_by": int, "created_at": str},
        pk="id",
        foreign_keys=[("made_by", "users", "id")],
        not_null=["game", "name", "text", "created_at"],
        strict=True,
    )
    db.execute("CREATE UNIQUE INDEX house_rules_name ON house_rules (game, name)")
