"""The JSON API under /api/v1: drill kinds, issuing drills, answering them, house rules, the document.

Every error is JSON `{"error": message, "status": code}` with a 4xx status; bad JSON is a 400, never a
500. The caller is the user of the `Authorization: Bearer <token>` header (`POST /api/v1/tokens`), else
the user signed in on the pages (the session cookie), else the session's guest, made on its first
drill (accounts, tokens and the guest rules: `trainer.web.core.auth`, routes in
`trainer.web.accounts.api`). What every route shares (the blueprint, the JSON errors, reading the
body) is in `trainer.web.api.shared`; the drill, advisor, rules and document routes are here, the others
in each area's `api` module (accounts, groups, table), all on that one blueprint; `trainer.web.site`
gathers them. Each route reads its body with, and is
described in the OpenAPI document by, its `@operation` (`trainer.web.api.document`, models in
`trainer.web.api.schemas`).

Cross-site requests cannot forge these calls: every POST must carry `Content-Type: application/json`,
which a plain HTML form cannot send (and a script on another site cannot without a CORS preflight that
this app never grants), so the API needs no CSRF token. The store, the trainee and drill-or-404 come
through `trainer.web.core.db`, as for the pages.
"""

from __future__ import annotations

from typing import Any

from flask import jsonify, request, url_for
from flask.typing import ResponseReturnValue

from trainer.drills import REGISTRY, AnswerError, DrillError, Situation, UnknownKindError, get_kind
from trainer.drills.base import expected_of
from trainer.drills.errors import RulesError
from trainer.drills.russian_poker.deals import house_rules
from trainer.engine.cards import RepeatedCardError
from trainer.engine.russian_poker import strategy
from trainer.engine.russian_poker.rules import presets_side_by_side
from trainer.games import BY_ID as GAME_BY_ID
from trainer.store import AlreadyAnsweredError
from trainer.web.api import document as described
from trainer.web.api import schemas
from trainer.web.api.document import ANY_JSON, link, operation, query
from trainer.web.api.shared import bp, fail, refuse_chosen_seed
from trainer.web.core import auth, db
from trainer.web.practice import records
from trainer.web.situations.mistakes import mistake_json, recorded_mistake


def _drill_json(drill_id: int, situation: Situation) -> dict[str, Any]:
    messages = situation.prompt
    return {
        "id": drill_id,
        "kind": situation.kind,
        "title": get_kind(situation.kind).title,
        "level": situation.level,
        "seed": situation.seed,
        "version": situation.version,
        "rules": situation.rules,
        "prompt": " ".join(str(m) for m in messages),
        "prompt_messages": [m.to_json() for m in messages],
        "situation": situation.data,
        "answer_format": situation.answer_format.to_json(),
        "answer_url": url_for("api.answer_drill", drill_id=drill_id),
    }


_DRILL = {"drill_id": "$response.body#/id"}
_SAME_DRILL = {"drill_id": "$request.path.drill_id"}


def _own_drill(drill_id: int) -> dict[str, Any]:
    """The caller's own practice drill, or 404. A question of a sprint, a self-check quiz or an
    assigned quiz is answered on its own page only, under its clock, and shows its right answer when
    that quiz allows: through the API it would be answered off the clock and reveal the answer."""
    return db.drill_or_404(drill_id, db.trainee_id(), mode="practice")


@bp.get("/kinds")
@operation(
    "listKinds",
    "Drills",
    "Every drill kind: id, title, game, levels.",
    responses={200: (schemas.Kinds, "The kinds, by id.")},
)
def kinds() -> ResponseReturnValue:
    return jsonify(kinds=[REGISTRY[k].to_json() for k in sorted(REGISTRY)])


@bp.get("/trainee")
@operation(
    "whoAmI",
    "Accounts",
    "Who is practising: the account (token or session) or the session's guest.",
    description="Reading creates nothing: before a guest's first drill the id is null.",
    responses={200: (schemas.Trainee, "The trainee.")},
)
def get_trainee() -> ResponseReturnValue:
    """Who is practising: the account (username, role) or the guest; before a guest's first drill
    `{"id": null, ...}` (no row is made by a GET)."""
    row = db.trainee()
    user = auth.current()
    return jsonify(
        id=None if row is None else row["id"],
        name=user.display_name if user is not None else None,
        username=user.username if user is not None else None,
        role=str(user.role) if user is not None else None,
    )


