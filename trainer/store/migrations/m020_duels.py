"""Migration m020 of the progress database, run in the order of `MIGRATIONS` in `__init__.py`."""

from __future__ import annotations

from sqlite_utils import Database


def m020_duels(db: Database) -> None:
    """Duels: a trainee challenges a groupmate to a sprint of one drill kind and level; both sprints
    ask the duel's `seeds` in turn under its `rules` (so the same situations), each side's sprint is
    linked once (unique), and neither may start after `expires_at`. A sprint keeps the seeds and rules
    it asks (`sprints.seeds`, `sprints.rules`; NULL: drawn at random under the trainee's rules)."""
    db.execute("ALTER TABLE sprints ADD COLUMN seeds TEXT")
    db.execute("ALTER TABLE sprints ADD COLUMN rules TEXT")
    db.execute(
        """CREATE TABLE duels (
             id INTEGER PRIMARY KEY,
             group_id INTEGER NOT NULL REFERENCES groups(id),
             challenger_id INTEGER NOT NULL REFERENCES users(id),
             opponent_id INTEGER NOT NULL REFERENCES users(id),
             kind TEXT NOT NULL,
             level INTEGER NOT NULL,
             questions INTEGER NOT NULL,
             duration_s INTEGER NOT NULL,
             seeds TEXT NOT NULL,
             rules TEXT,
             created_at TEXT NOT NULL,
             expires_at TEXT NOT NULL,
             challenger_sprint_id INTEGER UNIQUE REFERENCES sprints(id),
             opponent_sprint_id INTEGER UNIQUE REFERENCES sprints(id),
             CHECK (challenger_id != opponent_id)
           ) STRICT"""
    )
    db.execute("CREATE INDEX duels_challenger ON duels (challenger_id, created_at)")
    db.execute("CREATE INDEX duels_opponent ON duels (opponent_id, created_at)")
