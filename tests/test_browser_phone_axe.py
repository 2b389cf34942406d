"""Accessibility on a 390 x 844 phone in Georgian and Russian (axe-core, vendored under tests/vendor):
no violation of any impact on the pages issue 29 named (progress, the presets side by side, a live
table round: its wide tables scroll inside a box that takes the keyboard focus, the round has an h1);
and each of those pages comes compressed with a description in its language."""

from __future__ import annotations

import re

import pytest
from test_browser_pages import (  # noqa: F401  (page_in and server are fixtures)
    AXE,
    PHONE,
    navigate,
    page_in,
    server,
    sign_up,
)

pytestmark = pytest.mark.browser
SCRIPT = {"ka": "[\u10d0-\u10ff]{3}", "ru": "[а-яё]{3}"}

PAGES = [
    "/progress/",
    "/reference/presets/russian-poker",
    "/reference/presets/painted-poker",
    "/table/",
]


def violations(page) -> list[str]:
    page.add_script_tag(content=AXE.read_text())
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{page.url}: {v['id']} ({v['impact']}) {[n['target'] for n in v['nodes'][:3]]}"
        for v in result["violations"]
    ]


@pytest.mark.parametrize("lang", ["ka", "ru"])
def test_no_accessibility_violations_on_a_phone(page_in, server, lang):  # noqa: F811
    page = page_in(lang, viewport=PHONE, bypass_csp=True)
    sign_up(page, f"axe.phone.{lang}")
    problems: list[str] = []
    for url in PAGES:
        response = page.goto(server + url)
        page.wait_for_load_state()
        problems += violations(page)
        # The page came compressed (issue 29: 45-63 KiB each went as they were) and says what it is.
        if response.headers.get("content-encoding") not in ("br", "gzip"):
            problems.append(f"{url}: sent uncompressed ({response.headers.get('content-encoding')})")
        described = page.locator("meta[name=description]").get_attribute("content") or ""
        if not re.search(SCRIPT[lang], described):
            problems.append(f"{url}: no description in the page's language ({described!r})")
    # A live table round, its first step and its end.
    page.goto(server + "/table/")
    section = page.locator("section.table-game:has(#game-russian_poker)")
    # Paid cut from the float: the float is drawn under the dealer from the first step.
    section.locator("label:has(input[name=payout][value=fewest])").click()
    navigate(page, lambda: section.locator("form.round-start button[value='1']").click())
    if not page.locator("#float li").count():
        problems.append(f"{page.url}: no float drawn")
    problems += violations(page)
    if page.locator("h1").count() != 1:
        problems.append(f"{page.url}: {page.locator('h1').count()} h1")
    assert not problems, "\n".join(problems)
