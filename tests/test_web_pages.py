"""View tests: every page, guests and accounts, practice/sprint/quiz flows on toy drills, errors."""

import re

import pytest
from accounts_helpers import AuthActions
from conftest import make_app
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from web_toys import toy_kinds

from trainer.drills import REGISTRY
from trainer.drills.base import expected_of
from trainer.web.core import presets

# Each public page, its heading and what shows it does its job (the games to pick, the figures of the
# ante asked for, the fields of a form).
PUBLIC_PAGES = {
    "/": ("Croupier Trainer", ['id="game-russian_poker"', 'id="game-omaha"', 'id="game-painted_poker"']),
    "/reference/": (
        "Reference",
        ["Payout cheat sheet (Russian poker)", "Croupier glossary", "Buy-decision advisor"],
    ),
    "/reference/rules/russian-poker": ("Russian poker: rules", ['id="pay-table"', 'id="bonus-table"']),
    "/reference/rules/omaha": ("Omaha and Omaha Hi/Lo: rules", ["exactly two hole cards", 'id="examples"']),
    "/reference/rules/painted-poker": ("Painted poker: rules", ["A trick-taking game", 'id="examples"']),
    "/reference/payouts": ("Payout cheat sheet: Russian poker", ["Ante 10 (bet 20)", "2,000"]),
    "/reference/payouts?ante=25": ("Payout cheat sheet: Russian poker", ["Ante 25 (bet 50)", "5,000"]),
    "/reference/glossary": ("Croupier glossary", ["Qualification", "The compulsory opening bet."]),
    "/reference/presets/russian-poker": (
        "House-rules presets: Russian poker",
        ["CIS casinos (default)", "Lunar Poker"],
    ),
    "/quiz/": ("Check yourself", ["Take the quiz"]),
    "/sprint/": ("Sprint", ['name="kind"', 'name="seconds"']),
    "/progress/": ("Progress", ["No answers yet"]),
    "/quiz/russian_poker": ("Check yourself: Russian poker", ['id="start"']),
    "/account/sign-in": ("Sign in", ['name="username"', 'name="password"']),
    "/account/sign-up": ("Create an account", ['name="username"', 'name="confirm"']),
    "/account/code": ("Set your password", ['name="code"', 'name="password"']),
}


@pytest.mark.parametrize("url", PUBLIC_PAGES)
def test_public_pages_render(client, url):
    response = client.get(url)
    assert response.status_code == 200, url
    main = re.search(r"<main.*?</main>", response.get_data(as_text=True), re.S).group(0)
    heading, shown = PUBLIC_PAGES[url]
    assert re.search(rf"<h1[^>]*>\s*{re.escape(heading)}\s*</h1>", main), (url, heading)
    missing = [marker for marker in shown if marker not in main]
    assert not missing, (url, missing)


def test_a_guest_practises_at_once_without_an_account(app, client, toys):
    assert b"No answers yet" in client.get("/progress/").data
    assert _count(app, "trainees") == 0  # looking records nothing
    response = client.post("/practice/toy.amount", data={"level": "2"})
    assert response.status_code == 303 and response.headers["Location"].startswith("/practice/drill/")
    assert _count(app, "trainees") == 1 and _count(app, "users") == 0
    assert client.get(response.headers["Location"]).status_code == 200


def _count(app, table):
    from trainer.store import open_db

    return (
        open_db(app.config["DATABASE"], migrate=False).execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    )


def test_get_never_records_anything(app, named, toys):
    """A link or an image on another site can make a GET, so a GET must not draw or record a drill."""
    trainees = _count(app, "trainees")
    for _ in range(3):
        page = named.get("/practice/toy.amount?level=2")
        assert page.status_code == 200 and b'id="start"' in page.data
        assert app.test_client().get("/practice/toy.amount").status_code == 200  # no name, no row
    assert _count(app, "drills") == 0 and _count(app, "trainees") == trainees
    started = named.post("/practice/toy.amount", data={"level": "2"})
    assert started.status_code == 303 and _count(app, "drills") == 1


