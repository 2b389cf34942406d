"""The live class in a real browser (Chromium through Playwright): the projector (1920x1080, then 1366x768)
and three phones (390x844, in ka, ru and en) in one round: join by the code, the question arriving on
the phones by itself, one right answer, one wrong, one too late, the answered count rising on the
projector without a reload, a dropped phone coming back, the reveal reaching every phone by itself, the
leaderboard. Screenshots: tests/artifacts/ (the projector's also docs/images/live-projector.png)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from accounts_helpers import add_user
from browser_helpers import open_page, site  # noqa: F401  (site is a fixture)
from test_browser_pages import ARTIFACTS, PHONE, SHOTS, navigate, shot

from trainer.drills.base import expected_of
from trainer.store.groups import Groups
from trainer.store.live import LiveSessions
from trainer.web.core import db

pytestmark = pytest.mark.browser

PROJECTOR = {"width": 1920, "height": 1080}
LAPTOP = {"width": 1366, "height": 768}
KIND = "rp.bet_payout"
DOCS_IMAGE = Path(__file__).resolve().parent.parent / "docs" / "images" / "live-projector.png"


def _signed_in(browser, url, username, viewport, lang):
    context, page = open_page(browser, url, viewport, "/account/sign-in")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=password]").fill("a long secret")
    navigate(page, lambda: page.locator("main form button[type=submit]").click())
    if lang != "en":
        navigate(page, lambda: page.locator(f".lang-switch button[value={lang}]").click())
        assert page.locator("html").get_attribute("lang") == lang
    return context, page


def _current(app, session_id):
    with app.app_context():
        return LiveSessions(db.store().db).current(session_id)


def test_a_live_round_on_the_projector_and_three_phones(browser, site):  # noqa: F811
    app, url = site
    teacher = add_user(app, "teacher", "instructor")
    names = {"ka": "ერთი", "ru": "два", "en": "three"}
    with app.app_context():
        groups = Groups(db.store().db)
        group = groups.create(teacher, "Evening class")
        for name in names.values():
            groups.add_member(group["id"], add_user(app, name))
    _desk_context, desk = _signed_in(browser, url, "teacher", PROJECTOR, "en")
    desk.goto(f"{url}/live/new?group={group['id']}")
    desk.locator(f"input[name=kinds][value='{KIND}']").check()
    desk.locator("input[name=questions]").fill("2")
    desk.locator("select[name=seconds]").select_option("60")
    navigate(desk, lambda: desk.locator("main form button[type=submit]").click())
    session_id = int(re.search(r"/live/(\d+)/projector", desk.url).group(1))
    code = desk.locator(".live-big-code").inner_text().strip()
    assert desk.locator(".live-qr svg").is_visible()
    shot(desk, "live-projector-lobby")

    phones = {}
    for lang in ("ka", "ru"):
        context, phone = _signed_in(browser, url, names[lang], PHONE, lang)
        phone.goto(f"{url}/live/join")
        phone.locator("input[name=code]").fill(code.lower())  # typed in any case
        navigate(phone, lambda p=phone: p.locator("main form button[type=submit]").click())
        assert phone.locator("#live-status").is_visible()
        phones[lang] = (context, phone)

    navigate(desk, lambda: desk.locator("#control-start").click())
    question = _current(app, session_id)
    right = expected_of(question["situation"])[0]
    # The question reaches the phones by itself (they poll the state and reload on a change).
    for _context, phone in phones.values():
        phone.locator("input[name=answer]").wait_for(state="visible", timeout=8_000)
    # A late joiner gets the current question.
    context, late = _signed_in(browser, url, names["en"], PHONE, "en")
    late.goto(f"{url}/live/j/{code}")
    navigate(late, lambda: late.locator("main form button[type=submit]").click())
    late.locator("input[name=answer]").wait_for(state="visible")
    phones["en"] = (context, late)

    ka, ru = phones["ka"][1], phones["ru"][1]
    ka.locator("input[name=answer]").fill(str(right))
    navigate(ka, lambda: ka.locator("form.answer button[type=submit]").click())
    ru.locator("input[name=answer]").fill(str(right + 1))
    navigate(ru, lambda: ru.locator("form.answer button[type=submit]").click())
    for phone in (ka, ru):
        assert phone.locator("#live-status").is_visible()
        assert phone.locator("#verdict").count() == 0  # nothing of the answer before the reveal
    shot(ka, "live-phone-ka-answered")
    # The projector counts the answers without a reload.
    desk.locator("#live-answered-n").filter(has_text="2").wait_for(timeout=8_000)
    assert desk.locator("#live-players-n").inner_text() == "3"
    shot(desk, "live-projector-question")

    # A phone that drops comes back where the session is.
    phones["ru"][0].close()
    context, ru = _signed_in(browser, url, names["ru"], PHONE, "ru")
    ru.goto(f"{url}/live/{session_id}/phone")
    assert ru.locator("#live-status").is_visible()
    phones["ru"] = (context, ru)

    navigate(desk, lambda: desk.locator("#control-reveal").click())
    # The reveal reaches every phone by itself.
    for _context, phone in phones.values():
        phone.locator("#verdict").wait_for(timeout=8_000)
    assert ka.locator("#verdict").inner_text().startswith("✓")
    assert ru.locator("#verdict").inner_text().startswith("✗")
    assert phones["en"][1].locator("#verdict").inner_text() == "No answer in time."
    # Too late: the answer form is gone, and a form sent anyway is refused.
    late_post = phones["en"][1].request.post(
        f"{url}/live/{session_id}/answer", form={"question": str(question["id"]), "answer": str(right)}
    )
    assert late_post.status in (400, 409)
    assert ka.locator("#live-place").is_visible()
    for lang, (_context, phone) in phones.items():
        shot(phone, f"live-phone-{lang}-revealed")
    board = desk.locator("#leaderboard tbody tr")
    assert board.first.inner_text().split()[1] == names["ka"]
    assert desk.locator("#spread li").count() == 2
    shot(desk, "live-projector-reveal")
    if SHOTS:  # the docs' picture of the projector is remade when screenshots are asked for
        ARTIFACTS.mkdir(exist_ok=True)
        desk.screenshot(path=str(ARTIFACTS / "live-projector.png"))
        shutil.copy(ARTIFACTS / "live-projector.png", DOCS_IMAGE)
    desk.set_viewport_size(LAPTOP)
    desk.reload()
    assert desk.locator("#control-next").is_visible()
    shot(desk, "live-projector-1366")
    with app.app_context():
        stored = db.store().db.execute("SELECT count(*) FROM attempts WHERE mode = 'live'").fetchone()[0]
    assert stored == 2
