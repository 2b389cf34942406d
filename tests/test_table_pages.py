"""The live table's pages: a round of each game played through the forms (with and without the
background request), the table drawn, the feedback and the next step, bad forms, ownership, the table
test with its result on the progress page, and Georgian and Russian pages without English words."""

import html
import re

import pytest
from accounts_helpers import AuthActions, signed_in
from test_i18n_catalogs import _visible_latin_words

from trainer.drills.rounds import expected_answer
from trainer.games import BY_ID
from trainer.store import open_db
from trainer.store.tables import TableStore

FETCH = {"X-Requested-With": "fetch"}


@pytest.fixture
def named(client):
    AuthActions(client).sign_up("table.pages")
    return client


def dealt_of(app, url):
    db = open_db(app.config["DATABASE"], migrate=False)
    try:
        return TableStore(db).dealt(int(url.rsplit("/", 1)[1]))
    finally:
        db.conn.close()


def form_for(step, value):
    """The form fields a trainee fills for `value`."""
    fmt = step.answer_format
    data = {}
    if fmt.kind in ("amount", "choice"):
        data["answer"] = str(value)
    elif fmt.kind == "amounts":
        data.update({f"amount-{i}": str(value[label]) for i, label in enumerate(fmt.labels)})
    else:
        data["cards"] = value
    return data


def start(client, game, level=2, seats="", payout="amount", rules=""):
    response = client.post(
        "/table/rounds", data={"game": game, "level": level, "seats": seats, "payout": payout, "rules": rules}
    )
    assert response.status_code == 302, response.get_data(as_text=True)[:500]
    return response.headers["Location"]


@pytest.mark.parametrize("game", ["russian_poker", "omaha", "painted_poker"])
def test_a_round_of_each_game_through_the_pages(app, named, game):
    url = start(named, game, level=3)
    page = named.get(url).get_data(as_text=True)
    assert 'class="felt' in page and 'id="question"' in page and 'src="/static/js/round.js?v=' in page
    dealt = dealt_of(app, url)
    for i, step in enumerate(dealt.steps):
        want = expected_answer(dealt, i)
        data = {"step": i, **form_for(step, want)}
        if i % 2:
            response = named.post(url, data=data, headers=FETCH)  # the page's background request
            assert response.status_code == 200 and response.is_json
            html = response.json["html"]
        else:
            response = named.post(url, data=data)
            assert response.status_code == 302
            html = named.get(url).get_data(as_text=True)
        assert "✓" in html.split('id="verdict"', 1)[1][:40], (game, i, html[:3000])
        if i + 1 < len(dealt.steps):
            assert f'name="step" value="{i + 1}"' in html
    done = named.get(url).get_data(as_text=True)
    assert 'id="steps-right"' in done and f"{len(dealt.steps)} / {len(dealt.steps)}" in done


def test_a_wrong_answer_is_explained_and_the_round_goes_on(app, named):
    url = start(named, "painted_poker", level=1, seats=3)
    dealt = dealt_of(app, url)
    fmt = dealt.steps[0].answer_format
    wrong = next(c for c in (ch.value for ch in fmt.choices) if c != expected_answer(dealt, 0))
    html = named.post(url, data={"step": 0, "answer": wrong}, headers=FETCH).json["html"]
    assert "✗" in html and 'class="steps"' in html and 'name="step" value="1"' in html


def test_the_result_lists_each_step(app, named):
    """The issue: the round's result gives "steps right, time per step and in all, and the chips the
    casino would have lost or gained from the mistakes": one row per step, the wrong payout marked
    with the 40 chips it gave away."""
    for _ in range(40):
        url = start(named, "russian_poker", level=1, seats=3)
        dealt = dealt_of(app, url)
        if any(s.kind == "rp.payout" for s in dealt.steps):
            break
    wrong = next(i for i, s in enumerate(dealt.steps) if s.kind == "rp.payout")
    for i, step in enumerate(dealt.steps):
        want = expected_answer(dealt, i)
        named.post(url, data={"step": i, **form_for(step, want + 40 if i == wrong else want)})
    page = named.get(url).get_data(as_text=True)
    rows = table_test_rows(page, "round-steps")
    assert [r[0] for r in rows] == [f"{i + 1}. {s.question}" for i, s in enumerate(dealt.steps)]
    assert [r[1] for r in rows] == ["✗" if i == wrong else "✓" for i in range(len(dealt.steps))]
    assert [r[3] for r in rows] == ["-40" if i == wrong else "0" for i in range(len(dealt.steps))]
    assert all(float(r[2]) >= 0 for r in rows)
    assert re.search(r'id="house-chips">-40<', page)


