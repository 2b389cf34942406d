"""The OpenAPI 3.1 document of /api/v1, served at GET /api/v1/openapi.json.

Kept beside the routes and checked by tests/test_api_openapi.py: every route of the blueprint must
be described here with its methods and statuses, and every response the tests see must match its
schema, so the document cannot drift from the code.
"""

from __future__ import annotations

from typing import Any

from trainer.drills import REGISTRY
from trainer.drills.base import MAX_SEED
from trainer.drills.rounds import dealt_presets, game_rounds
from trainer.engine.cards import CARD_PATTERN, cards_pattern
from trainer.games import BY_ID, GAMES, RUSSIAN_POKER
from trainer.web.accounts import openapi as openapi_accounts
from trainer.web.api import flows as openapi_flows
from trainer.web.api.parts import error as _error
from trainer.web.api.parts import json_body, shared_errors
from trainer.web.api.parts import json_response as _json
from trainer.web.api.parts import ref as _ref
from trainer.web.groups import openapi as openapi_groups

# JSON Schema asks for ECMA-262 patterns; these are checked on the server with Python's `re`, and the
# two read `\w` differently. Said once here, and by each schema whose pattern depends on it.
PATTERN_NOTE = (
    "Patterns are regular expressions as Python's `re` reads them, the server's own check. Where they "
    "differ from ECMA-262 (JavaScript): `\\w` and `[^\\W_]` match letters and digits of any script "
    "(Georgian and Cyrillic usernames and group names), where JavaScript matches only ASCII ones, even "
    "with the `u` flag; `\\s` matches any Unicode space. A JavaScript client checking a name with the "
    "pattern as written therefore refuses names in other scripts that the server accepts; use "
    "`[\\p{L}\\p{N}_]` for `\\w` with the `u` flag. The card patterns use no `\\w`: literal ranks and "
    "suits, and `\\s` for the spaces around and between cards. A date is `format: date` (YYYY-MM-DD)."
)
_SEED = {"type": "integer", "minimum": 0, "maximum": MAX_SEED}
# The most chips the advisor takes for the ante or the bonus (the server refuses more with 400).
ADVISOR_MAX_CHIPS = 10**9
_ID = {"type": "integer", "minimum": 1}

_ANY_JSON: dict[str, Any] = {}
# What a page shows for a choice or an amount: a message (as in prompt_messages), a word to translate
# ({"term": ...}) or text shown as it is (a number, a low such as "8-4-3-2-A").
_LABEL_MESSAGE: dict[str, Any] = {
    "description": "the label as a message: a Step, a term to translate, or text shown as it is",
    "type": ["object", "string"],
}

