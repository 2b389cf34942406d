"""Self-check quizzes: per game a bank of questions (`data/quizzes.toml`: drill kind and level); each
take draws `size` of them at random, each dealt afresh under the house rules the trainee practises
under (his group's, or the preset he chose; else the game's default), and is scored at the end.

All answers are read first; if any cannot be read, nothing is recorded and the quiz comes back with
the answers kept and the problem named. Then each answer is graded and recorded, and the review shows
every question with the given and the expected answer and the explanation.

The quiz's drills are recorded by a POST ("Take the quiz", `POST /quiz/<game>/start`); `GET /quiz/<game>`
shows the open quiz of the session, or the start button, and records nothing.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, session, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

from trainer.drills import REGISTRY, get_kind
from trainer.drills.base import expected_of
from trainer.engine.presets import data_path, read_toml
from trainer.games import GAMES, game_of
from trainer.store import AlreadyAnsweredError, NotFoundError
from trainer.web.core import db
from trainer.web.core.forms import EmptyForm
from trainer.web.core.guards import check_form, require_trainee
from trainer.web.practice.forms import SelfCheckForm
from trainer.web.situations.answers import read_all
from trainer.web.situations.catalog import game_title, kind_title

bp = Blueprint("self_check", __name__, url_prefix="/quiz")

QUIZ_FILE = data_path("quizzes.toml")


@lru_cache(maxsize=1)
def _bank() -> tuple[int, dict[str, list[dict[str, Any]]]]:
    table = read_toml(QUIZ_FILE, "data/quizzes.toml")
    by_game: dict[str, list[dict[str, Any]]] = {game.id: [] for game in GAMES}
    for question in table["questions"]:
        game = game_of(question["kind"])
        if game is None:
            raise ValueError(f"data/quizzes.toml: drill kind {question['kind']!r} is of no registered game")
        by_game[game.id].append(question)
    return int(table["size"]), {game: questions for game, questions in by_game.items() if questions}


def quizzes() -> dict[str, list[dict[str, Any]]]:
    """{game id: its bank of questions (kind, level)}, in the registry's order."""
    return _bank()[1]


def available(game: str) -> list[dict[str, Any]]:
    """The game's bank: its questions whose drill kinds are installed."""
    return [q for q in quizzes().get(game, []) if q["kind"] in REGISTRY]


def size(game: str) -> int:
    """How many questions one take of the game's quiz asks."""
    return min(_bank()[0], len(available(game)))


def draw(game: str, rng: random.Random) -> list[dict[str, Any]]:
    """One take's questions: `size` different questions of the bank, in the bank's order."""
    bank = available(game)
    picked = sorted(rng.sample(range(len(bank)), size(game)))
    return [bank[i] for i in picked]


def handed_in() -> str:
    return gettext("This quiz was already handed in. Start it again from the quiz page.")


@bp.get("/")
def index() -> str:
    games = [
        {"id": g, "title": game_title(g), "count": size(g), "bank": len(available(g))} for g in quizzes()
    ]
    return render_template("practice/self_check_index.html", games=games)


def _held_drills(game: str, trainee: int) -> list[int] | None:
    """The session's open quiz drills of this game, if any (reading only)."""
    held = session.get("quiz", {}).get(game)
    if not isinstance(held, list) or not held:
        return None
    try:
        drills = [db.store().drill(i) for i in held]
    except NotFoundError:
        return None
    if all(d["trainee_id"] == trainee and not d["answered"] for d in drills):
        return held
    return None


def _question(drill: dict[str, Any]) -> dict[str, Any]:
    return {"drill": drill, "situation": drill["situation"], "kind": get_kind(drill["kind"])}


def _questions(ids: list[int]) -> list[dict[str, Any]]:
    store = db.store()
    return [_question(store.drill(i)) for i in ids]


