"""The web's one door to the progress store: the store of this request, the trainee, drill-or-404.

Pages and the JSON API both come through here, so they cannot drift apart: the same trainee for the
same session, the same 404 for a drill that is not this trainee's or whose kind is no longer installed.

- `store()`: a `Store` on a connection for this request, handed back when the request ends and kept
  for the next (`trainer.store.connections`: a new connection parses the whole schema first, 1.9 ms).
  The file must exist: it is created and migrated once at start-up, never by a request.
- `trainee(create=...)`: the trainee of the signed-in user (session, or the API's bearer token), else
  the session's guest, or None. A guest row is created only when `create` is true, which views pass on
  POST only: a GET never adds a trainee.
- `drill_or_404(drill_id, trainee_id, mode=None)`: the trainee's own drill, or a 404.
- `tables()`: the live table's rounds and table tests, on the same connection as `store()`.
- `start_round(...)`: deal and record a live-table round under the rules asked for, else the house rules
  in force for the game (the trainee's choice, else his group's, shipped preset or edited copy); a
  table that cannot be dealt under those (a copy leaving no seats for the seats asked) falls back to
  the game's default rules, which the round records.
- `groups()`: groups, members and the desk's queries, on the same connection.
- `new_drill(...)`: draw and record a drill for the trainee, under the house rules the trainee chose
  for the game (`chosen_rules`, kept in the session), else those of the group the signed-in user
  practises for (a kind that group's table does not have, such as the bonus at a table
  without one, is drawn under the game's default rules; the drill records which rules it used).

A storage fault (a read-only or vanished database file, an unwritable or missing instance folder, a
database locked past `DATABASE_TIMEOUT`, a damaged file) is answered 503 with `Retry-After`, a clear
translated page (JSON under /api/), and a log line; the failed write is rolled back, so nothing stored
before is lost. A database that cannot be created at start-up is tried again on the next request; one
that existed and then disappeared is never recreated, by a request or by a restart: with
`DATABASE_RECORD` set (the instance folder's `databases`, see `known_databases`), start-up refuses a
missing database once the instance has run on one, unless `CREATE_DATABASE` (`migrate`) says to make it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from flask import Flask, abort, current_app, g, jsonify, render_template, request, session
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from trainer import games
from trainer.drills import REGISTRY, DrillKind, RulesError, Situation, issue
from trainer.engine.presets import HouseSource
from trainer.store import NotFoundError, Store, open_db
from trainer.store.comments import Comments
from trainer.store.connections import Connections
from trainer.store.duels import Duels
from trainer.store.groups import Groups
from trainer.store.quizzes import Exams
from trainer.store.schema import diagnose
from trainer.store.tables import TableStore
from trainer.web.core import identity, known_databases

T = TypeVar("T")

DEFAULT_TIMEOUT_S = 5.0  # how long a request waits for another's write lock before giving up
RETRY_AFTER_S = 30  # what a 503 tells the client: long enough for an operator or a lock to clear


def init_app(app: Flask) -> None:
    """Create and migrate the database once for this app; hand each request's connection back after it."""
    if "trainer_db" in app.extensions:
        return
    app.config.setdefault("DATABASE_TIMEOUT", DEFAULT_TIMEOUT_S)
    app.extensions["trainer_db"] = {"ready": False, "connections": {}}
    record = app.config.get("DATABASE_RECORD")
    if record and str(app.config["DATABASE"]) != ":memory:":
        # Before anything opens the file: SQLite would create a missing one empty.
        known_databases.check(app.config["DATABASE"], Path(record), create=app.config.get("CREATE_DATABASE"))
    try:
        _create(app)
    except (sqlite3.DatabaseError, OSError) as error:
        # Start anyway: the pages that need no store work, the others answer 503 until it is fixed.
        remedy = diagnose(app.config["DATABASE"])
        app.logger.error(
            "The database %s cannot be opened at start-up: %s%s",
            app.config["DATABASE"],
            error,
            "" if remedy is None else f"; to fix: {remedy}",
        )
    app.teardown_appcontext(_close)
    app.register_error_handler(sqlite3.DatabaseError, _storage_fault)


def _create(app: Flask) -> None:
    if str(app.config["DATABASE"]) != ":memory:":
        # ":memory:" (tests of pages without the store): every connection is a new empty database, so
        # migrating one at start-up, to close it at once, would make nothing that a request can see.
        opened = open_db(
            app.config["DATABASE"], timeout=app.config["DATABASE_TIMEOUT"], synchronous=_synchronous(app)
        )
        opened.conn.close()
    app.extensions["trainer_db"]["ready"] = True
    record = app.config.get("DATABASE_RECORD")
    if record and str(app.config["DATABASE"]) != ":memory:":
        try:
            known_databases.remember(Path(record), app.config["DATABASE"])
        except OSError as error:
            app.logger.warning(
                "The record of this instance's databases %s cannot be written (%s): a lost database "
                "would not be noticed at the next start",
                record,
                error,
            )