SCHEMAS: dict[str, Any] = {
    "Error": {
        "type": "object",
        "required": ["error", "status"],
        "properties": {
            "error": {"type": "string", "description": "A sentence for the trainee."},
            "status": {"type": "integer", "minimum": 400, "maximum": 599, "description": "The HTTP status."},
        },
    },
    "Kind": {
        "type": "object",
        "required": ["id", "game", "title", "version", "levels"],
        "properties": {
            "id": {"type": "string", "examples": ["rp.qualify"]},
            "game": {"type": "string"},
            "title": {"type": "string"},
            "version": {"type": "integer", "minimum": 1, "description": "Generator version."},
            "levels": {"type": "array", "items": {"type": "integer"}},
        },
    },
    "Trainee": {
        "type": "object",
        "required": ["id", "name", "username", "role"],
        "properties": {
            "id": {"type": ["integer", "null"], "description": "null: a guest before his first drill."},
            "name": {"type": ["string", "null"], "description": "Display name; null for a guest."},
            "username": {"type": ["string", "null"]},
            "role": {"enum": ["trainee", "instructor", None]},
        },
    },
    "AnswerFormat": {
        "type": "object",
        "required": ["kind", "choices", "labels"],
        "properties": {
            "kind": {"enum": ["amount", "choice", "amounts", "cards"]},
            "choices": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["value", "label"],
                    "properties": {
                        "value": {"type": "string"},
                        "label": {
                            "type": "string",
                            "description": "English; may be typed back as the answer",
                        },
                        "message": _LABEL_MESSAGE,
                    },
                },
            },
            "labels": {"type": "array", "items": {"type": "string"}},
            "label_messages": {"type": "array", "items": _LABEL_MESSAGE},
        },
    },
    "Step": {
        "type": "object",
        "required": ["template", "params", "text"],
        "properties": {
            "template": {"type": "string", "description": "English message id, for translation."},
            "params": {
                "type": "object",
                "description": 'Named values: numbers, text, {"cards": ["Ah", "Td"]}, {"term": "two pair"} '
                "(a word to translate), a nested message, or a list of these.",
            },
            "plural": {"type": "string", "description": "The plural message id (with count)."},
            "count": {"type": "string", "description": "The parameter choosing the plural form."},
            "context": {"type": "string", "description": "The message context (msgctxt)."},
            "text": {"type": "string", "description": "The English sentence."},
        },
    },
    "Answer": {
        "description": 'amount: an integer or text such as "1 400", "1,400", "+40"; choice: a value '
        'or label; amounts: {label: amount}, a list in label order or text "300; 120"; cards: '
        'text "As Kd" or a list, "none" for no cards.',
        "oneOf": [
            {"type": "string"},
            {"type": "integer"},
            {"type": "array", "items": {"type": ["string", "integer"]}},
            {"type": "object", "additionalProperties": {"type": ["string", "integer"]}},
        ],
    },
    "Drill": {
        "type": "object",
        "description": "An issued drill. Never contains the expected answer until it is answered.",
        "required": [
            "id",
            "kind",
            "title",
            "level",
            "seed",
            "version",
            "rules",
            "prompt",
            "prompt_messages",
            "situation",
            "answer_format",
            "answer_url",
        ],
        "properties": {
            "id": {"type": "integer"},
            "kind": {"type": "string"},
            "title": {"type": "string"},
            "level": {"type": "integer"},
            "seed": {"type": "integer", "description": "Kind + level + seed + version reproduce it."},
            "version": {"type": "integer"},
            "rules": {"type": ["string", "null"], "description": "House-rules preset, null for default."},
            "prompt": {"type": "string", "description": "The question in English."},
            "prompt_messages": {
                "type": "array",
                "items": _ref("Step"),
                "description": "The question sentence by sentence: each a message id with its parameters.",
            },
            "situation": {"type": "object", "description": 'Cards as strings such as "As", amounts.'},
            "answer_format": _ref("AnswerFormat"),
            "answer_url": {"type": "string"},
            "answered": {"type": "boolean"},
            "result": _ref("AttemptResult"),
        },
    },
    "Grade": {
        "type": "object",
        "required": ["correct", "expected", "expected_text", "explanation", "answer", "time_ms", "mistake"],
        "properties": {
            "correct": {"type": "boolean"},
            "expected": {"description": "The expected answer in the parsed form of `answer`."},
            "expected_text": {"type": "string"},
            "explanation": {"type": "array", "items": _ref("Step")},
            "answer": {"description": "The answer as understood (canonical form)."},
            "time_ms": {"type": "integer", "minimum": 0},
            "mistake": _ref("Mistake"),
        },
    },
    "AttemptResult": {
        "type": "object",
        "required": ["correct", "expected", "expected_text", "explanation", "answer", "time_ms", "mistake"],
        "properties": {
            "correct": {"type": "boolean"},
            "expected": {},
            "expected_text": {"type": "string"},
            "explanation": {"type": "array", "items": _ref("Step")},
            "answer": {},
            "time_ms": {"type": "integer", "minimum": 0},
            "mistake": _ref("Mistake"),
        },
    },
    "Mistake": {
        "description": "The typical mistake a wrong answer matches (the drill kind's catalogue), or null: "
        "none matched, or the answer is right.",
        "type": ["object", "null"],
        "required": ["id", "title", "text"],
        "properties": {
            "id": {"type": "string", "examples": ["rp.stake_in_net"], "description": "Stable id."},
            "title": {"type": "string", "description": "The mistake's name, in the trainee's language."},
            "text": {
                "type": ["string", "null"],
                "description": "The step that differs, with this situation's numbers, in the trainee's "
                "language (null when the catalogue no longer names this answer).",
            },
        },
    },
    "QueueItem": {
        "type": "object",
        "required": [
            "kind",
            "level",
            "reason",
            "due",
            "stability_days",
            "recall",
            "correct",
            "attempts",
            "sure",
            "weak",
        ],
        "properties": {
            "kind": {"type": "string"},
            "level": {"type": "integer"},
            "reason": {
                "enum": ["due", "next_level", "new", "ahead"],
                "description": "Due for review; the next level of a mastered one; a drill not practised "
                "yet; practice ahead of schedule (a weak drill keeps due or ahead).",
            },
            "due": {"type": ["string", "null"], "description": "When the card is due (ISO 8601, UTC)."},
            "stability_days": {"type": ["number", "null"], "description": "FSRS stability of the card."},
            "recall": {"type": ["number", "null"], "description": "FSRS chance of a right answer now."},
            "correct": {
                "type": ["integer", "null"],
                "description": "Right answers among the kind's last 20 (null: a drill not practised yet).",
            },
            "attempts": {
                "type": ["integer", "null"],
                "description": "The kind's last answers counted (at most 20).",
            },
            "sure": {
                "type": ["number", "null"],
                "description": "The accuracy those answers show for sure (Wilson lower bound, 95%).",
            },
            "weak": {
                "type": "boolean",
                "description": "Under 80% for sure and the level not mastered: weak drills come first, the "
                "lowest first, so one wrong answer counts as unknown, not strong.",
            },
        },
    },
    "PracticeNext": {
        "type": "object",
        "required": ["next", "answered_today", "goal", "new_today", "new_per_day", "queue"],
        "properties": {
            "next": {
                "allOf": [_ref("QueueItem")],
                "type": "object",
                "required": ["title", "drill_url"],
                "properties": {
                    "title": {"type": "string"},
                    "drill_url": {"type": "string", "description": 'POST {"kind", "level"} here to draw it.'},
                },
            },
            "answered_today": {"type": "integer", "minimum": 0},
            "goal": {"type": "integer", "minimum": 1, "description": "Answers a day (data/practice.toml)."},
            "new_today": {"type": "integer", "minimum": 0},
            "new_per_day": {"type": "integer", "minimum": 0},
            "queue": {"type": "array", "items": _ref("QueueItem")},
        },
    },
    "Advice": {
        "type": "object",
        "required": ["player", "upcard", "rules", "ante", "bonus", "options", "super"],
        "properties": {
            "player": {"type": "array", "items": {"type": "string"}},
            "upcard": {"type": "string"},
            "rules": {"type": "string"},
            "ante": {"type": "integer", "minimum": 1},
            "bonus": {"type": "integer", "minimum": 0},
            "options": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["action", "discard", "label", "ev", "exact", "stderr", "equivalent"],
                    "properties": {
                        "action": {
                            "enum": ["fold", "bet", "insure", "exchange", "sixth_card", "instant_payout"]
                        },
                        "discard": {"type": "array", "items": {"type": "string"}},
                        "label": {"type": "string"},
                        "ev": {"type": "number", "description": "Expected result in antes (ante staked)."},
                        "exact": {
                            "type": "string",
                            "description": "The same value as an exact fraction of an ante, e.g. -19/125.",
                        },
                        "stderr": {"type": "number", "minimum": 0, "description": "Always 0: exact."},
                        "equivalent": {
                            "type": "boolean",
                            "description": "Worth exactly as much as the best option.",
                        },
                    },
                },
            },
            "super": {
                "description": "Lunar's Super bet on the dealt five, settled whatever the player does "
                "(null where the house has none).",
                "type": ["object", "null"],
                "properties": {
                    "row": {"type": ["string", "null"]},
                    "odds": {"type": "integer"},
                    "stake": {"type": "integer", "description": "Antes."},
                    "result": {"type": "integer", "description": "Antes won (or lost, negative)."},
                },
            },
        },
    },
    "RulesTable": {
        "type": "object",
        "required": ["game", "default", "presets", "rows"],
        "properties": {
            "game": {"type": "string"},
            "default": {"type": "string"},
            "presets": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["name", "title"],
                    "properties": {
                        "name": {"type": "string"},
                        "title": {"type": "string"},
                        "source": {"type": "string"},
                        "not_applied": {"type": "array", "items": {"type": "string"}},
                    },
                },
            },
            "rows": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["key", "label", "values", "same"],
                    "properties": {
                        "key": {"type": "string"},
                        "label": {"type": "string"},
                        "values": {"type": "object"},
                        "same": {"type": "boolean"},
                    },
                },
            },
        },
    },
}

