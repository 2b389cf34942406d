"""The server's sprint clock moved ahead, for tests of what happens when a sprint's time has run out."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


def sprint_clock_ahead(monkeypatch, seconds: float) -> None:
    """From now on the sprint views read the time `seconds` ahead of the real one."""
    from trainer.web.practice import sprints as sprint_views

    later = datetime.now(UTC) + timedelta(seconds=seconds)

    class Clock(datetime):
        @classmethod
        def now(cls, tz=None):
            return later

    monkeypatch.setattr(sprint_views, "datetime", Clock)
