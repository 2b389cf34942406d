"""Real-browser tests of the live table at phone size (390x844): a whole round of each game run as
the dealer, step after step without reloading the page, one step answered wrong on purpose (the
round goes on), chips paid in chips, the keyboard alone, and a table test to its result.

The expected answers are computed here from the engines (the page never holds them), so the test
answers like a trainee who knows the rules."""

from __future__ import annotations

import re

import pytest
from browser_helpers import live_server
from conftest import make_app
from test_browser_pages import (  # noqa: F401  (page_in is a fixture)
    PHONE,
    choose_language,
    navigate,
    page_in,
    shot,
)

from trainer.drills.rounds import deal, expected_answer, grade_step
from trainer.store.schema import open_db
from trainer.store.tables import TableStore

pytestmark = pytest.mark.browser
DATABASE: list[str] = []


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The app served on a free port; its database file is kept to look the rounds up."""
    path = str(tmp_path_factory.mktemp("table") / "trainer.sqlite")
    DATABASE[:] = [path]
    with live_server(make_app(DATABASE=path)) as url:
        yield url


def current_row(page) -> dict:
    """The server's record of the round on the page."""
    round_id = int(re.search(r"/table/round/(\d+)", page.url).group(1))
    db = open_db(DATABASE[0], migrate=False)
    try:
        return TableStore(db).round(round_id)
    finally:
        db.conn.close()


def current_round(page):
    """The round on the page, dealt again from the server's record of it."""
    row = current_row(page)
    return deal(
        row["game"], row["level"], row["seed"], seats=row["seats"], rules=row["rules"], payout=row["payout"]
    )


def fill(page, step, value) -> None:
    """Put `value` into the step's form as a trainee would: type it, click the choice, the chips or
    the cards."""
    form = page.locator("#round form.step-form")
    fmt = step.answer_format
    if fmt.kind == "choice":
        form.locator(f"input[type=radio][value='{value}']").check()
    elif fmt.kind == "amount":
        form.locator("input[name=answer]").fill(str(value))
    elif fmt.kind == "amounts":
        for i, label in enumerate(fmt.labels):
            form.locator(f"input[name=amount-{i}]").fill(str(value[label]))
    else:
        for code in value:
            form.locator(f".pick-card:has(input[value='{code}'])").click()


def focused_name(page) -> str:
    return page.evaluate("document.activeElement && (document.activeElement.name || '')")


def keys(page, step, value) -> None:
    """Answer with the keyboard alone, from where the page puts the focus, and press Enter: digits
    pick a choice; amounts are typed, Tab going on to the next field; cards are ticked with the space
    bar, Tab going from card to card."""
    fmt = step.answer_format
    if fmt.kind == "choice":
        digit = [c.value for c in fmt.choices].index(value) + 1
        assert digit <= 9
        page.keyboard.press(str(digit))
    elif fmt.kind == "amount":
        assert focused_name(page) == "answer"
        page.keyboard.type(str(value))
    elif fmt.kind == "amounts":
        for i, label in enumerate(fmt.labels):
            for _ in range(4):  # past a sign button, if the field has one
                if focused_name(page) == f"amount-{i}":
                    break
                page.keyboard.press("Tab")
            assert focused_name(page) == f"amount-{i}"
            page.keyboard.type(str(value[label]))
    else:
        cards = page.locator("#round .pick-card input").count()
        for k in range(cards):
            assert focused_name(page) == "cards"
            if page.evaluate("document.activeElement.value") in value:
                page.keyboard.press(" ")
            if k < cards - 1:
                page.keyboard.press("Tab")
    page.keyboard.press("Enter")


def wrong(step, value):
    """An answer of the step's form that is not `value`."""
    fmt = step.answer_format
    if fmt.kind == "choice":
        return next(c.value for c in fmt.choices if c.value != value)
    if fmt.kind == "amount":
        return value + 5
    if fmt.kind == "amounts":
        first = fmt.labels[0]
        return {**value, first: value[first] + 5}
    return [next(c for c in step.table["dealer"]["cards"] if c not in value)]


