"""Migration m023 of the progress database, run in the order of `MIGRATIONS` in `__init__.py`."""

from __future__ import annotations

from sqlite_utils import Database

_ITEM = ("group_id", "kind", "level", "mode")  # a row of the desk's item analysis


_KIND = ("group_id", "kind")  # a row of the report's item analysis


def _same(keys: tuple[str, ...], left: str, right: str) -> str:
    return " AND ".join(f"{left}.{key} = {right}.{key}" for key in keys)


def _median_pointer(table: str, keys: tuple[str, ...], row: str, written: bool) -> str:
    """The statements that keep `table`'s median of `time_ms` over its rows of `group_answers`
    after `row` (NEW or OLD) was written (`written`) or removed. Each row of `table` keeps the
    lower middle answer (`low_ms`, `low_id`: ordered by time, then attempt id) and moves it by one
    answer (a seek along the index) when an answer comes or goes, so a new answer costs the same
    in a class of 5 as of 500; the median is the lower middle, or the mean of it and the next."""
    here = _same(keys, table, row)
    among = _same(keys, "g", row)
    key = f"({row}.time_ms, {row}.attempt_id)"
    low = f"({table}.low_ms, {table}.low_id)"
    before = (
        f"(SELECT g.time_ms, g.attempt_id FROM group_answers g "
        f"WHERE {among} AND (g.time_ms, g.attempt_id) < {low} "
        "ORDER BY g.time_ms DESC, g.attempt_id DESC LIMIT 1)"
    )
    after = (
        f"(SELECT g.time_ms, g.attempt_id FROM group_answers g "
        f"WHERE {among} AND (g.time_ms, g.attempt_id) > {low} "
        "ORDER BY g.time_ms, g.attempt_id LIMIT 1)"
    )
    if written:  # the new answer is among them; `attempts` counts it
        moves = f"""
        UPDATE {table} SET (low_ms, low_id) = {before}
            WHERE {here} AND attempts % 2 = 0 AND {key} < {low};
        UPDATE {table} SET (low_ms, low_id) = {after}
            WHERE {here} AND attempts > 1 AND attempts % 2 = 1 AND {key} > {low};"""
    else:  # the answer is gone; `attempts` no longer counts it
        moves = f"""
        UPDATE {table} SET (low_ms, low_id) = {before}
            WHERE {here} AND attempts % 2 = 0 AND {key} >= {low};
        UPDATE {table} SET (low_ms, low_id) = {after}
            WHERE {here} AND attempts % 2 = 1 AND {key} <= {low};"""
    next_ms = (
        f"(SELECT g.time_ms FROM group_answers g WHERE {among} AND (g.time_ms, g.attempt_id) > {low} "
        "ORDER BY g.time_ms, g.attempt_id LIMIT 1)"
    )
    return f"""{moves}
        UPDATE {table} SET median_ms = CASE WHEN attempts % 2 = 1 THEN low_ms
                                            ELSE (low_ms + {next_ms}) / 2.0 END
            WHERE {here};"""


def _counted(table: str, keys: tuple[str, ...], row: str, written: bool, when: str = "1") -> str:
    """The statements that count `row` (NEW or OLD, when `when` holds) in or out of `table`'s `n`."""
    if written:
        return f"""
        INSERT INTO {table} ({", ".join(keys)}, n) SELECT {", ".join(f"{row}.{k}" for k in keys)}, 1
            WHERE {when} ON CONFLICT ({", ".join(keys)}) DO UPDATE SET n = n + 1;"""
    here = _same(keys, table, row)
    return f"""
        DELETE FROM {table} WHERE {here} AND n = 1 AND {when};
        UPDATE {table} SET n = n - 1 WHERE {here} AND {when};"""


def _in_group(group: str, user: str, at: str) -> str:
    """A member of the group now, who was in it at `at` (the desk's members and `while_member`)."""
    return (
        f"EXISTS (SELECT 1 FROM memberships m WHERE m.group_id = {group} AND m.user_id = {user}) "
        f"AND EXISTS (SELECT 1 FROM membership_periods p WHERE p.group_id = {group} AND p.user_id = {user} "
        f"AND {at} >= p.joined_at AND (p.left_at IS NULL OR {at} < p.left_at))"
    )


_GROUP_ANSWER = (
    "a.id, a.trainee_id, a.drill_id, a.kind, d.level, a.mode, a.time_ms, a.correct, a.answer, "
    "a.mistake, a.answered_at"
)


_GROUP_COLUMNS = (
    "group_id, attempt_id, trainee_id, drill_id, kind, level, mode, time_ms, correct, answer, "
    "mistake, answered_at"
)


