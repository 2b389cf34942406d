"""The instructor's forms in a real browser (Chromium through Playwright) on a laptop, 1366x768:
the sheet of invitation slips from a class list (on screen, and printed to A4: eight slips to a
page) and a trainee making his account with his slip's code; the house-rules form refusing beside
the field and saving; a quiz of the instructor's own Russian poker hand and Omaha Hi/Lo showdown
refused by line, assigned, sat and graded. The tests share one server and group, and none counts on
another having run. Screenshots: tests/artifacts/."""

from __future__ import annotations

import re
import threading

import pytest
from accounts_helpers import add_user
from browser_helpers import new_context
from conftest import make_app
from test_browser_pages import navigate, shot

from trainer.web.core import db as web_db

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    from werkzeug.serving import make_server

    tmp = tmp_path_factory.mktemp("browser-instructor")
    app = make_app(DATABASE=str(tmp / "trainer.sqlite"), FAST_PASSWORD_HASHING=True)
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield app, f"http://127.0.0.1:{httpd.server_port}"
    httpd.shutdown()


@pytest.fixture(scope="module")
def teacher_group(site):
    """An instructor and his group, made in the store (the pages that make them are tested elsewhere)."""
    app, _url = site
    teacher = add_user(app, "teacher", "instructor")
    with app.app_context():
        return web_db.groups().create(teacher, "Evening class")["id"]


def _signed_in(browser, url, username="teacher"):
    context = new_context(browser, viewport=LAPTOP, locale="en-US")
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto(url + "/account/sign-in")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=password]").fill("a long secret")
    navigate(page, lambda: page.locator("main form button[type=submit]").click())
    return context, page


def test_a_class_list_becomes_a_printable_sheet_of_slips(browser, site, teacher_group):
    app, url = site
    context, page = _signed_in(browser, url)
    page.goto(f"{url}/groups/{teacher_group}/invitations")
    names = [f"Trainee {n}" for n in range(1, 10)]  # nine: one more than a printed page holds
    page.locator("#names").fill("\n".join(["მსმენელი ერთი", *names[1:]]))
    navigate(page, lambda: page.locator("#make-slips").click())
    slips = page.locator("#slips .slip")
    assert slips.count() == 9
    codes = [c.strip() for c in page.locator(".slip-code code").all_inner_texts()]
    assert all(re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}", c) for c in codes)
    assert page.locator(".slip-name").first.inner_text() == "მსმენელი ერთი"
    # On the laptop's screen the slips sit side by side, within the width.
    boxes = [slips.nth(i).bounding_box() for i in range(3)]
    assert boxes[0]["y"] == boxes[1]["y"] and all(b["x"] + b["width"] <= LAPTOP["width"] for b in boxes)
    shot(page, "invitation-slips-laptop")
    # Printed: the page's own chrome is gone, two slips across, eight to an A4 page, none cut.
    page.emulate_media(media="print")
    assert not page.locator("body > header").is_visible() and not page.locator("#print-slips").is_visible()
    printed = [slips.nth(i).bounding_box() for i in range(3)]
    assert printed[0]["y"] == printed[1]["y"] and printed[2]["y"] > printed[0]["y"]
    pdf = page.pdf(format="A4", prefer_css_page_size=True)
    assert len(re.findall(rb"/Type\s*/Page\b", pdf)) == 2
    page.emulate_media(media="screen")

    # A trainee with the first slip makes his own account and lands in the group.
    trainee_context = new_context(browser, viewport=LAPTOP, locale="en-US")
    trainee = trainee_context.new_page()
    trainee.goto(url + "/account/invitation")
    trainee.locator("#code").fill(codes[0].lower())
    trainee.locator("#username").fill("trainee.one")
    trainee.locator("#password").fill("my own long secret")
    trainee.locator("#confirm").fill("my own long secret")
    navigate(trainee, lambda: trainee.locator("#invitation-form button[type=submit]").click())
    assert "Evening class" in trainee.locator("main").inner_text()
    with app.app_context():
        members = web_db.groups().members(teacher_group)
    assert ("trainee.one", "მსმენელი ერთი") in [(m["username"], m["display_name"]) for m in members]
    page.goto(f"{url}/groups/{teacher_group}/invitations")
    assert page.locator("#invitations tr[data-status=joined]").count() == 1
    assert page.locator("#invitations tr[data-status=waiting]").count() == 8
    trainee_context.close()
    context.close()


