"""Migration m012 of the progress database, run in the order of `MIGRATIONS` in `__init__.py`."""

from __future__ import annotations

import json

from sqlite_utils import Database


def m012_sprint_questions(db: Database) -> None:
    """A sprint's questions live on the server: how many it asks (`sprints.questions`) and the drill
    kinds it asks in turn (`sprints.kinds`, JSON), and each question's place in it (`drills.position`,
    unique per sprint, so two requests cannot both add the same question); a skipped question is
    closed (`answered` = 1) with `skipped_at` and no attempt. Sprints from before keep their number
    of questions (from the scope "<what>/<N>") and the kinds they asked."""
    db.execute("ALTER TABLE sprints ADD COLUMN questions INTEGER")
    db.execute("ALTER TABLE sprints ADD COLUMN kinds TEXT")
    db.execute("ALTER TABLE drills ADD COLUMN position INTEGER")
    db.execute("ALTER TABLE drills ADD COLUMN skipped_at TEXT")
    for row in list(db.query("SELECT id, scope FROM sprints")):
        what, _, n = str(row["scope"]).rpartition("/")
        asked = [
            r["kind"]
            for r in db.query(
                "SELECT kind FROM drills WHERE sprint_id = ? GROUP BY kind ORDER BY min(id)", [row["id"]]
            )
        ]
        db.execute(
            "UPDATE sprints SET questions = ?, kinds = ? WHERE id = ?",
            [int(n) if n.isdigit() else None, json.dumps(asked or [what or row["scope"]]), row["id"]],
        )
    db.execute(
        """UPDATE drills SET position = (SELECT count(*) FROM drills e
                                         WHERE e.sprint_id = drills.sprint_id AND e.id < drills.id)
           WHERE sprint_id IS NOT NULL"""
    )
    db.execute("CREATE UNIQUE INDEX drills_sprint_position ON drills (sprint_id, position)")
    # Readiness counts a practice question passed over (a newer one of its kind drawn): found by this.
    db.execute("CREATE INDEX drills_trainee_kind ON drills (trainee_id, kind, id)")
