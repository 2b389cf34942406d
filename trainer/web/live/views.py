"""The live class: the instructor runs one question at a time on the projector, the group answers on phones.

Who may call what:
- `/live/new`, `/live/<id>/projector`, `/live/<id>/control`, `/live/<id>/summary`: the instructor who
  runs the session only; anyone else gets 404, as if it did not exist.
- `/live/join`, `/live/j/<code>`: a signed-in member of the session's group (joining is a POST);
  anyone else is refused with a sentence.
- `/live/<id>/phone`, `/live/<id>/answer`: a trainee who joined; anyone else gets 404.
- `/live/<id>/state.json`: the instructor or a player: the state, its version, the time left and how
  many answered; never an answer, a right answer or a score (those are shown by the pages, and only
  after the reveal).

Pages poll the state every 1.5 s and reload when its `version` changes (a new question, a pause, the
reveal): short polling works behind any proxy, holds no connection open between polls (a room of phones
does not tie up the server's threads), and a phone that drops comes back where the session is by
loading the page again.
"""

from __future__ import annotations

import random
from typing import Any

import segno
from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_login import current_user, login_required
from markupsafe import Markup
from werkzeug.wrappers import Response

from trainer.drills import REGISTRY, AnswerError, RulesError, issue
from trainer.drills.base import expected_of
from trainer.drills.mistakes import mistake_title
from trainer.store import NotFoundError
from trainer.store.live import LiveSessions
from trainer.store.progress import Refusal
from trainer.web.core import db
from trainer.web.core.auth import instructor_required
from trainer.web.core.guards import FormPage, Page, check_form
from trainer.web.core.i18n import error_text
from trainer.web.core.pace import rated as pace_of
from trainer.web.live.forms import SECONDS_CHOICES, ControlForm, JoinLiveForm, LiveAnswerForm, NewLiveForm
from trainer.web.situations.answers import kept_input, read_answer
from trainer.web.situations.catalog import games_with_kinds, kind_title

bp = Blueprint("live", __name__, url_prefix="/live")

POLL_MS = 1500


def sessions() -> LiveSessions:
    return LiveSessions(db.store().db)


def refusal_text(refusal: Refusal) -> str:
    """The sentence for a live session's refusal, in the user's language."""
    texts = {
        "not_member": gettext("This live session is for another group: join that group first."),
        "ended": gettext("This live session has ended."),
        "not_player": gettext("Join the live session first."),
        "closed": gettext("This question is closed: answers are no longer taken."),
        "answered": gettext("You have answered this question already; the first answer counts."),
        "busy": gettext("A question is still open: reveal it first."),
        "done": gettext("Every question of this session has been asked."),
        "not_open": gettext("No question is open."),
        "not_paused": gettext("The session is not paused."),
    }
    return texts.get(refusal.reason, gettext("This cannot be done now."))


def _owned(session_id: int) -> dict[str, Any]:
    try:
        return sessions().owned(session_id, current_user.id)
    except NotFoundError:
        abort(404, description=gettext("There is no such live session."))


def _played(session_id: int) -> dict[str, Any]:
    live = sessions()
    row = db.found(live.session, session_id)
    if row is None or not live.is_player(session_id, current_user.id):
        abort(404, description=gettext("There is no such live session."))
    return row


# The instructor ---------------------------------------------------------------------------------------


def _new_form() -> NewLiveForm:
    form = NewLiveForm()
    form.group.choices = [(int(g["id"]), g["name"]) for g in db.groups().owned_by(current_user.id)]
    form.kinds.choices = [(k.id, kind_title(k)) for game in games_with_kinds() for k in game["kinds"]]
    form.seconds.choices = [
        (s, gettext("The instructor paces") if s == 0 else gettext("%(seconds)s\u00a0s", seconds=s))
        for s in SECONDS_CHOICES
    ]
    form.scoring.choices = [
        ("fast", gettext("Right answers, more for fast ones")),
        ("right", gettext("Right answers only")),
    ]
    return form