@bp.post("/drills")
@operation(
    "createDrill",
    "Drills",
    "Issue a drill (never with its answer).",
    body=schemas.NewDrill,
    example={"kind": "rp.bet_payout", "level": 1},
    location=True,
    responses={
        201: (schemas.Drill, "The drill; Location points at it."),
        400: "Bad JSON, a missing kind or level, a bad seed or rules.",
        403: "A seed from a caller who is not an instructor.",
        404: "Unknown drill kind.",
        422: "These house rules cannot be used for this drill kind.",
    },
    links={
        201: {
            "AnswerDrill": link("answerDrill", "Answer it.", parameters=_DRILL),
            "GetDrill": link("getDrill", "Read it again.", parameters=_DRILL),
        }
    },
)
def create_drill(body: schemas.NewDrill) -> ResponseReturnValue:
    kind_id, level, seed, rules = body.kind, body.level, body.seed, body.rules
    refuse_chosen_seed(seed)
    try:
        situation, group_id = db.draw(kind_id, level, seed=seed, rules=rules)
    except UnknownKindError:
        fail(404, f"There is no drill kind {kind_id!r}; GET /api/v1/kinds lists them.")
    except RulesError as error:
        # A preset of the kind's game that this kind cannot use (a table without the bet asked about)
        # is well-formed by the document: 422; a name that is no preset of the game: 400.
        fail(422 if _game_preset(kind_id, rules) else 400, str(error))
    except DrillError as error:
        fail(400, str(error))
    trainee = db.trainee(create=True)
    assert trainee is not None
    drill_id = db.store().save_drill(trainee["id"], situation, group_id=group_id)
    response = jsonify(_drill_json(drill_id, situation))
    response.status_code = 201
    response.headers["Location"] = url_for("api.get_drill", drill_id=drill_id)
    return response


def _game_preset(kind_id: str, rules: Any) -> bool:
    game = GAME_BY_ID.get(get_kind(kind_id).game)
    return game is not None and isinstance(rules, str) and rules in game.preset_names()


@bp.get("/drills/<int:drill_id>")
@operation(
    "getDrill",
    "Drills",
    "A drill of the session's trainee; with its result once answered.",
    responses={
        200: (schemas.Drill, "The drill."),
        404: "No such practice drill for this trainee (a sprint's or a quiz's question is answered on its "
        "page), or its kind is no longer installed.",
    },
)
def get_drill(drill_id: int) -> ResponseReturnValue:
    row = _own_drill(drill_id)
    result = _drill_json(drill_id, row["situation"])
    result["answered"] = row["answered"]
    attempt = db.store().attempt(drill_id)
    if attempt is not None:
        result["result"] = _result_json(row["situation"], attempt)
    return jsonify(result)


def _result_json(situation: Situation, attempt: dict[str, Any]) -> dict[str, Any]:
    expected, text, steps = expected_of(situation, houses=db.houses())
    return {
        "correct": attempt["correct"],
        "answer": attempt["answer"],
        "expected": expected,
        "expected_text": text,
        "explanation": [s.to_json() for s in steps],
        "time_ms": attempt["time_ms"],
        "mistake": recorded_mistake(situation, attempt, db.houses()),
    }


@bp.post("/drills/<int:drill_id>/answer")
@operation(
    "answerDrill",
    "Drills",
    "Answer a drill once: graded against the rule engine, recorded.",
    body=schemas.AnswerBody,
    example={"answer": "1 400"},
    responses={
        200: (schemas.Grade, "Right or wrong, the expected answer, the explanation."),
        400: "Bad JSON or no answer.",
        404: "No such practice drill for this trainee (a sprint's or a quiz's question is answered on its "
        "page).",
        409: "Already answered; nothing changed.",
        422: "The answer cannot be read; the drill stays open.",
    },
    links={
        200: {
            "GetDrill": link("getDrill", "The drill with its result.", parameters=_SAME_DRILL),
            "AnswerAgain": link(
                "answerDrill", "A second answer: 409, the first counts.", parameters=_SAME_DRILL
            ),
        }
    },
)
def answer_drill(body: schemas.AnswerBody, drill_id: int) -> ResponseReturnValue:
    _own_drill(drill_id)
    try:
        graded, attempt = db.store().answer(drill_id, body.answer)
    except AnswerError as error:
        fail(422, f"{error} The question is still open.")
    except AlreadyAnsweredError:
        fail(409, f"Drill {drill_id} has already been answered; the first answer counts.")
    return jsonify(
        {
            **graded.to_json(),
            "mistake": mistake_json(graded.mistake),
            "answer": attempt["answer"],
            "time_ms": attempt["time_ms"],
        }
    )