def _synchronous(app: Flask) -> str:
    return str(app.config.get("DATABASE_SYNCHRONOUS") or "NORMAL")


def _connections() -> Connections:
    """The kept connections to the database this app's config names now (a test may point it at
    another file between requests)."""
    config = current_app.config
    key = (str(config["DATABASE"]), float(config["DATABASE_TIMEOUT"]), _synchronous(current_app))
    kept: dict[tuple[str, float, str], Connections] = current_app.extensions["trainer_db"]["connections"]
    found = kept.get(key)
    if found is None:
        found = kept.setdefault(key, Connections(key[0], timeout=key[1], synchronous=key[2]))
    return found


def store() -> Store:
    if "trainer_store" not in g:
        if not current_app.extensions["trainer_db"]["ready"]:
            _create(current_app)  # it failed at start-up: nothing was ever stored, creating is safe
        pool = _connections()
        g.trainer_store, g.trainer_connections = Store(pool.take()), pool
    held: Store = g.trainer_store
    return held


def _storage_fault(error: sqlite3.DatabaseError) -> ResponseReturnValue:
    if isinstance(error, sqlite3.IntegrityError | sqlite3.ProgrammingError | sqlite3.InterfaceError):
        raise error  # a bug, not the storage: the plain 500 path
    g.trainer_store_broken = True  # this request's connection is closed, not kept for the next
    database = current_app.config["DATABASE"]
    current_app.logger.error(
        "Storage fault on %s %s (database %s): %s%s",
        request.method,
        request.path,
        database,
        error,
        "" if (remedy := diagnose(database)) is None else f"; to fix: {remedy}",
    )
    title = gettext("Progress cannot be saved right now")
    message = gettext(
        "The trainer cannot reach its records at the moment. Everything you answered before is kept. "
        "Try again in a minute; if this persists, tell your instructor."
    )
    if request.path.startswith("/api/"):
        response = jsonify(error=message, status=503)
        response.status_code = 503
    else:
        response = current_app.make_response(
            (render_template("error.html", code=503, title=title, message=message), 503)
        )
    response.headers["Retry-After"] = str(RETRY_AFTER_S)
    return response


class _RequestHouses:
    """This request's house presets, opening the store only when a house preset is asked for: a page
    under shipped rules (a guest's home page) works while the database cannot be opened."""

    def house_text(self, game: str, name: str) -> str | None:
        return store().houses.house_text(game, name)


def houses() -> HouseSource:
    """The instructors' house presets of this app's database, for the engine and the drills: every
    call that may deal, grade or show a group's edited copy is handed this (nothing global)."""
    found = g.get("houses")
    if found is None:
        found = g.houses = _RequestHouses()
    return found


def tables() -> TableStore:
    """The live table's part of the store (rounds, table tests) on this request's connection."""
    return TableStore(store().db)


def start_round(trainee: int, game: str, level: int, *, rules: str | None = None, **options: Any) -> int:
    """A new round for the trainee under `rules`, else the house rules in force for the game (see the
    module's docstring); `RoundError` when the round asked for cannot be dealt."""
    from trainer.drills.rounds import RoundError

    if rules is not None:
        return tables().start_round(trainee, game, level, rules=rules, **options)
    house = rules_for_game(game)
    try:
        return tables().start_round(trainee, game, level, rules=house, **options)
    except RoundError:
        if house is None:
            raise
        return tables().start_round(trainee, game, level, **options)


def groups() -> Groups:
    """Groups and the instructor's desk, on this request's connection."""
    return Groups(store().db)


def streamed_from_groups(read: Callable[[Groups], Iterator[T]]) -> Iterator[T]:
    """The rows `read` gives, for a streamed response: they are read after the view has returned,
    when this request's connection is closed, so on a connection of their own, opened as the first
    row is asked for and closed after the last (or when the download stops)."""
    config = current_app.config
    path, timeout, synchronous = config["DATABASE"], config["DATABASE_TIMEOUT"], _synchronous(current_app)

    def rows() -> Iterator[T]:
        opened = open_db(path, migrate=False, timeout=timeout, synchronous=synchronous)
        try:
            yield from read(Groups(opened))
        finally:
            opened.conn.close()

    return rows()


def duels() -> Duels:
    """Duels between groupmates, on this request's connection."""
    return Duels(store().db)


def exams() -> Exams:
    """Assigned quizzes (exams) and their sittings, on this request's connection."""
    return Exams(store().db)


