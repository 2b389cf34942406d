"""The documentation site's pages (`docs/*.md`, built by MkDocs), as the tests that keep them true
read them: a page by name, all pages at once, a `## ` section by its title wherever it is."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def page(name: str) -> str:
    """One page's Markdown, e.g. `page("api.md")`."""
    return (DOCS / name).read_text(encoding="utf-8")


@cache
def all_pages() -> str:
    """Every page's Markdown, one after another (in file order)."""
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(DOCS.rglob("*.md")))


def section(title: str) -> str:
    """The body of the `## title` section (up to the next `## ` heading of its page)."""
    for path in sorted(DOCS.rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, flags=re.M | re.S)
        if match:
            return match.group(1)
    raise AssertionError(f"no docs page has a '## {title}' section")
