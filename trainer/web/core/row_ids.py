"""Ids in URLs: a row's id is a SQLite integer, so an `<int:...>` beyond 2**63 - 1 names no row."""

from __future__ import annotations

from typing import Any

from werkzeug.routing import IntegerConverter, Map

ROW_ID_MAX = 2**63 - 1


class RowIdConverter(IntegerConverter):
    """Werkzeug's `int` with SQLite's upper bound: a larger id does not match the route (404) instead
    of reaching the store, where binding it raises OverflowError (a 500)."""

    def __init__(self, url_map: Map, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", ROW_ID_MAX)
        super().__init__(url_map, *args, **kwargs)


def init_app(app: Any) -> None:
    """Before any route is added: every `<int:...>` of the app is a row id."""
    app.url_map.converters["int"] = RowIdConverter
