"""Migration m025 of the progress database, run in the order of `MIGRATIONS` in `__init__.py`."""

from __future__ import annotations

from sqlite_utils import Database


def m025_group_answers_by_game(db: Database) -> None:
    """`group_answers_recent` holds a member's answers of each game together (by the kinds' game
    prefix, `trainer.store.readiness.GAME_PREFIX`), newest last: the desk's readiness reads the
    newest answers of one game of a member without stepping over his answers in the others (at
    200 members, a third of the index entries it read)."""
    db.execute("DROP INDEX group_answers_recent")
    db.execute(
        "CREATE INDEX group_answers_recent ON group_answers (group_id, trainee_id, "
        "substr(kind, 1, instr(kind, '.')), answered_at, drill_id, kind, level, correct, time_ms)"
    )
