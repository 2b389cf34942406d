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
from trainer.store import AlreadyAnsweredError, NotFoundError, StoreError
from trainer.web.api.shared import bp, fail, json_body, refuse_chosen_seed
from trainer.web.core import db

NEW_ROUND_KEYS = {"game", "level", "seats", "seed", "rules", "payout"}


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
def create_round() -> ResponseReturnValue:
    body = json_body()
    unknown = sorted(set(body) - NEW_ROUND_KEYS)
    if unknown:
        fail(400, f"Unknown field {unknown[0]!r}: a round takes game, level, seats, seed, rules and payout.")
    if "game" not in body or "level" not in body:
        fail(400, 'Give the game and the level, such as {"game": "omaha", "level": 2}.')
    refuse_chosen_seed(body.get("seed"))
    try:
        # Checked before the trainee's row is made: a refused request writes nothing.
        options = [body.get(key) for key in ("seed", "seats", "rules", "payout")]
        check_request(body["game"], body["level"], *options, db.houses())
    except RoundError as error:
        fail(422 if isinstance(error, HouseSeatsError) else 400, str(error))
    trainee = db.trainee_id(create=True)
    assert trainee is not None
    try:
        round_id = db.start_round(
            trainee,
            body["game"],
            body["level"],
            seed=body.get("seed"),
            seats=body.get("seats"),
            rules=body.get("rules"),
            payout=body.get("payout"),
        )
    except RoundError as error:
        fail(400, str(error))
    row = db.tables().round(round_id)
    response = jsonify(round_json(row, _dealt(row)))
    response.status_code = 201
    response.headers["Location"] = url_for("api.get_round", round_id=round_id)
    return response


@bp.get("/rounds/<int:round_id>")
def get_round(round_id: int) -> ResponseReturnValue:
    row = _own_round(round_id)
    return jsonify(round_json(row, _dealt(row)))


@bp.post("/rounds/<int:round_id>/answer")
def answer_round(round_id: int) -> ResponseReturnValue:
    body = json_body()
    if "answer" not in body:
        fail(400, 'Give the answer, such as {"answer": "1400"}.')
    row = _own_round(round_id)
    if row["finished_at"] is not None:
        fail(409, f"Round {round_id} is over; every step has its answer.")
    index = body.get("step", row["step"])
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        fail(400, "step is the index of the step answered, a whole number from 0.")
    dealt = _dealt(row)
    try:
        graded, after = db.tables().answer(round_id, index, body["answer"])
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
