"""The groups part of the OpenAPI document: groups, joining, a group's report and its CSV export.

`trainer.web.api.openapi.document` merges `paths()` and `SCHEMAS` in (with the accounts part)."""

from __future__ import annotations

from typing import Any

from trainer.games import GAMES
from trainer.store.groups import NAME_MAX, NAME_PATTERN
from trainer.web.accounts.openapi import SIGNED_IN
from trainer.web.api.parts import error as _error
from trainer.web.api.parts import json_body as _body
from trainer.web.api.parts import json_response as _json
from trainer.web.api.parts import ref as _ref

_GROUP_ID = {"name": "group_id", "in": "path", "required": True, "schema": {"type": "integer"}}
_GROUP_NAME = {
    "type": "string",
    "pattern": rf"^\s*{NAME_PATTERN}\s*$",
    "description": f"Letters and digits of any script, spaces and . , ' & ( ) / - (at most {NAME_MAX}); "
    "the pattern is read as Python's `re` reads it (see the document's description).",
    "examples": ["Morning class"],
}
_USER_ID = {"name": "user_id", "in": "path", "required": True, "schema": {"type": "integer"}}
_DAY = {"type": "string", "format": "date", "examples": ["2026-12-01"]}
_GAME_MAP = {"type": "object", "propertyNames": {"enum": [g.id for g in GAMES]}}

_SITTING = {
    "type": "object",
    "required": ["id", "started_at", "finished_at", "answered", "correct"],
    "properties": {
        "id": {"type": "integer"},
        "started_at": {"type": "string", "format": "date-time"},
        "finished_at": {"type": "string", "format": "date-time"},
        "answered": {"type": "integer"},
        "correct": {"type": "integer"},
    },
}

_FIGURES = {
    "attempts": {"type": "integer"},
    "correct": {"type": "integer"},
    "accuracy": {"type": "number", "minimum": 0, "maximum": 1},
    "median_ms": {"type": "number"},
}
_FIGURES_REQUIRED = ["attempts", "correct", "accuracy", "median_ms"]

