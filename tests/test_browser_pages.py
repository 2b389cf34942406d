"""Real-browser tests: Playwright driving Debian's Chromium through the pages like a trainee.

In each language: a practice round, a sprint and the self-check quiz in each game, clicking and
typing as a person would; with TRAINER_SHOTS=1 screenshots go to tests/artifacts/ (git-ignored).
An accessibility check (axe-core, vendored under tests/vendor) of the main pages fails on serious or
critical violations.

The browser is Debian's headless shell (`/usr/bin/chromium-headless-shell`, package
chromium-headless-shell: the same Blink engine without the desktop browser around it, about a third
less CPU per page here) where it is installed, else Debian's Chromium. Without either the tests are
skipped locally; under CI (env CI set) they fail instead.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from browser_helpers import live_server, navigate, new_context
from conftest import make_app

from trainer.web.practice.self_check import size as quiz_size

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).parent / "artifacts"
# Screenshots are for a person reviewing the pages, and a full-page one costs up to seconds: taken only
# when asked for (TRAINER_SHOTS=1), never in the suite's timed run.
SHOTS = os.environ.get("TRAINER_SHOTS") == "1"
AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
GAMES = ("russian_poker", "omaha", "painted_poker")
LANGUAGES = {"ka": "ქართული", "en": "English", "ru": "Русский"}
BROWSER_LOCALES = {"ka": "ka-GE", "en": "en-US", "ru": "ru-RU"}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("browser")
    with live_server(make_app(DATABASE=str(tmp / "trainer.sqlite"))) as url:
        yield url


@pytest.fixture
def page_in(browser, server):
    """Open a page in a fresh context; any Content-Security-Policy violation on it fails the test
    (the pages carry no inline script or style), unless `bypass_csp` (axe injects its script)."""
    contexts = []
    violations: list[str] = []

    def open_page(lang: str, viewport=PHONE, bypass_csp=False, offline=False):
        context = new_context(
            browser,
            offline=offline,
            viewport=viewport,
            locale={"ka": "ka-GE", "en": "en-US", "ru": "ru-RU"}[lang],
            bypass_csp=bypass_csp,
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.on(
            "console",
            lambda message: (
                violations.append(f"{page.url}: {message.text}")
                if "Content Security Policy" in message.text
                else None
            ),
        )
        page.goto(server + "/")
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert not violations, "\n".join(violations[:10])


def shot(page, name: str) -> None:
    if not SHOTS:
        return
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def choose_language(page, lang: str) -> None:
    navigate(page, lambda: page.get_by_role("button", name=LANGUAGES[lang], exact=True).click())
    assert page.locator("html").get_attribute("lang") == lang


def sign_up(page, username: str, password: str = "a long secret") -> None:
    """Create an account as a person would: the home page's link, the form, back home."""
    navigate(page, lambda: page.locator("main a[href='/account/sign-up']").first.click())
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=password]").fill(password)
    page.locator("input[name=confirm]").fill(password)
    navigate(page, lambda: page.locator("main form button[type=submit]").click())


def answer_like_a_person(scope) -> None:
    """Fill whatever the question asks for: the first option, a number, or a click on a card."""
    radios = scope.locator(".choices input[type=radio]")
    texts = scope.locator("input[type=text][name$=answer], input[type=text][name*=amount-]")
    cards = scope.locator(".pick-card")
    if cards.count():
        cards.first.click()
    elif radios.count():
        scope.locator(".choices label").first.click()
    for i in range(texts.count()):
        texts.nth(i).click()
        texts.nth(i).press_sequentially("20")


def practice_round(page, lang: str, game: str) -> None:
    page.get_by_role("navigation").locator("a").first.click()
    navigate(page, lambda: page.locator(f"#game-{game} ~ ul .button").first.click())
    assert page.locator(".felt, .facts").count() >= 1
    answer_like_a_person(page.locator("main form"))
    page.get_by_role("button", name=re.compile(".+")).filter(
        has=page.locator("xpath=self::*[@class='primary']")
    )
    navigate(page, lambda: page.locator("main form button.primary").click())
    feedback = page.locator("#feedback")
    assert feedback.count() == 1, page.content()[:2000]
    shot(page, f"{lang}-{game}-practice")
    navigate(page, lambda: page.locator("#next").click())
    assert page.locator("main form button.primary").count() == 1


