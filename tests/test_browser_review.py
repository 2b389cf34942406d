"""Real-browser tests at phone size (390x844) of what a trainee reviews and keeps: a sprint's misses,
the recommendation and levels on the home page, the chart on day one, the cheat sheet's bad ante, and
the service worker that opens the reference pages and the last drills without a network."""

from __future__ import annotations

import re

import pytest
import test_browser_pages as pages
from test_browser_pages import answer_like_a_person, choose_language, navigate, shot
from test_i18n_catalogs import _visible_latin_words

# The page tests' fixtures: one server for this module too (the Chromium is the session's).
server, page_in = pages.server, pages.page_in

pytestmark = pytest.mark.browser

NO_OVERFLOW = "() => document.documentElement.scrollWidth <= window.innerWidth"


def _sprint_all_missed(page, server, kind="rp.qualify"):
    page.goto(server + f"/sprint/?kind={kind}")
    page.locator("label:has(input[name=length][value='10'])").click()
    navigate(page, lambda: page.locator("main form button.primary").click())
    for i in range(10):
        if i % 2:
            navigate(page, lambda: page.locator("main form button.secondary").click())  # skip
        else:
            answer_like_a_person(page.locator("main form"))
            navigate(page, lambda: page.locator("main form button.primary").click())
    assert page.locator("#sprint-score").count() == 1


# Georgian and Russian: the markup is the same in English, whose shorter words never overflowed where
# these did not (each language's run was 2 s of the suite); English is checked in-process.
@pytest.mark.parametrize("lang", ["ka", "ru"])
def test_the_sprint_result_reviews_every_miss_on_a_phone(page_in, server, lang):
    page = page_in("en")
    choose_language(page, lang)
    _sprint_all_missed(page, server)
    misses = page.locator("#misses > li")
    skipped = page.locator("#misses > li[data-missed=unanswered]")
    assert skipped.count() == 5 and misses.count() >= 5  # the five skips, and any wrong answer
    first = misses.first
    assert first.locator(".felt, .table, svg.card").count() >= 1  # the table is drawn
    assert first.locator(".steps li").count() >= 1  # and explained
    assert page.evaluate(NO_OVERFLOW)
    title = page.locator("#misses-title").inner_text()
    assert title and title != "Questions to look at again"  # translated
    assert not _visible_latin_words(page.content())  # no English word, tables and explanations included
    assert "New personal best" not in page.locator("#record").inner_text()  # a first sprint sets the mark
    shot(page, f"review-{lang}-sprint-misses")


@pytest.mark.parametrize("lang", ["ka", "ru"])
def test_home_levels_and_the_day_one_chart_on_a_phone(page_in, server, lang):
    page = page_in("en")
    choose_language(page, lang)
    buttons = page.locator("form.levels button.level")
    colours = {buttons.nth(i).evaluate("b => getComputedStyle(b).backgroundColor") for i in range(3)}
    assert len(colours) == 1  # level 1 does not look chosen already
    help_box = page.locator("#levels-help")
    help_box.locator("summary").click()
    assert help_box.locator("li").count() == 3 and help_box.locator("li").first.is_visible()
    navigate(page, lambda: buttons.first.click())  # a guest practises at once
    answer_like_a_person(page.locator("main form.answer"))
    navigate(page, lambda: page.locator("main form.answer button.primary").click())
    page.goto(server + "/")
    assert page.locator("#recommended li").count() >= 1
    page.goto(server + "/progress/")
    page.wait_for_function("() => document.getElementById('trend').dataset.drawn === '1'")
    box = page.locator("#trend").bounding_box()
    assert box["width"] > 300 and box["height"] > 150
    assert page.locator("#by-drill tbody[data-game] a").count() >= 1 and page.evaluate(NO_OVERFLOW)
    shot(page, f"review-{lang}-progress-day-one")


def test_a_bad_ante_is_answered_on_the_cheat_sheet_itself(page_in, server):
    page = page_in("ka")
    page.goto(server + "/reference/payouts")
    page.locator("#ante").fill("ათი")
    navigate(page, lambda: page.locator("main form button.primary").click())
    assert page.locator("#ante-error").is_visible() and page.locator("#ante").input_value() == "ათი"
    assert page.locator("#ante").get_attribute("aria-invalid") == "true"
    assert page.locator("table.data").count() >= 4 and page.evaluate(NO_OVERFLOW)


@pytest.mark.parametrize("lang", ["ka", "ru"])
def test_reference_pages_and_the_last_drills_open_offline(page_in, server, lang):
    from pathlib import Path

    from babel.support import Translations

    words = Translations.load(str(Path(__file__).parent.parent / "translations"), [lang])
    page = page_in(lang, offline=True)
    assert page.locator("link[rel=icon]").count() == 1 and page.locator("link[rel=manifest]").count() == 1
    manifest = page.request.get(server + "/manifest.webmanifest").json()
    assert manifest["display"] == "standalone" and manifest["icons"]
    page.wait_for_function(
        "() => navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller)", timeout=20_000
    )
    navigate(page, lambda: page.locator("form.levels button.level").first.click())
    drill_url = page.url
    assert re.search(r"/practice/drill/\d+$", drill_url)
    question = page.locator("#question").inner_text()
    page.goto(server + "/reference/")  # a reference page opened once (the rules pages are kept at install)
    page.context.set_offline(True)
    try:
        page.goto(drill_url)
        assert page.locator("#question").inner_text() == question
        page.goto(server + "/reference/rules/russian-poker")
        assert page.locator("#examples").count() == 1
        page.goto(server + "/reference/payouts")
        assert page.locator("table.data").count() >= 1
        page.goto(server + "/sprint/")  # never kept: the offline page says what still opens
        assert page.locator("main a[href='/reference/']").count() == 1
        assert page.locator("h1").inner_text() == words.gettext("No connection") != "No connection"
    finally:
        page.context.set_offline(False)
    # Another visitor on the same phone (here: the guest signs up): the guest's drills are dropped.
    page.goto(server + "/account/sign-up")
    page.locator("input[name=username]").fill(f"offline.two.{lang}")
    page.locator("input[name=password]").fill("a long secret")
    page.locator("input[name=confirm]").fill("a long secret")
    navigate(page, lambda: page.locator("main form button[type=submit]").click())
    page.wait_for_function(
        "(url) => caches.keys().then(async (names) => {"
        "  for (const n of names) if (await (await caches.open(n)).match(url)) return false;"
        "  return true; })",
        arg=drill_url,
    )
    assert page.evaluate("(url) => caches.match(url).then((r) => !!r)", server + "/reference/")  # kept
