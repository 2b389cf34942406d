"""Sprints: N questions of one drill against a clock that the server keeps.

The store records when the sprint started and counts only answers given within its duration; the
browser's countdown is a display. Which question is current, and how many were answered or skipped,
is kept in the signed session cookie (the browser cannot change it). The store's sprint `scope` is
"<kind>/<N>", or "<game>/<N>" for a mixed sprint (the game's drills in turn, shuffled), so personal
bests compare sprints of the same drill (or mix) and length.

A sprint is scored (and so recorded as finished) by a POST only: the last answer or skip, an answer sent
after the time ran out, or `POST /sprint/<id>/finish` (which the clock's script sends at zero, and the
"see the result" button of a result page opened before then). A GET of the result never writes.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, session, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

from trainer import games
from trainer.drills import REGISTRY, AnswerError
from trainer.drills.base import expected_of
from trainer.store import AlreadyAnsweredError, NotFoundError, stats
from trainer.web import db
from trainer.web.answer_input import kept_input, read_answer
from trainer.web.catalog import games_with_kinds, kind_or_404, kind_title, mixed_kinds, sprint_title
from trainer.web.forms import DEFAULT_SPRINT_SECONDS, SPRINT_LENGTHS, SPRINT_SECONDS, EmptyForm, SprintForm
from trainer.web.guards import check_form, own_drill, require_trainee
from trainer.web.i18n import error_text

bp = Blueprint("sprint", __name__, url_prefix="/sprint")


@bp.route("/", methods=["GET", "POST"])
def start() -> str | Response | tuple[str, int]:
    form = SprintForm()
    if request.method == "GET":
        form.kind.data = request.args.get("kind", "")
        form.level.data = 1
        form.length.data = SPRINT_LENGTHS[0]
        form.seconds.data = DEFAULT_SPRINT_SECONDS
        return render_template(
            "sprint_start.html",
            form=form,
            games=games_with_kinds(),
            lengths=SPRINT_LENGTHS,
            times=SPRINT_SECONDS,
        )
    check_form(form)
    what, mix = _drills_of(form.kind.data, form.level.data)
    trainee = require_trainee(start=True)
    n, seconds = form.length.data, form.seconds.data
    sprint_id = db.store().start_sprint(trainee, f"{what}/{n}", form.level.data, seconds)
    state = {"id": sprint_id, "kind": what, "mix": mix, "n": n, "done": 0, "skipped": 0}
    state["current"] = db.new_drill(
        trainee, REGISTRY[_kind_at(state)], form.level.data, mode="sprint", sprint_id=sprint_id
    )
    session["sprint"] = state
    return redirect(url_for("sprint.run", sprint_id=sprint_id))


def _drills_of(chosen: str, level: int) -> tuple[str, list[str]]:
    """What the sprint drills (a kind id, or a game id for a mixed sprint) and the kinds it asks in
    turn: one kind, or the game's kinds at this level in a shuffled order that repeats."""
    if games.get(chosen) is not None:
        kinds = [kind.id for kind in mixed_kinds(chosen, level)]
        if not kinds:
            abort(400, description=gettext("This game has no drills at level %(level)s.", level=level))
        random.shuffle(kinds)
        return chosen, kinds
    kind = kind_or_404(chosen)
    if level not in kind.levels:
        abort(400, description=gettext("This drill has no level %(level)s.", level=level))
    return kind.id, [kind.id]


def _kind_at(state: dict[str, Any]) -> str:
    """The kind of the sprint's next question (a run started before mixed sprints has no "mix")."""
    mix = state.get("mix") or [state["kind"]]
    return str(mix[state["done"] % len(mix)])


def _own_sprint(sprint_id: int, trainee: int) -> dict[str, Any]:
    try:
        sprint = db.store().sprint(sprint_id)
    except NotFoundError:
        sprint = None
    if sprint is None or sprint["trainee_id"] != trainee:
        abort(404, description=gettext("There is no such sprint."))
    return sprint


def _state(sprint_id: int) -> dict[str, Any] | None:
    state = session.get("sprint")
    return state if isinstance(state, dict) and state.get("id") == sprint_id else None


def _remaining(sprint: dict[str, Any]) -> float:
    started = datetime.fromisoformat(sprint["started_at"])
    ends = started + timedelta(seconds=sprint["duration_s"])
    return (ends - datetime.now(UTC)).total_seconds()


def _over(sprint: dict[str, Any], state: dict[str, Any] | None) -> bool:
    return (
        sprint["finished_at"] is not None
        or state is None
        or state["done"] >= state["n"]
        or _remaining(sprint) <= 0
    )


@bp.get("/<int:sprint_id>")
def run(sprint_id: int) -> str | Response:
    trainee = require_trainee()
    sprint = _own_sprint(sprint_id, trainee)
    state = _state(sprint_id)
    if _over(sprint, state):
        return redirect(url_for("sprint.result", sprint_id=sprint_id))
    return _render(sprint, state)


def _render(
    sprint: dict[str, Any],
    state: dict[str, Any],
    error: str | None = None,
    kept: dict[str, Any] | None = None,
) -> str:
    drill = own_drill(state["current"], sprint["trainee_id"], "sprint")
    kind = REGISTRY[drill["kind"]]
    return render_template(
        "sprint_run.html",
        sprint=sprint,
        state=state,
        drill=drill,
        kind=kind,
        title=kind_title(kind),
        situation=drill["situation"],
        remaining=max(0, int(_remaining(sprint))),
        form=EmptyForm(),
        error=error,
        kept=kept or {},
    )