# The live table (trainer/web/table/api.py).
SCHEMAS.update(
    {
        "RoundStep": {
            "type": "object",
            "description": "One ruling to make: the table as the dealer sees it, the question and its "
            "answer format. Never the answer.",
            "required": ["index", "number", "of", "kind", "question", "answer_format", "money", "table"],
            "properties": {
                "index": {"type": "integer", "minimum": 0, "description": "Send it back as `step`."},
                "number": {"type": "integer", "minimum": 1},
                "of": {"type": "integer", "minimum": 1, "description": "Steps in the round."},
                "kind": {"type": "string", "examples": ["rp.payout", "om.pot", "pp.trick"]},
                "question": _ref("Step"),
                "answer_format": _ref("AnswerFormat"),
                "money": {
                    "enum": ["pay", "collect", ""],
                    "description": "Whose chips a wrong answer moves: the house pays, collects, or neither.",
                },
                "table": {
                    "type": "object",
                    "description": "Every card and stake the dealer can see now (per game: boxes and the "
                    "dealer; seats, board, bets and the action log; bids, the trick and tricks taken).",
                },
            },
        },
        "RoundResult": {
            "type": "object",
            "required": ["steps", "answered", "right", "accuracy", "time_ms", "mean_step_ms", "house_chips"],
            "properties": {
                "steps": {"type": "integer"},
                "answered": {"type": "integer"},
                "right": {"type": "integer"},
                "accuracy": {"type": "number", "minimum": 0, "maximum": 1},
                "time_ms": {"type": "integer", "minimum": 0},
                "mean_step_ms": {"type": "integer", "minimum": 0},
                "step_times_ms": {"type": "array", "items": {"type": "integer"}},
                "house_chips": {
                    "type": "integer",
                    "description": "Chips the house would have lost (negative) or gained through mistakes.",
                },
                "finished": {"type": "boolean"},
            },
        },
        "Round": {
            "type": "object",
            "required": [
                "id",
                "game",
                "level",
                "seed",
                "seats",
                "rules",
                "payout",
                "version",
                "steps",
                "answered",
                "finished",
                "step",
                "answer_url",
            ],
            "properties": {
                "id": {"type": "integer"},
                "game": {"enum": [game.id for game in GAMES]},
                "level": {"type": "integer", "enum": [1, 2, 3]},
                "seed": {
                    "type": "integer",
                    "description": "Game + level + seed + seats + rules + version deal it again.",
                },
                "seats": {"type": "integer"},
                "rules": {"type": "string"},
                "payout": {"enum": ["amount", "chips"]},
                "version": {"type": "integer"},
                "mode": {"enum": ["practice", "test"]},
                "test_id": {"type": ["integer", "null"]},
                "steps": {"type": "integer"},
                "answered": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": [
                            "index",
                            "kind",
                            "answer",
                            "expected",
                            "correct",
                            "time_ms",
                            "house_chips",
                        ],
                    },
                },
                "finished": {"type": "boolean"},
                "step": {"oneOf": [_ref("RoundStep"), {"type": "null"}]},
                "answer_url": {"type": "string"},
                "result": _ref("RoundResult"),
                "end_table": {"type": "object"},
            },
        },
        "StepGrade": {
            "type": "object",
            "required": [
                "correct",
                "answer",
                "expected",
                "expected_text",
                "explanation",
                "house_chips",
                "index",
                "time_ms",
                "step",
                "finished",
            ],
            "properties": {
                "correct": {"type": "boolean"},
                "answer": {"description": "The answer as understood (canonical form)."},
                "expected": {"description": "The expected answer (the fewest chips for a chips answer)."},
                "expected_text": {"type": "string"},
                "explanation": {"type": "array", "items": _ref("Step")},
                "house_chips": {"type": "integer"},
                "index": {"type": "integer"},
                "time_ms": {"type": "integer", "minimum": 0},
                "step": {"oneOf": [_ref("RoundStep"), {"type": "null"}], "description": "The next step."},
                "finished": {"type": "boolean"},
                "result": _ref("RoundResult"),
                "end_table": {"type": "object"},
            },
        },
    }
)
_ROUND_ID = {"name": "round_id", "in": "path", "required": True, "schema": _ID}