def test_a_quiz_is_recorded_only_when_started_with_a_post(app, named):
    page = named.get("/quiz/russian_poker")
    assert page.status_code == 200 and b'id="start"' in page.data and b"quiz-question" not in page.data
    assert _count(app, "drills") == 0
    started = named.post("/quiz/russian_poker/start")
    assert started.status_code == 303 and started.headers["Location"] == "/quiz/russian_poker"
    count = _count(app, "drills")
    assert count >= 1
    quiz = named.get("/quiz/russian_poker").get_data(as_text=True)
    assert quiz.count("quiz-question") == count
    named.post("/quiz/russian_poker/start")  # a second start keeps the open quiz
    assert _count(app, "drills") == count
    ids = re.findall(r'name="drill" value="(\d+)"', quiz)
    answers = {"drill": ids, **{f"q{i}-answer": "0" for i in range(count)}}
    answers.update({f"q{i}-amount-{j}": "0" for i in range(count) for j in range(12)})
    for i in range(count):
        choice = re.search(rf'name="q{i}-answer" value="([^"]+)"', quiz)
        if choice:
            answers[f"q{i}-answer"] = choice.group(1)
    result = named.post("/quiz/russian_poker", data=answers)
    assert result.status_code == 200 and b'id="quiz-score"' in result.data
    assert _count(app, "attempts") == count


def test_starting_a_drill_checks_the_form(tmp_path, toys):
    app = make_app(DATABASE=str(tmp_path / "c.sqlite"))
    client = app.test_client()
    page = client.get("/account/sign-in").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    forged = client.post("/practice/toy.amount", data={"level": "1"})  # a cross-site form has no token
    assert forged.status_code == 400 and _count(app, "drills") == 0 and _count(app, "trainees") == 0
    assert client.post("/practice/toy.amount", data={"level": "1", "csrf_token": token}).status_code == 303


@pytest.mark.parametrize(
    "url",
    [
        "/no-such-page",
        "/reference/rules/chess",
        "/reference/presets/chess",
        "/quiz/chess",
        "/practice/no.kind",
    ],
)
def test_unknown_pages_are_404_pages(named, url):
    response = named.get(url)
    assert response.status_code == 404
    assert b"error-box" in response.data


def test_cheat_sheet_defaults_to_antes_10_and_100_from_the_preset(client):
    page = client.get("/reference/payouts").get_data(as_text=True)
    assert "Ante 10 (bet 20)" in page and "Ante 100 (bet 200)" in page
    # Straight pays 4 to 1 on the bet in the default preset: 80 on ante 10, 800 on ante 100.
    assert re.search(r"straight</th><td[^>]*>4 to 1</td><td[^>]*>80<", page)
    assert re.search(r"straight</th><td[^>]*>4 to 1</td><td[^>]*>800<", page)


def test_cheat_sheet_for_a_chosen_ante(client):
    page = client.get("/reference/payouts?ante=1 000").get_data(as_text=True)
    assert "Ante 1,000 (bet 2,000)" in page and "Ante 10 (bet" not in page
    # Thousands as each language groups them, the same as in the drills ("2000" here, "2 000" there).
    ru = client.get("/reference/payouts?ante=1000", headers={"Accept-Language": "ru"}).get_data(as_text=True)
    assert "1\u00a0000" in ru and "2\u00a0000" in ru and "(bet 2000)" not in ru


@pytest.mark.parametrize("ante", ["x", "0", "-5", "10.5", "99999999999"])
def test_cheat_sheet_bad_ante_is_400_with_a_message(client, ante):
    response = client.get(f"/reference/payouts?ante={ante}")
    assert response.status_code == 400
    assert b"whole number" in response.data


@pytest.mark.parametrize("game", presets.games())
def test_every_games_presets_page(client, game):
    response = client.get(f"/reference/presets/{game}")
    assert response.status_code == 200 and b"<table" in response.data