def run_round(page, *, wrong_at: int | None = None, keyboard: bool = False, name: str = "") -> dict:
    page.evaluate("window.__sameDocument = true")  # gone if the page reloads
    r = current_round(page)
    for i, step in enumerate(r.steps):
        assert page.locator("#round input[name=step]").get_attribute("value") == str(i)
        want = expected_answer(r, i)
        if i == wrong_at:
            want = wrong(step, want)
            assert not grade_step(r, i, want).correct
        if i == 0:
            shot(page, f"table-{name}-first-step")
        with page.expect_response(re.compile(r"/table/round/\d+$")):
            if keyboard:
                keys(page, step, want)
            else:
                fill(page, step, want)
                page.locator("#round form.step-form button.primary").click()
        # The response has come; the script swaps the next step in a moment later. Until then the
        # page still shows the previous step's verdict, so wait for the swap, not for any verdict.
        page.wait_for_function(
            """(i) => {
                const step = document.querySelector('#round input[name=step]');
                return document.querySelector('#steps-right') || (step && step.value !== String(i));
            }""",
            arg=i,
        )
        verdict = page.locator("#feedback .verdict")
        verdict.wait_for()
        if i == wrong_at:
            assert "✗" in verdict.inner_text()
        else:
            assert "✓" in verdict.inner_text(), page.locator("#feedback").inner_text()
    assert page.evaluate("window.__sameDocument === true"), "the page reloaded between steps"
    page.locator("#steps-right").wait_for()
    shot(page, f"table-{name}-result")
    return {"right": page.locator("#steps-right").inner_text(), "steps": len(r.steps)}


@pytest.fixture
def table_page(page_in, server):  # noqa: F811
    def open_table(lang: str = "en", name: str = "Table trainee"):
        page = page_in(lang)
        navigate(page, lambda: page.goto(server + "/table/"))
        return page

    return open_table


@pytest.mark.parametrize("game", ["russian_poker", "omaha", "painted_poker"])
def test_a_whole_round_of_each_game_on_a_phone(table_page, game):
    page = table_page(name=f"Table {game}")
    section = page.locator(f"section.table-game:has(#game-{game})")
    if game == "russian_poker":
        section.locator("select[name=seats]").select_option("6")
    if game in ("russian_poker", "omaha"):  # the boxes paid, the pots pushed, in chips
        section.locator("label:has(input[name=payout][value=chips])").click()
    navigate(page, lambda: section.locator("form.round-start button[value='3']").click())
    assert page.viewport_size == PHONE
    # The whole table and the question are on the first screen.
    question = page.locator("#question").bounding_box()
    assert question is not None and question["y"] + question["height"] <= PHONE["height"] + 200
    result = run_round(page, wrong_at=1, name=game)
    right, total = (int(x) for x in result["right"].split("/"))
    assert total == result["steps"] and right >= total - 1


def test_the_keyboard_alone_runs_a_round(table_page):
    """A round with every form of answer (an amount, a choice, the card the dealer replaces, the
    amounts on each spot) run with the keyboard alone: no click after the round is dealt."""
    page = table_page(name="Keyboard table")
    section = page.locator("section.table-game:has(#game-russian_poker)")
    navigate(page, lambda: section.locator("form.round-start button[value='1']").click())
    trainee = current_row(page)["trainee_id"]
    seed = next(
        seed
        for seed in range(500)
        if {s.answer_format.kind for s in deal("russian_poker", 2, seed, seats=3, payout="amount").steps}
        == {"amount", "choice", "cards", "amounts"}
    )
    db = open_db(DATABASE[0], migrate=False)
    try:
        round_id = TableStore(db).start_round(
            trainee, "russian_poker", 2, seed=seed, seats=3, payout="amount"
        )
    finally:
        db.conn.close()
    navigate(page, lambda: page.goto(page.url.rsplit("/", 1)[0] + f"/{round_id}"))
    result = run_round(page, keyboard=True, wrong_at=1, name="keyboard")
    right, total = (int(x) for x in result["right"].split("/"))
    assert (right, total) == (result["steps"] - 1, result["steps"])


def test_a_table_test_to_its_result_in_georgian(table_page, server):
    page = table_page("en", "Exam trainee")
    choose_language(page, "ka")
    section = page.locator("section.table-game:has(#game-painted_poker)")
    navigate(page, lambda: section.locator("form.test-start button[value='1']").click())
    for _ in range(3):
        run_round(page, name="exam")
        navigate(page, lambda: page.locator("#next").click())
    assert page.locator("#verdict").count() == 1
    shot(page, "table-exam-result")
    assert "✓" in page.locator("#verdict").inner_text()
    page.goto(server + "/progress/")
    assert page.locator("#table-tests tbody tr").count() == 1
