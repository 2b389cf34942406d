"""The live table in the JSON API: rounds dealt, answered step by step, and their results.

`POST /api/v1/rounds` deals a round and returns its first step; `POST /api/v1/rounds/<id>/answer`
grades the current step and returns the verdict, the explanation and the next step (null when the
round is over, with the result); `GET /api/v1/rounds/<id>` returns the state, the answered steps and,
when over, the result. A step carries the table as the dealer sees it, the question and its answer
format, never its answer. The routes join the API blueprint (`trainer.web.api.shared.bp`).
"""

from __future__ import annotations

from typing import Any

from flask import jsonify, url_for
from flask.typing import ResponseReturnValue

from trainer.drills.answers import AnswerError
from trainer.drills.rounds import HouseSeatsError, Round, RoundError, check_request
from trainer.games import OMAHA
from trainer.store import AlreadyAnsweredError, NotFoundError, StoreError
from trainer.web.api import schemas
from trainer.web.api.document import link, operation
from trainer.web.api.shared import bp, fail, refuse_chosen_seed
from trainer.web.core import db

_ROUND = {"round_id": "$response.body#/id"}
_SAME_ROUND = {"round_id": "$request.path.round_id"}


def step_json(dealt: Round, index: int) -> dict[str, Any] | None:
    """The step as a client sees it (index from 0, number from 1), or None past the last step."""
    if index >= len(dealt.steps):
        return None
    return {"index": index, "number": index + 1, "of": len(dealt.steps), **dealt.steps[index].to_json()}


def _own_round(round_id: int) -> dict[str, Any]:
    try:
        row = db.tables().round(round_id)
    except NotFoundError:
        fail(404, f"There is no round {round_id}.")
    if row["trainee_id"] != db.trainee_id():
        fail(404, f"There is no round {round_id}.")  # another trainee's round: do not reveal it exists
    return row


def _dealt(row: dict[str, Any]) -> Round:
    try:
        return db.tables().deal_row(row)
    except StoreError as error:
        fail(409, str(error))


def round_json(row: dict[str, Any], dealt: Round) -> dict[str, Any]:
    store = db.tables()
    answered = [
        {
            "index": a["step"],
            "kind": a["kind"],
            "answer": a["answer"],
            "expected": a["expected"],
            "correct": a["correct"],
            "time_ms": a["time_ms"],
            "house_chips": a["house_chips"],
        }
        for a in store.answered(row["id"])
    ]
    over = row["finished_at"] is not None
    body = {
        "id": row["id"],
        **dealt.to_json(),
        "mode": row["mode"],
        "test_id": row["test_id"],
        "answered": answered,
        "finished": over,
        "step": None if over else step_json(dealt, row["step"]),
        "answer_url": url_for("api.answer_round", round_id=row["id"]),
    }
    if over:
        body["result"] = store.result(row["id"])
        body["end_table"] = dealt.end_table
    return body


@bp.post("/rounds")
@operation(
    "createRound",
    "Live table",
    "Deal a round of a game at a level: its first step (never with its answer).",
    body=schemas.NewRound,
    example={"game": OMAHA.id, "level": 2},
    location=True,
    responses={
        201: (schemas.Round, "The round and its first step; Location points at it."),
        400: "Bad JSON, an unknown game or field, a bad level, seats, seed, rules or payout.",
        403: "A seed from a caller who is not an instructor.",
        422: "Seats the house rules asked for do not seat (Georgian joker: 4 players only).",
    },
    links={
        201: {
            "AnswerStep": link(
                "answerRound",
                "Answer the first step.",
                parameters=_ROUND,
                body={"answer": "0", "step": "$response.body#/step/index"},
            ),
            "GetRound": link("getRound", "Read the round.", parameters=_ROUND),
        }
    },
)
def create_round(body: schemas.NewRound) -> ResponseReturnValue:
    refuse_chosen_seed(body.seed)
    try:
        # Checked before the trainee's row is made: a refused request writes nothing.
        check_request(body.game, body.level, body.seed, body.seats, body.rules, body.payout, db.houses())
    except RoundError as error:
        fail(422 if isinstance(error, HouseSeatsError) else 400, str(error))
    trainee = db.trainee_id(create=True)
    assert trainee is not None
    try:
        round_id = db.start_round(
            trainee,
            body.game,
            body.level,
            seed=body.seed,
            seats=body.seats,
            rules=body.rules,
            payout=body.payout,
        )
    except RoundError as error:
        fail(400, str(error))
    row = db.tables().round(round_id)
    response = jsonify(round_json(row, _dealt(row)))
    response.status_code = 201
    response.headers["Location"] = url_for("api.get_round", round_id=round_id)
    return response


@bp.get("/rounds/<int:round_id>")
@operation(
    "getRound",
    "Live table",
    "A round of the session's trainee: its current step, answered steps, result.",
    responses={
        200: (schemas.Round, "The round."),
        404: "No such round for this trainee.",
        409: "The round was dealt by an older version of the trainer.",
    },
)
def get_round(round_id: int) -> ResponseReturnValue:
    row = _own_round(round_id)
    return jsonify(round_json(row, _dealt(row)))


@bp.post("/rounds/<int:round_id>/answer")
@operation(
    "answerRound",
    "Live table",
    "Answer the current step: graded by the engines, recorded; the next step.",
    body=schemas.RoundAnswer,
    example={"answer": "40", "step": 0},
    responses={
        200: (schemas.StepGrade, "Right or wrong, the expected answer, the next step."),
        400: "Bad JSON, no answer, or a step that is not a whole number from 0.",
        404: "No such round for this trainee.",
        409: "The step has its answer already, is not reached yet, or the round is over (or was dealt by an "
        "older version of the trainer); nothing changed.",
        422: "The answer cannot be read; the step stays open.",
    },
    links={
        200: {
            "AnswerNextStep": link(
                "answerRound", "Answer the next step (409 once the round is over).", parameters=_SAME_ROUND
            ),
            "GetRound": link(
                "getRound",
                "The round with its answered steps and, when over, its result.",
                parameters=_SAME_ROUND,
            ),
        }
    },
)
def answer_round(body: schemas.RoundAnswer, round_id: int) -> ResponseReturnValue:
    row = _own_round(round_id)
    if row["finished_at"] is not None:
        fail(409, f"Round {round_id} is over; every step has its answer.")
    index = row["step"] if body.step is None else body.step
    dealt = _dealt(row)
    try:
        graded, after = db.tables().answer(round_id, index, body.answer)
    except AnswerError as error:
        fail(422, f"{error} The step is still open.")
    except AlreadyAnsweredError:
        fail(409, f"Step {index} of round {round_id} has already been answered; the first answer counts.")
    except StoreError as error:
        fail(409, str(error))  # a step not reached yet (or past the last): the round is elsewhere
    answered = db.tables().answered(round_id)
    time_ms = next(a["time_ms"] for a in answered if a["step"] == index)
    result: dict[str, Any] = {**graded.to_json(), "index": index, "time_ms": time_ms}
    over = after["finished_at"] is not None
    result["step"] = None if over else step_json(dealt, after["step"])
    result["finished"] = over
    if over:
        result["result"] = db.tables().result(round_id)
        result["end_table"] = dealt.end_table
    return jsonify(result)
