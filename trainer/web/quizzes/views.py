"""Assigned quizzes (exams) on the pages.

Instructor (the group's owner; anyone else gets 404): compose one at `/exams/group/<group id>/new`,
see every trainee's sittings at `/exams/<id>/results` and each sitting question by question at
`/exams/sittings/<id>/review`. Trainee (a member of the group): the open exams are listed on his home
page and on `/groups/`; `/exams/<id>` starts or continues a sitting, `/exams/sittings/<id>` shows its
questions (drawn on the server, never from a client's seed) and takes the answers; the result shows
the score, and the right answers only if the exam allows it before closing or once it has closed.
"""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_login import current_user, login_required

from trainer.drills import REGISTRY, get_kind
from trainer.drills.base import expected_of
from trainer.drills.mistakes import mistake_title
from trainer.drills.russian_poker.own import ANTE_MAX, OwnQuestionError, own_settle
from trainer.games import GAMES, RUSSIAN_POKER
from trainer.store import AlreadyAnsweredError, NotFoundError
from trainer.store.quiz_report import quiz_report
from trainer.store.quizzes import ExamError
from trainer.web.core import db, local_time
from trainer.web.core.auth import instructor_required
from trainer.web.core.forms import EmptyForm, spreadsheet_cell, whole_number
from trainer.web.core.guards import Page, check_form
from trainer.web.quizzes.forms import OWN_MAX, ExamForm
from trainer.web.situations.answer_words import worded_json
from trainer.web.situations.answers import read_all
from trainer.web.situations.catalog import game_title, kind_title

bp = Blueprint("quizzes", __name__, url_prefix="/exams")
TIME_UP_SLACK_S = 5  # a page's countdown may run this far ahead of the server's clock


def refusal(error: ExamError) -> str:
    reason = error.reason
    if reason == "closed":
        return gettext("This quiz is not open now.")
    if reason == "no_attempts_left":
        return gettext("You have used every attempt this quiz allows.")
    if reason == "title":
        return gettext("Give the quiz a title of at most 80\u00a0characters.")
    if reason in ("item", "no_items"):
        return gettext("Choose at least one drill and level.")
    if reason == "questions":
        return gettext("A quiz has 1 to %(high)s\u00a0questions.", high=error.params["high"])
    if reason == "attempts":
        return gettext("Allow 1 to %(high)s\u00a0attempts.", high=error.params["high"])
    if reason == "time_limit":
        return gettext("The time limit is 1 to 180\u00a0minutes, or none.")
    if reason == "window":
        return gettext("The quiz must close after it opens.")
    return gettext("This could not be done. Please try again.")


def _owned_group(group_id: int) -> dict[str, Any]:
    try:
        return db.groups().owned_group(group_id, current_user.id)
    except NotFoundError:
        abort(404, description=gettext("There is no such group."))


def _owned_exam(exam_id: int) -> tuple[dict[str, Any], dict[str, Any]]:
    try:
        exam = db.exams().exam(exam_id)
    except NotFoundError:
        abort(404, description=gettext("There is no such quiz."))
    return exam, _owned_group(int(exam["group_id"]))


def _zone(exam: dict[str, Any]) -> str:
    """The time zone of the exam's group, in which its times are shown."""
    return local_time.zone_of(db.groups().group(int(exam["group_id"])))


# The instructor ------------------------------------------------------------------------------------


def _catalog() -> list[dict[str, Any]]:
    return [{"game": game, "kinds": [REGISTRY[k] for k in game.kinds if k in REGISTRY]} for game in GAMES]


