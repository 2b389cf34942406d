"""The instructor's desk for an assessed class in a real browser (Chromium through Playwright) on a
laptop, 1366x768: the group's time zone, a timed quiz assigned in local time, the trainee's
countdown, the quiz report, the heat map of every drill kind within the width, the sections to
jump to, the workbook read back with openpyxl, the confirmation before removing a trainee; the desk
in Georgian. Screenshots: tests/artifacts/."""

from __future__ import annotations

import io
import sqlite3
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from accounts_helpers import add_user
from browser_helpers import open_page, site, submit  # noqa: F401  (site is a fixture)
from test_browser_pages import (
    answer_like_a_person,
    choose_language,
    navigate,
    shot,
    sign_up,
)

from trainer.drills import REGISTRY, issue
from trainer.drills.base import expected_of
from trainer.web.core import db as web_db

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}


def _every_kind_answered(app, username, group_id):
    """One answer of every drill kind, for the heat map's every column."""
    with app.app_context():
        store = web_db.store()
        user = store.db.execute("SELECT id FROM users WHERE username = ?", [username]).fetchone()[0]
        for kind in REGISTRY.values():
            situation = issue(kind.id, kind.levels[0])
            drill = store.save_drill(user, situation, group_id=group_id)
            fmt = situation.answer_format
            expected = expected_of(situation)[0]
            raw = expected if fmt.kind == "choice" or isinstance(expected, str) else None
            try:
                store.answer(drill, raw if raw is not None else expected, time_ms=4000)
            except Exception:  # an answer shape this shortcut does not type: that kind stays empty
                continue
        return len(REGISTRY)