def test_the_house_rules_form_refuses_beside_the_field_and_saves(browser, site, teacher_group):
    app, url = site
    context, page = _signed_in(browser, url)
    page.goto(f"{url}/groups/{teacher_group}/rules/russian_poker")
    # Within the laptop's width, the pay table a table of its own; the text view folded away.
    assert page.evaluate("document.documentElement.scrollWidth") <= LAPTOP["width"]
    assert page.locator("#r__bet__odds-row caption").is_visible()
    assert not page.locator("#rules-text").is_visible()
    full_house = page.locator("#r__bet__odds__full_house")
    assert full_house.input_value() == "7"
    full_house.fill("1")  # less than a flush: the loader refuses the table's order
    navigate(page, lambda: page.locator("#save-rules-form").click())
    error = page.locator("#r__bet__odds-error")
    assert error.is_visible() and "never pay less" in error.inner_text()
    assert page.locator("#rules-error-fields a[href='#r__bet__odds-row']").is_visible()
    assert full_house.input_value() == "1"  # what he typed is kept
    shot(page, "house-rules-form-refused")
    full_house.fill("8")
    navigate(page, lambda: page.locator("#save-rules-form").click())
    assert page.url.rstrip("/").endswith(f"/groups/{teacher_group}")
    with app.app_context():
        name = web_db.groups().rules(teacher_group)["russian_poker"]
        text = web_db.groups().house_text("russian_poker", name)
    assert "full_house = 8" in text
    context.close()


def test_an_own_question_quiz_is_composed_sat_and_graded(browser, site, teacher_group):
    app, url = site
    trainee_id = add_user(app, "trainee.two")
    with app.app_context():
        web_db.groups().join(trainee_id, web_db.groups().group(teacher_group)["join_code"])
    context, page = _signed_in(browser, url)
    page.goto(f"{url}/exams/group/{teacher_group}/new")
    page.locator("#title").fill("Own hands")
    page.locator("#own").fill("A♠ K♠ Q♠ J♠ 9♠ / 2♣ 2♦ 7♥ 8♠ K♣ / 25\nA♠ K♠ / 2♣ / 25")
    navigate(page, lambda: page.locator("#assign-quiz").click())
    assert "Line 2: each hand has five cards." in page.locator("#own-error").inner_text()
    page.locator("#own").fill("A♠ K♠ Q♠ J♠ 9♠ / 2♣ 2♦ 7♥ 8♠ K♣ / 25")
    # An Omaha Hi/Lo showdown: seat 2's kings take the high half, seat 1's A-3 the low; seat 3 folded.
    page.locator("#own_omaha").fill("hilo 2♣ 4♦ 7♥ J♣ K♠ / A♥ 3♦ 9♣ 9♦ 50 / K♦ K♥ 5♠ 6♠ 50 / * - 20")
    navigate(page, lambda: page.locator("#assign-quiz").click())
    assert "/results" in page.url
    trainee_context, trainee = _signed_in(browser, url, "trainee.two")
    trainee.goto(url + "/")
    navigate(trainee, lambda: trainee.locator("#assigned a").first.click())
    navigate(trainee, lambda: trainee.locator("form[action$='/start'] button[type=submit]").click())
    for n, amount in enumerate(("0", "250", "250")):  # the flush pays the bet 250, the ante returned
        trainee.locator(f"input[name='q0-amount-{n}']").fill(amount)
    assert trainee.locator("text=Omaha Hi/Lo, all bets are in.").is_visible()
    # Main pot 120, no side pot, nothing returned; seats 1 and 2 take 60 each.
    for n, amount in enumerate(("120", "0", "0", "60", "60", "0")):
        trainee.locator(f"input[name='q1-amount-{n}']").fill(amount)
    assert trainee.evaluate("document.documentElement.scrollWidth") <= LAPTOP["width"]
    shot(trainee, "own-omaha-question-sitting")
    navigate(trainee, lambda: trainee.locator("#hand-in-form button[type=submit]").click())
    assert "2 of 2 right" in trainee.locator("#exam-score").inner_text()
    trainee_context.close()
    context.close()