def _new_round(game: str) -> dict[str, Any]:
    """The request of a round of one game: its seats and house rules are the game's own."""
    rounds = game_rounds(game)
    denominations = ", ".join(rounds.house_chips(rounds.default_rules).labels())
    return {
        "type": "object",
        "required": ["game", "level"],
        "properties": {
            "game": {"const": game},
            "level": {"type": "integer", "enum": [1, 2, 3]},
            "seats": {
                "type": ["integer", "null"],
                "minimum": rounds.seats.start,
                "maximum": rounds.seats.stop - 1,
                "description": f"{rounds.seat_word} at the table; by default the level chooses.",
            },
            "seed": {
                **_SEED,
                "type": ["integer", "null"],
                "description": "Instructors only (403 for anyone else): otherwise the server draws it.",
            },
            "rules": {
                "enum": [*dealt_presets(game), None],
                "description": "House rules (default first); null: the rules in force for the trainee "
                "(his choice, else his group's, an edited copy included), else the default.",
            },
            "payout": {
                "enum": ["amount", "chips", None],
                "description": "How payouts are answered: an amount, or chips (a count per "
                f"denomination of the house's chips: {denominations}); default: the house's choice.",
            },
        },
        "additionalProperties": False,
    }


def _round_paths() -> dict[str, Any]:
    new_round = {
        "description": "A game, a level and optional choices; null or absent: the default.",
        "oneOf": [_new_round(game.id) for game in GAMES],
    }
    answer = {
        "type": "object",
        "required": ["answer"],
        "properties": {
            "answer": _ref("Answer"),
            "step": {"type": "integer", "minimum": 0, "description": "The step answered (default: current)."},
        },
    }
    return {
        "/api/v1/rounds": {
            "post": {
                "summary": "Deal a round of a game at a level: its first step (never with its answer).",
                "requestBody": json_body(new_round),
                "responses": {
                    "201": {
                        **_json(_ref("Round"), "The round and its first step; Location points at it."),
                        "headers": {"Location": {"schema": {"type": "string"}}},
                    },
                    "400": _error(
                        "Bad JSON, an unknown game or field, a bad level, seats, seed, rules or payout."
                    ),
                    "403": _error("A seed from a caller who is not an instructor."),
                    "422": _error(
                        "Seats the house rules asked for do not seat (Georgian joker: 4 players only)."
                    ),
                },
            }
        },
        "/api/v1/rounds/{round_id}": {
            "get": {
                "summary": "A round of the session's trainee: its current step, answered steps, result.",
                "parameters": [_ROUND_ID],
                "responses": {
                    "200": _json(_ref("Round"), "The round."),
                    "404": _error("No such round for this trainee."),
                    "409": _error("The round was dealt by an older version of the trainer."),
                },
            }
        },
        "/api/v1/rounds/{round_id}/answer": {
            "post": {
                "summary": "Answer the current step: graded by the engines, recorded; the next step.",
                "parameters": [_ROUND_ID],
                "requestBody": json_body(answer),
                "responses": {
                    "200": _json(_ref("StepGrade"), "Right or wrong, the expected answer, the next step."),
                    "400": _error("Bad JSON, no answer, or a step that is not a whole number from 0."),
                    "404": _error("No such round for this trainee."),
                    "409": _error(
                        "The step has its answer already, is not reached yet, or the round is over (or was "
                        "dealt by an older version of the trainer); nothing changed."
                    ),
                    "422": _error("The answer cannot be read; the step stays open."),
                },
            }
        },
    }


