"""The live table: whole rounds of a game, step after step, and the table test (exam).

A round page draws the whole table as the dealer sees it and asks the current step. The answer is
posted with the page's form; with JavaScript the page sends it in the background and swaps in the
verdict, the explanation and the next step without reloading (`static/js/round.js`); without it the
form posts and the page comes back with the same content. The expected answer is never in the page:
it is computed by the engines when the step is answered.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, abort, jsonify, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response

from trainer import games as registry
from trainer.drills import AnswerError
from trainer.drills.chips import PAYOUT_FORMS, ChipSet, load_chips
from trainer.drills.houses import using
from trainer.drills.rounds import (
    GAMES,
    HouseSeatsError,
    Round,
    RoundError,
    chips_notes,
    dealt_presets,
    game_rounds,
    house_chips,
    solve_step,
)
from trainer.store import AlreadyAnsweredError, StoreError
from trainer.store.tables import exam_settings
from trainer.web.core import db
from trainer.web.core.forms import EmptyForm
from trainer.web.core.guards import check_form, require_trainee
from trainer.web.core.i18n import error_text
from trainer.web.core.kept import is_kept
from trainer.web.core.kept import reply as kept_reply
from trainer.web.situations.answers import kept_input, read_answer
from trainer.web.situations.catalog import game_title, rules_in_force
from trainer.web.table.forms import NewRoundForm, NewTestForm, StepForm

bp = Blueprint("table", __name__, url_prefix="/table")


def _drawn_in(chips: ChipSet) -> dict[str, Any]:
    """A chip set for the templates: the chips answer form's faces and the stakes drawn as stacks."""

    def stacks(amount: Any) -> list[dict[str, Any]]:
        return chips.stacks(amount) if isinstance(amount, int) and not isinstance(amount, bool) else []

    return {"chip_set": chips, "chip_stacks": stacks}


@bp.context_processor
def _drawing() -> dict[str, Any]:
    # The house's default chips; a round's page draws in its own house's (`_context`).
    return {**_drawn_in(load_chips()), "game_title": game_title}


@bp.get("/")
def index() -> str:
    return _index()


def _index(kept: dict[str, Any] | None = None, error: str | None = None) -> str:
    """The tables page; after a refused start, the trainee's choices kept and the refusal said beside
    them (`kept`: the game and the form's values)."""
    trainee = db.trainee_id()
    results = db.tables().table_test_results(trainee) if trainee is not None else []
    games = []
    for game in GAMES:
        rounds = game_rounds(game)
        presets, in_force = _table_presets(game)
        with using(db.houses()):  # a group's edited copy seats as its text says
            seated_by = {
                n: " ".join(name for name, _title in presets if n in rounds.seats_under(name))
                for n in rounds.seats
            }
        games.append(
            {
                "id": game,
                "seats": rounds.seats,
                # Which house rules seat each number, so the form offers only what the chosen house
                # deals (static/js/focus.js hides the others; the server refuses them in words).
                "seated_by": seated_by,
                "seat_word": rounds.seat_word,
                "payouts": rounds.payouts,
                # The house's form of a payout answer: its chip set's (Omaha: the poker room's).
                "payout_answer": rounds.house_chips(rounds.default_rules).payout_answer,
                "presets": presets,
                "rules": in_force,
                "settings": exam_settings()[game],
            }
        )
    if kept is not None:
        for g in games:
            if g["id"] == kept.get("game"):
                g.update(kept=kept, error=error)
                if kept.get("rules") in dict(g["presets"]):
                    g["rules"] = kept["rules"]
                if kept.get("payout") in PAYOUT_FORMS:
                    g["payout_answer"] = kept["payout"]
    return render_template(
        "table/index.html",
        games=games,
        results=results[:10],
        round_form=NewRoundForm(),
    )


def _table_presets(game: str) -> tuple[list[tuple[str, str]], str]:
    """The house rules a round may be dealt under, the default first, by their titles, and the ones in
    force for the trainee (his choice, else his group's: chosen on the form unless he picks others);
    a group's edited copy is offered too."""
    found = registry.BY_ID[game]
    presets = [(n, found.load_rules(n).title) for n in dealt_presets(game)]
    in_force = db.rules_for_game(game) or game_rounds(game).default_rules
    if in_force not in dict(presets):
        try:
            presets.append((in_force, found.load_rules(in_force, db.houses()).title))
        except ValueError:  # a copy that cannot be read any more: the default is chosen
            in_force = game_rounds(game).default_rules
    return presets, in_force


