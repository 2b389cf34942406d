"""Migration m024 of the progress database, run in the order of `MIGRATIONS` in `__init__.py`."""

from __future__ import annotations

from sqlite_utils import Database

# `attempts_trainee_kind_time` orders a trainee's answers of a kind by these (the row id last): a
# total order by time, which the median's pointer (m024) moves along, and the pointer's columns.
_TIME_ORDER = ("time_ms", "correct", "mode", "answered_at", "id")
_LOW = ("low_ms", "low_correct", "low_mode", "low_at", "low_id")


def _time_key(row: str, columns: tuple[str, ...] = _TIME_ORDER) -> str:
    return "(" + ", ".join(f"{row}.{column}" for column in columns) + ")"


def _kind_median(row: str, written: bool | None) -> str:
    """The statements that keep `kind_totals`' median time of the trainee's answers of the kind
    after `row` (NEW or OLD) was written (`written`), or after the row was counted again from the
    answers (`written` None: the pointer found by offset, as rarely as answers are removed or
    changed). The row keeps its lower middle answer (`_LOW`: its place in `_TIME_ORDER`) and
    moves it by one answer, a seek along the index, when an answer comes: a trainee's 2,000th
    answer of a kind costs what his first did, where reading the middle by offset read half of
    them. The pointer is kept as the index's columns, not only the answer's id, so that the seek
    is a range of the index even where many answers took the same time."""
    this = f"kind_totals.trainee_id = {row}.trainee_id AND kind_totals.kind = {row}.kind"
    among = f"a.trainee_id = {row}.trainee_id AND a.kind = {row}.kind"
    low = _time_key("kind_totals", _LOW)
    up = ", ".join(f"a.{column}" for column in _TIME_ORDER)
    down = ", ".join(f"a.{column} DESC" for column in _TIME_ORDER)
    pointer = "(" + ", ".join(_LOW) + ")"

    def next_of(direction: str, order: str, columns: str) -> str:
        return (
            f"(SELECT {columns} FROM attempts a WHERE {among} AND {_time_key('a')} {direction} {low} "
            f"ORDER BY {order} LIMIT 1)"
        )

    if written is None:
        moves = f"""
        UPDATE kind_totals SET {pointer} = (
            SELECT {up} FROM attempts a WHERE {among} ORDER BY {up} LIMIT 1 OFFSET (
              (SELECT k.attempts FROM kind_totals k WHERE k.trainee_id = {row}.trainee_id
               AND k.kind = {row}.kind) - 1) / 2)
            WHERE {this};"""
    else:  # the new answer is among them; `attempts` counts it
        moves = f"""
        UPDATE kind_totals SET {pointer} = {next_of("<", down, up)}
            WHERE {this} AND attempts % 2 = 0 AND {_time_key(row)} < {low};
        UPDATE kind_totals SET {pointer} = {next_of(">", up, up)}
            WHERE {this} AND attempts > 1 AND attempts % 2 = 1 AND {_time_key(row)} > {low};"""
    return f"""{moves}
        UPDATE kind_totals SET median_ms = CASE WHEN attempts % 2 = 1 THEN low_ms
                                                ELSE (low_ms + {next_of(">", up, "a.time_ms")}) / 2.0 END
            WHERE {this};"""


def _recount_kind_total(row: str) -> str:
    """`_refresh_kind_total` with the median's pointer (m024)."""
    return f"""
        DELETE FROM kind_totals WHERE trainee_id = {row}.trainee_id AND kind = {row}.kind;
        INSERT INTO kind_totals (trainee_id, kind, attempts, correct, first_at, last_at)
            SELECT trainee_id, kind, count(*), sum(correct), min(answered_at), max(answered_at)
            FROM attempts WHERE trainee_id = {row}.trainee_id AND kind = {row}.kind
            GROUP BY trainee_id, kind;
        {_kind_median(row, None)}"""


def m024_kind_median_pointer(db: Database) -> None:
    """`kind_totals` keeps its median time by a pointer to the lower middle answer (`_LOW`),
    moved by one answer as each is written, instead of reading the middle by offset along the
    index at every answer (half the trainee's answers of the kind: the answer's cost grew with
    them). The pointers of the totals there are found here.

    And the table is made again WITHOUT ROWID, its rows in the order of its key (trainee, kind):
    the desk reads a member's rows together (a row per member and kind: 7,200 at 200 members)
    rather than one look-up in the table per entry of its key's index, and an answer writes one
    b-tree of it, not two."""
    for name in ("kind_totals_answer", "kind_totals_removed", "kind_totals_changed"):
        db.execute(f"DROP TRIGGER {name}")
    db.execute(
        """CREATE TABLE kind_totals_keyed (
             trainee_id INTEGER NOT NULL,
             kind TEXT NOT NULL,
             attempts INTEGER NOT NULL,
             correct INTEGER NOT NULL,
             first_at TEXT NOT NULL,
             last_at TEXT NOT NULL,
             median_ms REAL,
             low_ms INTEGER,
             low_correct INTEGER,
             low_mode TEXT,
             low_at TEXT,
             low_id INTEGER,
             PRIMARY KEY (trainee_id, kind)
           ) STRICT, WITHOUT ROWID"""
    )
    kept = "trainee_id, kind, attempts, correct, first_at, last_at, median_ms"
    db.execute(f"INSERT INTO kind_totals_keyed ({kept}) SELECT {kept} FROM kind_totals")
    db.execute("DROP TABLE kind_totals")
    db.execute("ALTER TABLE kind_totals_keyed RENAME TO kind_totals")
    new_low = ", ".join(f"NEW.{column}" for column in _TIME_ORDER)
    db.execute(
        f"""CREATE TRIGGER kind_totals_answer AFTER INSERT ON attempts BEGIN
              INSERT INTO kind_totals
                  (trainee_id, kind, attempts, correct, first_at, last_at, {", ".join(_LOW)})
                VALUES (NEW.trainee_id, NEW.kind, 1, NEW.correct, NEW.answered_at, NEW.answered_at, {new_low})
                ON CONFLICT (trainee_id, kind) DO UPDATE SET
                  attempts = attempts + 1,
                  correct = correct + excluded.correct,
                  first_at = min(first_at, excluded.first_at),
                  last_at = max(last_at, excluded.last_at);
              {_kind_median("NEW", True)}
            END"""
    )
    db.execute(
        f"""CREATE TRIGGER kind_totals_removed AFTER DELETE ON attempts BEGIN
              {_recount_kind_total("OLD")}
            END"""
    )
    db.execute(
        f"""CREATE TRIGGER kind_totals_changed
              AFTER UPDATE OF trainee_id, kind, correct, time_ms, answered_at, mode ON attempts BEGIN
              {_recount_kind_total("OLD")}
              {_recount_kind_total("NEW")}
            END"""
    )
    up = ", ".join(f"a.{column}" for column in _TIME_ORDER)
    db.execute(
        f"""UPDATE kind_totals SET ({", ".join(_LOW)}) = (m.time_ms, m.correct, m.mode, m.answered_at, m.id)
            FROM (SELECT {up}, a.trainee_id, a.kind,
                         row_number() OVER (PARTITION BY a.trainee_id, a.kind ORDER BY {up}) AS r,
                         count(*) OVER (PARTITION BY a.trainee_id, a.kind) AS n
                  FROM attempts a) m
            WHERE m.trainee_id = kind_totals.trainee_id AND m.kind = kind_totals.kind
              AND m.r = (m.n + 1) / 2"""
    )
