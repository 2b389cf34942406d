"""Real-browser test (issue 26): a Georgian reader is told a spade as ყვავი and a club as ჯვარი.

Playwright drives Debian's Chromium (the headless shell where installed, as tests/test_browser_pages.py
does) through the pages in Georgian on a phone-sized screen: the card picker of the advisor page names
each card as a screen reader speaks it, and the painted poker rules page names the joker and the order
of circular trump.
"""

from __future__ import annotations

import pytest
from browser_helpers import live_server, new_context
from conftest import make_app

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("browser-suits")
    with live_server(make_app(DATABASE=str(tmp / "trainer.sqlite"))) as url:
        yield url


@pytest.fixture(scope="module")
def georgian_page(server, browser):
    context = new_context(browser, viewport=PHONE, locale="ka-GE")
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(server + "/")
    assert page.locator("html").get_attribute("lang") == "ka"
    yield page
    context.close()


def test_the_card_picker_names_a_spade_and_a_club_in_georgian(georgian_page, server):
    page = georgian_page
    page.goto(server + "/reference/advisor")
    # The accessible names a screen reader speaks for the seven of spades and the seven of clubs.
    spade = page.get_by_role("checkbox", name="ყვავის შვიდიანი", exact=True)
    club = page.get_by_role("checkbox", name="ჯვრის შვიდიანი", exact=True)
    assert spade.get_attribute("value") == "7s"
    assert club.get_attribute("value") == "7c"
    # The ace of spades and the king of clubs likewise; the Russian loan "პიკი" is nowhere.
    assert page.get_by_role("checkbox", name="ყვავის ტუზი", exact=True).get_attribute("value") == "As"
    assert page.get_by_role("checkbox", name="ჯვრის მეფე", exact=True).get_attribute("value") == "Kc"
    assert "პიკ" not in page.locator("main").inner_text()


def test_the_painted_rules_page_names_the_seven_of_spades(georgian_page, server):
    page = georgian_page
    page.goto(server + "/reference/rules/painted-poker")
    text = page.locator("main").inner_text()
    assert "ჯოკერი — ყვავის შვიდიანი" in text  # "ჯოკერი: ყვავი შვიდი", the seed's seven of spades
    assert "ყვავიდან გულამდე: ყვავი, ჯვარი, აგური, გული" in text  # circular trump, spades first
    assert "პიკ" not in text


def test_a_ten_player_table_fits_a_georgian_phone(georgian_page, server):
    """The 54-card house seats ten (issue 26): the round's page on a phone has a sheet column per
    player, scrolls only inside the sheet, and names the trump as a Georgian suit."""
    page = georgian_page
    page.goto(server + "/account/sign-up")
    page.locator("input[name=username]").fill("ათი.მოთამაშე")
    page.locator("input[name=password]").fill("a long secret")
    page.locator("input[name=confirm]").fill("a long secret")
    with page.expect_navigation():
        page.locator("main form button[type=submit]").click()
    page.goto(server + "/table/")
    section = page.locator("section.table-game", has=page.locator("#seats-painted_poker"))
    section.locator("#rules-painted_poker").select_option("deck-54")
    section.locator("#seats-painted_poker").select_option("10")
    with page.expect_navigation():
        section.locator("form.round-start button[name=level][value='1']").click()
    assert "/table/round/" in page.url
    assert page.locator(".sheet thead th").count() == 11  # a blank corner and ten seats
    assert not page.evaluate("() => document.documentElement.scrollWidth > window.innerWidth")
    facts = page.locator(".felt.painted .facts").inner_text()
    assert any(word in facts for word in ("ყვავი", "ჯვარი", "აგური", "გული")), facts