def test_presets_side_by_side_mark_differences(client):
    page = client.get("/reference/presets/russian-poker").get_data(as_text=True)
    assert "CIS casinos (default)" in page and "Lunar Poker" in page
    assert 'class="differs"' in page


def test_practice_round_amount(named, toys):
    response = named.post("/practice/toy.amount", data={"level": "2"})
    assert response.status_code == 303
    drill_url = response.headers["Location"]
    page = named.get(drill_url).get_data(as_text=True)
    ante = int(re.search(r'<span class="v">(\d+)</span>', page).group(1))
    assert "Level 2" in page
    answered = named.post(drill_url, data={"drill": drill_url.rsplit("/", 1)[1], "answer": f"{2 * ante:,}"})
    assert answered.status_code == 302
    feedback = named.get(drill_url).get_data(as_text=True)
    assert "Right" in feedback and f"Bet = 2 x {ante}." in feedback
    assert "Time taken" in feedback
    # "next" keeps the drill and the level
    assert re.search(r'action="/practice/toy.amount".*name="level" value="2"', feedback, re.S)


def test_practice_wrong_answer_shows_the_expected_one(named, toys):
    drill_url = named.post("/practice/toy.amount", data={"level": "1"}).headers["Location"]
    named.post(drill_url, data={"drill": drill_url.rsplit("/", 1)[1], "answer": "-1"})
    feedback = named.get(drill_url).get_data(as_text=True)
    assert "Not right" in feedback and "Expected answer" in feedback


@pytest.mark.parametrize("bad", ["", "twelve", "12.5"])
def test_unreadable_answer_keeps_the_question_open(named, toys, bad):
    drill_url = named.post("/practice/toy.amount", data={"level": "1"}).headers["Location"]
    drill_id = drill_url.rsplit("/", 1)[1]
    response = named.post(drill_url, data={"drill": drill_id, "answer": bad})
    assert response.status_code == 400
    assert b'role="alert"' in response.data and b'name="answer"' in response.data
    # still open: a readable answer is then accepted
    assert named.post(drill_url, data={"drill": drill_id, "answer": "10"}).status_code == 302


def test_second_answer_changes_nothing(named, toys):
    drill_url = named.post("/practice/toy.amount", data={"level": "1"}).headers["Location"]
    drill_id = drill_url.rsplit("/", 1)[1]
    named.post(drill_url, data={"drill": drill_id, "answer": "-1"})
    named.post(drill_url, data={"drill": drill_id, "answer": "0"})
    page = named.get(drill_url).get_data(as_text=True)
    assert "Not right" in page and "already answered" in page


def test_tampered_drill_field_is_400(named, toys):
    drill_url = named.post("/practice/toy.amount", data={"level": "1"}).headers["Location"]
    response = named.post(drill_url, data={"drill": "999", "answer": "10"})
    assert response.status_code == 400 and b"another question" in response.data


def test_other_trainees_drill_is_404(app, toys):
    first, second, guest = app.test_client(), app.test_client(), app.test_client()
    AuthActions(first).sign_up("trainee.one")
    AuthActions(second).sign_up("trainee.two")
    guest.post("/practice/toy.amount", data={"level": "1"})
    drill_url = first.post("/practice/toy.amount", data={"level": "1"}).headers["Location"]
    assert second.get(drill_url).status_code == 404
    assert guest.get(drill_url).status_code == 404


@pytest.mark.parametrize("level", ["7", "x", "0"])
def test_bad_level_is_400(named, toys, level):
    response = named.get(f"/practice/toy.amount?level={level}")
    assert response.status_code == 400 and b"level" in response.data
    response = named.post("/practice/toy.amount", data={"level": level})
    assert response.status_code == 400 and b"level" in response.data


