"""The live table's pages and API under every house: a trainee's chosen Lunar table, a group's
Caribbean table and edited copy, Georgian joker; the page names the rules the round is dealt under and
draws what that house puts on the table (the Super), and every step is answered to the end."""

import re

import pytest
from accounts_helpers import AuthActions, signed_in
from test_i18n_catalogs import _visible_latin_words
from test_table_pages import dealt_of, form_for, start

from trainer.drills.rounds import expected_answer
from trainer.games import BY_ID
from trainer.store import open_db
from trainer.store.house_rules import StoredHouses
from trainer.web.core import db as web_db


def play_through(client, url, dealt, houses=None):
    for i, step in enumerate(dealt.steps):
        response = client.post(url, data={"step": i, **form_for(step, expected_answer(dealt, i, houses))})
        assert response.status_code in (200, 302, 303), (i, response.status_code)
    return client.get(url).get_data(as_text=True)


def rules_link(page):
    found = re.search(r'<a href="([^"]+)"[^>]*id="round-rules"[^>]*>([^<]+)</a>', page)
    assert found, "the round's page names its house rules"
    return found.group(1), found.group(2)


@pytest.fixture
def trainee(client):
    AuthActions(client).sign_up("house.tables")
    return client


def test_a_trainee_who_chose_lunar_is_dealt_lunar(app, trainee):
    trainee.post("/practice/rules", data={"rules-russian_poker": "lunar"})
    # The table's form comes with the rules in force chosen (a trainee who sends it unchanged gets them).
    index = trainee.get("/table/").get_data(as_text=True)
    assert '<option value="lunar" selected>' in index and '<option value="classic" selected>' in index
    url = start(trainee, "russian_poker", level=2, seats=6)
    dealt = dealt_of(app, url)
    assert dealt.rules == "lunar"
    page = trainee.get(url).get_data(as_text=True)
    assert rules_link(page) == ("/reference/presets/russian-poker?preset=lunar", "Lunar Poker")
    assert page.count(">Super<") + page.count("Super on the dealer") >= len(dealt.end_table["boxes"])
    done = play_through(trainee, url, dealt)
    with app.app_context():
        row = web_db.tables().round(int(url.rsplit("/", 1)[1]))
    assert row["finished_at"] is not None and row["rules"] == "lunar"
    assert "Lunar Poker" in done
    # The form's own pick still wins over the chosen rules.
    assert dealt_of(app, start(trainee, "russian_poker", level=1, rules="cis")).rules == "cis"


def test_the_index_offers_every_shipped_preset(trainee):
    page = trainee.get("/table/").get_data(as_text=True)
    for game in ("russian_poker", "painted_poker"):
        select = re.search(rf'id="rules-{game}".*?</select>', page, re.S).group(0)
        assert re.findall(r'value="([^"]+)"', select) == list(BY_ID[game].preset_names())