_DRILL_ID = {"name": "drill_id", "in": "path", "required": True, "schema": _ID}


def _new_drill() -> dict[str, Any]:
    """A drill request: one variant per game (and set of levels), with that game's house rules."""
    groups: dict[tuple[str, tuple[int, ...]], list[str]] = {}
    for kind_id in sorted(REGISTRY):
        kind = REGISTRY[kind_id]
        groups.setdefault((kind.game, tuple(kind.levels)), []).append(kind_id)
    variants = []
    for (game, levels), kinds in groups.items():
        presets = BY_ID[game].preset_names() if game in BY_ID else ()
        variants.append(
            {
                "type": "object",
                "required": ["kind", "level"],
                "properties": {
                    "kind": {"enum": kinds},
                    "level": {"type": "integer", "enum": list(levels)},
                    "seed": {
                        **_SEED,
                        "type": ["integer", "null"],
                        "description": "Kind + level + seed + version deal the same drill; instructors "
                        "only (a trainee who chose a seed could replay a known question); null: a new one.",
                    },
                    "rules": (
                        {
                            "enum": [*presets, None],
                            "description": "House rules of the game; null: the default.",
                        }
                        if presets
                        else {"type": ["string", "null"]}
                    ),
                },
            }
        )
    if not variants:
        return {"type": "object", "required": ["kind", "level"]}
    return {"description": "A drill kind of GET /api/v1/kinds and one of its levels.", "oneOf": variants}