def test_chips_payouts_through_the_page(app, named):
    for _ in range(40):
        url = start(named, "russian_poker", level=3, seats=6, payout="chips")
        dealt = dealt_of(app, url)
        if any(s.kind == "rp.payout" for s in dealt.steps):
            break
    for i, step in enumerate(dealt.steps):
        want = expected_answer(dealt, i)
        if step.kind == "rp.payout":
            page = named.get(url).get_data(as_text=True)
            assert 'class="chip-answer"' in page and "chip-face" in page
            # Only the chips paid are typed; the rest are left empty. All in fives is right too.
            value = sum(int(k) * n for k, n in want.items())
            labels = step.answer_format.labels
            data = {"step": i, f"amount-{labels.index('5')}": str(value // 5)}
            html = named.post(url, data=data, headers=FETCH).json["html"]
            assert "✓" in html
        else:
            named.post(url, data={"step": i, **form_for(step, want)})


def test_bad_forms_and_other_trainees(app, client, named):
    url = start(named, "omaha", seats=5)
    assert named.post(url, data={"step": 0, "answer": ""}, headers=FETCH).status_code == 400
    assert named.post(url, data={"step": 3, "answer": "Seat 1"}).status_code == 400
    kept = named.post(url, data={"step": 0, "answer": "Seat 99"}, headers=FETCH)
    assert kept.status_code == 400 and 'role="alert"' in kept.json["html"]
    assert named.post(url, data={"answer": "1"}).status_code == 400  # no step
    assert named.post("/table/rounds", data={"game": "blackjack", "level": 1}).status_code == 400
    assert named.post("/table/rounds", data={"game": "omaha", "level": 1, "seats": 3}).status_code == 400
    assert named.get("/table/round/999").status_code == 404
    stranger = app.test_client()
    assert AuthActions(stranger).sign_up("someone.else").status_code == 302
    assert stranger.get(url).status_code == 404
    assert stranger.post(url, data={"step": 0, "answer": "1"}).status_code == 404
    guest = app.test_client()
    assert guest.post("/table/rounds", data={"game": "omaha", "level": 1}).status_code == 302
    assert guest.get(url).status_code == 404  # a guest of his own, not the owner
    anonymous = app.test_client()
    assert anonymous.get(url).status_code == 302  # no trainee yet: off to the start page


def take_test(app, client, game, level):
    """A table test of every round answered right, through the pages; returns the test's URL."""
    url = client.post("/table/tests", data={"game": game, "level": level}).headers["Location"]
    for _ in range(10):
        assert "/table/round/" in url
        dealt = dealt_of(app, url)
        for i, step in enumerate(dealt.steps):
            client.post(url, data={"step": i, **form_for(step, expected_answer(dealt, i))})
        page = client.get(url).get_data(as_text=True)
        test_url = re.search(r'action="(/table/test/\d+)/next"', page).group(1)
        assert client.get(test_url).status_code == 200  # the test's state; a GET deals nothing
        url = client.post(test_url + "/next").headers["Location"]
        if url.endswith(test_url):
            return test_url
    raise AssertionError(f"the table test at {url} did not end after 10 rounds")


def test_a_table_test_to_its_result_and_the_progress_page(app, named):
    test_url = take_test(app, named, "painted_poker", 1)
    result = named.get(test_url).get_data(as_text=True)
    assert 'id="verdict"' in result and "✓" in result
    progress = named.get("/progress/").get_data(as_text=True)
    assert 'id="table-tests"' in progress
    assert named.get("/table/").status_code == 200


def table_test_rows(page, table_id):
    """The rows of a results table on a page, as the text of their cells."""
    body = page.split(f'id="{table_id}"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", body.split("<tbody>", 1)[1], re.S)
    return [
        [
            html.unescape(re.sub(r"<[^>]+>", "", cell)).strip()
            for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        ]
        for row in rows
    ]


def test_table_tests_on_the_instructors_desk(app):
    """The issue: a table test's result is "shown to the instructor (on the instructor's desk once it
    exists)". A member's passed and failed tests are rows of the desk and of his page; a trainee of
    no group of this instructor's is not."""
    teacher = signed_in(app, "teacher", "instructor")
    made = teacher.post("/groups/new", data={"name": "Evening class"})
    group_id = int(made.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    code = re.search(
        r'id="join-code">([A-Z0-9-]+)<', teacher.get(f"/groups/{group_id}").get_data(as_text=True)
    )
    trainee_one = app.test_client()
    assert AuthActions(trainee_one).sign_up("trainee.one").status_code == 302
    assert trainee_one.post("/groups/join", data={"code": code.group(1)}).status_code == 302
    assert "No table tests yet." in teacher.get(f"/groups/{group_id}").get_data(as_text=True)
    take_test(app, trainee_one, "painted_poker", 1)
    failed = re.search(
        r'data-done="(/table/test/\d+)"',
        trainee_one.get(
            trainee_one.post("/table/tests", data={"game": "omaha", "level": 2}).headers["Location"]
        ).get_data(as_text=True),
    ).group(1)
    trainee_one.post(failed + "/finish")  # handed in with nothing answered
    outsider = app.test_client()
    assert AuthActions(outsider).sign_up("outsider").status_code == 302
    take_test(app, outsider, "painted_poker", 1)

    desk = teacher.get(f"/groups/{group_id}").get_data(as_text=True)
    rows = sorted(table_test_rows(desk, "group-table-tests"))
    assert rows == [
        ["trainee.one", "Omaha", "2", "0.0%", "✗ Not passed"],
        ["trainee.one", "Painted poker", "1", "100.0%", "✓ Passed"],
    ], rows
    user_id = re.search(rf"/groups/{group_id}/trainees/(\d+)", desk).group(1)
    page = teacher.get(f"/groups/{group_id}/trainees/{user_id}").get_data(as_text=True)
    own = sorted(table_test_rows(page, "table-tests"))
    assert [(r[0], r[-1]) for r in own] == [("Omaha", "✗ Not passed"), ("Painted poker", "✓ Passed")], own


def test_omaha_pots_paid_in_chips_through_the_page(app, named):
    """The issue: every payout step answerable as chips. An Omaha pot's share paid in the poker
    room's chips (with its 1-unit chip): one chip over is wrong, with the fewest chips shown; all in
    ones is right, with how they colour up."""
    page = named.get("/table/").get_data(as_text=True)
    assert re.search(r'id="game-omaha".*?name="payout" value="chips"', page, re.S)
    for _ in range(40):
        url = start(named, "omaha", level=2, seats=8, payout="chips")
        dealt = dealt_of(app, url)
        if sum(s.kind == "om.payout" for s in dealt.steps) >= 2:
            break
    payouts = [i for i, s in enumerate(dealt.steps) if s.kind == "om.payout"]
    assert len(payouts) >= 2
    for i, step in enumerate(dealt.steps):
        want = expected_answer(dealt, i)
        if step.kind != "om.payout":
            named.post(url, data={"step": i, **form_for(step, want)})
            continue
        page = named.get(url).get_data(as_text=True)
        assert 'class="chip-answer"' in page and 'class="chip-face chip-1565c0"' in page  # the blue 1
        labels = step.answer_format.labels
        value = sum(int(k) * n for k, n in want.items())
        if i == payouts[0]:
            data = {"step": i, **form_for(step, {**want, "1": want["1"] + 1})}
            html_text = html.unescape(named.post(url, data=data, headers=FETCH).json["html"])
            assert "✗" in html_text.split('id="verdict"', 1)[1][:40]
            # The page writes numbers as the language does: 1,250 in English.
            assert f"Fewest chips for {value:,}: " in html_text, (value, html_text)
        else:
            data = {"step": i, f"amount-{labels.index('1')}": str(value)}  # the others left empty
            html_text = html.unescape(named.post(url, data=data, headers=FETCH).json["html"])
            assert "✓" in html_text.split('id="verdict"', 1)[1][:40]
            assert value < 5 or "Colour up: " in html_text


def test_rounds_of_an_older_generator_keep_their_results(app, named):
    """A new generator version (Russian poker's 3) cannot deal an old round again: its page says so
    (404), but the table test it belongs to, finished or not, still shows its result (it was a 500)."""
    url = named.post("/table/tests", data={"game": "russian_poker", "level": 1}).headers["Location"]
    dealt = dealt_of(app, url)
    named.post(url, data={"step": 0, **form_for(dealt.steps[0], expected_answer(dealt, 0))})
    test_url = re.search(r'data-done="(/table/test/\d+)"', named.get(url).get_data(as_text=True)).group(1)
    db = open_db(app.config["DATABASE"], migrate=False)
    try:
        with db.conn:
            db.execute("UPDATE rounds SET version = version - 1")
    finally:
        db.conn.close()
    assert "older version" in named.get(url).get_data(as_text=True)
    open_test = named.get(test_url)
    assert open_test.status_code == 200
    assert named.post(test_url + "/finish").status_code == 302
    finished = named.get(test_url)
    assert (
        finished.status_code == 200
        and "✗" in finished.get_data(as_text=True).split('id="verdict"', 1)[1][:40]
    )
    assert 'id="table-tests"' in named.get("/progress/").get_data(as_text=True)


def test_a_test_handed_in_early_is_scored_as_it_stands(app, named):
    url = named.post("/table/tests", data={"game": "omaha", "level": 1}).headers["Location"]
    page = named.get(url).get_data(as_text=True)
    assert 'id="clock"' in page
    test_url = re.search(r'data-done="(/table/test/\d+)"', page).group(1)
    state = named.get(test_url).get_data(as_text=True)
    assert "/finish" in state
    named.post(test_url + "/finish")
    result = named.get(test_url).get_data(as_text=True)
    assert "✗" in result.split('id="verdict"', 1)[1][:40]


def test_the_index_lists_each_game_and_the_test_settings(client):
    page = client.get("/table/").get_data(as_text=True)
    for game in ("russian_poker", "omaha", "painted_poker"):
        assert f'id="game-{game}"' in page
    assert page.count('class="test-start"') == 3


def test_house_rules_chosen_on_the_page(app, named):
    page = named.get("/table/").get_data(as_text=True)
    # Omaha deals one house only: no choice shown; the others list their presets, the default first.
    assert 'id="rules-omaha"' not in page
    assert re.search(r'id="rules-russian_poker".*?value="cis".*?value="insured"', page, re.S)
    assert re.search(
        r'id="rules-painted_poker".*?value="classic".*?"deck-54".*?"georgian-joker".*?"odessa-house"',
        page,
        re.S,
    )
    slugs = {"russian_poker": "russian-poker", "painted_poker": "painted-poker"}
    for game, rules in (("russian_poker", "insured"), ("painted_poker", "deck-54"), ("painted_poker", "")):
        url = start(named, game, level=3, rules=rules)
        dealt = dealt_of(app, url)
        assert dealt.rules == (rules or {"russian_poker": "cis", "painted_poker": "classic"}[game])
        # The round's page names the house rules it is dealt under, linked to their column, as a
        # practice question does (a group's table the round cannot deal falls back to the default).
        link = re.search(
            r'<a href="([^"]+)"[^>]*id="round-rules"[^>]*>([^<]+)</a>', named.get(url).get_data(as_text=True)
        )
        title = BY_ID[game].load_rules(dealt.rules).title
        assert link and link.group(2) == title
        assert link.group(1) == f"/reference/presets/{slugs[game]}?preset={dealt.rules}", link.group(1)
    for bad in ("atlantis", "x" * 41, "../cis", "house-000000000000"):
        response = named.post("/table/rounds", data={"game": "russian_poker", "level": 1, "rules": bad})
        assert response.status_code == 400


@pytest.mark.parametrize("locale", ["ka", "ru"])
def test_table_pages_show_no_english_words(app, client, locale):
    client.post("/language", data={"lang": locale})
    AuthActions(client).sign_up("სტაჟიორი")
    pages = {"/table/": client.get("/table/").get_data(as_text=True)}
    tables = (
        ("russian_poker", 6, "", "fewest"),  # cut from the float: the tray and the counts under the chips
        ("russian_poker", 6, "insured", "amount"),
        ("omaha", 9, "", "amount"),
        ("omaha", 8, "", "chips"),
        ("painted_poker", 5, "", "amount"),
        ("painted_poker", 5, "odessa-house", "amount"),
        ("painted_poker", 4, "deck-54", "amount"),
    )
    for game, seats, rules, payout in tables:
        url = start(client, game, level=3, seats=seats, rules=rules, payout=payout)
        dealt = dealt_of(app, url)
        for i, step in enumerate(dealt.steps):
            pages[f"{url} step {i}"] = client.get(url).get_data(as_text=True)
            want = expected_answer(dealt, i)
            wrong = i % 3 == 0 and step.answer_format.kind == "amount"
            client.post(url, data={"step": i, **form_for(step, want + 5 if wrong else want)})
        pages[f"{url} over"] = client.get(url).get_data(as_text=True)
    test_round = client.post("/table/tests", data={"game": "omaha", "level": 1}).headers["Location"]
    pages["test round"] = client.get(test_round).get_data(as_text=True)
    test_url = re.search(r'data-done="(/table/test/\d+)"', pages["test round"]).group(1)
    pages["test state"] = client.get(test_url).get_data(as_text=True)
    client.post(test_url + "/finish")
    pages["test result"] = client.get(test_url).get_data(as_text=True)
    leaks = {}
    for url, page in pages.items():
        for word in _visible_latin_words(page):
            leaks.setdefault(word, url)
    assert not leaks, leaks
    assert re.search(r"[\u10a0-\u10ff\u0400-\u04ff]", pages["/table/"])