def test_an_assessed_class_on_the_laptop_desk(browser, site):  # noqa: F811
    app, url = site
    add_user(app, "teacher", "instructor")
    context, desk = open_page(browser, url, LAPTOP)
    navigate(desk, lambda: desk.locator("nav a[href='/account/sign-in']").click())
    desk.locator("input[name=username]").fill("teacher")
    desk.locator("input[name=password]").fill("a long secret")
    submit(desk, "main form")
    navigate(desk, lambda: desk.locator("nav a[href='/groups/']").click())
    desk.locator("input[name=name]").fill("Evening class")
    submit(desk, "form[action='/groups/new']")
    group_url = desk.url
    group_id = int(group_url.rstrip("/").rsplit("/", 1)[1])
    code = desk.locator("#join-code").inner_text()
    # The group's time zone.
    desk.locator("#time_zone").select_option("Asia/Tbilisi")
    submit(desk, "form[action$='/time-zone']")
    assert desk.locator("#time_zone").input_value() == "Asia/Tbilisi"
    # A timed quiz, entered in Tbilisi's time: the form's default is Tbilisi's wall clock.
    navigate(desk, lambda: desk.locator("#new-exam").click())
    assert "Asia/Tbilisi, UTC+04:00" in desk.locator("#opens_at-hint").inner_text()
    opens = datetime.fromisoformat(desk.locator("#opens_at").input_value())
    tbilisi_now = datetime.now(UTC).astimezone(ZoneInfo("Asia/Tbilisi")).replace(tzinfo=None)
    assert abs((opens - tbilisi_now).total_seconds()) < 120
    desk.locator("#title").fill("Qualification check")
    desk.locator("input[value='rp.qualify:1']").check()
    desk.locator("#questions").fill("2")
    desk.locator("#time_limit_min").fill("2")
    desk.locator("#questions").fill("0")  # a wrong field first: said beside it
    submit(desk, "form.exam-form")
    assert desk.locator("#questions-error").is_visible()
    desk.locator("#questions").fill("2")
    submit(desk, "form.exam-form")
    results_url = desk.url
    assert "/results" in results_url
    # The results page stays open while the class sits; its clock is Playwright's, to skip ahead.
    desk.clock.install()
    desk.goto(results_url)
    assert desk.locator("#live-note").is_visible()
    assert "not taken" not in desk.locator("#exam-results").inner_text()

    # The trainee joins and sits the quiz with the countdown.
    trainee_context, trainee = open_page(browser, url, LAPTOP)
    sign_up(trainee, "trainee.one")
    navigate(trainee, lambda: trainee.locator("nav a[href='/groups/']").click())
    trainee.locator("input[name=code]").fill(code)
    submit(trainee, "form[action='/groups/join']")
    assert "Asia/Tbilisi, UTC+04:00" in trainee.locator("main").inner_text()
    trainee.goto(url + "/")
    navigate(trainee, lambda: trainee.locator("#assigned a").first.click())
    trainee.clock.install()  # the countdown is run on below instead of waited for
    submit(trainee, "form[action$='/start']")
    clock = trainee.locator("#quiz-clock")
    first = clock.inner_text()
    assert first in ("2:00", "1:59", "1:58")
    trainee.clock.run_for(2200)
    later = clock.inner_text()
    assert later < first and later.startswith("1:5")  # counting down
    # The server's clock: 30 s pass on it (the deadline moved nearer), and a reload shows what it
    # says, not the two minutes again.
    sitting_id = int(trainee.url.rsplit("/", 1)[1])
    with sqlite3.connect(app.config["DATABASE"]) as database:
        (deadline,) = database.execute(
            "SELECT deadline FROM exam_sittings WHERE id = ?", [sitting_id]
        ).fetchone()
        nearer = (datetime.fromisoformat(deadline) - timedelta(seconds=30)).isoformat()
        database.execute("UPDATE exam_sittings SET deadline = ? WHERE id = ?", [nearer, sitting_id])
    trainee.reload()
    assert "1:2" <= trainee.locator("#quiz-clock").inner_text() <= "1:30"
    shot(trainee, "desk-quiz-countdown")
    questions = trainee.locator(".quiz-question")
    for i in range(questions.count()):
        answer_like_a_person(questions.nth(i))
    submit(trainee, "main form")

    # The results and the report come in without a reload.
    desk.clock.run_for(16_000)
    # Polled from here: the page's CSP forbids the string predicates wait_for_function evaluates.
    for _ in range(50):
        if (
            "/ 2" in desk.locator("#exam-results").inner_text()
            and desk.locator("#question-stats tbody tr").count() == 2
        ):
            break
        desk.wait_for_timeout(200)
    assert "/ 2" in desk.locator("#exam-results").inner_text()
    assert desk.locator("#question-stats tbody tr").count() == 2
    desk.goto(results_url)
    assert desk.locator("#question-stats tbody tr").count() == 2
    assert desk.locator("#score-distribution tbody tr").count() == 3
    shot(desk, "desk-quiz-report")

    # The heat map of every kind within 1366 px, under a header lower than 200 px.
    answered = _every_kind_answered(app, "trainee.one", group_id)
    desk.goto(group_url)
    columns = desk.locator("#heat-map thead th.kind-head").count()
    assert columns >= 20, (columns, answered)
    box = desk.locator("#heat-map").bounding_box()
    assert box["x"] + box["width"] <= LAPTOP["width"], box
    head = desk.locator("#heat-map thead").bounding_box()
    assert head["height"] < 200, head
    # The sections: a jump lands with the heading in view.
    navigate_to = desk.locator("#desk-sections a[href='#export-title']")
    navigate_to.click()
    desk.wait_for_timeout(300)
    heading = desk.locator("#export-title").bounding_box()
    assert 0 <= heading["y"] < LAPTOP["height"]
    shot(desk, "desk-laptop")

    # The workbook reads back names, worded answers and Tbilisi's time.
    from openpyxl import load_workbook

    workbook = desk.request.get(group_url + "/answers.xlsx")
    assert workbook.status == 200
    rows = list(load_workbook(io.BytesIO(workbook.body())).active.iter_rows(values_only=True))
    assert rows[0][0] == "When (Asia/Tbilisi)"
    assert {r[2] for r in rows[1:]} == {"trainee.one"}
    assert all(isinstance(r[0], datetime) for r in rows[1:])
    newest = max(r[0] for r in rows[1:])
    assert (
        abs(
            (
                newest - datetime.now(UTC).astimezone(ZoneInfo("Asia/Tbilisi")).replace(tzinfo=None)
            ).total_seconds()
        )
        < 600
    )
    assert not any("_" in str(r[8]) for r in rows[1:] if r[8])  # no internal ids as answers
    quiz = desk.request.get(group_url + "/quiz-report.xlsx")
    quiz_rows = list(load_workbook(io.BytesIO(quiz.body())).active.iter_rows(values_only=True))
    assert {r[2] for r in quiz_rows[1:]} == {"trainee.one"} and len(quiz_rows) == 3

    # Removing a trainee asks first; cancelling keeps him.
    navigate(
        desk,
        lambda: desk.locator(
            "#trainees tr[data-trainee='trainee.one'] form[action$='/remove'] button"
        ).click(),
    )
    assert "trainee.one" in desk.locator("#confirm-question").inner_text().lower()
    navigate(desk, lambda: desk.locator("#confirm-cancel").click())
    assert desk.locator("#trainees tbody tr").count() == 1

    # The desk in Georgian: its sections and headings translated.
    choose_language(desk, "ka")
    desk.goto(group_url)
    assert (
        "პასუხები" in desk.locator("#desk-sections").inner_text()
        or desk.locator("#desk-sections a").count() == 8
    )
    shot(desk, "desk-laptop-ka")
    for c in (context, trainee_context):
        c.close()
