"""The whole story of a class in a real browser (Chromium through Playwright): an instructor made on
the command line makes a group with edited house rules (a copy of a preset; a bad value is refused
first) and assigns a quiz; two trainees sign up on phones, join with the code, practise and take the
quiz; the instructor reviews the heat map, one trainee's attempt drawn again, the quiz results and the
CSV export. Screenshots: tests/artifacts/."""

from __future__ import annotations

import re

import pytest
from accounts_helpers import add_user
from browser_helpers import open_page, site, submit  # noqa: F401  (site is a fixture)
from test_browser_pages import (
    PHONE,
    answer_like_a_person,
    navigate,
    shot,
    sign_up,
)

pytestmark = pytest.mark.browser

DESK = {"width": 1280, "height": 900}


def test_a_class_from_the_first_instructor_to_the_review(browser, site):  # noqa: F811
    app, url = site
    # As docs/running-a-school.md says: flask --app trainer.web user add
    add_user(app, "teacher", "instructor")
    desk_context, desk = open_page(browser, url, DESK)
    navigate(desk, lambda: desk.locator("nav a[href='/account/sign-in']").click())
    desk.locator("input[name=username]").fill("teacher")
    desk.locator("input[name=password]").fill("a long secret")
    submit(desk, "main form")
    navigate(desk, lambda: desk.locator("nav a[href='/groups/']").click())
    desk.locator("input[name=name]").fill("Evening class")
    submit(desk, "form[action='/groups/new']")
    assert desk.locator("h1").inner_text() == "Evening class"
    # Edited house rules: Russian poker with insurance.
    desk.locator("#rules-russian_poker").select_option("insured")
    submit(desk, "form[action$='/rules']")
    assert desk.locator("#rules-russian_poker").input_value() == "insured"
    # ... and edited: this house pays 75 on a full house in the bonus.
    navigate(desk, lambda: desk.locator("#edit-rules-russian_poker").click())
    desk.locator("#rules-advanced summary").click()  # the text, under the form (tests/test_rules_form.py)
    box = desk.locator("#rules-text")
    text = box.input_value()
    assert "full_house = 70" in text
    retitled = text.replace('title = "', 'title = "Evening: ', 1)
    box.fill(retitled.replace("full_house = 70", "full_house = -75"))
    submit(desk, "#rules-text-form")
    assert "A whole number of at least 1 is expected here" in desk.locator("#rules-error").inner_text()
    box.fill(retitled.replace("full_house = 70", "full_house = 75"))
    shot(desk, "groups-edit-house-rules")
    submit(desk, "#rules-text-form")
    house = desk.locator("#rules-russian_poker").input_value()
    assert house.startswith("house-")
    code = desk.locator("#join-code").inner_text()
    group_url = desk.url
    # A quiz: two qualification questions, answers shown at once.
    navigate(desk, lambda: desk.locator("#new-exam").click())
    desk.locator("#title").fill("Qualification check")
    desk.locator("input[value='rp.qualify:1']").check()
    desk.locator("#questions").fill("2")
    desk.locator("input[name=answers_before_close]").check()
    shot(desk, "groups-new-quiz")
    submit(desk, "form.exam-form")
    results_url = desk.url
    assert "/results" in results_url

    trainees = []
    for name in ("trainee.one", "trainee.two"):
        context, page = open_page(browser, url, PHONE)
        sign_up(page, name)
        navigate(page, lambda: page.locator("nav a[href='/groups/']").click())  # noqa: B023
        page.locator("input[name=code]").fill(code.lower())
        submit(page, "form[action='/groups/join']")
        assert "Evening class" in page.locator("main").inner_text()
        # Practice: a bet payout under the group's rules.
        page.goto(url + "/practice/rp.bet_payout?level=1")
        submit(page, "main form")
        answer_like_a_person(page.locator("main form"))
        submit(page, "main form")
        assert page.locator("#verdict").count() == 1
        # The quiz from the home page.
        page.goto(url + "/")
        navigate(page, lambda: page.locator("#assigned a").first.click())  # noqa: B023
        submit(page, "form[action$='/start']")
        questions = page.locator(".quiz-question")
        assert questions.count() == 2
        for i in range(2):
            answer_like_a_person(questions.nth(i))
        shot(page, f"groups-quiz-{name}")
        submit(page, "main form")
        assert re.search(r"\d of 2 right", page.locator("#exam-score").inner_text())
        shot(page, f"groups-quiz-result-{name}")
        trainees.append(context)

    # The desk: both trainees with readiness, the heat map with its tooltip on focus.
    desk.goto(group_url)
    assert desk.locator("#trainees tbody tr").count() == 2
    cell = desk.locator("#heat-map td.heat").first
    cell.focus()
    assert cell.locator(".tip").is_visible()
    shot(desk, "groups-desk-heat-map")
    navigate(desk, lambda: desk.locator("#trainees a", has_text="trainee.one").click())
    shot(desk, "groups-trainee")
    navigate(desk, lambda: desk.locator("#attempts a").first.click())
    assert desk.locator("#feedback").count() == 1 and desk.locator(".felt, .facts").count() >= 1
    shot(desk, "groups-attempt-redrawn")
    desk.goto(results_url)
    assert desk.locator("#exam-results tbody tr").count() == 2
    shot(desk, "groups-quiz-results")
    navigate(desk, lambda: desk.locator("#exam-results a").first.click())
    assert desk.locator("section.panel").count() == 2
    exported = desk.request.get(group_url + "/attempts.csv")
    text = exported.text()
    assert exported.status == 200 and text.splitlines()[0].startswith("answered_at,username,kind")
    assert "trainee.one" in text and "trainee.two" in text and house in text  # graded under the edited copy
    for context in [desk_context, *trainees]:
        context.close()