def test_choice_amounts_and_cards_answers(named, toys):
    url = named.post("/practice/toy.choice").headers["Location"]
    page = named.get(url).get_data(as_text=True)
    n = int(re.search(r'<span class="v">(\d+)</span>', page).group(1))
    named.post(url, data={"drill": url.rsplit("/", 1)[1], "answer": "yes" if n % 2 == 0 else "no"})
    assert "Right" in named.get(url).get_data(as_text=True)

    url = named.post("/practice/toy.amounts").headers["Location"]
    page = named.get(url).get_data(as_text=True)
    a, b = (int(v) for v in re.findall(r'<span class="v">(\d+)</span>', page))
    named.post(url, data={"drill": url.rsplit("/", 1)[1], "amount-0": str(2 * a), "amount-1": str(2 * b)})
    assert "Right" in named.get(url).get_data(as_text=True)

    url = named.post("/practice/toy.cards").headers["Location"]
    page = named.get(url).get_data(as_text=True)
    offered = re.findall(r'name="cards" value="(\w\w)"', page)
    assert len(offered) == 5
    assert 'role="img" aria-label="' in page and " of " in page
    red = [c for c in offered if c[-1] in "hd"]
    form = (
        {"drill": url.rsplit("/", 1)[1], "cards": red}
        if red
        else {"drill": url.rsplit("/", 1)[1], "cards_none": "1"}
    )
    named.post(url, data=form)
    assert "Right" in named.get(url).get_data(as_text=True)


def test_csrf_is_checked_when_enabled(tmp_path, toys):
    app = make_app(DATABASE=str(tmp_path / "c.sqlite"))
    client = app.test_client()
    response = client.post(
        "/account/sign-up", data={"username": "trainee.one", "password": "x" * 9, "confirm": "x" * 9}
    )
    assert response.status_code == 400
    page = client.get("/account/sign-up").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    data = {"username": "trainee.one", "password": "x" * 9, "confirm": "x" * 9, "csrf_token": token}
    assert client.post("/account/sign-up", data=data).status_code == 302
    drill_url = client.post("/practice/toy.amount", data={"csrf_token": token}).headers["Location"]
    forged = client.post(
        drill_url, data={"drill": drill_url.rsplit("/", 1)[1], "answer": "10", "csrf_token": "x"}
    )
    assert forged.status_code == 400 and b"security check" in forged.data
    # nothing was recorded: the question is still open
    assert b'name="answer"' in client.get(drill_url).data


def start_sprint(client, kind="toy.amount", level="1", length="10", seconds="90"):
    return client.post("/sprint/", data={"kind": kind, "level": level, "length": length, "seconds": seconds})


def test_sprint_counts_answers_and_skips_and_shows_the_result(named, toys):
    response = named.post(
        "/sprint/", data={"kind": "toy.amount", "level": "1", "length": "10", "seconds": "90"}
    )
    assert response.status_code == 302
    run_url = response.headers["Location"]
    sprint_id = run_url.rstrip("/").rsplit("/", 1)[1]
    right = 0
    for i in range(10):
        page = named.get(run_url).get_data(as_text=True)
        assert f"Question {i + 1} of 10" in page
        drill = re.search(r'name="drill" value="(\d+)"', page).group(1)
        if i % 3 == 2:
            named.post(f"/sprint/{sprint_id}/skip", data={"drill": drill})
            continue
        ante = int(re.search(r'<span class="v">(\d+)</span>', page).group(1))
        answer = 2 * ante if i % 2 == 0 else 1
        right += answer == 2 * ante
        named.post(f"/sprint/{sprint_id}/answer", data={"drill": drill, "answer": str(answer)})
    result = named.get(run_url)
    assert result.status_code == 302 and result.headers["Location"].endswith("/result")
    page = named.get(result.headers["Location"]).get_data(as_text=True)
    assert f'id="sprint-score">{right} / 10<' in page
    assert "New personal best!" not in page and "Your first sprint of this drill" in page