@bp.route("/group/<int:group_id>/new", methods=["GET", "POST"])
@instructor_required
def new(group_id: int) -> Page:
    group = _owned_group(group_id)
    zone = local_time.zone_of(group)
    form = ExamForm(zone, formdata=request.form if request.method == "POST" else None)
    error = None
    if request.method == "GET":
        form.fill_defaults(datetime.now(UTC))
    elif form.validate() and (own := own_questions(form, group_id)) is not None:
        fields = form.exam_fields()
        if own and not fields["items"]:
            fields["questions"] = len(own)  # own questions only: each asked once
        try:
            exam = db.exams().create(group_id, **fields, own=own, made_by=current_user.id)
        except ExamError as refused:
            error = refusal(refused)
        else:
            return redirect(url_for("quizzes.results", exam_id=exam["id"]))
    else:
        error = gettext("The quiz is not assigned: correct the fields marked below.")
    page = render_template(
        "quizzes/new.html",
        group=group,
        game_title=game_title,
        catalog=_catalog(),
        form=form,
        error=error,
        zone=zone,
    )
    return (page, 400) if error else page


OWN_GAME = RUSSIAN_POKER.id
OWN_SPLIT = re.compile(r"\s*[/|;]\s*")


def own_questions(form: ExamForm, group_id: int) -> list[dict[str, Any]] | None:
    """The own questions of the form, each checked by the engine under the group's house rules as
    it is entered: the kept questions, or None with every refused line marked on the field."""
    rules = db.groups().rules(group_id)[OWN_GAME]
    kept, errors = [], []
    lines = form.own_lines()
    if len(lines) > OWN_MAX:
        errors.append(gettext("At most %(max)s own questions.", max=OWN_MAX))
    for number, line in lines[:OWN_MAX]:
        parts = OWN_SPLIT.split(line)
        ante = whole_number(parts[2]) if len(parts) == 3 else None
        try:
            if len(parts) != 3:
                raise OwnQuestionError("shape")
            situation = own_settle(parts[0], parts[1], ante, rules, houses=db.houses())
        except OwnQuestionError as refused:
            errors.append(own_refusal(refused.reason, number))
            continue
        kept.append({k: situation.data[k] for k in ("player", "dealer", "ante")})
    if errors:
        form.own.errors = [*form.own.errors, *errors]
        return None
    return kept


def own_refusal(reason: str, line: int) -> str:
    if reason == "shape":
        return gettext(
            "Line %(line)s: write the player's five cards, the dealer's five cards and the ante, "
            "parted by slashes.",
            line=line,
        )
    if reason == "cards":
        return gettext("Line %(line)s: a card is not written as a card (such as As, 10h, K♦).", line=line)
    if reason == "count":
        return gettext("Line %(line)s: each hand has five cards.", line=line)
    if reason == "repeated":
        return gettext("Line %(line)s: a card is dealt twice; no deck has it twice.", line=line)
    if reason == "ante":
        return gettext(
            "Line %(line)s: the ante is a whole number of chips from 1 to %(max)s.", line=line, max=ANTE_MAX
        )
    return gettext("Line %(line)s: this hand cannot be settled under the group's house rules.", line=line)


@bp.get("/<int:exam_id>/results")
@instructor_required
def results(exam_id: int) -> Page:
    exam, group = _owned_exam(exam_id)
    return render_template(
        "quizzes/results.html",
        exam=exam,
        group=group,
        results=db.exams().results(exam_id),
        kind_title=kind_title,
        zone=local_time.zone_of(group),
        report=readable_report(quiz_report(db.store().db, exam_id, int(exam["questions"]))),
    )


def readable_report(report: dict[str, Any]) -> dict[str, Any]:
    """The quiz report with answers worded as the page words them and mistakes by their names."""
    for item in report["items"]:
        for given in item["answers"]:
            given["text"] = (
                gettext("not answered")
                if given["answer"] is None
                else worded_json(given["format"], given["answer"])
            )
        for found in item["mistakes"]:
            found["title"] = gettext(mistake_title(found["mistake"]))
    return report


