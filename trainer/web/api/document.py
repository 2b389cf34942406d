"""The OpenAPI 3.1 document of /api/v1, made from the routes themselves.

Each route says what it is with `@operation(...)` under its `@bp.get/post/delete`: its id, tag,
summary, the request model (`trainer.web.api.schemas`) it reads its body with, and its statuses with
their response models. Paths, methods and path parameters come from the URL map, the schemas from the
models (`model_json_schema`), so nothing is written twice: a route without an operation, or an
operation without a route, has no document (`document` refuses to make one).

What every operation answers whatever it does is added here: 401 (a bad bearer token is refused
before anything else), 503 (the store is busy or damaged), 413 and 415 for one with a body, 429 for
an endpoint a rate limit counts.
"""

from __future__ import annotations

import copy
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from flask import Flask
from pydantic import BaseModel, ValidationError
from pydantic.json_schema import GenerateJsonSchema, models_json_schema

from trainer.drills import REGISTRY
from trainer.web.api import schemas
from trainer.web.api.shared import bp, fail, json_body
from trainer.web.core.security import LIMITED, PASSWORD_CHECKS

REF = "#/components/schemas/{model}"
CSV = "text/csv"  # a response of CSV text, not JSON
ANY_JSON = "application/json"  # a response of any JSON (the document itself)