def _advisor_presets() -> list[str]:
    """The Russian poker presets the advisor can value: every one the loader accepts."""
    return list(RUSSIAN_POKER.preset_names())


def document() -> dict[str, Any]:
    """The document, with the kind ids of the registry listed as the `kind` enum."""
    new_drill = _new_drill()
    doc: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {
            "title": "Croupier Trainer API",
            "version": "1",
            "description": "Drills graded against the rule engines; progress kept per trainee. The caller "
            "is the bearer token's user, else the user signed in on the pages, else the session's guest.\n\n"
            + PATTERN_NOTE,
        },
        "servers": [{"url": "/"}],
        "paths": {
            "/api/v1/kinds": {
                "get": {
                    "summary": "Every drill kind: id, title, game, levels.",
                    "responses": {
                        "200": _json(
                            {
                                "type": "object",
                                "required": ["kinds"],
                                "properties": {"kinds": {"type": "array", "items": _ref("Kind")}},
                            },
                            "The kinds, by id.",
                        )
                    },
                }
            },
            "/api/v1/trainee": {
                "get": {
                    "summary": "Who is practising: the account (token or session) or the session's guest.",
                    "description": "Reading creates nothing: before a guest's first drill the id is null.",
                    "responses": {"200": _json(_ref("Trainee"), "The trainee.")},
                },
            },
            "/api/v1/drills": {
                "post": {
                    "summary": "Issue a drill (never with its answer).",
                    "requestBody": json_body(new_drill),
                    "responses": {
                        "201": {
                            **_json(_ref("Drill"), "The drill; Location points at it."),
                            "headers": {"Location": {"schema": {"type": "string"}}},
                        },
                        "400": _error("Bad JSON, a missing kind or level, a bad seed or rules."),
                        "403": _error("A seed from a caller who is not an instructor."),
                        "404": _error("Unknown drill kind."),
                        "422": _error("These house rules cannot be used for this drill kind."),
                    },
                }
            },
            "/api/v1/practice/next": {
                "get": {
                    "summary": "The next drill of today's practice queue (FSRS), with the day's goal.",
                    "parameters": [
                        {
                            "name": "game",
                            "in": "query",
                            "required": False,
                            "schema": {"type": "string", "enum": list(BY_ID)},
                            "description": "Only this game's drills.",
                        }
                    ],
                    "responses": {
                        "200": _json(_ref("PracticeNext"), "The head of the queue and the day so far."),
                        "400": _error("No such game."),
                    },
                }
            },
            "/api/v1/drills/{drill_id}": {
                "get": {
                    "summary": "A drill of the session's trainee; with its result once answered.",
                    "parameters": [_DRILL_ID],
                    "responses": {
                        "200": _json(_ref("Drill"), "The drill."),
                        "404": _error(
                            "No such practice drill for this trainee (a sprint's or a quiz's question is "
                            "answered on its page), or its kind is no longer installed."
                        ),
                    },
                }
            },
            "/api/v1/drills/{drill_id}/answer": {
                "post": {
                    "summary": "Answer a drill once: graded against the rule engine, recorded.",
                    "parameters": [_DRILL_ID],
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "required": ["answer"],
                                    "properties": {"answer": _ref("Answer")},
                                }
                            }
                        },
                    },
                    "responses": {
                        "200": _json(_ref("Grade"), "Right or wrong, the expected answer, the explanation."),
                        "400": _error("Bad JSON or no answer."),
                        "404": _error(
                            "No such practice drill for this trainee (a sprint's or a quiz's question is "
                            "answered on its page)."
                        ),
                        "409": _error("Already answered; nothing changed."),
                        "422": _error("The answer cannot be read; the drill stays open."),
                    },
                }
            },
            "/api/v1/rules": {
                "get": {
                    "summary": "Russian poker house-rules presets side by side, from the rules files.",
                    "responses": {
                        "200": _json(_ref("RulesTable"), "Presets and rows of options."),
                    },
                }
            },
            "/api/v1/advisor": {
                "post": {
                    "summary": "Every option of a Russian poker hand against the up-card, best first.",
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "required": ["player", "upcard"],
                                    "properties": {
                                        "player": {
                                            "description": "The five different cards dealt to the player "
                                            '(the options are valued before any buy): text "Qh 9h 6h 3h 2c" '
                                            "or a list. A card given "
                                            "twice, in the hand or as the up-card, is refused with 422: "
                                            "the list says its items are unique, but no schema can say "
                                            'it of the text, of one card in two notations ("Th", "10h") '
                                            "or across the two fields.",
                                            "oneOf": [
                                                {"type": "string", "pattern": cards_pattern(5, 5)},
                                                {
                                                    "type": "array",
                                                    "items": {"type": "string", "pattern": CARD_PATTERN},
                                                    "minItems": 5,
                                                    "maxItems": 5,
                                                    "uniqueItems": True,
                                                },
                                            ],
                                            "examples": ["Qh 9h 6h 3h 2c"],
                                        },
                                        "upcard": {
                                            "description": "The dealer's up-card: not one of the "
                                            "player's cards (422).",
                                            "type": "string",
                                            "pattern": cards_pattern(1, 1),
                                            "examples": ["Ad"],
                                        },
                                        "rules": {
                                            "enum": [*_advisor_presets(), None],
                                            "description": "House rules the advisor can value; null: "
                                            "the default.",
                                        },
                                        "ante": {
                                            "description": "Chips (default 1), for the table maximum.",
                                            "type": "integer",
                                            "minimum": 1,
                                            "maximum": ADVISOR_MAX_CHIPS,
                                        },
                                        "bonus": {
                                            "description": "Bonus side bet in chips (default 0).",
                                            "type": "integer",
                                            "minimum": 0,
                                            "maximum": ADVISOR_MAX_CHIPS,
                                        },
                                    },
                                }
                            }
                        },
                    },
                    "responses": {
                        "200": _json(_ref("Advice"), "The options with their values in antes."),
                        "400": _error(
                            "Bad JSON, bad cards, an ante or bonus out of range, or rules the advisor "
                            "cannot model."
                        ),
                        "422": _error("A card is given twice (in the hand or as the up-card)."),
                    },
                }
            },
            **_round_paths(),
            "/api/v1/openapi.json": {
                "get": {
                    "summary": "This document.",
                    "responses": {"200": _json(_ANY_JSON, "OpenAPI 3.1 document.")},
                }
            },
        },
        "components": {"schemas": SCHEMAS},
    }
    return openapi_flows.annotate(_with_accounts(doc))


def _with_accounts(doc: dict[str, Any]) -> dict[str, Any]:
    """Add the account and group routes and the security schemes; then the errors every operation
    shares (`openapi_parts.shared_errors`)."""
    doc["paths"].update(openapi_accounts.paths())
    doc["paths"].update(openapi_groups.paths())
    doc["components"]["schemas"].update(openapi_accounts.SCHEMAS)
    doc["components"]["schemas"].update(openapi_groups.SCHEMAS)
    doc["components"]["securitySchemes"] = openapi_accounts.SECURITY_SCHEMES
    doc["security"] = openapi_accounts.OPTIONAL
    shared_errors(doc["paths"])
    return doc
