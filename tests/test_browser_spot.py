"""Spot the mistake on a 390 x 844 phone in Georgian, in a real browser: every settled hand is drawn
with the results given, nothing scrolls sideways, cards are readable, and a sheet answered with the
right results is graded right, its feedback in Georgian."""

from __future__ import annotations

import pytest
from test_browser_phone import phone_page, phone_server  # noqa: F401  (phone_server is a fixture)

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


def test_every_spot_sheet_is_drawn_and_answered_on_a_phone_in_georgian(browser, phone_server):  # noqa: F811
    url, path = phone_server
    context, page = phone_page(browser, url, "ka", "phone.spot")
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


CHIP_KINDS = (
    "rp.chip_change",
    "rp.colour_up",
    "rp.chip_count",
    "om.chip_change",
    "om.colour_up",
    "om.chip_count",
)
DRAWN_AS_A_BOX = ("rp.pay_box",)  # the Russian poker box, with the chips answer

TOWERS = """() => {
  const towers = [...document.querySelectorAll('.chips-drill .tower-chips')];
  const bottom = (el) => el.getBoundingClientRect().bottom + window.scrollY;
  const check = document.querySelector('main form.answer button.primary');
  return {
    overflow: document.documentElement.scrollWidth > window.innerWidth,
    chips: towers.map((t) => t.querySelectorAll('.chip').length),
    thinnest: Math.min(...[...document.querySelectorAll('.tower-chips .chip')].map(
      (c) => c.getBoundingClientRect().height), 99),
    key: document.querySelectorAll('.chips-drill .chip-key .chip-face').length,
    check: check ? bottom(check) : null,
    screen: window.innerHeight,
  };
}"""


def test_every_chips_drill_is_drawn_and_answered_on_a_phone_in_georgian(browser, phone_server):  # noqa: F811
    from trainer.drills.chips import load_chips

    url, path = phone_server
    context, page = phone_page(browser, url, "ka", "phone.chips")
    db = open_db(path)
    store = Store(db)
    trainee = next(db.query("SELECT id FROM users WHERE username = ?", ["phone.chips"]))["id"]
    for kind_id in (*CHIP_KINDS, *DRAWN_AS_A_BOX):
        for level in (1, 3):
            situation = issue(kind_id, level, seed=21)
            drill = store.save_drill(trainee, situation, mode="practice")
            page.goto(f"{url}/practice/drill/{drill}")
            m = page.evaluate(TOWERS)
            where = f"{kind_id} level {level}"
            assert not m["overflow"], f"{where}: the page scrolls sideways"
            if kind_id in DRAWN_AS_A_BOX:
                assert m["key"] == 0 and page.locator("main .felt .spots").count() == 1, where
            else:
                assert m["key"] == len(load_chips(situation.data["chip_set"]).chips), where
            assert m["chips"] == [s["count"] for s in situation.data.get("stacks", [])], where
            assert m["thinnest"] >= 4 or not m["chips"], (
                f"{where}: chips {m['thinnest']:.1f} px thick cannot be counted"
            )
            assert m["check"] is not None and m["check"] <= m["screen"], (
                f"{where}: Check below the first screen"
            )
            right = expected_of(situation)[0]
            if isinstance(right, dict):
                for i, label in enumerate(situation.answer_format.labels):
                    page.fill(f"input[name='amount-{i}']", str(right[label]))
            else:
                page.fill("input[name='answer']", str(right))
            with page.expect_navigation():
                page.locator("main form.answer button.primary").click()
            assert page.locator("#verdict").inner_text().startswith("✓"), where
    context.close()
