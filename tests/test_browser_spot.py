"""Spot the mistake on a 390 x 844 phone in Georgian, in a real browser: every settled hand is drawn
with the results given, nothing scrolls sideways, cards are readable, and a sheet answered with the
right results is graded right, its feedback in Georgian."""

from __future__ import annotations

import pytest
from test_browser_phone import phone_browser, phone_page, phone_server  # noqa: F401  (fixtures)

from trainer.drills import expected_of, issue
from trainer.store import Store, open_db

pytestmark = pytest.mark.browser

SPOT_KINDS = ("rp.spot_mistake", "om.spot_mistake", "pp.spot_mistake")

DRAWN = """() => ({
  overflow: document.documentElement.scrollWidth > window.innerWidth,
  hands: [...document.querySelectorAll('.spot-hand')].map((h) => ({
    felt: !!h.querySelector('.felt'),
    given: [...h.querySelectorAll('.given li')].map((li) => li.textContent.trim()),
    right: h.getBoundingClientRect().right,
  })),
  smallest_card: Math.min(...[...document.querySelectorAll('.spot-hand svg.card')].map(
    (c) => c.getBoundingClientRect().width), 999),
  screen: window.innerWidth,
})"""


def test_every_spot_sheet_is_drawn_and_answered_on_a_phone_in_georgian(phone_browser, phone_server):  # noqa: F811
    url, path = phone_server
    context, page = phone_page(phone_browser, url, "ka", "phone.spot")
    db = open_db(path)
    store = Store(db)
    trainee = next(db.query("SELECT id FROM users WHERE username = ?", ["phone.spot"]))["id"]
    for kind_id in SPOT_KINDS:
        for level in (1, 3):
            situation = issue(kind_id, level, seed=11)
            drill = store.save_drill(trainee, situation, mode="practice")
            page.goto(f"{url}/practice/drill/{drill}")
            m = page.evaluate(DRAWN)
            where = f"{kind_id} level {level}"
            assert not m["overflow"], f"{where}: the page scrolls sideways"
            assert len(m["hands"]) == len(situation.data["hands"]), where
            for hand in m["hands"]:
                assert hand["felt"] and hand["given"], where
                assert hand["right"] <= m["screen"] + 1, where
            assert m["smallest_card"] >= 24, f"{where}: a card {m['smallest_card']:.0f} px wide"
            assert "ხელი 1" in page.inner_text("main"), where
            right = expected_of(situation)[0]
            for i, label in enumerate(situation.answer_format.labels):
                page.fill(f"input[name='amount-{i}']", str(right[label]))
            with page.expect_navigation():
                page.locator("main form.answer button.primary").click()
            assert page.locator("#verdict").inner_text().startswith("✓"), where
    context.close()
