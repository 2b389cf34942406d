"""Migration m022 of the progress database, run in the order of `MIGRATIONS` in `__init__.py`."""

from __future__ import annotations

from sqlite_utils import Database


def _refresh_kind_total(row: str) -> str:
    """The statements of a trigger that count one trainee's answers of one kind again from
    `attempts` (`row` is NEW or OLD: the trainee and kind of the answer written or removed)."""
    return f"""
        DELETE FROM kind_totals WHERE trainee_id = {row}.trainee_id AND kind = {row}.kind;
        INSERT INTO kind_totals (trainee_id, kind, attempts, correct, first_at, last_at)
            SELECT trainee_id, kind, count(*), sum(correct), min(answered_at), max(answered_at)
            FROM attempts WHERE trainee_id = {row}.trainee_id AND kind = {row}.kind
            GROUP BY trainee_id, kind;
        {_median_update(row)}"""


def _median_update(row: str) -> str:
    """An UPDATE setting the median time of the trainee's answers of the kind: the middle one of
    `attempts_trainee_kind_time` (or the mean of the two middle ones), read by offset along it."""
    this = f"trainee_id = {row}.trainee_id AND kind = {row}.kind"
    count = f"(SELECT attempts FROM kind_totals WHERE {this})"
    return f"""UPDATE kind_totals SET median_ms = (
            SELECT avg(time_ms) FROM (
                SELECT time_ms FROM attempts WHERE {this} ORDER BY time_ms
                LIMIT 2 - {count} % 2 OFFSET ({count} - 1) / 2))
        WHERE {this};"""


def m022_kind_totals(db: Database) -> None:
    """Per trainee and drill kind, his answers' count, right ones, first and last time and median
    time (`kind_totals`), kept by triggers on `attempts` in the statement that writes an answer (so
    in its transaction, whichever code or tool writes it): the instructor's desk reads a row per
    member and kind instead of every answer (`Groups.report`). Filled here from the answers there
    are. And an index of the drills readiness counts as not right (skipped, or left open), so the
    desk's readiness does not read every drill of its members."""
    db.execute(
        """CREATE TABLE kind_totals (
             trainee_id INTEGER NOT NULL,
             kind TEXT NOT NULL,
             attempts INTEGER NOT NULL,
             correct INTEGER NOT NULL,
             first_at TEXT NOT NULL,
             last_at TEXT NOT NULL,
             median_ms REAL,
             PRIMARY KEY (trainee_id, kind)
           ) STRICT"""
    )
    db.execute(
        f"""CREATE TRIGGER kind_totals_answer AFTER INSERT ON attempts BEGIN
              INSERT INTO kind_totals (trainee_id, kind, attempts, correct, first_at, last_at)
                VALUES (NEW.trainee_id, NEW.kind, 1, NEW.correct, NEW.answered_at, NEW.answered_at)
                ON CONFLICT (trainee_id, kind) DO UPDATE SET
                  attempts = attempts + 1,
                  correct = correct + excluded.correct,
                  first_at = min(first_at, excluded.first_at),
                  last_at = max(last_at, excluded.last_at);
              {_median_update("NEW")}
            END"""
    )
    db.execute(
        f"""CREATE TRIGGER kind_totals_removed AFTER DELETE ON attempts BEGIN
              {_refresh_kind_total("OLD")}
            END"""
    )
    db.execute(
        f"""CREATE TRIGGER kind_totals_changed
              AFTER UPDATE OF trainee_id, kind, correct, time_ms, answered_at ON attempts BEGIN
              {_refresh_kind_total("OLD")}
              {_refresh_kind_total("NEW")}
            END"""
    )
    # The medians of the answers there are in one pass along the index (trainee, kind, time).
    db.execute(
        """INSERT INTO kind_totals (trainee_id, kind, attempts, correct, first_at, last_at, median_ms)
           SELECT t.trainee_id, t.kind, t.n, t.right, t.first_at, t.last_at, m.median_ms
           FROM (SELECT trainee_id, kind, count(*) AS n, sum(correct) AS right,
                        min(answered_at) AS first_at, max(answered_at) AS last_at
                 FROM attempts GROUP BY trainee_id, kind) t
           JOIN (SELECT trainee_id, kind, avg(time_ms) AS median_ms
                 FROM (SELECT trainee_id, kind, time_ms,
                              row_number() OVER (PARTITION BY trainee_id, kind ORDER BY time_ms) AS r,
                              count(*) OVER (PARTITION BY trainee_id, kind) AS n
                       FROM attempts)
                 WHERE r IN ((n + 1) / 2, (n + 2) / 2) GROUP BY trainee_id, kind) m
             ON m.trainee_id = t.trainee_id AND m.kind = t.kind"""
    )
    db.execute(
        "CREATE INDEX drills_not_answered ON drills (trainee_id, kind, level) "
        "WHERE skipped_at IS NOT NULL OR answered = 0"
    )