def test_sprint_bad_form_is_400(named, toys):
    assert (
        named.post(
            "/sprint/", data={"kind": "toy.amount", "level": "9", "length": "10", "seconds": "90"}
        ).status_code
        == 400
    )
    assert (
        named.post(
            "/sprint/", data={"kind": "toy.amount", "level": "1", "length": "11", "seconds": "90"}
        ).status_code
        == 400
    )
    assert (
        named.post(
            "/sprint/", data={"kind": "nope", "level": "1", "length": "10", "seconds": "90"}
        ).status_code
        == 404
    )


def test_sprint_clock_is_the_servers(app, named, toys, monkeypatch):
    from clock_helpers import sprint_clock_ahead

    run_url = named.post(
        "/sprint/", data={"kind": "toy.amount", "level": "1", "length": "10", "seconds": "60"}
    ).headers["Location"]
    sprint_clock_ahead(monkeypatch, 61)
    response = named.get(run_url)
    assert response.status_code == 302 and response.headers["Location"].endswith("/result")
    # The clock ran out with no answer after it: the result page scores nothing by itself (a GET)...
    sprint_id = int(run_url.rstrip("/").rsplit("/", 1)[1])
    page = named.get(response.headers["Location"])
    assert page.status_code == 200 and b'id="finish"' in page.data
    assert _sprint_row(app, sprint_id)["finished_at"] is None
    # ... its button does, once.
    scored = named.post(f"/sprint/{sprint_id}/finish")
    assert scored.status_code == 303 and _sprint_row(app, sprint_id)["finished_at"] is not None
    assert b'id="sprint-score"' in named.get(scored.headers["Location"]).data


def _sprint_row(app, sprint_id):
    from trainer.store import Store, open_db

    return Store(open_db(app.config["DATABASE"], migrate=False)).sprint(sprint_id)


def test_a_sprint_cannot_be_finished_early_by_a_forged_post(app, named, toys):
    run_url = named.post(
        "/sprint/", data={"kind": "toy.amount", "level": "1", "length": "10", "seconds": "60"}
    ).headers["Location"]
    sprint_id = int(run_url.rstrip("/").rsplit("/", 1)[1])
    # The run page carries the form the clock's script posts at zero (with its CSRF token).
    run_page = named.get(run_url).data
    assert b'id="finish-form"' in run_page and b'name="csrf_token"' in run_page
    assert named.post(f"/sprint/{sprint_id}/finish").status_code == 303
    assert _sprint_row(app, sprint_id)["finished_at"] is None  # time is left: still running
    assert named.get(f"/sprint/{sprint_id}/result").headers["Location"] == run_url


def test_progress_page_after_answers(named, toys):
    url = named.post("/practice/toy.amount").headers["Location"]
    named.post(url, data={"drill": url.rsplit("/", 1)[1], "answer": "1"})
    page = named.get("/progress/").get_data(as_text=True)
    assert "Toy amount" in page and "chart.umd.min.js" in page and 'id="trend-data"' in page


def test_home_shows_recent_accuracy_per_game_and_the_next_drills(named, toys):
    for answer in ("1", "2", "3", "4", "5"):
        url = named.post("/practice/toy.amount").headers["Location"]
        named.post(url, data={"drill": url.rsplit("/", 1)[1], "answer": answer})
    page = named.get("/").get_data(as_text=True)
    assert "Your accuracy, last 14\u00a0days" in page
    assert "toy: <strong>0%</strong>" in page
    # The recommendation is the head of today's practice queue (tests/test_practice.py has its order).
    assert re.search(r"Practise these next.*</a> · Level 1 · ", page, re.S) and 'id="today-link"' in page


def test_language_switch_is_remembered(client):
    response = client.post("/language", data={"lang": "ru", "next": "/reference/"})
    assert response.headers["Location"] == "/reference/"
    assert '<html lang="ru">' in client.get("/").get_data(as_text=True)


def test_language_from_the_browser(client):
    page = client.get("/", headers={"Accept-Language": "ka,en;q=0.5"}).get_data(as_text=True)
    assert '<html lang="ka">' in page