@bp.get("/practice/next")
@operation(
    "nextPractice",
    "Drills",
    "The next drill of today's practice queue (FSRS), with the day's goal.",
    query=(query("game", {"type": "string", "enum": list(GAME_BY_ID)}, "Only this game's drills."),),
    responses={
        200: (schemas.PracticeNext, "The head of the queue and the day so far."),
        400: "No such game.",
    },
)
def practice_next() -> ResponseReturnValue:
    """The next drill of today's practice queue (kind and level; draw it with POST /api/v1/drills),
    with the day's count, the goal and the queue's next entries. Records nothing."""
    game = request.args.get("game")
    games = sorted({kind.game for kind in REGISTRY.values()})
    if game is not None and game not in games:
        fail(400, f"There is no game {game!r}: one of {', '.join(games)}.")
    queue = records.today(db.trainee_id(), game)
    head = queue.items[0]
    return jsonify(
        {
            "next": {
                **head.to_json(),
                "title": get_kind(head.kind).title,
                "drill_url": url_for("api.create_drill"),
            },
            **queue.to_json(),
        }
    )


@bp.get("/rules")
@operation(
    "compareRules",
    "Reference",
    "Russian poker house-rules presets side by side, from the rules files.",
    responses={200: (schemas.RulesTable, "Presets and rows of options.")},
)
def rules() -> ResponseReturnValue:
    """The Russian poker house-rules presets side by side (from the rules files)."""
    return jsonify(presets_side_by_side())


@bp.post("/advisor")
@operation(
    "adviseHand",
    "Reference",
    "Every option of a Russian poker hand against the up-card, best first.",
    body=schemas.AdvisorQuestion,
    example={"player": "Qh 9h 6h 3h 2c", "upcard": "Ad"},
    responses={
        200: (schemas.Advice, "The options with their values in antes."),
        400: "Bad JSON, bad cards, an ante or bonus out of range, or rules the advisor cannot model.",
        422: "A card is given twice (in the hand or as the up-card), or a bonus at a table that offers none.",
    },
)
def advisor(body: schemas.AdvisorQuestion) -> ResponseReturnValue:
    """Every option of a Russian poker hand against the up-card, with its exact value in antes, best
    first (answers are cached by the hand's suit pattern: a repeated question is immediate)."""
    player, upcard, rules_name, ante, bonus = body.player, body.upcard, body.rules, body.ante, body.bonus
    try:
        rules = house_rules(rules_name, db.houses())
        if bonus and not rules.bonus_offered:
            # Each field is as the document allows; only together are they impossible (as a card twice).
            fail(422, f"{rules.title}: the table offers no bonus bet")
        hand, up, _ = strategy.parse_situation(player, upcard)
        advice = strategy.advise(hand, up, rules=rules, ante=ante, bonus=bonus)
    except RepeatedCardError as error:
        fail(422, str(error))  # well-formed cards (as the document says), but not one deck's
    except ValueError as error:
        fail(400, str(error))
    sup = advice.super_bet
    return jsonify(
        player=[str(c) for c in hand],
        upcard=str(up),
        rules=rules.name,
        ante=ante,
        bonus=bonus,
        options=[option.to_json() for option in advice.options],
        super=None
        if sup is None
        else {
            "row": sup.row.value if sup.row else None,
            "odds": sup.odds,
            "stake": sup.stake,
            "result": sup.result,
        },
    )


@bp.get("/openapi.json")
@operation(
    "getDocument",
    "Reference",
    "This document.",
    responses={200: (ANY_JSON, "OpenAPI 3.1 document.")},
)
def openapi() -> ResponseReturnValue:
    return jsonify(described.document())
