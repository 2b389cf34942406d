"""MkDocs hook: the environment variables' table on "Running it for a school" is rendered from
`trainer.web.core.settings.TABLE` (the list `python3 -m trainer --help` prints too), so the page cannot
drift from what the code reads."""

from __future__ import annotations

from typing import Any

MARKER = "<!-- environment variables -->"


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if MARKER not in markdown:
        return markdown
    from trainer.web.core.settings import markdown as table

    return markdown.replace(MARKER, table())
