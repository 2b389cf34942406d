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
from trainer.drills.errors import RulesError
from trainer.drills.mistakes import mistake_title
from trainer.drills.omaha.own import CHIPS_MAX as OM_CHIPS_MAX
from trainer.drills.omaha.own import KIND as OM_KIND
from trainer.drills.omaha.own import SEATS_MAX as OM_SEATS_MAX
from trainer.drills.omaha.own import parse_line as parse_omaha_line
from trainer.drills.own import OwnQuestionError, checked, own_situation
from trainer.drills.russian_poker.own import ANTE_MAX
from trainer.drills.russian_poker.own import KIND as RP_KIND
from trainer.games import GAMES, OMAHA, RUSSIAN_POKER
from trainer.store import AlreadyAnsweredError, NotFoundError
from trainer.store.quiz_report import quiz_report
from trainer.store.quizzes import ExamError
from trainer.web.core import db, kept, local_time
from trainer.web.core.auth import instructor_required
from trainer.web.core.forms import EmptyForm, spreadsheet_cell, whole_number
from trainer.web.core.guards import Page, check_form
from trainer.web.quizzes import picks
from trainer.web.quizzes.forms import OWN_MAX, ExamForm, item_choices
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
    previews: list[dict[str, Any]] = []
    draw = group_draw(group_id)
    if request.method == "GET":
        form.fill_defaults(datetime.now(UTC))
    else:
        form.picks, refused = picks.read_all(request.form.getlist("pick"), group_id, current_user.id)
        if refused:
            error = gettext(
                "A situation kept from a preview could not be read; show the situations again and keep "
                "the ones you want."
            )
        elif len(form.picks) > picks.PICKS_MAX:
            error = gettext("Keep at most %(max)s situations from the previews.", max=picks.PICKS_MAX)
        elif request.form.get("preview"):
            check_form(EmptyForm())  # the CSRF token only: a preview saves nothing
            chosen = request.form.get("preview_item", "")
            kind, _, level = chosen.rpartition(":")
            if chosen not in {value for value, _label in item_choices()}:
                error = gettext("Choose a drill and level to preview.")
            else:
                fresh = [p for p in picks.fresh(kind, whole_number(level) or 0) if p not in form.picks]
                try:
                    previews = picks.shown(fresh, draw, group_id, current_user.id)
                except RulesError:
                    error = gettext(
                        "This drill cannot be drawn under the group's house rules: choose another one."
                    )
        elif form.validate() and (own := own_questions(form, group_id)) is not None:
            fields = form.exam_fields()
            if (own or form.picks) and not fields["items"]:
                fields["questions"] = len(own) + len(form.picks)  # own and kept only: each asked once
            try:
                exam = db.exams().create(
                    group_id, **fields, own=own, picked=form.picks, made_by=current_user.id
                )
            except ExamError as refused_exam:
                error = refusal(refused_exam)
            else:
                return redirect(url_for("quizzes.results", exam_id=exam["id"]))
        else:
            error = gettext("The quiz is not assigned: correct the fields marked below.")
    try:
        kept = picks.shown(form.picks[: picks.PICKS_MAX], draw, group_id, current_user.id)
    except RulesError:  # the group's rules changed since: the kept ones cannot be drawn as kept
        kept, error = (
            [],
            gettext("This drill cannot be drawn under the group's house rules: choose another one."),
        )
    page = render_template(
        "quizzes/new.html",
        group=group,
        game_title=game_title,
        catalog=_catalog(),
        form=form,
        error=error,
        zone=zone,
        kept=kept,
        previews=previews,
        preview_item=request.form.get("preview_item", ""),
    )
    return (page, 400) if error else page


def group_draw(group_id: int) -> Any:
    """How the group's quizzes draw a question: a drawn or picked one by its kind, level and seed,
    an own one from its facts, under the group's house rules of today (also the previews')."""

    def draw(kind: str, level: int, seed: int, fixed: dict[str, Any] | None = None) -> Any:
        rules = db.groups().rules_for_kind(group_id, kind)
        if fixed is not None:  # an own question, graded as drawn ones
            return own_situation(kind, fixed, rules, houses=db.houses()), group_id
        return db.draw(kind, level, seed=seed, rules=rules)

    return draw


OWN_SPLIT = re.compile(r"\s*[/|;]\s*")


def _russian_line(line: str) -> tuple[str, dict[str, Any]]:
    parts = OWN_SPLIT.split(line)
    if len(parts) != 3:
        raise OwnQuestionError("shape")
    return RP_KIND, {"player": parts[0], "dealer": parts[1], "ante": whole_number(parts[2])}


def _omaha_line(line: str) -> tuple[str, dict[str, Any]]:
    return OM_KIND, parse_omaha_line(line)


# Each own-questions field of the form: its game (whose house rules settle it) and how a line reads.
OWN_FIELDS = (("own", RUSSIAN_POKER.id, _russian_line), ("own_omaha", OMAHA.id, _omaha_line))