def test_bad_language_is_400(client):
    assert client.post("/language", data={"lang": "xx"}).status_code == 400


def _answer_form(fmt, expected):
    """The form fields a trainee fills to give `expected` for this answer format."""
    if fmt["kind"] == "amounts":
        return {f"amount-{i}": str(expected[label]) for i, label in enumerate(fmt["labels"])}
    if fmt["kind"] == "cards":
        return {"cards": expected} if expected else {"cards_none": "1"}
    if str(expected).startswith("exchange "):  # click the cards to exchange
        return {"answer": "__exchange__", "discard": str(expected).split()[1:]}
    return {"answer": str(expected)}


@pytest.mark.parametrize("kind_id", sorted(REGISTRY))
def test_every_real_drill_renders_and_grades_at_every_level(named, kind_id):
    kind = REGISTRY[kind_id]
    for level in kind.levels:
        url = named.post(f"/practice/{kind_id}", data={"level": level}).headers["Location"]
        page = named.get(url)
        assert page.status_code == 200
        assert b'class="felt' in page.data or b'class="facts' in page.data
        drill_id = int(url.rsplit("/", 1)[1])
        with named.application.app_context():
            from trainer.web.core import db

            situation = db.store().drill(drill_id)["situation"]
        expected, _text, _steps = expected_of(situation)
        form = {"drill": str(drill_id), **_answer_form(situation.answer_format.to_json(), expected)}
        assert named.post(url, data=form).status_code == 302
        feedback = named.get(url).get_data(as_text=True)
        assert "✓ Right" in feedback, (kind_id, level, expected)


def test_advisor_page_lists_every_option_best_first(client):
    assert client.get("/reference/advisor").status_code == 200
    query = "player=Qh&player=9h&player=6h&player=3h&player=2c&upcard=Ad"
    page = client.get(f"/reference/advisor?{query}").get_data(as_text=True)
    rows = re.findall(r'<td class="num">([+-]\d+\.\d+)', page)
    values = [float(v) for v in rows]
    assert len(values) > 3 and values == sorted(values, reverse=True)
    assert "Fold" in page and "Buy a sixth card" in page and "✓" in page


def test_advisor_page_answers_a_repeated_question_from_its_cache(client, monkeypatch):
    """The options table is rendered once per language, house, cards and stakes: a repeat does not ask
    the engine again, and the same cards under another house (or other stakes) are never served
    another house's table."""
    from trainer.engine.russian_poker import strategy
    from trainer.web.reference import advisor as advisor_page

    asked: list[tuple[str, int]] = []

    def advise(player, up, *, rules, ante, bonus):
        asked.append((rules.name, ante))
        value = {"caribbean": -0.25, "cis": 0.5}.get(rules.name, 0.75) * ante
        option = strategy.Option(strategy.Action.BET, (), value, equivalent=True)
        return strategy.Advice((option,), None)

    monkeypatch.setattr(strategy, "advise", advise)
    monkeypatch.setattr(advisor_page, "_OPTIONS_HTML", type(advisor_page._OPTIONS_HTML)())
    query = "player=Qh&player=9h&player=6h&player=3h&player=2c&upcard=Ad"

    def shown(extra: str) -> list[str]:
        page = client.get(f"/reference/advisor?{query}{extra}").get_data(as_text=True)
        assert 'value="Qh" checked' in page and 'value="Ad" checked' in page and 'value="Kh">' in page
        return re.findall(r'<td class="num">([+-]\d+\.\d+)', page)

    assert shown("&rules=caribbean") == ["-0.250"]
    assert shown("&rules=cis") == ["+0.500"]
    assert shown("&rules=caribbean") == ["-0.250"]
    assert shown("&rules=cis&ante=2") == ["+1.000"]
    assert shown("&rules=cis") == ["+0.500"]
    assert asked == [("caribbean", 1), ("cis", 1), ("cis", 2)]


