"""The live table's pages and API for 7 to 10 painted poker players at the 54-card house (issue 26: "the
number of players may be from 2 to 10", the seed's 54-card articles), and its Georgian page naming the
trump as Georgians do."""

import re

import pytest
from accounts_helpers import AuthActions
from test_table_pages import dealt_of, form_for, start

from trainer.drills.rounds import expected_answer
from trainer.web.situations.drawing import SUIT_NOUNS


@pytest.fixture
def trainee(client):
    AuthActions(client).sign_up("ten.seats")
    return client


@pytest.mark.parametrize("seats", [7, 10])
def test_a_round_for_many_players_through_the_pages(app, trainee, seats):
    url = start(trainee, "painted_poker", level=3, seats=seats, rules="deck-54")
    dealt = dealt_of(app, url)
    assert dealt.rules == "deck-54" and dealt.seats == seats
    page = trainee.get(url).get_data(as_text=True)
    # The score sheet has a column per player.
    assert all(f">seat {n}" in page for n in range(1, seats + 1)) and f">seat {seats + 1}" not in page
    for i, step in enumerate(dealt.steps):
        response = trainee.post(url, data={"step": i, **form_for(step, expected_answer(dealt, i))})
        assert response.status_code in (200, 302, 303), (i, response.status_code)
    done = trainee.get(url).get_data(as_text=True)
    assert done.count("<strong>") >= seats  # every player's score on the sheet


def test_the_api_deals_ten_and_refuses_seven_on_36_cards(app):
    client = app.test_client()
    made = client.post(
        "/api/v1/rounds", json={"game": "painted_poker", "level": 2, "rules": "deck-54", "seats": 10}
    )
    assert made.status_code == 201, made.json
    refused = client.post(
        "/api/v1/rounds", json={"game": "painted_poker", "level": 2, "rules": "classic", "seats": 7}
    )
    assert refused.status_code == 422 and "seat 3 to 6" in refused.json["error"]
    too_many = client.post(
        "/api/v1/rounds", json={"game": "painted_poker", "level": 2, "rules": "deck-54", "seats": 11}
    )
    assert too_many.status_code == 400 and "seats" in str(too_many.json)  # above any table's 10


def test_the_georgian_table_names_the_trump_in_the_nominative(app, client):
    client.post("/language", data={"lang": "ka"})
    AuthActions(client).sign_up("კოზირი")
    for seed in range(10):
        url = start(client, "painted_poker", level=1, seats=8, rules="deck-54")
        dealt = dealt_of(app, url)
        trump = dealt.end_table["trump"]
        if trump not in ("s", "c"):
            continue
        page = client.get(url).get_data(as_text=True)
        word = {"s": "ყვავი", "c": "ჯვარი"}[trump]
        assert re.search(r'<span class="v">' + word + r" \(", page), (seed, trump)
        with app.test_request_context():
            from flask_babel import force_locale

            with force_locale("ka"):
                assert str(SUIT_NOUNS[trump]) == word
        return
    pytest.fail("no black trump in ten rounds")
