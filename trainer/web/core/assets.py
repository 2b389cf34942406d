"""Static files under addresses that name their content, kept by browsers for a year.

A phone on a slow network asked again for the stylesheet, the scripts and the icon on every page
(five revalidations a page). `url_for("static", ...)` adds `v=<digest of the file>`, and a request
that names the digest of the file as it is now is answered with a year's max-age: a changed file
gets a new address, so no browser keeps an old one. Without `v`, or with another file's digest, the
answer stays `no-cache` (Flask's default), so an address written by hand is never stale.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from flask import Flask, request
from werkzeug.security import safe_join

YEAR_S = 365 * 24 * 3600


def init_app(app: Flask) -> None:
    known: dict[str, tuple[int, str]] = {}

    def digest(filename: str) -> str | None:
        # safe_join: the name comes from the address, and Flask asks for the max-age before it joins.
        joined = safe_join(str(app.static_folder or ""), filename) if filename else None
        if joined is None:
            return None
        path = Path(joined)
        try:
            if not path.is_file():
                return None
            mtime = path.stat().st_mtime_ns
            if filename in known and known[filename][0] == mtime:
                return known[filename][1]
            value = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
        except OSError:
            return None
        known[filename] = (mtime, value)
        return value

    @app.url_defaults
    def versioned(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "v" not in values:
            value = digest(str(values.get("filename", "")))
            if value:
                values["v"] = value

    plain = app.get_send_file_max_age

    def max_age(filename: str | None) -> int | None:
        asked = request.args.get("v")
        if asked and filename and asked == digest(filename):
            return YEAR_S
        return plain(filename)

    app.get_send_file_max_age = max_age  # type: ignore[method-assign]