@pytest.mark.parametrize(
    "query",
    [
        "player=Qh&player=9h&upcard=Ad",
        "player=Qh&player=9h&player=6h&player=3h&player=3h&upcard=Ad",
        "player=Qh&player=9h&player=6h&player=3h&player=2c&upcard=Qh",
        "player=Zz&player=9h&player=6h&player=3h&player=2c&upcard=Ad",
        "player=Qh&player=9h&player=6h&player=3h&player=2c&upcard=Ad&rules=nope",
    ],
)
def test_advisor_bad_choice_is_400(client, query):
    response = client.get(f"/reference/advisor?{query}")
    assert response.status_code == 400 and b"error-box" in response.data


JUNK = ["", "x", "-1", "99999999999999999999", "<script>", "１２", "1 400", "As As", "\x00", "é" * 300]


@pytest.mark.parametrize("junk", JUNK)
def test_junk_in_every_form_is_never_a_server_error(named, toys, junk):
    url = named.post("/practice/toy.amounts").headers["Location"]
    drill = url.rsplit("/", 1)[1]
    posts = [
        ("/account/sign-in", {"username": junk, "password": junk, "next": junk}),
        ("/account/sign-up", {"username": junk, "password": junk, "confirm": junk, "next": junk}),
        ("/account/code", {"username": junk, "code": junk, "password": junk, "confirm": junk}),
        ("/account/password", {"current": junk, "password": junk, "confirm": junk}),
        ("/account/tokens", {"label": junk}),
        ("/language", {"lang": junk, "next": junk}),
        (url, {"drill": junk, "answer": junk}),
        (url, {"drill": drill, "amount-0": junk, "amount-1": junk, "cards": junk}),
        ("/sprint/", {"kind": junk, "level": junk, "length": junk, "seconds": junk}),
        ("/sprint/1/answer", {"drill": junk, "answer": junk}),
        ("/sprint/1/skip", {"drill": junk}),
        ("/quiz/russian_poker", {"drill": junk, "q0-answer": junk}),
    ]
    for path, form in posts:
        response = named.post(path, data=form)
        assert response.status_code < 500, (path, form, response.status_code)
    for path in (f"/reference/payouts?ante={junk}", f"/practice/toy.amount?level={junk}"):
        assert named.get(path).status_code < 500


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(answer=st.text(max_size=40))
def test_any_typed_answer_is_graded_or_refused_never_a_500(named, toys, answer):
    url = named.post("/practice/toy.amount").headers["Location"]
    response = named.post(url, data={"drill": url.rsplit("/", 1)[1], "answer": answer})
    assert response.status_code in (302, 400)


def test_buy_decision_is_answered_by_clicking_the_cards(named):
    if "rp.decision" not in REGISTRY:
        pytest.skip("the buy-decision drill is not installed")
    url = named.post("/practice/rp.decision", data={"level": "2"}).headers["Location"]
    page = named.get(url).get_data(as_text=True)
    assert 'value="__exchange__"' in page
    assert len(re.findall(r'name="discard" value="\w\w"', page)) == 5
    assert 'name="answer" value="exchange ' not in page  # no list of 31 exchanges to read through
    response = named.post(url, data={"drill": url.rsplit("/", 1)[1], "answer": "__exchange__"})
    assert response.status_code == 400 and "Click the cards to exchange." in response.get_data(as_text=True)


@pytest.mark.parametrize("url", ["/language", "/sprint/1/answer", "/sprint/1/skip"])
def test_wrong_method_is_a_405_page(client, url):
    response = client.get(url)
    assert response.status_code == 405 and b"error-box" in response.data


def test_a_question_of_a_removed_drill_is_a_404_not_a_500(named):
    with toy_kinds():
        url = named.post("/practice/toy.amount").headers["Location"]
    assert named.get(url).status_code == 404
    assert named.post(url, data={"drill": url.rsplit("/", 1)[1], "answer": "1"}).status_code == 404
