"""Migration m002 of the progress database, run in the order of `MIGRATIONS` in `__init__.py`."""

from __future__ import annotations

from sqlite_utils import Database


def m002_attempt_mistakes(db: Database) -> None:
    """The mistake a wrong answer matched (a catalogue id, `trainer.drills.mistakes`) and, for a
    choice question, the wrong choice made; counted per trainee for progress and the desk."""
    db.execute("ALTER TABLE attempts ADD COLUMN mistake TEXT")
    db.execute("ALTER TABLE attempts ADD COLUMN wrong_choice TEXT")
    db.execute("CREATE INDEX attempts_trainee_mistake ON attempts (trainee_id, mistake)")
