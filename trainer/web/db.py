"""The web's one door to the progress store: the store of this request, the trainee, drill-or-404.

Pages and the JSON API both come through here, so they cannot drift apart: the same trainee for the
same session, the same 404 for a drill that is not this trainee's or whose kind is no longer installed.

- `store()`: a `Store` on a connection opened for this request (closed when the request ends). The
  file must exist: it is created and migrated once at start-up, never by a request.
- `trainee(create=..., anonymous=...)`: the session's trainee row, or None. Rows are created only when
  `create` is true, which views pass on POST only: a GET never adds a trainee.
- `drill_or_404(drill_id, trainee_id, mode=None)`: the trainee's own drill, or a 404.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, abort, current_app, g, session
from flask_babel import gettext

from trainer.drills import REGISTRY
from trainer.store import NotFoundError, Store, StoreError, clean_name, open_db

NAME_KEY = "trainee_name"  # the name given on the name form or to POST /api/v1/trainee
ANONYMOUS_KEY = "anonymous_trainee_id"  # the API's trainee until a name is given
DEFAULT_TIMEOUT_S = 5.0  # how long a request waits for another's write lock before giving up


def init_app(app: Flask) -> None:
    """Create and migrate the database once for this app; close each request's connection after it."""
    if "trainer_db" in app.extensions:
        return
    app.extensions["trainer_db"] = True
    app.config.setdefault("DATABASE_TIMEOUT", DEFAULT_TIMEOUT_S)
    open_db(app.config["DATABASE"]).conn.close()
    app.teardown_appcontext(_close)


def store() -> Store:
    if "trainer_store" not in g:
        config = current_app.config
        opened = open_db(config["DATABASE"], migrate=False, timeout=config["DATABASE_TIMEOUT"])
        g.trainer_store = Store(opened)
    held: Store = g.trainer_store
    return held


def _close(_error: BaseException | None) -> None:
    held = g.pop("trainer_store", None)
    if held is not None:
        held.db.conn.close()


def trainee(*, create: bool = False, anonymous: bool = False) -> dict[str, Any] | None:
    """The session's trainee: the one named in the session, else (with `anonymous`) the session's
    anonymous one. Without `create` nothing is written: a name or session without a row gives None."""
    named = _named(create)
    if named is not None or not anonymous:
        return named
    held = session.get(ANONYMOUS_KEY)
    if isinstance(held, int) and not isinstance(held, bool):
        try:
            return store().trainee(held)
        except NotFoundError:
            session.pop(ANONYMOUS_KEY, None)
    if not create:
        return None
    row = store().new_anonymous_trainee()
    session[ANONYMOUS_KEY] = int(row["id"])
    return row


def _named(create: bool) -> dict[str, Any] | None:
    name = session.get(NAME_KEY)
    if not isinstance(name, str) or not name:
        return None
    try:
        return store().trainee_named(name) if create else store().find_trainee_named(clean_name(name))
    except StoreError:
        session.pop(NAME_KEY, None)  # a tampered or outdated name: ask for it again
        return None


def trainee_id(*, create: bool = False, anonymous: bool = False) -> int | None:
    row = trainee(create=create, anonymous=anonymous)
    return None if row is None else int(row["id"])


def drill_or_404(drill_id: int, trainee_id: int | None, mode: str | None = None) -> dict[str, Any]:
    """The trainee's own drill (of this mode, if given); 404 otherwise, without revealing that another
    trainee's drill exists. A drill whose kind is no longer installed cannot be shown or graded: 404."""
    try:
        drill = store().drill(drill_id)
    except NotFoundError:
        drill = None
    if drill is None or drill["trainee_id"] != trainee_id or (mode is not None and drill["mode"] != mode):
        abort(404, description=gettext("There is no such question."))
    if drill["kind"] not in REGISTRY:
        abort(404, description=gettext("This question belongs to a drill that is no longer available."))
    return drill
