"""What an instructor may read of a trainee: only what the trainee did while in the instructor's
group. `membership_periods` keeps every stretch of time a trainee was in a group (joined, left);
every query that reads a trainee's work for a group's instructor adds `while_member`.

>>> while_member(7)[1]
[7]
>>> while_member(None)
('1', [])
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from sqlite_utils import Database


def while_member(
    group_id: int | None, trainee: str = "trainee_id", at: str = "answered_at"
) -> tuple[str, list[Any]]:
    """An SQL condition (and its parameters) keeping rows whose trainee column `trainee` was in the
    group at the row's time column `at` (ISO text in UTC, as every stored time). `group_id=None`
    keeps everything: the trainee reading his own work."""
    if group_id is None:
        return "1", []
    return (
        f"EXISTS (SELECT 1 FROM membership_periods p WHERE p.group_id = ? AND p.user_id = {trainee} "
        f"AND {at} >= p.joined_at AND (p.left_at IS NULL OR {at} < p.left_at))",
        [group_id],
    )


Span = tuple[str, str | None]


def member_spans(db: Database, group_id: int, user_ids: Iterable[int]) -> dict[int, list[Span]]:
    """Each user's times in the group as disjoint stretches (joined, left), oldest first (left None:
    still in it): the periods merged where they overlap or touch, so a time falls in one stretch
    exactly when `while_member` keeps it. The desk reads a member's answers by these ranges, which
    an index on (trainee, ..., answered_at) checks without a lookup per answer."""
    ids = sorted({int(u) for u in user_ids})
    spans: dict[int, list[Span]] = {u: [] for u in ids}
    if not ids:
        return spans
    rows = db.execute(
        f"""SELECT user_id, joined_at, left_at FROM membership_periods
            WHERE group_id = ? AND user_id IN ({", ".join("?" for _ in ids)})
            ORDER BY user_id, joined_at""",
        [group_id, *ids],
    )
    for user, joined, left in rows:
        if left is not None and left <= joined:
            continue  # an empty period keeps no time
        mine = spans[user]
        if mine and (mine[-1][1] is None or joined <= mine[-1][1]):
            end = mine[-1][1]
            mine[-1] = (mine[-1][0], None if end is None or left is None else max(end, left))
        else:
            mine.append((joined, left))
    return spans


def during(spans: Iterable[Span], at: str = "answered_at") -> tuple[str, list[Any]]:
    """An SQL condition (and its parameters) keeping rows whose time column `at` falls in one of the
    stretches (`member_spans`); none: no row.

    >>> during([("2026-01", "2026-02"), ("2026-03", None)], "at")
    ('(at >= ? AND at < ?) OR (at >= ?)', ['2026-01', '2026-02', '2026-03'])
    """
    clauses: list[str] = []
    params: list[Any] = []
    for joined, left in spans:
        if left is None:
            clauses.append(f"({at} >= ?)")
            params.append(joined)
        else:
            clauses.append(f"({at} >= ? AND {at} < ?)")
            params.extend([joined, left])
    return (" OR ".join(clauses) or "0"), params


def each_select(db: Database, terms: Iterable[tuple[str, list[Any]]]) -> Iterator[tuple[Any, ...]]:
    """The rows of the SELECTs (one per member, each reading his answers along an index within his
    stretches), term after term. Each runs as a statement of its own: the terms of members with
    the same number of stretches are the same text, which the connection prepares once (its
    statement cache), where a compound of hundreds of terms was compiled anew on every request
    and ran slower (readiness at 200 members: 183 ms as compounds of 400 terms, 54 ms one by
    one)."""
    for select, params in terms:
        yield from db.execute(select, params)


def spans_table(spans: dict[int, list[Span]]) -> tuple[str, list[Any]]:
    """A common table expression `spans (user_id, joined_at, left_at)` of the stretches (and its
    parameters): joined to the answers on the trainee and the time, it keeps each answer given in
    a stretch once (they are disjoint)."""
    rows = [(user, joined, left) for user, mine in spans.items() for joined, left in mine]
    if not rows:
        return "spans (user_id, joined_at, left_at) AS (SELECT NULL, NULL, NULL WHERE 0)", []
    values = ", ".join("(?, ?, ?)" for _ in rows)
    return f"spans (user_id, joined_at, left_at) AS (VALUES {values})", [v for row in rows for v in row]


IN_SPAN = (
    "a.trainee_id = s.user_id AND a.answered_at >= s.joined_at "
    "AND (s.left_at IS NULL OR a.answered_at < s.left_at)"
)