@bp.get("/<int:exam_id>/results.csv")
@instructor_required
def results_csv(exam_id: int) -> Response:
    """Every finished sitting: username, started, finished, answered, correct, questions; a member
    who handed in none has a row with the times and counts empty. UTF-8 with a byte-order mark (a
    spreadsheet on Windows reads Georgian and Cyrillic names), times in the group's time zone, which
    the headings name."""
    exam, group = _owned_exam(exam_id)
    zone = local_time.zone_of(group)
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out)
    writer.writerow(
        [
            "username",
            "name",
            f"started_at ({zone})",
            f"finished_at ({zone})",
            "answered",
            "correct",
            "questions",
        ]
    )
    seconds = "%Y-%m-%d %H:%M:%S"
    for row in db.exams().results(exam_id):
        if not row["sittings"]:
            writer.writerow(
                [
                    spreadsheet_cell(row["username"]),
                    spreadsheet_cell(row["display_name"]),
                    "",
                    "",
                    "",
                    "",
                    exam["questions"],
                ]
            )
        for s in row["sittings"]:
            started, finished = (
                local_time.local(s["started_at"], zone),
                local_time.local(s["finished_at"], zone),
            )
            writer.writerow(
                [
                    spreadsheet_cell(row["username"]),
                    spreadsheet_cell(row["display_name"]),
                    started.strftime(seconds) if started else "",
                    finished.strftime(seconds) if finished else "",
                    s["answered"],
                    s["correct"],
                    exam["questions"],
                ]
            )
    response = Response(out.getvalue(), mimetype="text/csv; charset=utf-8")
    response.headers["Content-Disposition"] = f'attachment; filename="quiz-{exam_id}-results.csv"'
    return response


def _questions(sitting_id: int) -> list[dict[str, Any]]:
    store = db.store()
    questions = []
    for drill_id in db.exams().drills(sitting_id):
        drill = store.drill(drill_id)
        kind = get_kind(drill["kind"])
        attempt = store.attempt(drill_id) if drill["answered"] else None
        steps = expected_of(drill["situation"], kind, houses=db.houses())[2] if attempt is not None else ()
        questions.append(
            {
                "drill": drill,
                "situation": drill["situation"],
                "kind": kind,
                "title": kind_title(kind),
                "attempt": attempt,
                "steps": steps,
            }
        )
    return questions


@bp.get("/sittings/<int:sitting_id>/review")
@instructor_required
def review(sitting_id: int) -> Page:
    try:
        sitting = db.exams().sitting(sitting_id)
    except NotFoundError:
        abort(404, description=gettext("There is no such quiz."))
    exam, group = _owned_exam(int(sitting["exam_id"]))
    member = db.store().trainee(int(sitting["trainee_id"]))
    user = db.groups().members(int(group["id"]))
    name = next((m["display_name"] for m in user if m["id"] == member["id"]), "")
    return render_template(
        "quizzes/result.html",
        exam=exam,
        sitting=sitting,
        questions=_questions(sitting_id),
        show_answers=True,
        reviewing=True,
        trainee_name=name,
        comments=db.comments().of_sitting(sitting_id),
        form=EmptyForm(),
        zone=local_time.zone_of(group),
    )


# The trainee ---------------------------------------------------------------------------------------