BEARER: dict[str, list[str]] = {"bearer": []}
SESSION: dict[str, list[str]] = {"session": []}
# Most routes serve guests too: credentials are optional there (`{}` means "none").
OPTIONAL = [{}, BEARER, SESSION]
SIGNED_IN = [BEARER, SESSION]
ANYONE: list[dict[str, list[str]]] = [{}]
SECURITY_SCHEMES = {
    "bearer": {
        "type": "http",
        "scheme": "bearer",
        "description": "A token from POST /api/v1/tokens: `Authorization: Bearer <token>`. Without one "
        "the caller is the user signed in on the pages (session cookie), else the session's guest.",
    },
    "session": {
        "type": "apiKey",
        "in": "cookie",
        "name": "session",
        "description": "The pages' session cookie: the signed-in user, or the session's guest.",
    },
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

# A response: (its model, or CSV, or None for no body; its description); an error: its description.
Response = tuple[type[BaseModel] | str | None, str] | str


@dataclass(frozen=True)
class Operation:
    id: str
    tag: str
    summary: str
    responses: dict[int, Response]
    body: type[schemas.Body] | None = None
    description: str = ""
    security: list[dict[str, list[str]]] = field(default_factory=lambda: OPTIONAL)
    query: tuple[dict[str, Any], ...] = ()
    example: Any = None
    links: dict[int, dict[str, Any]] = field(default_factory=dict)
    location: bool = False  # its 2xx sends Location


def link(
    operation_id: str,
    description: str,
    *,
    parameters: dict[str, str] | None = None,
    body: dict[str, str] | None = None,
) -> dict[str, Any]:
    """An OpenAPI link from a response to the operation `operation_id`: its `parameters` and request
    `body` as runtime expressions (such as "$response.body#/id") or values."""
    found: dict[str, Any] = {"operationId": operation_id}
    if parameters is not None:
        found["parameters"] = parameters
    if body is not None:
        found["requestBody"] = body
    found["description"] = description
    return found


OPERATIONS: dict[str, Operation] = {}  # by Flask endpoint
View = TypeVar("View", bound=Callable[..., Any])


def operation(id: str, tag: str, summary: str, **details: Any) -> Callable[[View], View]:
    """Describe the view below it; with `body=Model`, the view gets the request body read by that
    model as its first argument (`read`)."""

    def describe(view: View) -> View:
        described = Operation(id, tag, summary, **details)
        OPERATIONS[f"{bp.name}.{view.__name__}"] = described
        if described.body is None:
            return view
        model = described.body

        @functools.wraps(view)
        def with_body(**kwargs: Any) -> Any:
            return view(read(model), **kwargs)

        return with_body  # type: ignore[return-value]

    return describe


Model = TypeVar("Model", bound=schemas.Body)


def read(model: type[Model]) -> Model:
    """The request body read by `model`: a JSON object (`json_body`: 415, 413, bad or deep JSON are
    refused there), each field as the model says, else a 400 with the model's sentence."""
    data = json_body()
    try:
        return model.model_validate(data)
    except ValidationError as error:
        fail(400, refusal(model, error, data))


def refusal(model: type[schemas.Body], error: ValidationError, data: dict[str, Any]) -> str:
    """The sentence for the first field refused (pydantic lists them in the model's order)."""
    first = error.errors(include_url=False)[0]
    name = str(first["loc"][0]) if first["loc"] else ""
    refusals = model.refusals
    if first["type"] == "extra_forbidden":
        template = refusals.get("extra", "Unknown field {field!r}.")
    elif first["type"] == "missing":
        template = refusals.get(f"{name}.missing") or refusals.get(name, "Give {field}.")
    else:
        template = refusals.get(name, "{field}: " + first["msg"] + ".")
    return (
        template.replace("{field!r}", repr(name))
        .replace("{field}", name)
        .replace("{value!r}", f"{data.get(name)!r:.40}")
    )


def query(name: str, schema: dict[str, Any], description: str = "") -> dict[str, Any]:
    found = {"name": name, "in": "query", "required": False, "schema": schema}
    return {**found, "description": description} if description else found


class _Generator(GenerateJsonSchema):
    """Pydantic's JSON Schema without a title on every property (the names say it) and without
    `default: null` (a field that some responses leave out is not null when present)."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False

    def default_schema(self, schema: Any) -> Any:
        found = super().default_schema(schema)
        if isinstance(found, dict) and "default" in found and found["default"] is None:
            del found["default"]
        return found


def _ref(name: str) -> dict[str, str]:
    return {"$ref": REF.format(model=name)}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


RETRY_AFTER = {"Retry-After": {"schema": {"type": "integer"}, "description": "Seconds to wait."}}
UNAUTHORIZED = {
    **_json(
        _ref("Error"),
        "The bearer token is not valid (mistyped, revoked, or not a Bearer token), or none was sent.",
    ),
    "headers": {"WWW-Authenticate": {"schema": {"type": "string"}}},
}
BODY_ERRORS = {
    "413": _json(_ref("Error"), "The body is over 256 KiB."),
    "415": _json(_ref("Error"), "The body is not JSON (Content-Type: application/json)."),
}
STORE_ERRORS = {
    "503": {
        **_json(_ref("Error"), "The database is busy or damaged: nothing was recorded; try again."),
        "headers": RETRY_AFTER,
    }
}
TOO_MANY = {
    **_json(
        _ref("Error"),
        "Too many requests in a short time (the limits: trainer.web.core.security); nothing was done.",
    ),
    "headers": RETRY_AFTER,
}
# The endpoints a rate limit counts (trainer.web.core.security, and the failed password checks of
# trainer.web.core.sign_in_limits): they may answer 429.
RATE_LIMITED = {endpoint for _, endpoints, _, _ in LIMITED.values() for endpoint in endpoints} | set(
    PASSWORD_CHECKS
)


@functools.cache
def _rules() -> list[tuple[str, str, list[str]]]:
    """(path, endpoint, methods) of the blueprint's routes, from a URL map of its own (the document is
    the same whichever app asks, and the docs site makes it with no app)."""
    app = Flask("api-document")
    app.register_blueprint(bp)
    return [
        (rule.rule, rule.endpoint, sorted(rule.methods - {"HEAD", "OPTIONS"}))
        for rule in app.url_map.iter_rules()
        if rule.endpoint.startswith(f"{bp.name}.")
    ]


def _path_parameter(name: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1}}


def _response(status: int, response: Response, described: Operation) -> dict[str, Any]:
    if isinstance(response, str):
        return _json(_ref("Error"), response)
    model, description = response
    if model is None:
        found: dict[str, Any] = {"description": description}
    elif model == ANY_JSON:
        found = _json({}, description)
    elif model == CSV:
        found = {"description": description, "content": {CSV: {"schema": {"type": "string"}}}}
    else:
        assert isinstance(model, type)
        found = _json(_ref(model.__name__), description)
    if described.location and status < 300:
        found["headers"] = {"Location": {"schema": {"type": "string"}}}
    if status in described.links:
        found["links"] = described.links[status]
    return found


def _operation(endpoint: str, described: Operation, parameters: list[str]) -> dict[str, Any]:
    found: dict[str, Any] = {
        "operationId": described.id,
        "tags": [described.tag],
        "summary": described.summary,
    }
    if described.description:
        found["description"] = described.description
    if described.security is not OPTIONAL:
        found["security"] = described.security
    listed = [_path_parameter(name) for name in parameters] + list(described.query)
    if listed:
        found["parameters"] = listed
    responses = {str(status): _response(status, r, described) for status, r in described.responses.items()}
    if described.body is not None:
        schema = described.body.model_json_schema(ref_template=REF, schema_generator=_Generator)
        schema.pop("title", None)
        content: dict[str, Any] = {"schema": schema}
        if described.example is not None:
            content["example"] = described.example
        found["requestBody"] = {"required": True, "content": {"application/json": content}}
        responses.update(BODY_ERRORS)
    responses.setdefault("401", UNAUTHORIZED)
    responses.update(STORE_ERRORS)
    if endpoint in RATE_LIMITED:
        responses["429"] = TOO_MANY
    found["responses"] = responses
    return found


def _components(models: set[type[BaseModel]]) -> dict[str, Any]:
    ordered = sorted(models, key=lambda model: model.__name__)
    _, top = models_json_schema(
        [(model, "validation") for model in ordered], ref_template=REF, schema_generator=_Generator
    )
    found: dict[str, Any] = top.get("$defs", {})
    for schema in found.values():
        schema.pop("title", None)
    return found


def document() -> dict[str, Any]:
    """The document: every route of the `api` blueprint with its operation, the request schemas as
    the models read them (the drill kinds of the registry as it is now), the response models.

    Made once per set of installed drill kinds, the one thing in it that changes while the server
    runs: pydantic takes about 50 ms to make it, the copy under 5."""
    kinds = tuple(
        (kind_id, REGISTRY[kind_id].game, tuple(REGISTRY[kind_id].levels)) for kind_id in sorted(REGISTRY)
    )
    return copy.deepcopy(_made(kinds))


@functools.lru_cache(maxsize=4)
def _made(kinds: tuple[Any, ...]) -> dict[str, Any]:
    paths: dict[str, dict[str, Any]] = {}
    described = set()
    models: set[type[BaseModel]] = {schemas.Error}
    for rule, endpoint, methods in _rules():
        if endpoint not in OPERATIONS:
            raise LookupError(f"{endpoint} has no @operation: the document cannot describe it")
        found = OPERATIONS[endpoint]
        described.add(endpoint)
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule)
        parameters = re.findall(r"<(?:\w+:)?(\w+)>", rule)
        for method in methods:
            paths.setdefault(path, {})[method.lower()] = _operation(endpoint, found, parameters)
        models |= {r[0] for r in found.responses.values() if isinstance(r, tuple) and isinstance(r[0], type)}
    if set(OPERATIONS) - described:
        raise LookupError(f"operations without a route: {sorted(set(OPERATIONS) - described)}")
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Croupier Trainer API",
            "version": "1",
            "description": "Drills graded against the rule engines; progress kept per trainee. The caller "
            "is the bearer token's user, else the user signed in on the pages, else the session's guest.\n\n"
            + schemas.PATTERN_NOTE,
        },
        "servers": [{"url": "/"}],
        "security": OPTIONAL,
        "tags": TAGS,
        "paths": paths,
        "components": {"schemas": _components(models), "securitySchemes": SECURITY_SCHEMES},
    }