def comments() -> Comments:
    """Instructors' comments on quiz sittings, on this request's connection."""
    return Comments(store().db)


def practice_group_id() -> int | None:
    """The group the signed-in user practises for (None for a guest or without a choice)."""
    user_id = identity.user_id()
    if user_id is None:
        return None
    group = groups().practising_for(user_id)
    return None if group is None else int(group["id"])


def practice_rules(game: str) -> str | None:
    """The house rules preset of this game for the group the signed-in user practises for, if any."""
    group_id = practice_group_id()
    return None if group_id is None else groups().rules(group_id).get(game)


CHOSEN_RULES = "house_rules"  # the session's {game id: preset name} the trainee chose to practise under


def chosen_rules(game: str) -> str | None:
    """The shipped preset the trainee chose to practise this game under (kept in the session, so a
    guest chooses too), or None: the group's rules, else the game's default."""
    chosen = session.get(CHOSEN_RULES)
    name = chosen.get(game) if isinstance(chosen, dict) else None
    known = games.get(game)
    return name if known is not None and name in known.preset_names() else None


def rules_for_game(game: str) -> str | None:
    """The house rules the next question of this game is dealt under, as far as the game decides:
    the trainee's choice, else his group's (a kind the table lacks falls back when drawn)."""
    return chosen_rules(game) or practice_rules(game)


def choose_rules(game: str, name: str | None) -> None:
    """Practise this game under the shipped preset `name` from now on (None: back to the default)."""
    chosen = dict(session.get(CHOSEN_RULES) or {})
    if name is None:
        chosen.pop(game, None)
    else:
        chosen[game] = name
    session[CHOSEN_RULES] = chosen


def draw(
    kind: str | DrillKind, level: int, *, seed: int | None = None, rules: str | None = None
) -> tuple[Situation, int | None]:
    """A situation under `rules`, else the rules the trainee chose for the game, else the
    practised-for group's rules; and that group's id."""
    group_id = practice_group_id()
    kind_id = kind if isinstance(kind, str) else kind.id
    game = games.game_of(kind_id)
    chosen = chosen_rules(game.id) if game is not None else None
    house = rules if rules is not None else chosen or groups().rules_for_kind(group_id, kind_id)
    try:
        return issue(kind, level, seed=seed, rules=house, houses=houses()), group_id
    except RulesError:
        if rules is not None or house is None:
            raise
        return issue(kind, level, seed=seed), group_id  # the group's table has no such bet or buy


def new_drill(
    trainee_id: int,
    kind: str | DrillKind,
    level: int,
    *,
    seed: int | None = None,
    mode: str = "practice",
    sprint_id: int | None = None,
) -> int:
    """Draw a drill (`draw`) and record it for the trainee; the drill id."""
    situation, group_id = draw(kind, level, seed=seed)
    return store().save_drill(trainee_id, situation, mode=mode, sprint_id=sprint_id, group_id=group_id)


def _close(error: BaseException | None) -> None:
    held = g.pop("trainer_store", None)
    if held is not None:
        broken = error is not None or g.pop("trainer_store_broken", False)
        g.pop("trainer_connections").give_back(held.db, broken=broken)


def trainee(*, create: bool = False) -> dict[str, Any] | None:
    """The signed-in user's trainee, else the session's guest. Without `create` nothing is written:
    a session without a guest row gives None."""
    user_id = identity.user_id()
    if user_id is not None:
        return store().trainee(user_id)
    held = identity.guest_id()
    if held is not None:
        try:
            return store().trainee(held)
        except NotFoundError:
            session.pop(identity.GUEST_KEY, None)
    if not create:
        return None
    row = store().new_anonymous_trainee()
    session[identity.GUEST_KEY] = int(row["id"])
    return row


def trainee_id(*, create: bool = False) -> int | None:
    row = trainee(create=create)
    return None if row is None else int(row["id"])


def found(read: Callable[..., T], *args: Any) -> T | None:
    """What `read(*args)` gives, or None where the store has no such row (`NotFoundError`): a view
    then answers one 404 for a row that does not exist and for one that is not the caller's."""
    try:
        return read(*args)
    except NotFoundError:
        return None


def drill_or_404(drill_id: int, trainee_id: int | None, mode: str | None = None) -> dict[str, Any]:
    """The trainee's own drill (of this mode, if given); 404 otherwise, without revealing that another
    trainee's drill exists. A drill whose kind is no longer installed cannot be shown or graded: 404."""
    drill = found(store().drill, drill_id)
    if drill is None or drill["trainee_id"] != trainee_id or (mode is not None and drill["mode"] != mode):
        abort(404, description=gettext("There is no such question."))
    if drill["kind"] not in REGISTRY:
        abort(404, description=gettext("This question belongs to a drill that is no longer available."))
    return drill