def _mine(sitting_id: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The signed-in user's own sitting (and its exam), or 404."""
    try:
        sitting = db.exams().sitting(sitting_id)
    except NotFoundError:
        abort(404, description=gettext("There is no such quiz."))
    if sitting["trainee_id"] != current_user.id:
        abort(404, description=gettext("There is no such quiz."))
    return sitting, db.exams().exam(int(sitting["exam_id"]))


def _member_exam(exam_id: int) -> dict[str, Any]:
    try:
        exam = db.exams().exam(exam_id)
    except NotFoundError:
        abort(404, description=gettext("There is no such quiz."))
    if not db.groups().is_member(int(exam["group_id"]), current_user.id):
        abort(404, description=gettext("There is no such quiz."))
    return exam


@bp.get("/<int:exam_id>")
@login_required
def show(exam_id: int) -> Page:
    exam = _member_exam(exam_id)
    mine = db.exams().sittings(exam_id, current_user.id)
    return render_template(
        "quizzes/start.html", exam=exam, sittings=mine, form=EmptyForm(), error=None, zone=_zone(exam)
    )


@bp.post("/<int:exam_id>/start")
@login_required
def start(exam_id: int) -> Page:
    check_form(EmptyForm())
    exam = _member_exam(exam_id)

    def draw(kind: str, level: int, seed: int, fixed: dict[str, Any] | None = None) -> Any:
        rules = db.groups().rules_for_kind(int(exam["group_id"]), kind)
        if fixed is not None:  # an own question, under the group's rules of today, graded as drawn ones
            own = own_settle(fixed["player"], fixed["dealer"], fixed["ante"], rules, houses=db.houses())
            return own, int(exam["group_id"])
        return db.draw(kind, level, seed=seed, rules=rules)

    try:
        sitting = db.exams().start(exam_id, current_user.id, draw)
    except ExamError as error:
        mine = db.exams().sittings(exam_id, current_user.id)
        page = render_template(
            "quizzes/start.html",
            exam=exam,
            sittings=mine,
            form=EmptyForm(),
            error=refusal(error),
            zone=_zone(exam),
        )
        return page, 409
    return redirect(url_for("quizzes.sitting", sitting_id=sitting["id"]), code=303)


@bp.get("/sittings/<int:sitting_id>")
@login_required
def sitting(sitting_id: int) -> Page:
    found, exam = _mine(sitting_id)
    if found["finished_at"] is None and not db.exams().accepts_answers(found):
        found = db.exams().finish(sitting_id)
    if found["finished_at"] is not None:
        return _result(found, exam)
    return _render_sitting(found, exam, _questions(sitting_id), {}, {})


def _render_sitting(
    sitting: dict[str, Any],
    exam: dict[str, Any],
    questions: list[dict[str, Any]],
    errors: dict[int, str],
    kept: dict[int, dict[str, Any]],
) -> str:
    return render_template(
        "quizzes/sitting.html",
        exam=exam,
        sitting=sitting,
        questions=questions,
        errors=errors,
        kept=kept,
        form=EmptyForm(),
        zone=_zone(exam),
        seconds_left=db.exams().seconds_left(sitting),
    )


def _result(sitting: dict[str, Any], exam: dict[str, Any]) -> str:
    show_answers = bool(exam["answers_before_close"]) or exam["is_closed"]
    comments = db.comments().of_sitting(int(sitting["id"]))
    if any(c["seen_at"] is None for c in comments):
        db.comments().mark_read(int(sitting["id"]))  # he has read them now: no more notice
    return render_template(
        "quizzes/result.html",
        exam=exam,
        sitting=sitting,
        questions=_questions(int(sitting["id"])),
        show_answers=show_answers,
        reviewing=False,
        trainee_name=None,
        comments=comments,
        zone=_zone(exam),
    )


@bp.post("/sittings/<int:sitting_id>")
@login_required
def hand_in(sitting_id: int) -> Page:
    """Read every answer first (one unreadable answer records nothing), then grade and close. The
    countdown hands the page in itself at the deadline (`time_up`): then, and only if the server's
    clock agrees the time is up, the answers that can be read count and the others are left
    unanswered."""
    check_form(EmptyForm())
    found, exam = _mine(sitting_id)
    if found["finished_at"] is not None:
        abort(409, description=gettext("This quiz was already handed in."))
    if not db.exams().accepts_answers(found):
        db.exams().finish(sitting_id)
        abort(409, description=gettext("The time for this quiz is over; answers after it do not count."))
    questions = _questions(sitting_id)
    raws, errors, kept = read_all([q["situation"].answer_format for q in questions], request.form)
    left = db.exams().seconds_left(found)
    time_up = request.form.get("time_up") == "1" and left is not None and left <= TIME_UP_SLACK_S
    if errors and not time_up:
        return _render_sitting(found, exam, questions, errors, kept), 400
    # Handed in by the countdown at the deadline: what can be read counts, the rest is unanswered.
    readable = [q for i, q in enumerate(questions) if i not in errors]
    store = db.store()
    for q, raw in zip(readable, raws, strict=True):
        try:
            store.answer(q["drill"]["id"], raw)
        except AlreadyAnsweredError:
            abort(409, description=gettext("This quiz was already handed in."))
    db.exams().finish(sitting_id)
    return redirect(url_for("quizzes.sitting", sitting_id=sitting_id), code=303)