def sprint(page, server: str, lang: str, game: str) -> None:
    page.goto(server + "/sprint/")
    first_kind = page.locator(f"#kind optgroup:nth-of-type({GAMES.index(game) + 1}) option").first
    page.locator("#kind").select_option(first_kind.get_attribute("value"))
    page.locator("label:has(input[name=length][value='10'])").click()
    navigate(page, lambda: page.locator("main form button.primary").click())
    for i in range(10):
        assert page.locator("#clock").count() == 1
        if i == 0:
            shot(page, f"{lang}-{game}-sprint")
        if i % 4 == 3:
            navigate(page, lambda: page.locator("main form button.secondary").click())  # skip
        else:
            answer_like_a_person(page.locator("main form"))
            navigate(page, lambda: page.locator("main form button.primary").click())
    assert page.locator("#sprint-score").count() == 1
    assert "/ 10" in page.locator("#sprint-score").inner_text()
    shot(page, f"{lang}-{game}-sprint-result")


def quiz(page, server: str, lang: str, game: str) -> None:
    page.goto(f"{server}/quiz/{game}")
    navigate(page, lambda: page.locator("#start").click())  # the questions are recorded by a POST
    questions = page.locator(".quiz-question")
    asked = quiz_size(game)  # drawn from the game's bank afresh on every take
    assert questions.count() == asked
    shot(page, f"{lang}-{game}-quiz")
    for i in range(questions.count()):
        answer_like_a_person(questions.nth(i))
    navigate(page, lambda: page.locator("main form button.primary").click())
    assert re.search(r"\d", page.locator("#quiz-score").inner_text())
    assert page.locator(".feedback").count() == asked
    shot(page, f"{lang}-{game}-quiz-result")


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_practice_sprint_and_quiz_in_every_game(page_in, server, lang):
    page = page_in("en")
    choose_language(page, lang)
    sign_up(page, f"browser.{lang}")
    shot(page, f"{lang}-home")
    # Each language practises one game in turn and runs its sprint and its quiz, so that every game is
    # practised, sprinted and quizzed once, in one of the three languages (all nine took a minute of
    # the suite's two; each game practised in every language, 25 s of its four minutes): the pages
    # are the same in every language, and every drill of every game is drawn and answered in Georgian
    # and Russian by tests/test_browser_phone.py.
    game = GAMES[list(LANGUAGES).index(lang)]
    practice_round(page, lang, game)
    sprint(page, server, lang, game)
    quiz(page, server, lang, game)
    page.goto(server + "/progress/")
    page.wait_for_function("() => !document.getElementById('trend') || window.Chart !== undefined")
    shot(page, f"{lang}-progress")
    assert page.locator("#by-drill tbody tr").count() >= 3


def test_a_sprint_is_scored_when_its_clock_runs_out(page_in, server, monkeypatch):
    """At zero the clock's script posts the finish form (a GET of the result writes nothing); the
    server, whose clock is the real one, then scores the sprint and shows its result."""
    from clock_helpers import sprint_clock_ahead

    page = page_in("en")
    page.clock.install()
    sign_up(page, "clock")
    page.goto(server + "/sprint/")
    page.locator("#kind").select_option("rp.bet_payout")
    navigate(page, lambda: page.locator("main form button.primary").click())
    assert page.locator("#clock").count() == 1
    sprint_clock_ahead(monkeypatch, 200)  # the server's clock ran out too
    navigate(page, lambda: page.clock.run_for(200_000))
    assert page.locator("#sprint-score").count() == 1, page.content()[:2000]