@bp.get("/<game>")
def take(game: str) -> str:
    if game not in quizzes():
        abort(404, description=gettext("There is no quiz for this game."))
    trainee = db.trainee_id()  # a first-time guest has no row yet: the start button makes it
    held = _held_drills(game, trainee) if available(game) and trainee is not None else None
    if held is None:
        return render_template(
            "practice/self_check_start.html",
            game=game,
            title=game_title(game),
            count=size(game),
            bank=len(available(game)),
            form=EmptyForm(),
        )
    return _render_quiz(game, _questions(held), {}, {})


@bp.post("/<game>/start")
def start(game: str) -> Response:
    """Record the quiz's questions for this trainee (or keep the open ones) and show them."""
    if game not in quizzes():
        abort(404, description=gettext("There is no quiz for this game."))
    check_form(EmptyForm())
    trainee = require_trainee(back=url_for("self_check.take", game=game), start=True)
    if available(game) and _held_drills(game, trainee) is None:
        ids = []
        for q in draw(game, random.Random()):
            # Dealt under the house rules the trainee practises under (his group's, or his choice),
            # as his drills and sprints are; recorded with them.
            situation, group_id = db.draw(q["kind"], q["level"])
            ids.append(db.store().save_drill(trainee, situation, mode="quiz", group_id=group_id))
        session["quiz"] = {**session.get("quiz", {}), game: ids}
    return redirect(url_for("self_check.take", game=game), code=303)


def _render_quiz(
    game: str, questions: list[dict[str, Any]], errors: dict[int, str], kept: dict[int, dict[str, Any]]
) -> str:
    for q in questions:
        q["title"] = kind_title(q["kind"])
    return render_template(
        "practice/self_check.html",
        game=game,
        title=game_title(game),
        questions=questions,
        errors=errors,
        kept=kept,
        form=EmptyForm(),
    )


@bp.post("/<game>")
def submit(game: str) -> str | tuple[str, int]:
    if game not in quizzes():
        abort(404, description=gettext("There is no quiz for this game."))
    trainee = require_trainee()
    form = SelfCheckForm()
    check_form(form)
    ids = form.drill.data
    if not ids or len(ids) != len(set(ids)) or len(ids) > len(available(game)):
        abort(400, description=gettext("The quiz form was changed. Reload the page and answer again."))
    store = db.store()
    questions = []
    for drill_id in ids:
        try:
            drill = store.drill(drill_id)
        except NotFoundError:
            abort(400, description=gettext("The quiz form was changed. Reload the page and answer again."))
        mine = drill["trainee_id"] == trainee and drill["mode"] == "quiz"
        if not mine or getattr(game_of(drill["kind"]), "id", None) != game:
            abort(400, description=gettext("The quiz form was changed. Reload the page and answer again."))
        questions.append(_question(drill))
    if any(q["drill"]["answered"] for q in questions):
        abort(409, description=handed_in())
    if ids != session.get("quiz", {}).get(game):  # every question of this take, none added or left out
        abort(400, description=gettext("The quiz form was changed. Reload the page and answer again."))
    # Read every answer before recording any, so one unreadable answer loses nothing.
    raws, errors, kept = read_all([q["situation"].answer_format for q in questions], request.form)
    if errors:
        return _render_quiz(game, questions, errors, kept), 400
    review = []
    for q, raw in zip(questions, raws, strict=True):
        try:
            _grade, attempt = store.answer(q["drill"]["id"], raw)
        except AlreadyAnsweredError:
            abort(
                409,
                description=gettext("This quiz was already handed in. Start it again from the quiz page."),
            )
        _expected, _text, steps = expected_of(q["situation"], q["kind"], houses=db.houses())
        review.append({**q, "title": kind_title(q["kind"]), "attempt": attempt, "steps": steps})
    session["quiz"] = {k: v for k, v in session.get("quiz", {}).items() if k != game}
    score = sum(1 for r in review if r["attempt"]["correct"])
    return render_template(
        "practice/self_check_result.html", game=game, title=game_title(game), review=review, score=score
    )
