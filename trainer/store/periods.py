"""What an instructor may read of a trainee: only what the trainee did while in the instructor's
group. `membership_periods` keeps every stretch of time a trainee was in a group (joined, left);
every query that reads a trainee's work for a group's instructor adds `while_member`.

>>> while_member(7)[1]
[7]
>>> while_member(None)
('1', [])
"""

from __future__ import annotations

from typing import Any


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