@bp.post("/rounds")
def start() -> ResponseReturnValue:
    form = NewRoundForm()
    check_form(form)
    trainee = require_trainee(start=True)
    game, level, seats, payout = form.game.data, form.level.data, form.seats.data, form.payout.data or None
    try:
        # The trainee's pick on the form, else the house rules in force (his choice, else his group's).
        round_id = db.start_round(
            trainee, game, level, seats=seats, rules=form.rules.data or None, payout=payout
        )
    except HouseSeatsError as error:
        # A seat count the house does not deal: said in the page's language beside the form, the
        # trainee's other choices kept.
        title = dict(_table_presets(game)[0]).get(error.rules, error.rules)
        said = gettext(
            "The house rules %(rules)s seat %(low)s to %(high)s\u00a0players, not %(seats)s: choose another "
            "number of players or other house rules.",
            rules=gettext(title),
            low=error.allowed.start,
            high=error.allowed.stop - 1,
            seats=seats,
        )
        kept = {"game": game, "seats": seats, "rules": form.rules.data, "payout": payout}
        return _index(kept, said), 400  # a page (werkzeug's Response alone was sent as plain text)
    except RoundError as error:
        abort(400, description=gettext("This table cannot be dealt: %(reason)s", reason=str(error)))
    return redirect(url_for("table.show", round_id=round_id))


def _own_round(round_id: int, trainee: int) -> dict[str, Any]:
    row = db.found(db.tables().round, round_id)
    if row is None or row["trainee_id"] != trainee:
        abort(404, description=gettext("There is no such round."))
    return row


def _dealt(row: dict[str, Any]) -> Round:
    try:
        return db.tables().deal_row(row)
    except StoreError:
        abort(404, description=gettext("This round was dealt by an older version of the trainer."))


def _context(
    row: dict[str, Any], error: str | None = None, kept: dict[str, Any] | None = None
) -> dict[str, Any]:
    dealt = _dealt(row)
    store = db.tables()
    answered = store.answered(row["id"])
    last = None
    if answered:
        a = answered[-1]
        step = dealt.steps[a["step"]]
        _expected, text, explanation = solve_step(dealt, a["step"], db.houses())
        explanation = (*explanation, *chips_notes(step, a["answer"], a["expected"]))
        last = {"row": a, "step": step, "expected_text": text, "explanation": explanation}
    over = row["finished_at"] is not None
    current = None if over else dealt.steps[row["step"]]
    test = store.test(row["test_id"]) if row["test_id"] else None
    # The stakes are drawn, and a chips answer counted, in the chips of the round's house.
    chips = house_chips(dealt.game, dealt.rules, db.houses())
    if current is not None and current.data.get("chips"):
        chips = load_chips(current.data["chips"])
    deadline = None
    if test is not None:
        deadline = store.deadline(test)
    return {
        "row": row,
        "round": dealt,
        "rules": rules_in_force(registry.BY_ID[dealt.game].kinds[0], dealt.rules, db.houses()),
        "current": current,
        "index": row["step"],
        "table": current.table if current is not None else dealt.end_table,
        "last": last,
        "result": store.result(row["id"]) if over else None,
        "answered": [
            {"number": a["step"] + 1, "question": dealt.steps[a["step"]].question, **a} for a in answered
        ]
        if over
        else [],
        "test": test,
        "seconds_left": max(0, int((deadline - datetime.now(UTC)).total_seconds())) if deadline else None,
        "form": StepForm(step=row["step"]),
        "error": error,
        "kept": kept or {},
        **_drawn_in(chips),
    }


@bp.get("/round/<int:round_id>")
def show(round_id: int) -> str:
    trainee = require_trainee()
    return render_template("table/round.html", **_context(_own_round(round_id, trainee)))


def _wants_json() -> bool:
    return request.headers.get("X-Requested-With") == "fetch"


@bp.post("/round/<int:round_id>")
def answer(round_id: int) -> ResponseReturnValue:
    trainee = require_trainee()
    form = StepForm()
    check_form(form)
    row = _own_round(round_id, trainee)
    if row["finished_at"] is not None:
        return _respond(row, gettext("This round is over; every step has its answer."), status=409)
    dealt = _dealt(row)
    index = form.step.data
    already = gettext("This step was already answered; the first answer counts.")
    if isinstance(index, int) and index < row["step"]:
        # A second tab or a replayed step: said as such, not read as an answer to the step asked now.
        return _respond(row, already, status=409)
    fmt = dealt.steps[min(row["step"], len(dealt.steps) - 1)].answer_format
    try:
        raw = read_answer(fmt, _chips_filled(dealt, row["step"], request.form))
        db.tables().answer(round_id, index, raw)
    except AnswerError as error:
        return _respond(row, error_text(error), kept_input(fmt, request.form), status=400)
    except AlreadyAnsweredError:
        return _respond(db.tables().round(round_id), already, status=409)
    except StoreError:
        return _respond(row, gettext("The answer was sent for another step. Reload the page."), status=400)
    return _respond(db.tables().round(round_id))