SCHEMAS: dict[str, Any] = {
    "GroupTrainee": {
        "type": "object",
        "required": [
            "id",
            "username",
            "name",
            "last_activity",
            "readiness",
            "trend",
            "kinds",
            "mistakes",
            "sprint_bests",
            "quizzes",
        ],
        "properties": {
            "id": {"type": "integer"},
            "username": {"type": "string"},
            "name": {"type": "string"},
            "last_activity": {"type": ["string", "null"]},
            "readiness": {**_GAME_MAP, "additionalProperties": _ref("Readiness")},
            "trend": {
                "type": "array",
                "description": "Per day with answers, oldest first.",
                "items": {
                    "type": "object",
                    "required": ["day", *_FIGURES_REQUIRED],
                    "properties": {"day": {"type": "string", "format": "date"}, **_FIGURES},
                },
            },
            "kinds": {
                "type": "array",
                "description": "Per drill kind answered, weakest first.",
                "items": {
                    "type": "object",
                    "required": ["kind", *_FIGURES_REQUIRED],
                    "properties": {"kind": {"type": "string"}, **_FIGURES},
                },
            },
            "mistakes": {
                "type": "array",
                "description": "The most frequent catalogued mistakes (up to 10), most frequent first.",
                "items": {
                    "type": "object",
                    "required": ["mistake", "count", "kinds"],
                    "properties": {
                        "mistake": {"type": "string"},
                        "count": {"type": "integer"},
                        "kinds": {"type": "array", "items": {"type": "string"}},
                    },
                },
            },
            "sprint_bests": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["scope", "level", "duration_s", "correct", "answered", "questions"],
                    "properties": {
                        "scope": {"type": "string"},
                        "level": {"type": "integer"},
                        "duration_s": {"type": "integer"},
                        "correct": {"type": "integer"},
                        "answered": {"type": "integer"},
                        "questions": {"type": "integer"},
                    },
                },
            },
            "quizzes": {
                "type": "array",
                "description": "His handed-in sittings of the group's quizzes, newest first.",
                "items": {
                    "type": "object",
                    "required": ["quiz_id", "title", "sitting_id", "finished_at", "correct", "questions"],
                    "properties": {
                        "quiz_id": {"type": "integer"},
                        "title": {"type": "string"},
                        "sitting_id": {"type": "integer"},
                        "finished_at": {"type": "string", "format": "date-time"},
                        "correct": {"type": "integer"},
                        "questions": {"type": "integer"},
                    },
                },
            },
        },
    },
    "GroupQuiz": {
        "type": "object",
        "required": [
            "id",
            "title",
            "items",
            "questions",
            "time_limit_s",
            "attempts_allowed",
            "same_questions",
            "opens_at",
            "closes_at",
            "answers_before_close",
            "is_open",
            "results",
        ],
        "properties": {
            "id": {"type": "integer"},
            "title": {"type": "string"},
            "items": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["kind", "level"],
                    "properties": {"kind": {"type": "string"}, "level": {"type": "integer"}},
                },
            },
            "questions": {"type": "integer"},
            "time_limit_s": {"type": ["integer", "null"]},
            "attempts_allowed": {"type": "integer"},
            "same_questions": {"type": "boolean"},
            "opens_at": {"type": "string", "format": "date-time"},
            "closes_at": {"type": "string", "format": "date-time"},
            "answers_before_close": {"type": "boolean"},
            "is_open": {"type": "boolean"},
            "results": {
                "type": "array",
                "description": "Every member: his handed-in sittings and best score (null: not taken).",
                "items": {
                    "type": "object",
                    "required": ["id", "username", "name", "best", "sittings"],
                    "properties": {
                        "id": {"type": "integer"},
                        "username": {"type": "string"},
                        "name": {"type": "string"},
                        "best": {"type": ["integer", "null"]},
                        "sittings": {"type": "array", "items": _SITTING},
                    },
                },
            },
        },
    },
    "Group": {
        "type": "object",
        "required": ["id", "name", "created_at"],
        "properties": {
            "id": {"type": "integer"},
            "name": {"type": "string"},
            "created_at": {"type": "string", "format": "date-time"},
            "join_code": {"type": "string", "description": "Only to the group's instructor."},
            "members": {"type": "integer", "description": "Only to the group's instructor."},
        },
    },
    "Target": {
        "type": "object",
        "required": ["accuracy", "window", "min_level", "median_seconds"],
        "properties": {
            "accuracy": {"type": "number", "minimum": 0, "maximum": 1},
            "window": {"type": "integer", "minimum": 1},
            "min_level": {"type": "integer", "minimum": 1, "maximum": 3},
            "median_seconds": {"type": "number"},
        },
    },
    "Readiness": {
        "type": "object",
        "required": ["status", "answers", "correct", "accuracy", "median_ms", "target"],
        "properties": {
            "status": {"enum": ["ready", "not_yet", "too_few"]},
            "answers": {"type": "integer"},
            "correct": {"type": "integer"},
            "accuracy": {"type": ["number", "null"]},
            "median_ms": {"type": ["number", "null"]},
            "target": _ref("Target"),
        },
    },
    "GroupReport": {
        "type": "object",
        "required": ["group", "rules", "targets", "kinds", "trainees", "items"],
        "properties": {
            "group": _ref("Group"),
            "rules": {**_GAME_MAP, "additionalProperties": {"type": "string"}},
            "targets": {**_GAME_MAP, "additionalProperties": _ref("Target")},
            "kinds": {"type": "array", "items": {"type": "string"}},
            "trainees": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["id", "username", "name", "last_activity", "kinds", "readiness"],
                    "properties": {
                        "id": {"type": "integer"},
                        "username": {"type": "string"},
                        "name": {"type": "string"},
                        "last_activity": {"type": ["string", "null"]},
                        "kinds": {
                            "type": "object",
                            "additionalProperties": {
                                "type": "object",
                                "required": ["attempts", "correct", "median_ms"],
                                "properties": {
                                    "attempts": {"type": "integer"},
                                    "correct": {"type": "integer"},
                                    "median_ms": {"type": "number"},
                                },
                            },
                        },
                        "readiness": {**_GAME_MAP, "additionalProperties": _ref("Readiness")},
                    },
                },
            },
            "items": {
                "type": "array",
                "description": "Item analysis: per drill kind the members answered (catalog order), "
                "the answers, accuracy, median time and the three most common wrong answers.",
                "items": {
                    "type": "object",
                    "required": ["kind", "attempts", "accuracy", "median_ms", "wrong_answers"],
                    "properties": {
                        "kind": {"type": "string"},
                        "attempts": {"type": "integer"},
                        "accuracy": {"type": "number", "minimum": 0, "maximum": 1},
                        "median_ms": {"type": "number"},
                        "wrong_answers": {
                            "type": "array",
                            "maxItems": 3,
                            "items": {
                                "type": "object",
                                "required": ["answer", "count"],
                                "properties": {"answer": {}, "count": {"type": "integer"}},
                            },
                        },
                    },
                },
            },
        },
    },
}


