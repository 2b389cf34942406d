"""The instructor's forms in a real browser (Chromium through Playwright) on a laptop, 1366x768:
the sheet of invitation slips from a class list (on screen, and printed to A4: eight slips to a
page) and a trainee making his account with his slip's code; the house-rules form refusing beside
the field and saving; a quiz of the instructor's own Russian poker hand and Omaha Hi/Lo showdown
refused by line, assigned, sat and graded; in Georgian, situations kept from a preview asked
exactly as previewed and graded, and a tampered pick refused. The tests share one server and
group, and none counts on another having run. Screenshots: tests/artifacts/."""

from __future__ import annotations

import re
import threading

import pytest
from accounts_helpers import add_user
from browser_helpers import new_context
from conftest import make_app
from test_browser_pages import navigate, shot

from trainer.drills.base import expected_of
from trainer.web.core import db as web_db
from trainer.web.quizzes import picks

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


def _signed_in(browser, url, username="teacher", locale="en-US"):
    context = new_context(browser, viewport=LAPTOP, locale=locale)
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


def _cards(section) -> list[str]:
    return section.locator(".felt [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")


def test_situations_kept_from_a_preview_are_asked_and_a_tampered_pick_refused_in_georgian(
    browser, site, teacher_group
):
    app, url = site
    trainee_id = add_user(app, "trainee.three")
    with app.app_context():
        web_db.groups().join(trainee_id, web_db.groups().group(teacher_group)["join_code"])
        teacher_id = web_db.groups().group(teacher_group)["owner_id"]
        before = len(web_db.exams().of_group(teacher_group))
    context, page = _signed_in(browser, url, locale="ka-GE")
    page.goto(f"{url}/exams/group/{teacher_group}/new")
    page.locator("#title").fill("არჩეული სიტუაციები")
    page.locator("#preview_item").select_option("rp.bet_payout:1")
    navigate(page, lambda: page.locator("#show-preview").click())
    shown = page.locator("section.pick")
    assert shown.count() == picks.PREVIEW_COUNT == 3
    tokens = [shown.nth(i).locator("input[name=pick]").get_attribute("value") for i in range(3)]
    previewed = [(_cards(shown.nth(i)), shown.nth(i).locator(".prompt").inner_text()) for i in range(2)]
    with app.test_request_context():
        seeds = [picks.read(t, teacher_group, teacher_id)[2] for t in tokens[:2]]
    assert page.evaluate("document.documentElement.scrollWidth") <= LAPTOP["width"]
    shot(page, "quiz-preview-picks-ka")

    # All three kept, the third's token altered by a character in the page: refused, nothing assigned.
    for i in range(3):
        shown.nth(i).locator("input[name=pick]").check()
    page.evaluate(
        """() => {
            const box = document.querySelectorAll("section.pick input[name=pick]")[2];
            const i = Math.floor(box.value.length / 2);
            box.value = box.value.slice(0, i) + (box.value[i] === "A" ? "B" : "A") + box.value.slice(i + 1);
        }"""
    )
    with page.expect_navigation() as refused:
        page.locator("#assign-quiz-kept").click()
    assert refused.value.status == 400
    assert page.locator("#exam-error").inner_text() == (
        "წინასწარი ნახვიდან შენახული სიტუაცია ვერ წაიკითხა; კვლავ აჩვენეთ სიტუაციები და შეინახეთ სასურველები."
    )
    with app.app_context():
        assert len(web_db.exams().of_group(teacher_group)) == before
    # The two good ones stay kept, ticked; assigned, the quiz asks those two only.
    kept = page.locator("section.pick")
    assert kept.count() == 2 and all(kept.nth(i).locator("input[name=pick]").is_checked() for i in range(2))
    navigate(page, lambda: page.locator("#assign-quiz-kept").click())
    assert "/results" in page.url
    exam_id = int(page.url.rstrip("/").split("/")[-2])
    with app.app_context():
        exam = web_db.exams().exam(exam_id)
    assert exam["items"] == [] and exam["questions"] == 2
    assert [(p["kind"], p["level"], p["seed"]) for p in exam["picked"]] == [
        ("rp.bet_payout", 1, seed) for seed in seeds
    ]

    # The trainee is asked exactly the previewed situations: the same cards, the same question.
    trainee_context, trainee = _signed_in(browser, url, "trainee.three", locale="ka-GE")
    trainee.goto(f"{url}/exams/{exam_id}")
    navigate(trainee, lambda: trainee.locator("#start-exam").click())
    asked = trainee.locator("section.quiz-question")
    assert [
        (_cards(asked.nth(i)), asked.nth(i).locator(".prompt").inner_text()) for i in range(2)
    ] == previewed
    sitting_id = int(trainee.url.rstrip("/").rsplit("/", 1)[1])
    with app.test_request_context():
        store = web_db.store()
        situations = [store.drill(d)["situation"] for d in web_db.exams().drills(sitting_id)]
        # Under the group's rules, which an earlier test of the module may have made an edited copy.
        expected = [expected_of(s, houses=web_db.houses())[0] for s in situations]
    assert [s.seed for s in situations] == seeds
    trainee.locator("input[name='q0-answer']").fill(str(expected[0]))  # right
    trainee.locator("input[name='q1-answer']").fill(str(expected[1] + 1))  # wrong
    navigate(trainee, lambda: trainee.locator("#hand-in-form button[type=submit]").click())
    assert trainee.locator("#exam-score").inner_text() == "2\u2011დან სწორია 1"
    trainee_context.close()
    context.close()
