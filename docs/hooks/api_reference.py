"""MkDocs hook: the JSON API reference page is made from the OpenAPI document the server serves
(`trainer.web.api.document.document()`, the one the contract tests check), so the page cannot drift
from it."""

from __future__ import annotations

import json
from typing import Any

MARKER = "<!-- operations -->"


def _cell(text: Any) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _body(operation: dict[str, Any]) -> str:
    content = operation.get("requestBody", {}).get("content", {})
    schema = content.get("application/json", {}).get("schema")
    if not schema:
        return ""
    return f"\n\n```json\n{json.dumps(schema, indent=2, ensure_ascii=False)}\n```"


def render(document: dict[str, Any]) -> str:
    """The operations as Markdown: one section per path and method, its summary, the request body's
    schema and the statuses it answers."""
    lines = [f"Version {document['info']['version']}.", "", _cell(document["info"]["description"]), ""]
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if method not in {"get", "post", "put", "patch", "delete"}:
                continue
            statuses = ", ".join(
                f"`{code}` {_cell(response.get('description', ''))}"
                for code, response in operation.get("responses", {}).items()
            )
            lines += [
                f"### `{method.upper()} {path}`",
                "",
                _cell(operation.get("summary", "")),
                "",
                _cell(operation.get("description", "")) + _body(operation),
                "",
                f"Answers: {statuses}",
                "",
            ]
    return "\n".join(lines)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if MARKER not in markdown:
        return markdown
    from trainer.web.api.document import document

    return markdown.replace(MARKER, render(document()))
