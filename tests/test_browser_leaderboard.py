"""The group's leaderboard on a phone (390x844, Georgian): it fits the width without scrolling
sideways, a groupmate who hides his name shows as the neutral label, the reader's own row is marked.
One page after signing in. Screenshot: tests/artifacts/leaderboard-phone-ka.png."""

from __future__ import annotations

import threading

import pytest
from accounts_helpers import add_user
from browser_helpers import new_context
from conftest import make_app
from test_browser_pages import PHONE, navigate, shot

from trainer.store.boards import set_hidden
from trainer.store.groups import Groups
from trainer.web.core import db

pytestmark = pytest.mark.browser

NAMES = ("მსმენელი.ერთი", "მსმენელი.ორი", "მსმენელი.სამი")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    from werkzeug.serving import make_server

    tmp = tmp_path_factory.mktemp("browser-board")
    app = make_app(DATABASE=str(tmp / "t.sqlite"), FAST_PASSWORD_HASHING=True)
    teacher = add_user(app, "მასწავლებელი", "instructor")
    ids = [add_user(app, name) for name in NAMES]
    with app.app_context():
        store = db.store()
        group = Groups(store.db).create(teacher, "საღამოს ჯგუფი")["id"]
        for user_id, correct in zip(ids, (9, 7, 8), strict=True):
            Groups(store.db).add_member(group, user_id)
            for kind in ("rp.bet_payout", "om.high"):
                sprint = store.start_sprint(user_id, f"{kind}/10", 1, 90, questions=10, kinds=[kind])
                store.finish_sprint(sprint)
                store.db.execute(
                    "UPDATE sprints SET correct = ?, answered = 10 WHERE id = ?", [correct, sprint]
                )
        store.db.conn.commit()
        set_hidden(store.db, ids[2], True)
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_port}", group
    httpd.shutdown()


def test_the_leaderboard_fits_a_phone_in_georgian(browser, site):
    url, group = site
    context = new_context(browser, viewport=PHONE, locale="ka-GE")
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        page.goto(url + "/account/sign-in")
        page.locator("input[name=username]").fill(NAMES[1])
        page.locator("input[name=password]").fill("a long secret")
        navigate(page, lambda: page.locator("main form button[type=submit]").click())
        page.goto(f"{url}/groups/{group}/leaderboard")
        assert page.locator("html").get_attribute("lang") == "ka"
        assert page.locator("section.week-board").count() == 2
        first = page.locator("section.week-board").first
        rows = first.locator("tbody tr")
        assert rows.count() == 3
        assert rows.nth(0).locator("th").inner_text() == NAMES[0]
        assert rows.nth(1).locator(".hidden-name").inner_text() == "ჯგუფელი"  # the hidden one, 8 of 10
        assert NAMES[2] not in page.content()
        assert rows.nth(2).get_attribute("aria-current") == "true"  # the reader, 7 of 10
        assert not page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
        shot(page, "leaderboard-phone-ka")
    finally:
        context.close()