def _resync(group: str, user: str) -> str:
    """The statements that make the user's rows of `group_answers` in the group what `_in_group`
    keeps: after he joins or leaves, or a period of his changes."""
    return f"""
        DELETE FROM group_answers WHERE group_id = {group} AND trainee_id = {user}
            AND NOT ({_in_group(group, user, "group_answers.answered_at")});
        INSERT INTO group_answers ({_GROUP_COLUMNS})
            SELECT {group}, {_GROUP_ANSWER} FROM attempts a JOIN drills d ON d.id = a.drill_id
            WHERE a.trainee_id = {user} AND {_in_group(group, user, "a.answered_at")}
              AND NOT EXISTS (SELECT 1 FROM group_answers x WHERE x.group_id = {group}
                              AND x.attempt_id = a.id);"""


def m023_group_answers(db: Database) -> None:
    """The desk's item analysis and mistakes kept as answers are written, by triggers (so in the
    answer's transaction, whoever writes it). `group_answers` holds each answer a current member of
    a group gave while in it (what `Groups.item_details` reads), once per group: it follows
    `attempts`, `memberships` and `membership_periods`. From it, per group: `group_items` (per
    kind, level and mode) and `group_kinds` (per kind) count the answers and the right ones and
    keep the median time; `group_wrong` counts each wrong answer per kind, level and mode with the
    first drill it was given to, `group_kind_wrong` per kind; `group_item_mistakes`, `group_mistake_kinds` and
    `group_mistake_members` count the catalogued mistakes per kind, level and mode, per kind, and
    per trainee. The desk then reads rows per kind and level, not every answer of the group."""
    db.execute(
        """CREATE TABLE group_answers (
             group_id INTEGER NOT NULL, attempt_id INTEGER NOT NULL, trainee_id INTEGER NOT NULL,
             drill_id INTEGER NOT NULL, kind TEXT NOT NULL, level INTEGER NOT NULL, mode TEXT NOT NULL,
             time_ms INTEGER NOT NULL, correct INTEGER NOT NULL, answer TEXT NOT NULL, mistake TEXT,
             answered_at TEXT NOT NULL,
             PRIMARY KEY (group_id, attempt_id)
           ) STRICT"""
    )
    db.execute("CREATE INDEX group_answers_attempt ON group_answers (attempt_id)")
    db.execute("CREATE INDEX group_answers_member ON group_answers (group_id, trainee_id)")
    db.execute(
        "CREATE INDEX group_answers_item_time "
        "ON group_answers (group_id, kind, level, mode, time_ms, attempt_id)"
    )
    db.execute("CREATE INDEX group_answers_kind_time ON group_answers (group_id, kind, time_ms, attempt_id)")
    # A member's newest answers in the group with their kind and level (the desk's readiness).
    db.execute(
        "CREATE INDEX group_answers_recent "
        "ON group_answers (group_id, trainee_id, answered_at, drill_id, kind, level, correct, time_ms)"
    )
    db.execute(
        "CREATE INDEX group_answers_wrong ON group_answers (group_id, kind, level, mode, answer, drill_id) "
        "WHERE correct = 0"
    )
    for table, keys in (("group_items", _ITEM), ("group_kinds", _KIND)):
        columns = ", ".join(
            f"{k} {'INTEGER' if k in ('group_id', 'level') else 'TEXT'} NOT NULL" for k in keys
        )
        db.execute(
            f"""CREATE TABLE {table} (
                 {columns}, attempts INTEGER NOT NULL, correct INTEGER NOT NULL,
                 low_ms INTEGER NOT NULL, low_id INTEGER NOT NULL, median_ms REAL,
                 PRIMARY KEY ({", ".join(keys)})
               ) STRICT"""
        )
    db.execute(
        """CREATE TABLE group_wrong (
             group_id INTEGER NOT NULL, kind TEXT NOT NULL, level INTEGER NOT NULL, mode TEXT NOT NULL,
             answer TEXT NOT NULL, n INTEGER NOT NULL, drill_id INTEGER NOT NULL,
             PRIMARY KEY (group_id, kind, level, mode, answer)
           ) STRICT"""
    )
    counters = {
        "group_kind_wrong": ("group_id", "kind", "answer"),
        "group_item_mistakes": (*_ITEM, "mistake"),
        "group_mistake_kinds": ("group_id", "mistake", "kind"),
        "group_mistake_members": ("group_id", "mistake", "trainee_id"),
    }
    for table, keys in counters.items():
        columns = ", ".join(
            f"{k} {'INTEGER' if k in ('group_id', 'level', 'trainee_id') else 'TEXT'} NOT NULL" for k in keys
        )
        db.execute(
            f"CREATE TABLE {table} ({columns}, n INTEGER NOT NULL, PRIMARY KEY ({', '.join(keys)})) STRICT"
        )
    db.execute("CREATE INDEX group_kind_wrong_rank ON group_kind_wrong (group_id, kind, n DESC, answer)")
    # The most frequent first of each kind, level and mode, along the index (the desk shows three).
    db.execute("CREATE INDEX group_wrong_rank ON group_wrong (group_id, kind, level, mode, n DESC, answer)")
    db.execute(
        "CREATE INDEX group_item_mistakes_rank "
        "ON group_item_mistakes (group_id, kind, level, mode, n DESC, mistake)"
    )
    written, removed = [], []
    for table, keys in (("group_items", _ITEM), ("group_kinds", _KIND)):
        names = ", ".join(keys)
        written.append(
            f"""
        INSERT INTO {table} ({names}, attempts, correct, low_ms, low_id)
            VALUES ({", ".join(f"NEW.{k}" for k in keys)}, 1, NEW.correct, NEW.time_ms, NEW.attempt_id)
            ON CONFLICT ({names}) DO UPDATE SET
              attempts = attempts + 1, correct = correct + excluded.correct;"""
            + _median_pointer(table, keys, "NEW", True)
        )
        here = _same(keys, table, "OLD")
        removed.append(
            f"""
        DELETE FROM {table} WHERE {here} AND attempts = 1;
        UPDATE {table} SET attempts = attempts - 1, correct = correct - OLD.correct WHERE {here};"""
            + _median_pointer(table, keys, "OLD", False)
        )
    wrong_keys = (*_ITEM, "answer")
    written.append(
        f"""
        INSERT INTO group_wrong ({", ".join(wrong_keys)}, n, drill_id)
            SELECT {", ".join(f"NEW.{k}" for k in wrong_keys)}, 1, NEW.drill_id WHERE NEW.correct = 0
            ON CONFLICT ({", ".join(wrong_keys)}) DO UPDATE SET
              n = n + 1, drill_id = min(drill_id, excluded.drill_id);"""
    )
    here = _same(wrong_keys, "group_wrong", "OLD")
    removed.append(
        f"""
        DELETE FROM group_wrong WHERE {here} AND n = 1 AND OLD.correct = 0;
        UPDATE group_wrong SET n = n - 1, drill_id = (
            SELECT min(g.drill_id) FROM group_answers g
            WHERE {_same(wrong_keys, "g", "OLD")} AND g.correct = 0)
            WHERE {here} AND OLD.correct = 0;"""
    )
    for table, keys in counters.items():
        counts = "correct = 0" if table == "group_kind_wrong" else "mistake IS NOT NULL"
        written.append(_counted(table, keys, "NEW", True, f"NEW.{counts}"))
        removed.append(_counted(table, keys, "OLD", False, f"OLD.{counts}"))
    db.execute(
        f"CREATE TRIGGER group_answers_written AFTER INSERT ON group_answers BEGIN {''.join(written)} END"
    )
    db.execute(
        f"CREATE TRIGGER group_answers_removed AFTER DELETE ON group_answers BEGIN {''.join(removed)} END"
    )
    # What feeds `group_answers`: the answers, and who is in which group when.
    add_answer = f"""
        INSERT INTO group_answers ({_GROUP_COLUMNS})
            SELECT m.group_id, {_GROUP_ANSWER} FROM memberships m
            JOIN attempts a ON a.id = NEW.id JOIN drills d ON d.id = a.drill_id
            WHERE m.user_id = NEW.trainee_id
              AND {_in_group("m.group_id", "NEW.trainee_id", "NEW.answered_at")};"""
    db.execute(f"CREATE TRIGGER group_answers_answer AFTER INSERT ON attempts BEGIN {add_answer} END")
    drop_answer = "DELETE FROM group_answers WHERE attempt_id = OLD.id;"
    db.execute(
        f"CREATE TRIGGER group_answers_answer_removed AFTER DELETE ON attempts BEGIN {drop_answer} END"
    )
    db.execute(
        f"""CREATE TRIGGER group_answers_answer_changed AFTER UPDATE ON attempts BEGIN
              {drop_answer}{add_answer}
            END"""
    )
    for table in ("memberships", "membership_periods"):
        for event, rows in (("INSERT", ("NEW",)), ("DELETE", ("OLD",)), ("UPDATE", ("OLD", "NEW"))):
            body = "".join(_resync(f"{r}.group_id", f"{r}.user_id") for r in rows)
            db.execute(
                f"CREATE TRIGGER group_answers_{table}_{event.lower()} "
                f"AFTER {event} ON {table} BEGIN {body} END"
            )
    db.execute(
        f"""INSERT INTO group_answers ({_GROUP_COLUMNS})
            SELECT m.group_id, {_GROUP_ANSWER} FROM memberships m
            JOIN attempts a ON a.trainee_id = m.user_id JOIN drills d ON d.id = a.drill_id
            WHERE {_in_group("m.group_id", "m.user_id", "a.answered_at")}
            ORDER BY m.group_id, a.id"""
    )
