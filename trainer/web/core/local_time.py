"""Times in the school's time zone: every time is stored in UTC (ISO 8601) and entered and shown in
the group's time zone (`groups.time_zone`), else the instance's (`TIME_ZONE`, from
`TRAINER_TIME_ZONE`; UTC when unset), always with the zone's name beside it.

>>> from datetime import datetime
>>> shown("2026-12-02T18:06:17.581780+00:00", "Asia/Tbilisi")
'2026-12-02 22:06'
>>> to_utc(datetime(2026, 12, 2, 22, 6), "Asia/Tbilisi").isoformat()
'2026-12-02T18:06:00+00:00'
>>> zone_label("Asia/Tbilisi")
'Asia/Tbilisi, UTC+04:00'
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from flask import current_app, has_app_context
from markupsafe import Markup

from trainer.web.core.settings import is_time_zone, known_zones

DEFAULT_ZONE = "UTC"
SHOWN = "%Y-%m-%d %H:%M"  # as the datetime-local field and a spreadsheet both read it


def instance_zone() -> str:
    """The instance's time zone name (configuration `TIME_ZONE`), UTC outside an app."""
    name = current_app.config.get("TIME_ZONE") if has_app_context() else None
    return name if isinstance(name, str) and is_time_zone(name) else DEFAULT_ZONE


def zone_of(group: dict[str, Any] | None) -> str:
    """The group's own time zone, else the instance's."""
    name = (group or {}).get("time_zone")
    return name if isinstance(name, str) and is_time_zone(name) else instance_zone()


def local(moment: str | datetime | None, zone: str | None = None) -> datetime | None:
    """A stored UTC time as an aware datetime in `zone` (None: the instance's)."""
    if moment is None or moment == "":
        return None
    when = datetime.fromisoformat(moment) if isinstance(moment, str) else moment
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(ZoneInfo(zone or instance_zone()))


def shown(moment: str | datetime | None, zone: str | None = None) -> str:
    """A stored UTC time as the pages and exports show it: "2026-12-02 22:06" in `zone`; "" for none."""
    when = local(moment, zone)
    return "" if when is None else when.strftime(SHOWN)


def to_utc(entered: datetime, zone: str | None = None) -> datetime:
    """A wall-clock time entered in `zone` as an aware UTC time. A time the clocks skip (a spring
    gap) or pass twice (autumn) is taken as zoneinfo's first reading (`fold=0`)."""
    return entered.replace(tzinfo=ZoneInfo(zone or instance_zone())).astimezone(UTC)


def day_bound(day: date, zone: str | None = None, *, end: bool = False) -> datetime:
    """The UTC moment `day` begins (`end`: ends) at in `zone`, as a filter's bound. At the ends of
    the calendar (year 1 ahead of UTC, year 9999 behind it) that moment is outside datetime's range:
    the range's own end is given instead, which no stored moment lies beyond, so the bound selects
    the same rows.

    >>> day_bound(date(1, 1, 1), "Asia/Tbilisi").isoformat()
    '0001-01-01T00:00:00+00:00'
    >>> day_bound(date(9999, 12, 31), "America/New_York", end=True).year
    9999
    """
    try:
        start = day + timedelta(days=1) if end else day
        return to_utc(datetime.combine(start, time()), zone)
    except OverflowError:
        return (datetime.max if end or day.year > 1 else datetime.min).replace(tzinfo=UTC)


def zone_label(zone: str | None = None, at: datetime | None = None) -> str:
    """The zone's name and its offset from UTC now (or at `at`): "Asia/Tbilisi, UTC+04:00"."""
    name = zone or instance_zone()
    offset = (at or datetime.now(UTC)).astimezone(ZoneInfo(name)).strftime("%z")
    return f"{name}, UTC{offset[:3]}:{offset[3:]}"


def zone_markup(zone: str | None = None) -> Markup:
    """`zone_label` for a page: notation (an IANA name), kept as written in every language, so set
    as code."""
    return Markup('<code class="zone">%s</code>') % zone_label(zone)


def zone_names() -> list[str]:
    """Every time zone a group may choose, sorted (what the desk's choice lists)."""
    return sorted(known_zones())


def init_filters(app: Any) -> None:
    """`{{ iso|local_time(zone) }}` and `{{ zone_label(zone) }}` in templates."""
    app.jinja_env.filters["local_time"] = shown
    app.jinja_env.globals["zone_label"] = zone_markup
