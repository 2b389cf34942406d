"""How a client moves through the API, added to the OpenAPI document: an id and a tag per operation,
the links from one response to the next request (a drill created -> answered -> read; a round dealt ->
its steps answered -> read; an account made -> a token -> revoked), and an example body for each
request. Schemathesis follows the links in its stateful phase (tests/test_api_contract.py).
"""

from __future__ import annotations

from typing import Any

from trainer.games import OMAHA
from trainer.web.api.parts import RETRY_AFTER, error
from trainer.web.core.security import LIMITED as LIMITS
from trainer.web.core.security import PASSWORD_CHECKS

# The endpoints a rate limit counts (trainer.web.core.security, and the failed password checks of
# trainer.web.core.sign_in_limits): they may answer 429.
LIMITED = {endpoint for _, endpoints, _, _ in LIMITS.values() for endpoint in endpoints}
LIMITED |= set(PASSWORD_CHECKS)
TOO_MANY = {
    **error("Too many requests in a short time (the limits: trainer.web.core.security); nothing was done."),
    "headers": RETRY_AFTER,
}

# (path, method) -> (operationId, tag, the Flask endpoint that answers it)
OPERATIONS: dict[tuple[str, str], tuple[str, str, str]] = {
    ("/api/v1/kinds", "get"): ("listKinds", "Drills", "api.kinds"),
    ("/api/v1/drills", "post"): ("createDrill", "Drills", "api.create_drill"),
    ("/api/v1/drills/{drill_id}", "get"): ("getDrill", "Drills", "api.get_drill"),
    ("/api/v1/drills/{drill_id}/answer", "post"): ("answerDrill", "Drills", "api.answer_drill"),
    ("/api/v1/practice/next", "get"): ("nextPractice", "Drills", "api.practice_next"),
    ("/api/v1/rounds", "post"): ("createRound", "Live table", "api.create_round"),
    ("/api/v1/rounds/{round_id}", "get"): ("getRound", "Live table", "api.get_round"),
    ("/api/v1/rounds/{round_id}/answer", "post"): ("answerRound", "Live table", "api.answer_round"),
    ("/api/v1/rules", "get"): ("compareRules", "Reference", "api.rules"),
    ("/api/v1/advisor", "post"): ("adviseHand", "Reference", "api.advisor"),
    ("/api/v1/openapi.json", "get"): ("getDocument", "Reference", "api.openapi"),
    ("/api/v1/trainee", "get"): ("whoAmI", "Accounts", "api.get_trainee"),
    ("/api/v1/users", "post"): ("signUp", "Accounts", "api.sign_up"),
    ("/api/v1/tokens", "post"): ("createToken", "Accounts", "api.new_token"),
    ("/api/v1/tokens", "get"): ("listTokens", "Accounts", "api.list_tokens"),
    ("/api/v1/tokens/{token_id}", "delete"): ("revokeToken", "Accounts", "api.revoke_token"),
    ("/api/v1/groups", "get"): ("listGroups", "Groups", "api.list_groups"),
    ("/api/v1/groups", "post"): ("createGroup", "Groups", "api.create_group"),
    ("/api/v1/groups/join", "post"): ("joinGroup", "Groups", "api.join_group"),
    ("/api/v1/groups/{group_id}/membership", "delete"): ("leaveGroup", "Groups", "api.leave_group"),
    ("/api/v1/groups/{group_id}/report", "get"): ("groupReport", "Groups", "api.group_report"),
    ("/api/v1/groups/{group_id}/attempts.csv", "get"): ("groupAttempts", "Groups", "api.group_attempts_csv"),
    ("/api/v1/groups/{group_id}/quizzes", "get"): ("groupQuizzes", "Groups", "api.group_quizzes"),
    ("/api/v1/groups/{group_id}/trainees/{user_id}", "get"): ("groupTrainee", "Groups", "api.group_trainee"),
    ("/api/v1/groups/{group_id}/quiz-results.csv", "get"): (
        "groupQuizResults",
        "Groups",
        "api.group_quiz_results_csv",
    ),
}