@bp.route("/new", methods=["GET", "POST"])
@instructor_required
def new() -> Page:
    form = _new_form()
    page = FormPage("live/new.html", form, games=games_with_kinds())
    if (shown := page.shown_or_refused(group=request.args.get("group", type=int))) is not None:
        return shown
    kinds = [k for k in form.kinds.data if k in REGISTRY and form.level.data in REGISTRY[k].levels]
    if not kinds:
        form.kinds.errors = [gettext("None of the chosen drills has this level.")]
        return page.show(400)
    try:
        row = sessions().create(
            current_user.id,
            form.group.data,
            kinds=kinds,
            level=form.level.data,
            questions=form.questions.data,
            seconds=form.seconds.data or None,
            scoring=form.scoring.data,
        )
    except NotFoundError:
        abort(404, description=gettext("There is no such group."))
    return redirect(url_for("live.projector", session_id=row["id"]), code=303)


def _draw(row: dict[str, Any]) -> Any:
    """The next question's situation under the group's house rules (drawn before any lock is taken)."""
    position = row["position"] + 1
    kind = row["kinds"][position % len(row["kinds"])]
    house = db.groups().rules_for_kind(row["group_id"], kind)
    seed = random.SystemRandom().randrange(2**31)
    try:
        return issue(kind, row["level"], seed=seed, rules=house)
    except RulesError:
        return issue(kind, row["level"], seed=seed)  # the group's table has no such bet


@bp.post("/<int:session_id>/control")
@instructor_required
def control(session_id: int) -> Response:
    _owned(session_id)
    form = ControlForm()
    check_form(form)
    live = sessions()
    row = live.tick(session_id)  # a question whose time is up is revealed first: "next" then follows it
    try:
        match form.action.data:
            case "start" | "next":
                live.open_next(session_id, _draw(row))
            case "pause":
                live.pause(session_id)
            case "resume":
                live.resume(session_id)
            case "reveal":
                live.reveal(session_id)
            case "end":
                live.end(session_id)
    except Refusal as refusal:
        flash(refusal_text(refusal), "error")
    if form.action.data == "end":
        return redirect(url_for("live.summary", session_id=session_id), code=303)
    return redirect(url_for("live.projector", session_id=session_id), code=303)


def _reveal_view(question: dict[str, Any]) -> dict[str, Any]:
    """What the reveal shows of a question: the right answer and why, the spread, the fastest."""
    situation = question["situation"]
    kind = REGISTRY.get(situation.kind)
    expected, expected_text, steps = expected_of(situation, kind)
    spread = [
        {**r, "mistake_title": gettext(mistake_title(r["mistake"])) if r["mistake"] else None}
        for r in sessions().spread(int(question["id"]))
    ]
    return {
        "expected": expected,
        "expected_text": expected_text,
        "steps": steps,
        "spread": spread,
        "fastest": sessions().fastest(int(question["id"])),
    }


def _question_view(row: dict[str, Any], question: dict[str, Any] | None) -> dict[str, Any]:
    """What the projector and the phones both show of the session and its current question (None
    before the first): the question's drill and situation, the reveal once it is revealed, the time
    left, and how often the page asks for the state."""
    revealed = question is not None and row["state"] in ("revealed", "ended")
    return {
        "live": row,
        "question": question,
        "kind": REGISTRY.get(question["situation"].kind) if question else None,
        "situation": question["situation"] if question else None,
        "reveal": _reveal_view(question) if question is not None and revealed else None,
        "left_ms": sessions().left_ms(row, question),
        "poll_ms": POLL_MS,
    }


@bp.get("/<int:session_id>/projector")
@instructor_required
def projector(session_id: int) -> str:
    _owned(session_id)
    live = sessions()
    row = live.tick(session_id)
    question = live.current(session_id)
    qr = segno.make(url_for("live.join_code", code=row["code"], _external=True), error="m")
    return render_template(
        "live/projector.html",
        **_question_view(row, question),
        answered=live.answered_count(int(question["id"])) if question else 0,
        players=live.players(session_id),
        board=live.leaderboard(session_id),
        qr=Markup(qr.svg_inline(scale=8, dark="#111", light="#fff")),
        form=ControlForm(formdata=None),
    )


@bp.get("/<int:session_id>/summary")
@instructor_required
def summary(session_id: int) -> str:
    row = _owned(session_id)
    live = sessions()
    asked = []
    for question in live.questions(session_id):
        if question["revealed_at"] is None:
            continue
        kind = REGISTRY.get(question["situation"].kind)
        if kind is None:
            continue
        asked.append({"question": question, "kind": kind, **_reveal_view(question)})
    return render_template("live/summary.html", live=row, asked=asked, board=live.leaderboard(session_id))


