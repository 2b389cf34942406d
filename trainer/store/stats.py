"""Progress queries for the trainee pages and instructors: accuracy and median time per kind, trend
by day, streaks, the weakest kinds, sprint personal bests, and the mistakes a trainee or a group makes
most (the catalogued mistakes recorded with wrong answers, and the wrong choices).

All take the `Database` and a trainee id; days are UTC calendar days of the answers, but `streaks`
counts the days of a given time zone. Those an instructor's desk reads take `group_id`: then only
what the trainee did while in that group counts (`trainer.store.periods`).
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta
from operator import itemgetter
from typing import Any
from zoneinfo import ZoneInfo

from sqlite_utils import Database

from trainer.drills.mistakes import mistake_title
from trainer.store.periods import while_member
from trainer.store.schema import equal_to


def _where(
    trainee_id: int, kind: str | None, mode: str | None, group_id: int | None = None
) -> tuple[str, list[Any]]:
    seen, seen_params = while_member(group_id)
    clauses, params = equal_to(("kind", kind), ("mode", mode))
    return " AND ".join(["trainee_id = ?", seen, *clauses]), [trainee_id, *seen_params, *params]


def _median(lower: int, upper: int, count: int) -> int | float:
    """The median as `statistics.median` gives it: the middle value of an odd count (an int), else
    the mean of the two middle ones (a float)."""
    return lower if count % 2 else (lower + upper) / 2


def _summaries(db: Database, key: str, where: str, params: list[Any]) -> dict[str, dict[str, Any]]:
    """Attempts, correct, accuracy and median time per value of the SQL expression `key` over the
    attempts matching `where`, counted in SQLite. Only each group's one or two middle times are read,
    at their offset along an index sorted by time (migration m009), so nothing is sorted per request
    and no row but those reaches Python."""
    groups = db.execute(
        f"SELECT {key} AS grp, count(*), sum(correct) FROM attempts WHERE {where} GROUP BY grp", params
    ).fetchall()
    found = {}
    for grp, n, correct in groups:
        middle = [
            time_ms
            for (time_ms,) in db.execute(
                f"SELECT time_ms FROM attempts WHERE {where} AND {key} = ? ORDER BY time_ms LIMIT ? OFFSET ?",
                [*params, grp, 2 - n % 2, (n - 1) // 2],
            )
        ]
        found[grp] = {
            "attempts": n,
            "correct": correct,
            "accuracy": correct / n,
            "median_ms": _median(middle[0], middle[-1], n),
        }
    return found


def kind_summary(
    db: Database, trainee_id: int, *, mode: str | None = None, group_id: int | None = None
) -> list[dict[str, Any]]:
    """Per kind answered: attempts, correct, accuracy (0..1) and median time in ms, by kind id."""
    where, params = _where(trainee_id, None, mode, group_id)
    found = _summaries(db, "kind", where, params)
    return [{"kind": kind, **found[kind]} for kind in sorted(found)]


def trend_by_day(
    db: Database,
    trainee_id: int,
    *,
    kind: str | None = None,
    mode: str | None = None,
    group_id: int | None = None,
) -> list[dict[str, Any]]:
    """Per day with answers, oldest first: attempts, correct, accuracy and median time."""
    where, params = _where(trainee_id, kind, mode, group_id)
    found = _summaries(db, "substr(answered_at, 1, 10)", where, params)
    return [{"day": day, **found[day]} for day in sorted(found)]


def recent_by_kind(db: Database, trainee_id: int, *, since: str) -> dict[str, dict[str, int]]:
    """Per kind answered from `since` on (an ISO UTC moment as stored, or an ISO date: that UTC day's
    start): attempts and correct, by kind id (the home page's figures of the last days), counted in
    SQLite."""
    rows = db.execute(
        """SELECT kind, count(*), sum(correct) FROM attempts
           WHERE trainee_id = ? AND answered_at >= ? GROUP BY kind""",
        [trainee_id, since],
    ).fetchall()
    return {kind: {"attempts": n, "correct": correct} for kind, n, correct in sorted(rows)}


def streaks(db: Database, trainee_id: int, *, today: date, zone: str = "UTC") -> dict[str, int]:
    """Day streaks (consecutive days with at least one answer; the current one is still alive if the
    last day is today or yesterday) and runs of correct answers in a row (current and longest).

    Days are the calendar days in `zone` (`today` is one of them). A UTC day's answers fall on at most
    two days there (no offset reaches a day), the first answer's and the last one's, so one row per UTC
    day is read, as before; in UTC+4 answers at 02:00 and 10:00 are one day, not two."""
    here = ZoneInfo(zone)
    days = sorted(
        {
            datetime.fromisoformat(moment).astimezone(here).date()
            for first, last in db.execute(
                "SELECT min(answered_at), max(answered_at) FROM attempts WHERE trainee_id = ? "
                "GROUP BY substr(answered_at, 1, 10)",
                [trainee_id],
            )
            for moment in (first, last)
        }
    )
    longest_days = run = 0
    previous: date | None = None
    for day in days:
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        longest_days = max(longest_days, run)
        previous = day
    current_days = run if previous is not None and today - previous <= timedelta(days=1) else 0
    # The longest run needs every answer in order, so it reads one flag per answer (no row dicts),
    # in the order of the index on (trainee_id, answered_at, id, correct) (migration m009).
    flags = bytes(
        map(
            itemgetter(0),
            db.execute(
                "SELECT correct FROM attempts WHERE trainee_id = ? ORDER BY answered_at, id", [trainee_id]
            ).fetchall(),
        )
    )
    longest_correct = max(map(len, flags.split(b"\x00")))
    last_wrong = db.execute(
        """SELECT answered_at, id FROM attempts WHERE trainee_id = ? AND NOT correct
           ORDER BY answered_at DESC, id DESC LIMIT 1""",
        [trainee_id],
    ).fetchone()
    after = "" if last_wrong is None else " AND (answered_at, id) > (?, ?)"
    current_correct = db.execute(
        f"SELECT count(*) FROM attempts WHERE trainee_id = ?{after}", [trainee_id, *(last_wrong or ())]
    ).fetchone()[0]
    return {
        "current_days": current_days,
        "longest_days": longest_days,
        "current_correct": current_correct,
        "longest_correct": longest_correct,
    }


SURE_Z = 1.645  # one-sided 95 %: the accuracy a trainee has reached with that confidence


def sure_accuracy(correct: int, attempts: int, z: float = SURE_Z) -> float:
    """The lower end of the Wilson score interval of an accuracy: what the answers show for sure.
    Few answers give a low figure whatever they were, so one lucky answer does not make a drill
    look strong, and one unlucky one weighs less than many.

    >>> [round(sure_accuracy(c, n), 2) for c, n in [(0, 1), (1, 1), (9, 11), (5, 5), (20, 20)]]
    [0.0, 0.27, 0.57, 0.65, 0.88]
    """
    if attempts <= 0:
        return 0.0
    p = correct / attempts
    z2 = z * z
    centre = p + z2 / (2 * attempts)
    spread = z * math.sqrt(p * (1 - p) / attempts + z2 / (4 * attempts * attempts))
    return max(0.0, (centre - spread) / (1 + z2 / attempts))


NEEDS_WINDOW = 20  # the answers of a kind that tell how well it is known: its last 20
SURE_ENOUGH = 0.8  # a kind whose answers show this accuracy for sure is strong; below it, weak


def recent_answers(
    db: Database, trainee_id: int, *, window: int = NEEDS_WINDOW, kinds: Iterable[str] | None = None
) -> dict[str, dict[str, Any]]:
    """Per drill kind answered (among `kinds`, if given), its last `window` answers: kind, the highest
    `level` answered, `attempts` and `correct` (in the window), `sure` (`sure_accuracy`) and `weak`
    (`sure` below `SURE_ENOUGH`: a kind answered once, right or wrong, is weak, not strong). The one
    measure of how well a kind is known: `needs` ranks by it, and today's practice queue
    (`trainer.store.practice`) brings weak kinds first."""
    chosen, params = "", [trainee_id]
    if kinds is not None:
        allowed = sorted(set(kinds))
        if not allowed:
            return {}
        chosen = f" AND kind IN ({', '.join('?' for _ in allowed)})"
        params += allowed
    # Per kind, only its last `window` answers are read: the index on (trainee_id, kind, answered_at)
    # ends with the row id, so each kind's newest answers come straight from it.
    rows = db.execute(
        f"""SELECT a.kind, count(*), sum(a.correct), max(d.level)
            FROM (SELECT DISTINCT kind FROM attempts WHERE trainee_id = ?{chosen}) k
            JOIN attempts a ON a.id IN (
                SELECT id FROM attempts WHERE trainee_id = ? AND kind = k.kind
                ORDER BY answered_at DESC, id DESC LIMIT ?)
            JOIN drills d ON d.id = a.drill_id
            GROUP BY a.kind""",
        [*params, trainee_id, window],
    ).fetchall()
    return {
        kind: {
            "kind": kind,
            "level": level,
            "attempts": attempts,
            "correct": correct,
            "sure": sure_accuracy(correct, attempts),
            "weak": is_weak(correct, attempts),
        }
        for kind, attempts, correct, level in rows
    }


def is_weak(correct: int, attempts: int) -> bool:
    """Whether answers show less than `SURE_ENOUGH` for sure: one answer, right or wrong, does.

    >>> [is_weak(c, n) for c, n in [(0, 1), (1, 1), (17, 20), (12, 12), (19, 20)]]
    [True, True, True, False, False]
    """
    return sure_accuracy(correct, attempts) < SURE_ENOUGH


def need_rank(sure: float, attempts: int) -> tuple[float, int]:
    """Lower comes first: the lowest `sure` accuracy, then the fewer answers (less is known)."""
    return sure, attempts


def needs(
    db: Database,
    trainee_id: int,
    *,
    count: int = 3,
    window: int = NEEDS_WINDOW,
    kinds: Iterable[str] | None = None,
) -> list[dict[str, Any]]:
    """The `count` drill kinds the trainee most needs to practise, among those answered: the lowest
    `sure` accuracy (`sure_accuracy` of the kind's last `window` answers), so a drill with few answers
    counts as uncertain, not as strong; ties go to the one with fewer answers. Each row: kind, the
    highest `level` answered, `attempts` and `correct` (in the window), `sure` (`recent_answers`)."""
    rows = [
        {key: row[key] for key in ("kind", "level", "attempts", "correct", "sure")}
        for row in recent_answers(db, trainee_id, window=window, kinds=kinds).values()
    ]
    rows.sort(key=lambda row: (*need_rank(row["sure"], row["attempts"]), row["kind"]))
    return rows[:count]


def sprint_scope(scope: str) -> tuple[str, int | None]:
    """A sprint's scope "<what>/<N>" split: what was drilled (a kind id, or a game id for a mixed
    sprint) and the number of questions (None for a scope of another shape)."""
    what, _, n = scope.partition("/")
    return what, int(n) if n.isdigit() else None


def _with_questions(row: dict[str, Any]) -> dict[str, Any]:
    what, n = sprint_scope(row["scope"])
    return {**row, "what": what, "questions": n if n is not None else row["answered"]}


def _standing(row: dict[str, Any]) -> tuple[int, int]:
    """Lower is better: most right, then fewest wrong."""
    return -row["correct"], row["answered"] - row["correct"]


def sprint_bests(db: Database, trainee_id: int, *, group_id: int | None = None) -> list[dict[str, Any]]:
    """The best finished sprint per (scope, level, duration): most correct, then fewest wrong, then
    the earliest (a record stands until it is beaten). Each row also has `what` and `questions`
    (`sprint_scope`), so every page shows a score as right answers of the sprint's questions."""
    seen, seen_params = while_member(group_id, at="started_at")
    rows = db.query(
        f"""SELECT * FROM sprints WHERE trainee_id = ? AND finished_at IS NOT NULL AND {seen}
           ORDER BY scope, level, duration_s, correct DESC, answered - correct, started_at, id""",
        [trainee_id, *seen_params],
    )
    bests: dict[tuple[str, int, int], dict[str, Any]] = {}
    for row in rows:
        bests.setdefault((row["scope"], row["level"], row["duration_s"]), _with_questions(row))
    return list(bests.values())


def sprint_record(db: Database, sprint: dict[str, Any]) -> dict[str, Any]:
    """Where a finished sprint stands among the trainee's sprints of the same scope, level and time:
    `first` (no earlier one: it sets the mark, it beats nothing), `new_best` (it beats every earlier
    one), and `best`, the record now (with `questions`)."""
    rows = [
        _with_questions(row)
        for row in db.query(
            """SELECT * FROM sprints WHERE trainee_id = ? AND scope = ? AND level = ? AND duration_s = ?
               AND finished_at IS NOT NULL ORDER BY started_at, id""",
            [sprint["trainee_id"], sprint["scope"], sprint["level"], sprint["duration_s"]],
        )
    ]
    earlier = [row for row in rows if (row["started_at"], row["id"]) < (sprint["started_at"], sprint["id"])]
    best = min(rows, key=_standing) if rows else _with_questions(sprint)
    return {
        "first": not earlier,
        "new_best": bool(earlier) and _standing(sprint) < min(_standing(row) for row in earlier),
        "best": best,
    }


def trainees_overview(db: Database, *, since: datetime | None = None) -> list[dict[str, Any]]:
    """For instructors: every named trainee with attempts, accuracy, median time and last answer
    (optionally only answers at or after `since`), by name. Anonymous sessions are left out; when
    groups arrive this takes a group id."""
    params: list[Any] = []
    window = ""
    if since is not None:
        window = "AND a.answered_at >= ?"
        # The same text form as the stored times (UTC, microseconds), so text order is time order.
        params.append(since.astimezone(UTC).isoformat(timespec="microseconds"))
    rows = db.query(
        f"""SELECT t.id, t.name, a.correct, a.time_ms, a.answered_at
            FROM trainees t LEFT JOIN attempts a ON a.trainee_id = t.id {window}
            WHERE t.name IS NOT NULL ORDER BY t.name COLLATE NOCASE, a.answered_at""",
        params,
    )
    overview: dict[int, dict[str, Any]] = {}
    times: dict[int, list[int]] = defaultdict(list)
    for row in rows:
        entry = overview.setdefault(row["id"], {"trainee_id": row["id"], "name": row["name"], "correct": 0})
        if row["time_ms"] is not None:
            times[row["id"]].append(row["time_ms"])
            entry["correct"] += row["correct"]
            entry["last_answer"] = row["answered_at"]
    result = []
    for trainee_id, entry in overview.items():
        mine = times[trainee_id]
        result.append(
            {
                **entry,
                "attempts": len(mine),
                "accuracy": entry["correct"] / len(mine) if mine else None,
                "median_ms": statistics.median(mine) if mine else None,
                "last_answer": entry.get("last_answer"),
            }
        )
    return result


# Mistakes ------------------------------------------------------------------------------------------


def _trainees_clause(trainee_ids: Iterable[int]) -> tuple[str, list[Any]]:
    ids = sorted({int(t) for t in trainee_ids})
    return f"trainee_id IN ({', '.join('?' for _ in ids)})", list(ids)


def _since_clause(since: datetime | None) -> tuple[str, list[Any]]:
    if since is None:
        return "", []
    # The same text form as the stored times (UTC, microseconds), so text order is time order.
    return " AND answered_at >= ?", [since.astimezone(UTC).isoformat(timespec="microseconds")]


def frequent_mistakes(
    db: Database,
    trainee_id: int,
    *,
    count: int = 5,
    since: datetime | None = None,
    group_id: int | None = None,
) -> list[dict[str, Any]]:
    """The trainee's most frequent catalogued mistakes: id, English title (a message id), how often,
    in which drill kinds and when last; most frequent first, then the most recent."""
    found = mistakes_by_trainee(db, [trainee_id], since=since, group_id=group_id)
    return found.get(trainee_id, [])[:count]


def mistakes_by_trainee(
    db: Database, trainee_ids: Iterable[int], *, since: datetime | None = None, group_id: int | None = None
) -> dict[int, list[dict[str, Any]]]:
    """For the instructor's desk: each trainee's catalogued mistakes (as `frequent_mistakes`, every
    one), for the given trainees; trainees without a recorded mistake are left out."""
    where, params = _trainees_clause(trainee_ids)
    window, more = _since_clause(since)
    seen, seen_params = while_member(group_id)
    rows = db.query(
        f"""SELECT trainee_id, mistake, kind, count(*) AS n, max(answered_at) AS last
            FROM attempts WHERE mistake IS NOT NULL AND {where}{window} AND {seen}
            GROUP BY trainee_id, mistake, kind""",
        params + more + seen_params,
    )
    found: dict[int, dict[str, dict[str, Any]]] = defaultdict(dict)
    for row in rows:
        entry = found[row["trainee_id"]].setdefault(
            row["mistake"],
            {
                "mistake": row["mistake"],
                "title": mistake_title(row["mistake"]),
                "count": 0,
                "kinds": [],
                "last": "",
            },
        )
        entry["count"] += row["n"]
        entry["kinds"].append(row["kind"])
        entry["last"] = max(entry["last"], row["last"])
    return {trainee: _most_first(entries.values()) for trainee, entries in found.items()}


def _most_first(entries: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Most frequent first, then the most recent, then by id (sorts are stable: last key first)."""
    ordered = sorted((dict(e, kinds=sorted(e["kinds"])) for e in entries), key=lambda e: e["mistake"])
    ordered.sort(key=lambda e: e["last"], reverse=True)
    ordered.sort(key=lambda e: e["count"], reverse=True)
    return ordered


def group_mistakes(
    db: Database, trainee_ids: Iterable[int], *, since: datetime | None = None, group_id: int | None = None
) -> list[dict[str, Any]]:
    """For the instructor's desk: the group's catalogued mistakes, most frequent first, each with how
    many of the given trainees made it and how often in all."""
    totals: dict[str, dict[str, Any]] = {}
    for entries in mistakes_by_trainee(db, trainee_ids, since=since, group_id=group_id).values():
        for e in entries:
            total = totals.setdefault(
                e["mistake"],
                {"mistake": e["mistake"], "title": e["title"], "count": 0, "trainees": 0, "kinds": set()},
            )
            total["count"] += e["count"]
            total["trainees"] += 1
            total["kinds"].update(e["kinds"])
    return sorted(
        (dict(t, kinds=sorted(t["kinds"])) for t in totals.values()),
        key=lambda t: (-t["count"], -t["trainees"], t["mistake"]),
    )


def wrong_choices(
    db: Database, kind: str, *, trainee_ids: Iterable[int] | None = None, count: int = 5
) -> list[dict[str, Any]]:
    """The wrong choices most often made to a choice question of this kind (value and how often)."""
    where, params = ("1", []) if trainee_ids is None else _trainees_clause(trainee_ids)
    rows = db.query(
        f"""SELECT wrong_choice, count(*) AS n FROM attempts
            WHERE kind = ? AND wrong_choice IS NOT NULL AND {where}
            GROUP BY wrong_choice ORDER BY n DESC, wrong_choice LIMIT ?""",
        [kind, *params, count],
    )
    return [{"choice": row["wrong_choice"], "count": row["n"]} for row in rows]