TAGS = [
    {"name": "Drills", "description": "Questions drawn from the rule engines, answered once, graded."},
    {"name": "Live table", "description": "Whole rounds at a table, answered step by step."},
    {"name": "Reference", "description": "House rules side by side, the buy advisor, this document."},
    {"name": "Accounts", "description": "Accounts and the bearer tokens a school's tool signs in with."},
    {
        "name": "Groups",
        "description": "An instructor's groups: joining, the report, answers and quiz results as CSV.",
    },
]

_DRILL = {"drill_id": "$response.body#/id"}
_SAME_DRILL = {"drill_id": "$request.path.drill_id"}
_ROUND = {"round_id": "$response.body#/id"}
_SAME_ROUND = {"round_id": "$request.path.round_id"}

# (path, method, status) -> links of that response
LINKS: dict[tuple[str, str, str], dict[str, Any]] = {
    ("/api/v1/drills", "post", "201"): {
        "AnswerDrill": {"operationId": "answerDrill", "parameters": _DRILL, "description": "Answer it."},
        "GetDrill": {"operationId": "getDrill", "parameters": _DRILL, "description": "Read it again."},
    },
    ("/api/v1/drills/{drill_id}/answer", "post", "200"): {
        "GetDrill": {
            "operationId": "getDrill",
            "parameters": _SAME_DRILL,
            "description": "The drill with its result.",
        },
        "AnswerAgain": {
            "operationId": "answerDrill",
            "parameters": _SAME_DRILL,
            "description": "A second answer: 409, the first counts.",
        },
    },
    ("/api/v1/rounds", "post", "201"): {
        "AnswerStep": {
            "operationId": "answerRound",
            "parameters": _ROUND,
            "requestBody": {"answer": "0", "step": "$response.body#/step/index"},
            "description": "Answer the first step.",
        },
        "GetRound": {"operationId": "getRound", "parameters": _ROUND, "description": "Read the round."},
    },
    ("/api/v1/rounds/{round_id}/answer", "post", "200"): {
        "AnswerNextStep": {
            "operationId": "answerRound",
            "parameters": _SAME_ROUND,
            "description": "Answer the next step (409 once the round is over).",
        },
        "GetRound": {
            "operationId": "getRound",
            "parameters": _SAME_ROUND,
            "description": "The round with its answered steps and, when over, its result.",
        },
    },
    ("/api/v1/users", "post", "201"): {
        "SignIn": {
            "operationId": "createToken",
            "requestBody": {"username": "$request.body#/username", "password": "$request.body#/password"},
            "description": "A bearer token for the new account.",
        }
    },
    ("/api/v1/tokens", "post", "201"): {
        "RevokeToken": {
            "operationId": "revokeToken",
            "parameters": {"token_id": "$response.body#/id"},
            "description": "Revoke it (with that token, or signed in as its user).",
        }
    },
}

# (path, method) -> an example request body
EXAMPLES: dict[tuple[str, str], Any] = {
    ("/api/v1/drills", "post"): {"kind": "rp.bet_payout", "level": 1},
    ("/api/v1/drills/{drill_id}/answer", "post"): {"answer": "1 400"},
    ("/api/v1/rounds", "post"): {"game": OMAHA.id, "level": 2},
    ("/api/v1/rounds/{round_id}/answer", "post"): {"answer": "40", "step": 0},
    ("/api/v1/advisor", "post"): {"player": "Qh 9h 6h 3h 2c", "upcard": "Ad"},
    ("/api/v1/users", "post"): {"username": "nino", "password": "a long secret"},
    ("/api/v1/tokens", "post"): {"username": "nino", "password": "a long secret", "label": "results sheet"},
}


def annotate(doc: dict[str, Any]) -> dict[str, Any]:
    """Ids, tags, links and examples into the document; every operation must have an id here."""
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            if method == "parameters":
                continue
            operation_id, tag, endpoint = OPERATIONS[(path, method)]
            operation["operationId"] = operation_id
            operation["tags"] = [tag]
            if endpoint in LIMITED:
                operation["responses"]["429"] = TOO_MANY
            example = EXAMPLES.get((path, method))
            if example is not None:
                operation["requestBody"]["content"]["application/json"]["example"] = example
            for status, response in operation["responses"].items():
                links = LINKS.get((path, method, status))
                if links is not None:
                    response["links"] = links
    doc["tags"] = TAGS
    return doc