def test_a_groups_caribbean_table_and_edited_copy(app):
    teacher = signed_in(app, "teacher", "instructor")
    made = teacher.post("/groups/new", data={"name": "Evening class"})
    group_id = int(made.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    code = re.search(
        r'id="join-code">([A-Z0-9-]+)<', teacher.get(f"/groups/{group_id}").get_data(as_text=True)
    )
    rules = {"rules-russian_poker": "caribbean", "rules-painted_poker": "georgian-joker"}
    assert teacher.post(f"/groups/{group_id}/rules", data=rules).status_code == 302
    trainee_one = app.test_client()
    AuthActions(trainee_one).sign_up("trainee.one")
    assert trainee_one.post("/groups/join", data={"code": code.group(1)}).status_code == 302
    url = start(trainee_one, "russian_poker", level=3, seats=6)
    dealt = dealt_of(app, url)
    assert dealt.rules == "caribbean" and {s.kind for s in dealt.steps} <= {
        "rp.game",
        "rp.results",
        "rp.payout",
    }
    assert rules_link(trainee_one.get(url).get_data(as_text=True))[1] == "Caribbean Stud"
    play_through(trainee_one, url, dealt)
    # Georgian joker seats 4: the level's 5 or 6 players are brought to 4.
    url = start(trainee_one, "painted_poker", level=3)
    dealt = dealt_of(app, url)
    assert dealt.rules == "georgian-joker" and dealt.seats == 4
    assert rules_link(trainee_one.get(url).get_data(as_text=True))[1] == "Georgian Joker"
    play_through(trainee_one, url, dealt)
    # A table of 5 asked for at a Georgian joker house is dealt under the default rules, and says so.
    url = start(trainee_one, "painted_poker", level=3, seats=5)
    assert dealt_of(app, url).rules == "classic"
    # The group's edited copy of the Lunar preset: the round is dealt under the copy itself.
    lunar = (BY_ID["russian_poker"].rules_folder / "lunar.toml").read_text()
    edited = lunar.replace('title = "Lunar Poker"', 'title = "Our Lunar: flush pays 70"', 1).replace(
        "flush = 60", "flush = 70", 1
    )
    saved = teacher.post(f"/groups/{group_id}/rules/russian_poker", data={"text": edited})
    assert saved.status_code == 302
    with app.app_context():
        name = web_db.groups().rules(group_id)["russian_poker"]
    assert name.startswith("house-")
    url = start(trainee_one, "russian_poker", level=2, seats=4)
    dealt = dealt_of(app, url)
    assert dealt.rules == name
    link, title = rules_link(trainee_one.get(url).get_data(as_text=True))
    assert link == f"/reference/presets/russian-poker?preset={name}" and title == "Our Lunar: flush pays 70"
    # The table's form offers the copy, chosen, beside the shipped presets; sent as it stands, it deals it.
    index = trainee_one.get("/table/").get_data(as_text=True)
    assert f'<option value="{name}" selected>Our Lunar: flush pays 70</option>' in index
    assert '<option value="georgian-joker" selected>' in index
    assert dealt_of(app, start(trainee_one, "russian_poker", level=1, rules=name)).rules == name
    # The copy lives in the app's database only: the test reads it there to know the answers.
    db = open_db(app.config["DATABASE"], migrate=False)
    try:
        play_through(trainee_one, url, dealt, StoredHouses(db))
    finally:
        db.conn.close()


def test_rounds_of_the_new_houses_through_the_api(app):
    client = app.test_client()
    for game, rules, seats in (
        ("russian_poker", "lunar", 5),
        ("russian_poker", "caribbean", 6),
        ("painted_poker", "georgian-joker", 4),
    ):
        made = client.post("/api/v1/rounds", json={"game": game, "level": 3, "rules": rules, "seats": seats})
        assert made.status_code == 201, made.json
        body = made.json
        with app.app_context():
            assert web_db.tables().round(body["id"])["rules"] == rules
        step = body["step"]
        while step is not None:
            assert "answer" not in step and "expected" not in step
            round_id = body["id"]
            with app.app_context():
                row = web_db.tables().round(round_id)
                dealt = web_db.tables().deal_row(row)
            want = expected_answer(dealt, row["step"])
            answered = client.post(f"/api/v1/rounds/{round_id}/answer", json={"answer": want})
            assert answered.status_code == 200 and answered.json["correct"], answered.json
            step = answered.json["step"]
        assert client.get(f"/api/v1/rounds/{body['id']}").json["result"]["finished"]
    refused = client.post(
        "/api/v1/rounds", json={"game": "painted_poker", "level": 1, "rules": "georgian-joker", "seats": 6}
    )
    assert refused.status_code == 422 and "seat 4 to 4" in refused.json["error"]


@pytest.mark.parametrize("locale", ["ka", "ru"])
def test_new_house_pages_show_no_english_words(app, client, locale):
    client.post("/language", data={"lang": locale})
    AuthActions(client).sign_up("სტაჟიორი")
    pages = {}
    for game, seats, rules in (
        ("russian_poker", 6, "lunar"),
        ("russian_poker", 6, "caribbean"),
        ("painted_poker", 4, "georgian-joker"),
    ):
        url = start(client, game, level=3, seats=seats, rules=rules)
        dealt = dealt_of(app, url)
        for i, step in enumerate(dealt.steps):
            pages[f"{url} step {i}"] = client.get(url).get_data(as_text=True)
            client.post(url, data={"step": i, **form_for(step, expected_answer(dealt, i))})
        pages[f"{url} over"] = client.get(url).get_data(as_text=True)
    leaks = {}
    for url, page in pages.items():
        # Preset titles the catalog keeps in Latin letters (named after the games).
        for word in _visible_latin_words(page) - {"Lunar", "Poker", "Caribbean", "Stud", "Georgian", "Joker"}:
            leaks.setdefault(word, url)
    assert not leaks, leaks


def test_a_table_test_is_dealt_under_the_rules_in_force_throughout(app, trainee):
    """A table test deals its first round under the house rules in force (here the trainee's Lunar)
    and keeps them for every round, even when the trainee chooses other rules during the test."""
    trainee.post("/practice/rules", data={"rules-russian_poker": "lunar"})
    url = trainee.post("/table/tests", data={"game": "russian_poker", "level": 1}).headers["Location"]
    dealt = dealt_of(app, url)
    assert dealt.rules == "lunar"
    page = play_through(trainee, url, dealt)
    test_url = re.search(r'data-done="(/table/test/\d+)"', page).group(1)
    trainee.post("/practice/rules", data={"rules-russian_poker": "cis"})  # back to the default
    second = trainee.post(test_url + "/next").headers["Location"]
    assert second != url and dealt_of(app, second).rules == "lunar"
    # A new test after the change is dealt under the rules now in force.
    fresh = trainee.post("/table/tests", data={"game": "russian_poker", "level": 1}).headers["Location"]
    assert dealt_of(app, fresh).rules == "cis"