def own_questions(form: ExamForm, group_id: int) -> list[dict[str, Any]] | None:
    """The own questions of the form, each checked by the engine under the group's house rules as
    it is entered: the kept questions (their facts and `kind`), or None with every refused line
    marked on its field."""
    rules = db.groups().rules(group_id)
    kept, refused = [], False
    total = 0
    for name, game, read in OWN_FIELDS:
        field = form[name]
        errors = []
        lines = form.own_lines(field)
        total += len(lines)
        for number, line in lines[:OWN_MAX]:
            try:
                kind, facts = read(line)
                facts = checked(kind, facts)
                own_situation(kind, facts, rules[game], houses=db.houses())
            except OwnQuestionError as refusal_of:
                errors.append(own_refusal(refusal_of.reason, number, game))
                continue
            kept.append({"kind": kind, **facts})
        if errors:
            field.errors = [*field.errors, *errors]
            refused = True
    if total > OWN_MAX:
        form.own.errors = [*form.own.errors, gettext("At most %(max)s own questions.", max=OWN_MAX)]
        refused = True
    return None if refused else kept


def own_refusal(reason: str, line: int, game: str = RUSSIAN_POKER.id) -> str:
    if reason == "cards":
        return gettext("Line %(line)s: a card is not written as a card (such as As, 10h, K♦).", line=line)
    if reason == "repeated":
        return gettext("Line %(line)s: a card is dealt twice; no deck has it twice.", line=line)
    if game == OMAHA.id:
        return _omaha_refusal(reason, line)
    if reason == "shape":
        return gettext(
            "Line %(line)s: write the player's five cards, the dealer's five cards and the ante, "
            "parted by slashes.",
            line=line,
        )
    if reason == "count":
        return gettext("Line %(line)s: each hand has five cards.", line=line)
    if reason == "ante":
        return gettext(
            "Line %(line)s: the ante is a whole number of chips from 1 to %(max)s.", line=line, max=ANTE_MAX
        )
    return gettext("Line %(line)s: this hand cannot be settled under the group's house rules.", line=line)


def _omaha_refusal(reason: str, line: int) -> str:
    if reason == "shape":
        return gettext(
            "Line %(line)s: write the board, then for each seat its four cards (or - when it folded) and "
            "the chips it put in, parted by slashes.",
            line=line,
        )
    if reason == "board":
        return gettext("Line %(line)s: the board has five cards.", line=line)
    if reason == "hole":
        return gettext("Line %(line)s: a seat that shows its hand has four cards.", line=line)
    if reason == "seats":
        return gettext(
            "Line %(line)s: a showdown has 2 to %(max)s seats, at least two of them with cards.",
            line=line,
            max=OM_SEATS_MAX,
        )
    if reason == "chips":
        return gettext(
            "Line %(line)s: the chips a seat put in are a whole number from 0 to %(max)s.",
            line=line,
            max=OM_CHIPS_MAX,
        )
    if reason == "button":
        return gettext("Line %(line)s: mark one seat, and only one, as the button with *.", line=line)
    if reason == "stacks":
        return gettext(
            "Line %(line)s: these chips cannot come about: every seat with cards put chips in, and a "
            "folded seat put in no more than the deepest seat with cards.",
            line=line,
        )
    return gettext("Line %(line)s: this showdown cannot be settled under the group's house rules.", line=line)


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
    if sitting["finished_at"] is None:
        # Nothing is recorded before the hand-in: its page would read as a graded "0 right".
        abort(409, description=gettext("This quiz is not handed in yet: its result shows here once it is."))
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
    draw = group_draw(int(exam["group_id"]))
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
        if kept.is_kept():
            # The server's clock decides, never the phone's: a hand-in kept offline past the deadline
            # (and its grace) would otherwise let a sitting run as long as the phone stays offline.
            return kept.reply(
                gettext(
                    "The quiz's time was over before your kept answers reached the server, so they do "
                    "not count. The quiz is scored with what arrived in time."
                ),
                recorded=False,
                href=url_for("quizzes.sitting", sitting_id=sitting_id),
                link=gettext("See your result"),
            )
        abort(409, description=gettext("The time for this quiz is over; answers after it do not count."))
    questions = _questions(sitting_id)
    raws, errors, typed = read_all([q["situation"].answer_format for q in questions], request.form)
    left = db.exams().seconds_left(found)
    time_up = request.form.get("time_up") == "1" and left is not None and left <= TIME_UP_SLACK_S
    if errors and not time_up:
        if kept.is_kept():
            return kept.reply(
                gettext(
                    "Some of your kept answers cannot be read: open the quiz, correct them and hand it in."
                ),
                recorded=False,
                href=url_for("quizzes.sitting", sitting_id=sitting_id),
                link=gettext("Open the quiz"),
                status=400,
            )
        return _render_sitting(found, exam, questions, errors, typed), 400
    # Handed in by the countdown at the deadline: what can be read counts, the rest is unanswered.
    readable = [q for i, q in enumerate(questions) if i not in errors]
    store = db.store()
    for q, raw in zip(readable, raws, strict=True):
        try:
            store.answer(q["drill"]["id"], raw)
        except AlreadyAnsweredError:
            abort(409, description=gettext("This quiz was already handed in."))
    db.exams().finish(sitting_id)
    return kept.recorded(
        gettext("The connection is back: your quiz was handed in and graded."),
        href=url_for("quizzes.sitting", sitting_id=sitting_id),
        link=gettext("See your result"),
        code=303,
    )
