"""The building blocks of the OpenAPI document, shared by its parts (`openapi`, `openapi_accounts`,
`openapi_groups`): references, JSON responses and bodies, and the errors every operation shares.

`shared_errors` gives each operation of the whole document the statuses it answers whatever it does:
401 (a bad bearer token is refused before anything else), 503 (the store is busy or damaged: every
operation may meet it, since a bearer token is looked up in the store), and, for an operation with a
request body, 413 and 415. An operation lists only the statuses of its own.
"""

from __future__ import annotations

from typing import Any


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def json_response(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def error(description: str) -> dict[str, Any]:
    return json_response(ref("Error"), description)


def json_body(schema: dict[str, Any]) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": schema}}}


RETRY_AFTER = {"Retry-After": {"schema": {"type": "integer"}, "description": "Seconds to wait."}}
UNAUTHORIZED = {
    **error("The bearer token is not valid (mistyped, revoked, or not a Bearer token), or none was sent."),
    "headers": {"WWW-Authenticate": {"schema": {"type": "string"}}},
}
BODY_ERRORS = {
    "413": error("The body is over 256 KiB."),
    "415": error("The body is not JSON (Content-Type: application/json)."),
}
STORE_ERRORS = {
    "503": {
        **error("The database is busy or damaged: nothing was recorded; try again."),
        "headers": RETRY_AFTER,
    }
}


def shared_errors(paths: dict[str, Any]) -> None:
    """Add the statuses every operation shares (above) to each operation of `paths`."""
    for item in paths.values():
        for method, operation in item.items():
            if method == "parameters":
                continue
            responses = operation["responses"]
            responses.setdefault("401", UNAUTHORIZED)
            responses.update(STORE_ERRORS)
            if "requestBody" in operation:
                responses.update(BODY_ERRORS)