def _advance(sprint: dict[str, Any], state: dict[str, Any], *, skipped: bool, last: bool | None) -> None:
    state = dict(state, done=state["done"] + 1, skipped=state["skipped"] + int(skipped), last=last)
    session["sprint"] = state
    if state["done"] < state["n"] and _remaining(sprint) > 0:
        state["current"] = db.new_drill(
            sprint["trainee_id"],
            REGISTRY[_kind_at(state)],
            sprint["level"],
            mode="sprint",
            sprint_id=sprint["id"],
        )
    else:
        _finish(sprint)


def _finish(sprint: dict[str, Any]) -> None:
    """Score the sprint (answers within its time count) and forget the session's run of it."""
    if sprint["finished_at"] is None:
        db.store().finish_sprint(sprint["id"])
    if _state(sprint["id"]) is not None:
        session.pop("sprint", None)


@bp.post("/<int:sprint_id>/finish")
def finish(sprint_id: int) -> Response:
    trainee = require_trainee()
    check_form(EmptyForm())
    sprint = _own_sprint(sprint_id, trainee)
    if _over(sprint, _state(sprint_id)):
        _finish(sprint)
    return redirect(url_for("sprint.result", sprint_id=sprint_id), code=303)


@bp.post("/<int:sprint_id>/answer")
def answer(sprint_id: int) -> str | Response | tuple[str, int]:
    trainee = require_trainee()
    check_form(EmptyForm())
    sprint = _own_sprint(sprint_id, trainee)
    state = _state(sprint_id)
    if _over(sprint, state):
        _finish(sprint)
        return redirect(url_for("sprint.result", sprint_id=sprint_id))
    if request.form.get("drill") != str(state["current"]):
        # An old tab or a double click: the current question is still open, show it again.
        return redirect(url_for("sprint.run", sprint_id=sprint_id))
    drill = own_drill(state["current"], trainee, "sprint")
    fmt = drill["situation"].answer_format
    try:
        result, _attempt = db.store().answer(drill["id"], read_answer(fmt, request.form))
    except AnswerError as error:
        return _render(sprint, state, error_text(error), kept_input(fmt, request.form, error=error)), 400
    except AlreadyAnsweredError:
        return redirect(url_for("sprint.run", sprint_id=sprint_id))
    _advance(sprint, state, skipped=False, last=result.correct)
    return redirect(url_for("sprint.run", sprint_id=sprint_id))


@bp.post("/<int:sprint_id>/skip")
def skip(sprint_id: int) -> Response:
    trainee = require_trainee()
    check_form(EmptyForm())
    sprint = _own_sprint(sprint_id, trainee)
    state = _state(sprint_id)
    if _over(sprint, state):
        _finish(sprint)
    elif request.form.get("drill") == str(state["current"]):
        _advance(sprint, state, skipped=True, last=None)
    return redirect(url_for("sprint.run", sprint_id=sprint_id))


@bp.get("/<int:sprint_id>/result")
def result(sprint_id: int) -> str | Response:
    trainee = require_trainee()
    sprint = _own_sprint(sprint_id, trainee)
    if sprint["finished_at"] is None:
        if not _over(sprint, _state(sprint_id)):
            return redirect(url_for("sprint.run", sprint_id=sprint_id))
        # Over but not yet scored (the clock ran out with no script to report it): the button scores it.
        return render_template("sprint_finish.html", sprint=sprint, form=EmptyForm())
    kind_id, n = stats.sprint_scope(sprint["scope"])
    started = datetime.fromisoformat(sprint["started_at"])
    taken = (datetime.fromisoformat(sprint["finished_at"]) - started).total_seconds()
    return render_template(
        "sprint_result.html",
        sprint=sprint,
        title=sprint_title(kind_id),
        kind_id=kind_id,
        n=n,
        taken=min(taken, sprint["duration_s"]),
        record=stats.sprint_record(db.store().db, sprint),
        misses=misses(sprint_id),
        lengths=SPRINT_LENGTHS,
        default_seconds=DEFAULT_SPRINT_SECONDS,
    )


def misses(sprint_id: int) -> list[dict[str, Any]]:
    """The sprint's questions not answered right in time, in the order asked, each with its table,
    the answer given (if any), the right one and the explanation; `missed` says how it was missed."""
    found = []
    for drill in db.store().sprint_drills(sprint_id):
        attempt = drill["attempt"]
        if attempt is not None and attempt["correct"] and drill["in_time"]:
            continue
        kind = REGISTRY.get(drill["kind"])
        if kind is None:  # a drill kind removed since the sprint: nothing to draw it with
            continue
        expected, _text, steps = expected_of(drill["situation"], kind)
        if attempt is None:
            attempt = {"answer": None, "expected": expected, "correct": False, "time_ms": None}
        missed = "wrong" if drill["in_time"] else ("late" if drill["attempt"] else "unanswered")
        found.append(
            {
                "drill": drill,
                "kind": kind,
                "situation": drill["situation"],
                "attempt": attempt,
                "steps": steps,
                "missed": missed,
            }
        )
    return found