def _chips_filled(dealt: Round, index: int, form: MultiDict[str, str]) -> MultiDict[str, str]:
    """Chips left empty are none: a trainee paying 1 x 1000 and 4 x 100 types only those two."""
    if index >= len(dealt.steps) or not dealt.steps[index].data.get("chips"):
        return form
    names = [f"amount-{i}" for i in range(len(dealt.steps[index].answer_format.labels))]
    if not any(form.get(name, "").strip() for name in names):
        return form  # nothing typed: "no answer was given"
    filled = MultiDict(form)
    for name in names:
        if not filled.get(name, "").strip():
            filled[name] = "0"
    return filled


def _respond(
    row: dict[str, Any], error: str | None = None, kept: dict[str, Any] | None = None, status: int = 200
) -> ResponseReturnValue:
    if is_kept():
        return _kept_reply(row, error, status)
    if _wants_json():
        context = _context(row, error, kept)
        html = render_template("table/round_body.html", **context)
        return jsonify(html=html, finished=row["finished_at"] is not None, step=row["step"]), status
    if error is not None:
        return render_template("table/round.html", **_context(row, error, kept)), status
    return redirect(url_for("table.show", round_id=row["id"]))


def _kept_reply(row: dict[str, Any], error: str | None, status: int) -> ResponseReturnValue:
    """A step's answer kept on the phone and sent back: its fate in words, and the round to go on
    with. In a table test the server's clock decides: an answer that arrives after the test's time
    is recorded as the round's step (the round goes on) but does not count, and the phone says so."""
    here = url_for("table.show", round_id=row["id"])
    link = gettext("Go on with the round")
    if error is not None:
        return kept_reply(error, recorded=False, href=here, link=link, status=status)
    said = gettext("The connection is back: your answer to the step was sent and recorded.")
    test = db.tables().test(row["test_id"]) if row["test_id"] else None
    if test is not None and datetime.now(UTC) > db.tables().deadline(test):
        said = gettext(
            "Your answer reached the server after the table test's time was over: it is recorded "
            "but does not count."
        )
    return kept_reply(said, recorded=True, href=here, link=link)


# Table tests ---------------------------------------------------------------------------------------


@bp.post("/tests")
def start_test() -> Response:
    """Open a table test and deal its first round."""
    form = NewTestForm()
    check_form(form)
    trainee = require_trainee(start=True)
    test_id = db.tables().start_test(trainee, form.game.data, form.level.data)
    return _next_round(test_id)


def _own_test(test_id: int, trainee: int) -> dict[str, Any]:
    test = db.found(db.tables().test, test_id)
    if test is None or test["trainee_id"] != trainee:
        abort(404, description=gettext("There is no such table test."))
    return test


def _next_round(test_id: int) -> Response:
    """The test's open round, or a new one while rounds and time remain; else the test is scored."""
    game = db.tables().test(test_id)["game"]
    round_id = db.tables().next_test_round(test_id, rules=db.rules_for_game(game))
    if round_id is None:
        db.tables().finish_test(test_id)
        return redirect(url_for("table.test", test_id=test_id))
    return redirect(url_for("table.show", round_id=round_id))


@bp.get("/test/<int:test_id>")
def test(test_id: int) -> str:
    """A finished test's result; an open one's state, with the way on (a GET changes nothing)."""
    trainee = require_trainee()
    test = _own_test(test_id, trainee)
    rounds = [{"row": r, "result": db.tables().result(r["id"])} for r in db.tables().test_rounds(test_id)]
    if test["finished_at"] is not None:
        return render_template("table/test_result.html", test=test, rounds=rounds)
    left = max(0, int((db.tables().deadline(test) - datetime.now(UTC)).total_seconds()))
    open_round = next((r["row"] for r in rounds if r["row"]["finished_at"] is None), None)
    return render_template(
        "table/test_progress.html", test=test, rounds=rounds, seconds_left=left, open_round=open_round
    )


@bp.post("/test/<int:test_id>/next")
def next_round(test_id: int) -> Response:
    trainee = require_trainee()
    check_form(EmptyForm())
    _own_test(test_id, trainee)
    return _next_round(test_id)


@bp.post("/test/<int:test_id>/finish")
def finish_test(test_id: int) -> Response:
    """Hand the test in: it is scored as it stands (answers after the time do not count)."""
    trainee = require_trainee()
    check_form(EmptyForm())
    _own_test(test_id, trainee)
    db.tables().finish_test(test_id)
    return redirect(url_for("table.test", test_id=test_id))
