"""Sprints: N questions of one drill against a clock that the server keeps.

Everything that decides a score lives on the server: the sprint row keeps its clock (when it started,
its duration), how many questions it asks and the drill kinds it asks in turn; its questions are its
drills, one open at a time, added under the write lock (`Store.next_sprint_question`), so a replayed
cookie, a second tab or a double tap can neither add a question nor answer one twice. The cookie
carries nothing of the sprint, and the browser's countdown is a display. The store's sprint `scope` is
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

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response

from trainer import games
from trainer.drills import REGISTRY, AnswerError
from trainer.drills.base import expected_of
from trainer.drills.pace import Pace
from trainer.store import AlreadyAnsweredError, stats
from trainer.web.core import db, kept
from trainer.web.core.forms import (
    DEFAULT_SPRINT_SECONDS,
    SPRINT_LENGTHS,
    SPRINT_SECONDS,
    EmptyForm,
    SprintForm,
)
from trainer.web.core.guards import Page, check_form, own_drill, require_trainee
from trainer.web.core.i18n import error_text
from trainer.web.core.pace import rated
from trainer.web.practice.forms import SprintQuestionForm
from trainer.web.situations.answers import kept_input, read_answer
from trainer.web.situations.catalog import (
    games_with_kinds,
    kind_or_404,
    kind_title,
    mixed_kinds,
    sprint_title,
)

bp = Blueprint("sprints", __name__, url_prefix="/sprint")


@bp.route("/", methods=["GET", "POST"])
def start() -> Page:
    form = SprintForm()
    if request.method == "GET":
        form.kind.data = request.args.get("kind", "")
        form.level.data = 1
        form.length.data = SPRINT_LENGTHS[0]
        form.seconds.data = DEFAULT_SPRINT_SECONDS
        return render_template(
            "practice/sprint_start.html",
            form=form,
            games=games_with_kinds(),
            lengths=SPRINT_LENGTHS,
            times=SPRINT_SECONDS,
        )
    check_form(form)
    what, mix = _drills_of(form.kind.data, form.level.data)
    trainee = require_trainee(start=True)
    n, seconds = form.length.data, form.seconds.data
    sprint_id = db.store().start_sprint(
        trainee, f"{what}/{n}", form.level.data, seconds, questions=n, kinds=mix
    )
    next_question(db.store().sprint(sprint_id))
    return redirect(url_for("sprints.run", sprint_id=sprint_id))


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


def _own_sprint(sprint_id: int, trainee: int) -> dict[str, Any]:
    sprint = db.found(db.store().sprint, sprint_id)
    if sprint is None or sprint["trainee_id"] != trainee:
        abort(404, description=gettext("There is no such sprint."))
    return sprint


def _state(sprint: dict[str, Any]) -> dict[str, Any]:
    """Where the sprint stands, from its questions in the store: `done` (answered or skipped), `n`
    (its questions), `current` (the open question's drill id, or None) and `last` (whether the
    previous answer was right; None after a skip or before the first answer)."""
    asked = db.store().sprint_questions(int(sprint["id"]))
    closed = [q for q in asked if not q["open"]]
    current = asked[-1]["id"] if asked and asked[-1]["open"] else None
    return {
        "done": len(closed),
        "n": sprint["questions"] or len(asked),
        "current": current,
        "last": closed[-1]["correct"] if closed else None,
    }


def _remaining(sprint: dict[str, Any]) -> float:
    started = datetime.fromisoformat(sprint["started_at"])
    ends = started + timedelta(seconds=sprint["duration_s"])
    return (ends - datetime.now(UTC)).total_seconds()


def _over(sprint: dict[str, Any], state: dict[str, Any]) -> bool:
    return sprint["finished_at"] is not None or state["done"] >= state["n"] or _remaining(sprint) <= 0


def next_question(sprint: dict[str, Any]) -> None:
    """Give the sprint its next question while questions and time remain, else score it."""
    if sprint["finished_at"] is None and _remaining(sprint) > 0:

        def draw(kind: str, seed: int | None = None, rules: str | None = None) -> Any:
            if kind not in REGISTRY:
                return None
            return db.draw(kind, sprint["level"], seed=seed, rules=rules)

        if db.store().next_sprint_question(int(sprint["id"]), draw) is not None:
            return
    _finish(sprint)


def _another_tab(sprint: dict[str, Any], sent: int | None) -> str:
    """Why an answer was not recorded: the form was for one of the sprint's questions that is closed
    already (answered or skipped in another tab, or a page sent twice), or for no question of this
    sprint at all (a tab left open on another sprint): never dropped without a word."""
    closed = {q["id"] for q in db.store().sprint_questions(int(sprint["id"])) if not q["open"]}
    if sent in closed:
        return gettext(
            "This question was already answered or skipped in another tab; the first answer counts."
        )
    return gettext(
        "That answer came from a page that is out of date (another tab?) and was not recorded: "
        "here is the sprint's current question."
    )


def _not_recorded(sprint: dict[str, Any], sent: int | None) -> Response | tuple[Response, int]:
    """Back to the sprint's current question with the reason said (to the phone's queue, in words)."""
    said = _another_tab(sprint, sent)
    if kept.is_kept():
        return kept.reply(
            said,
            recorded=False,
            href=url_for("sprints.run", sprint_id=sprint["id"]),
            link=gettext("Go on with the sprint"),
        )
    flash(said, "error")
    return redirect(url_for("sprints.run", sprint_id=sprint["id"]))


def _too_late(sprint: dict[str, Any]) -> tuple[Response, int]:
    """A kept answer that reached the server after the sprint was over: not counted, and said so. The
    server's clock decides, never the phone's: time spent offline is time of the sprint."""
    if _remaining(sprint) <= 0:
        said = gettext(
            "The sprint's time ran out before this answer reached the server, so it does not count. "
            "The sprint is scored with the answers that arrived in time."
        )
    else:
        said = gettext("This sprint was already over when this answer reached the server; it does not count.")
    return kept.reply(
        said,
        recorded=False,
        href=url_for("sprints.result", sprint_id=sprint["id"]),
        link=gettext("See the result"),
    )


@bp.get("/<int:sprint_id>")
def run(sprint_id: int) -> str | Response:
    trainee = require_trainee()
    sprint = _own_sprint(sprint_id, trainee)
    state = _state(sprint)
    if _over(sprint, state):
        return redirect(url_for("sprints.result", sprint_id=sprint_id))
    if state["current"] is None:
        # Between a question closed by another request and its next one being added (or after
        # a request failed in between): a GET writes nothing, so a button asks for the next one.
        return render_template("practice/sprint_finish.html", sprint=sprint, form=EmptyForm(), waiting=True)
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
        "practice/sprint_run.html",
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


def _finish(sprint: dict[str, Any]) -> None:
    """Score the sprint (answers within its time count)."""
    if sprint["finished_at"] is None:
        db.store().finish_sprint(sprint["id"])


def _posted(
    sprint_id: int, form: FlaskForm | None = None
) -> tuple[int, dict[str, Any], dict[str, Any], bool]:
    """A button of the trainee's own sprint (its `form` checked first): the trainee, the sprint, where
    it stands, and whether it is over (then it is scored now, whatever the button asked)."""
    trainee = require_trainee()
    check_form(form or EmptyForm())
    sprint = _own_sprint(sprint_id, trainee)
    state = _state(sprint)
    over = _over(sprint, state)
    if over:
        _finish(sprint)
    return trainee, sprint, state, over


@bp.post("/<int:sprint_id>/finish")
def finish(sprint_id: int) -> Response:
    _, sprint, state, over = _posted(sprint_id)
    if not over and state["current"] is None:
        next_question(sprint)
    return redirect(url_for("sprints.result", sprint_id=sprint_id), code=303)


@bp.post("/<int:sprint_id>/answer")
def answer(sprint_id: int) -> str | Response | tuple[str | Response, int]:
    form = SprintQuestionForm()
    trainee, sprint, state, over = _posted(sprint_id, form)
    if over:
        if kept.is_kept():
            return _too_late(sprint)
        return redirect(url_for("sprints.result", sprint_id=sprint_id))
    if form.drill.data is None or form.drill.data != state["current"]:
        # An old tab, a replayed page or a double click: the current question is still open.
        return _not_recorded(sprint, form.drill.data)
    drill = own_drill(state["current"], trainee, "sprint")
    fmt = drill["situation"].answer_format
    try:
        db.store().answer(drill["id"], read_answer(fmt, request.form))
    except AnswerError as error:
        if kept.is_kept():
            here = url_for("sprints.run", sprint_id=sprint_id)
            link = gettext("Go on with the sprint")
            return kept.reply(error_text(error), recorded=False, href=here, link=link, status=400)
        return _render(sprint, state, error_text(error), kept_input(fmt, request.form, error=error)), 400
    except AlreadyAnsweredError:
        return _not_recorded(sprint, form.drill.data)
    next_question(sprint)
    return kept.recorded(
        gettext("The connection is back: your sprint answer was sent and recorded."),
        href=url_for("sprints.run", sprint_id=sprint_id),
        link=gettext("Go on with the sprint"),
    )


@bp.post("/<int:sprint_id>/skip")
def skip(sprint_id: int) -> Response:
    form = SprintQuestionForm()
    _, sprint, state, over = _posted(sprint_id, form)
    if over:
        return redirect(url_for("sprints.run", sprint_id=sprint_id))
    if (
        form.drill.data is not None
        and form.drill.data == state["current"]
        and db.store().skip_sprint_question(int(state["current"]))
    ):
        next_question(sprint)
    else:
        flash(_another_tab(sprint, form.drill.data), "error")
    return redirect(url_for("sprints.run", sprint_id=sprint_id))


@bp.get("/<int:sprint_id>/result")
def result(sprint_id: int) -> str | Response:
    trainee = require_trainee()
    sprint = _own_sprint(sprint_id, trainee)
    if sprint["finished_at"] is None:
        if not _over(sprint, _state(sprint)):
            return redirect(url_for("sprints.run", sprint_id=sprint_id))
        # Over but not yet scored (the clock ran out with no script to report it): the button scores it.
        return render_template("practice/sprint_finish.html", sprint=sprint, form=EmptyForm())
    kind_id, n = stats.sprint_scope(sprint["scope"])
    started = datetime.fromisoformat(sprint["started_at"])
    taken = (datetime.fromisoformat(sprint["finished_at"]) - started).total_seconds()
    return render_template(
        "practice/sprint_result.html",
        sprint=sprint,
        title=sprint_title(kind_id),
        kind_id=kind_id,
        n=n,
        taken=min(taken, sprint["duration_s"]),
        record=stats.sprint_record(db.store().db, sprint),
        misses=misses(sprint_id),
        paced=pace_counts(sprint_id),
        duel=db.duels().duel_of_sprint(sprint_id),
        lengths=SPRINT_LENGTHS,
        default_seconds=DEFAULT_SPRINT_SECONDS,
    )


def pace_counts(sprint_id: int) -> dict[str, int]:
    """How many of the sprint's right answers in time were fast, on pace and slow (`core.pace`)."""
    counts = {rating.value: 0 for rating in Pace}
    for drill in db.store().sprint_drills(sprint_id):
        found = rated(drill["kind"], drill["attempt"], drill.get("group_id")) if drill["in_time"] else None
        if found is not None:
            counts[found["pace"]] += 1
    return counts


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
        expected, _text, steps = expected_of(drill["situation"], kind, houses=db.houses())
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