def test_keyboard_alone_answers_a_question(page_in, server):
    page = page_in("en")
    sign_up(page, "keyboard")
    page.goto(server + "/practice/rp.bet_payout?level=1")
    navigate(page, lambda: page.keyboard.press("Enter"))  # "Start" has the focus
    page.keyboard.type("40")  # the answer field has the focus
    navigate(page, lambda: page.keyboard.press("Enter"))
    assert page.locator("#feedback").count() == 1
    navigate(page, lambda: page.keyboard.press("Enter"))
    assert page.locator("input[name=answer]").count() == 1


def test_buy_decision_by_clicking_cards(page_in, server):
    page = page_in("ru")
    sign_up(page, "card.clicker")
    page.goto(server + "/practice/rp.decision?level=2")
    navigate(page, lambda: page.locator("#start").click())
    page.locator("label:has(input[value=__exchange__])").click()
    cards = page.locator(".pick-card")
    assert cards.count() == 5
    cards.nth(0).click()
    cards.nth(3).click()
    assert page.locator(".pick-card input:checked").count() == 2
    shot(page, "ru-decision-clicked")
    navigate(page, lambda: page.locator("main form button.primary").click())
    assert page.locator("#feedback").count() == 1
    assert "Обмен" in page.locator("#feedback").inner_text() or page.locator("#feedback .card").count()


def test_todays_practice_on_a_phone_in_georgian(page_in, server):
    page = page_in("ka")
    sign_up(page, "today.trainee")
    navigate(page, lambda: page.locator("#today-link").click())
    assert page.locator("#queue li").count() >= 3
    shot(page, "ka-today")
    navigate(page, lambda: page.locator("#start").click())
    answer_like_a_person(page.locator("main form"))
    navigate(page, lambda: page.locator("main form button.primary").click())
    assert page.locator("#feedback").count() == 1
    shot(page, "ka-today-feedback")
    navigate(page, lambda: page.locator("#next").click())  # the queue's next drill, not the same kind again
    assert page.locator("main form button.primary").count() == 1
    page.goto(server + "/today/")
    assert "1" in page.locator("#goal").inner_text()


MAIN_PAGES = [
    "/",
    "/reference/",
    "/reference/rules/russian-poker",
    "/reference/payouts",
    "/reference/glossary",
    "/reference/presets/russian-poker",
    "/sprint/",
    "/quiz/",
    "/quiz/russian_poker",
    "/quiz/omaha",
    "/quiz/painted_poker",
    "/practice/rp.settle?level=3",
    "/practice/om.side_pots?level=2",
    "/practice/pp.sheet?level=1",
    "/practice/rp.decision?level=2",
    "/reference/advisor?player=Qh&player=9h&player=6h&player=3h&player=2c&upcard=Ad&rules=caribbean",
    "/progress/",
    "/today/",
    "/account/",
    "/account/code",
]


# Georgian only: the markup and styles are the same in every language, and Georgian's longer words are
# what can push a label over its box; Russian is checked on a phone (tests/test_browser_phone_axe.py).
@pytest.mark.parametrize("lang", ["ka"])
def test_main_pages_have_no_serious_accessibility_violations(page_in, server, lang):
    page = page_in(lang, viewport={"width": 1280, "height": 900}, bypass_csp=True)
    sign_up(page, f"axe.{lang}")
    script = AXE.read_text()
    problems = []
    for url in MAIN_PAGES:
        page.goto(server + url)
        if url.startswith(("/practice/", "/quiz/")) and page.locator("#start").count():
            navigate(page, lambda: page.locator("#start").click())  # drills are recorded only by a POST
        page.wait_for_load_state()
        page.add_script_tag(content=script)
        result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
        for violation in result["violations"]:
            if violation["impact"] in ("serious", "critical"):
                targets = [n["target"] for n in violation["nodes"][:3]]
                problems.append(f"{url}: {violation['id']} ({violation['impact']}) {targets}")
        if url.startswith("/practice/"):
            shot(page, f"{lang}-wide-{url.split('/')[2].split('?')[0]}")
    assert not problems, "\n".join(problems)