@bp.get("/<int:session_id>/state.json")
@login_required
def state(session_id: int) -> Response:
    live = sessions()
    row = db.found(live.session, session_id)
    allowed = row is not None and (
        row["instructor_id"] == current_user.id or live.is_player(session_id, current_user.id)
    )
    if not allowed:
        abort(404, description=gettext("There is no such live session."))
    row = live.tick(session_id)
    question = live.current(session_id)
    response = jsonify(
        version=row["version"],
        state=row["state"],
        position=row["position"],
        questions=row["questions"],
        left_ms=live.left_ms(row, question),
        answered=live.answered_count(int(question["id"])) if question else 0,
        players=live.players(session_id),
    )
    response.cache_control.no_store = True
    return response


# The trainee ------------------------------------------------------------------------------------------


@bp.route("/join", methods=["GET", "POST"])
@login_required
def join() -> Page:
    form = JoinLiveForm()
    page = FormPage("live/join.html", form)
    if request.method == "GET":
        return page.first(code=request.args.get("code", ""))
    check_form(form)
    live = sessions()
    try:
        row = live.by_code(form.code.data)
        live.join(int(row["id"]), current_user.id)
    except NotFoundError:
        form.code.errors = [gettext("There is no live session with this code.")]
        return page.show(404)
    except Refusal as refusal:
        form.code.errors = [refusal_text(refusal)]
        return page.show(403)
    return redirect(url_for("live.phone", session_id=row["id"]), code=303)


@bp.get("/j/<code>")
@login_required
def join_code(code: str) -> Response:
    """Where the QR code leads: the join form with the code filled in (joining is a POST)."""
    return redirect(url_for("live.join", code=code))


def _phone(row: dict[str, Any], error: str | None = None, kept: dict[str, Any] | None = None) -> str:
    live = sessions()
    question = live.current(int(row["id"]))
    mine = live.answer_of(int(question["id"]), current_user.id) if question else None
    revealed = question is not None and row["state"] in ("revealed", "ended")
    board = live.leaderboard(int(row["id"])) if row["state"] in ("revealed", "ended") else []
    place = next((r for r in board if r["trainee_id"] == current_user.id), None)
    rated = None
    if revealed and mine is not None and question is not None:
        rated = pace_of(question["situation"].kind, mine, int(row["group_id"]))
    return render_template(
        "live/phone.html",
        **_question_view(row, question),
        # Before the reveal the page knows only that an answer is in: not whether it was right.
        answered=mine is not None,
        mine=mine if revealed else None,
        place=place,
        rated=rated,
        players=len(board),
        form=LiveAnswerForm(formdata=None),
        error=error,
        kept=kept or {},
    )


@bp.get("/<int:session_id>/phone")
@login_required
def phone(session_id: int) -> str:
    _played(session_id)
    return _phone(sessions().tick(session_id))


@bp.post("/<int:session_id>/answer")
@login_required
def answer(session_id: int) -> Page:
    row = _played(session_id)
    form = LiveAnswerForm()
    check_form(form)
    question_id = form.question.data
    live = sessions()
    current = live.current(session_id)
    if question_id is None or current is None or current["id"] != question_id:
        flash(refusal_text(Refusal("closed")), "error")
        return _phone(live.tick(session_id)), 409
    fmt = current["situation"].answer_format
    try:
        live.answer(session_id, question_id, current_user.id, read_answer(fmt, request.form))
    except AnswerError as error:
        return _phone(row, error_text(error), kept_input(fmt, request.form, error=error)), 400
    except Refusal as refusal:
        flash(refusal_text(refusal), "error")
        return _phone(live.tick(session_id)), 409
    return redirect(url_for("live.phone", session_id=session_id), code=303)


@bp.get("/")
@login_required
def index() -> str:
    """The instructor's sessions per group; a trainee's sessions of his groups that are not over."""
    live = sessions()
    owned = []
    if current_user.is_instructor:
        for group in db.groups().owned_by(current_user.id):
            owned.append({"group": group, "sessions": live.of_group(int(group["id"]))})
    open_ = [
        s
        for group in db.groups().of_member(current_user.id)
        for s in live.of_group(int(group["id"]))
        if s["state"] != "ended"
    ]
    form = JoinLiveForm(formdata=None)
    return render_template("live/index.html", owned=owned, open_sessions=open_, form=form)
