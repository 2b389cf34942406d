"""Migration m003 of the progress database, run in the order of `MIGRATIONS` in `__init__.py`."""

from __future__ import annotations

from sqlite_utils import Database


def m003_practice_cards(db: Database) -> None:
    """One FSRS card per trainee, drill kind and level (`trainer.store.practice`), reviewed by every
    answer: its state, step, stability (days), difficulty, when it is due, the last review, how many
    reviews and wrong answers, and when it was first answered (new cards are counted per day)."""
    db.create_table(
        "cards",
        {
            "id": int,
            "trainee_id": int,
            "kind": str,
            "level": int,
            "state": int,
            "step": int,
            "stability": float,
            "difficulty": float,
            "due": str,
            "last_review": str,
            "reviews": int,
            "lapses": int,
            "created_at": str,
        },
        pk="id",
        foreign_keys=[("trainee_id", "trainees", "id")],
        not_null=["trainee_id", "kind", "level", "state", "due", "reviews", "lapses", "created_at"],
        strict=True,
    )
    db.execute("CREATE UNIQUE INDEX cards_trainee_kind_level ON cards (trainee_id, kind, level)")
    db.execute("CREATE INDEX cards_trainee_due ON cards (trainee_id, due)")