def paths() -> dict[str, Any]:
    return {
        "/api/v1/groups": {
            "get": {
                "summary": "The caller's groups: those he owns (instructors) and those he is in.",
                "security": SIGNED_IN,
                "responses": {
                    "200": _json(
                        {
                            "type": "object",
                            "required": ["owned", "member_of", "practising_for"],
                            "properties": {
                                "owned": {"type": "array", "items": _ref("Group")},
                                "member_of": {"type": "array", "items": _ref("Group")},
                                "practising_for": {"type": ["integer", "null"]},
                            },
                        },
                        "The groups.",
                    ),
                },
            },
            "post": {
                "summary": "Make a group (instructors only); it gets a join code.",
                "security": SIGNED_IN,
                "requestBody": _body(
                    {
                        "type": "object",
                        "required": ["name"],
                        "properties": {"name": _GROUP_NAME},
                    }
                ),
                "responses": {
                    "201": {
                        **_json(_ref("Group"), "The group with its join code; Location is its report."),
                        "headers": {"Location": {"schema": {"type": "string"}}},
                    },
                    "400": _error("Bad JSON or a missing or too long name."),
                    "403": _error("The caller is not an instructor."),
                },
            },
        },
        "/api/v1/groups/join": {
            "post": {
                "summary": "Join a group with its code (the first group joined is the one practised for).",
                "security": SIGNED_IN,
                "requestBody": _body(
                    {"type": "object", "required": ["code"], "properties": {"code": {"type": "string"}}}
                ),
                "responses": {
                    "200": _json(_ref("Group"), "The group joined (joining twice changes nothing)."),
                    "400": _error("Bad JSON."),
                    "404": _error("No group has this code."),
                },
            }
        },
        "/api/v1/groups/{group_id}/membership": {
            "delete": {
                "summary": "Leave a group: its instructor no longer sees what the caller does from now on.",
                "description": "Only the member himself joins (with the code) and leaves; what he did while "
                "in the group stays in its records.",
                "security": SIGNED_IN,
                "parameters": [_GROUP_ID],
                "responses": {
                    "204": {"description": "Left the group."},
                    "404": _error("The caller is not in this group."),
                },
            }
        },
        "/api/v1/groups/{group_id}/report": {
            "get": {
                "summary": "Per trainee and drill kind: attempts, correct, median_ms; readiness per game.",
                "description": "Of each member, only what he did while in the group.",
                "security": SIGNED_IN,
                "parameters": [_GROUP_ID],
                "responses": {
                    "200": _json(_ref("GroupReport"), "The report (the group's owner only)."),
                    "404": _error("No such group of the caller's."),
                },
            }
        },
        "/api/v1/groups/{group_id}/attempts.csv": {
            "get": {
                "summary": "The members' attempts as CSV, oldest first.",
                "description": "Only the attempts answered while their trainee was in the group (a former "
                "member's from his time in it).",
                "security": SIGNED_IN,
                "parameters": [
                    _GROUP_ID,
                    {"name": "since", "in": "query", "schema": _DAY, "description": "First day (UTC)."},
                    {"name": "until", "in": "query", "schema": _DAY, "description": "Last day (UTC)."},
                    {"name": "kind", "in": "query", "schema": {"type": "string"}},
                ],
                "responses": {
                    "200": {
                        "description": "answered_at, username, kind, level, rules, mode, answer, expected, "
                        "correct, time_ms, mistake.",
                        "content": {"text/csv": {"schema": {"type": "string"}}},
                    },
                    "400": _error("A date that is not YYYY-MM-DD."),
                    "404": _error("No such group of the caller's."),
                },
            }
        },
        "/api/v1/groups/{group_id}/trainees/{user_id}": {
            "get": {
                "summary": "One member's work, as his page on the desk shows it.",
                "description": "Only what he did while in the group.",
                "security": SIGNED_IN,
                "parameters": [_GROUP_ID, _USER_ID],
                "responses": {
                    "200": _json(_ref("GroupTrainee"), "The member's work (the group's owner only)."),
                    "404": _error("No such group of the caller's, or no such member in it."),
                },
            }
        },
        "/api/v1/groups/{group_id}/quizzes": {
            "get": {
                "summary": "The group's assigned quizzes, each with every member's sittings and best score.",
                "security": SIGNED_IN,
                "parameters": [_GROUP_ID],
                "responses": {
                    "200": _json(
                        {
                            "type": "object",
                            "required": ["quizzes"],
                            "properties": {"quizzes": {"type": "array", "items": _ref("GroupQuiz")}},
                        },
                        "The quizzes, the latest to open first (the group's owner only).",
                    ),
                    "404": _error("No such group of the caller's."),
                },
            }
        },
        "/api/v1/groups/{group_id}/quiz-results.csv": {
            "get": {
                "summary": "The group's quiz results as CSV: a row per question of every finished sitting.",
                "security": SIGNED_IN,
                "parameters": [
                    _GROUP_ID,
                    {
                        "name": "since",
                        "in": "query",
                        "schema": _DAY,
                        "description": "First day of hand-in (UTC).",
                    },
                    {
                        "name": "until",
                        "in": "query",
                        "schema": _DAY,
                        "description": "Last day of hand-in (UTC).",
                    },
                    {"name": "kind", "in": "query", "schema": {"type": "string"}},
                ],
                "responses": {
                    "200": {
                        "description": "finished_at, quiz_id, quiz, username, sitting_id, score, questions, "
                        "question, kind, level, rules, answer, expected, correct.",
                        "content": {"text/csv": {"schema": {"type": "string"}}},
                    },
                    "400": _error("A date that is not YYYY-MM-DD."),
                    "404": _error("No such group of the caller's."),
                },
            }
        },
    }
