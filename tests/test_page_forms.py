"""Every page form's validators refuse a tampered or out-of-range field with a 400 (404 for a group
that is not a number, as before) and the form's own translated sentence, and nothing is recorded."""

from __future__ import annotations

import html
import re

import pytest
from accounts_helpers import AuthActions, signed_in
from conftest import make_app

from trainer.store.accounts import TOKEN_LABEL_MAX
from trainer.web.core import db
from trainer.web.core.db import CHOSEN_RULES


def _count(app, table: str) -> int:
    with app.app_context():
        return int(db.store().db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])


def _text(response) -> str:
    return html.unescape(response.get_data(as_text=True))


# Accounts -------------------------------------------------------------------------------------------


def test_an_over_long_token_label_is_refused_and_no_token_made(app, named):
    response = named.post("/account/tokens", data={"label": "x" * (TOKEN_LABEL_MAX + 1)})
    assert response.status_code == 400
    assert f"A token's label is at most {TOKEN_LABEL_MAX}\u00a0characters." in _text(response)
    assert _count(app, "api_tokens") == 0


def test_a_label_of_the_limit_is_kept_trimmed(app, named):
    label = "y" * TOKEN_LABEL_MAX
    assert named.post("/account/tokens", data={"label": f"  {label}  "}).status_code == 200
    with app.app_context():
        rows = list(db.store().db.query("SELECT label FROM api_tokens"))
    assert rows == [{"label": label}]
    page = _text(named.get("/account/"))
    assert f'name="label" maxlength="{TOKEN_LABEL_MAX}"' in page


def test_the_label_sentence_is_translated(app, named):
    named.post("/language", data={"lang": "ka", "next": "/"})
    response = named.post("/account/tokens", data={"label": "z" * 200})
    assert response.status_code == 400
    assert f"ტოკენის დასახელება არაუმეტეს {TOKEN_LABEL_MAX}\u00a0სიმბოლოა." in _text(response)


# A form page (`FormPage`): filled from the link on a GET, the same page again when refused --------------


def test_a_form_page_is_filled_from_the_link_that_led_to_it(app, teacher):
    anonymous = app.test_client()
    assert 'name="next" type="hidden" value="/today/"' in _text(
        anonymous.get("/account/sign-in?next=/today/")
    )
    assert 'name="next" type="hidden" value="/today/"' in _text(
        anonymous.get("/account/sign-up?next=/today/")
    )
    assert re.search(
        r'name="username"[^>]*value="trainee.two"', _text(anonymous.get("/account/code?username=trainee.two"))
    )
    assert re.search(r'name="code"[^>]*value="AB12CD"', _text(teacher.get("/live/join?code=AB12CD")))
    first, _ = _group(teacher)
    second = int(
        teacher.post("/groups/new", data={"name": "Morning class"})
        .headers["Location"]
        .rstrip("/")
        .rsplit("/", 1)[1]
    )
    for group_id in (first, second):
        assert f'<option selected value="{group_id}">' in _text(teacher.get(f"/live/new?group={group_id}"))
    assert (
        "<option selected"
        not in _text(teacher.get("/live/new")).split('name="group"')[1].split("</select>")[0]
    )


def test_a_refused_form_page_is_its_page_again_with_400_and_what_was_typed(app, teacher):
    refused = app.test_client().post("/account/code", data={"username": "trainee.two", "code": ""})
    assert refused.status_code == 400
    assert re.search(r'name="username"[^>]*value="trainee.two"', _text(refused))
    assert "<h1>Set your password</h1>" in _text(refused) and 'action="/account/code"' in _text(refused)
    group_id, _ = _group(teacher)
    data = {
        "group": group_id,
        "kinds": ["rp.bet_payout"],
        "level": 1,
        "questions": 0,
        "seconds": 20,
        "scoring": "right",
    }
    refused = teacher.post("/live/new", data=data)
    assert refused.status_code == 400
    assert f'<option selected value="{group_id}">' in _text(refused)
    assert _count(app, "live_sessions") == 0


# Groups ---------------------------------------------------------------------------------------------


@pytest.fixture
def teacher(app):
    return signed_in(app, "teacher", "instructor")


def _group(teacher) -> tuple[int, str]:
    made = teacher.post("/groups/new", data={"name": "Evening class"})
    group_id = int(made.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    code = re.search(r'id="join-code">([A-Z0-9-]+)<', _text(teacher.get(f"/groups/{group_id}"))).group(1)
    return group_id, code


@pytest.mark.parametrize("raw", ["abc", "²", "-1", "9" * 40])
def test_practising_for_a_group_that_is_not_a_number_is_404(app, teacher, raw):
    group_id, code = _group(teacher)
    trainee = app.test_client()
    AuthActions(trainee).sign_up("trainee.two")
    assert trainee.post("/groups/join", data={"code": code}).status_code == 302
    assert trainee.post("/groups/practise-for", data={"group": str(group_id)}).status_code == 302
    response = trainee.post("/groups/practise-for", data={"group": raw})
    assert response.status_code == 404 and "There is no such group." in _text(response)
    with app.app_context():
        user = db.store().db.execute("SELECT id FROM users WHERE username = 'trainee.two'").fetchone()[0]
        assert db.groups().practising_for(user)["id"] == group_id  # unchanged


def test_unknown_group_rules_are_refused_and_no_game_changed(app, teacher):
    group_id, _code = _group(teacher)
    with app.app_context():
        before = db.groups().rules(group_id)
    response = teacher.post(
        f"/groups/{group_id}/rules", data={"rules-russian_poker": "insured", "rules-omaha": "lunar"}
    )
    assert response.status_code == 400 and "There are no such house rules." in _text(response)
    with app.app_context():
        assert db.groups().rules(group_id) == before  # the valid russian_poker field is not saved either


def test_group_rules_text_left_out_is_the_stores_refusal(app, teacher):
    group_id, _code = _group(teacher)
    response = teacher.post(f"/groups/{group_id}/rules/russian_poker", data={})
    assert response.status_code == 400 and "These rules cannot be used" in _text(response)
    assert _count(app, "house_rules") == 0


# Practice -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", ["x", "", "9", "0", "²", "1" * 50])
def test_a_practice_level_out_of_range_is_refused(app, named, level):
    response = named.post("/practice/rp.bet_payout", data={"level": level})
    assert response.status_code == 400
    assert "Choose a level from 1 to 3." in _text(response)
    assert _count(app, "drills") == 0


def test_a_practice_level_left_out_is_the_first(app, named):
    made = named.post("/practice/rp.bet_payout", data={})
    assert made.status_code == 303
    with app.app_context():
        assert db.store().db.execute("SELECT level FROM drills").fetchone()[0] == 1


def test_unknown_practice_rules_are_refused_and_nothing_chosen(named):
    response = named.post(
        "/practice/rules", data={"rules-russian_poker": "insured", "rules-omaha": "nope", "next": "/today/"}
    )
    assert response.status_code == 400 and "There are no house rules nope." in _text(response)
    with named.session_transaction() as session:
        assert not session.get(CHOSEN_RULES)  # not even the valid russian_poker choice


def test_practice_rules_go_back_to_next_on_this_site_only(named):
    kept = named.post("/practice/rules", data={"rules-russian_poker": "insured", "next": "/today/"})
    assert kept.status_code == 303 and kept.headers["Location"].endswith("/today/")
    with named.session_transaction() as session:
        assert session[CHOSEN_RULES] == {"russian_poker": "insured"}
    away = named.post("/practice/rules", data={"next": "https://example.com/"})
    assert away.headers["Location"].endswith("/practice/rules")


def test_an_unknown_game_for_today_is_refused(app, named):
    response = named.post("/today/", data={"game": "checkers"})
    assert response.status_code == 400 and "There is no such game." in _text(response)
    assert _count(app, "drills") == 0


# Sprints --------------------------------------------------------------------------------------------


def _sprint(client) -> tuple[str, str]:
    started = client.post(
        "/sprint/", data={"kind": "toy.amount", "level": "1", "length": "10", "seconds": "90"}
    )
    run_url = started.headers["Location"]
    drill = re.search(r'name="drill" value="(\d+)"', _text(client.get(run_url))).group(1)
    return run_url, drill


@pytest.mark.parametrize("action", ["answer", "skip"])
@pytest.mark.parametrize("sent", ["abc", "²", "1.5", "9" * 30])
def test_a_sprint_drill_id_that_is_not_a_number_is_refused(app, named, toys, action, sent):
    run_url, drill = _sprint(named)
    sprint_id = run_url.rstrip("/").rsplit("/", 1)[1]
    response = named.post(f"/sprint/{sprint_id}/{action}", data={"drill": sent, "answer": "2"})
    assert response.status_code == 400
    assert "The answer was sent for another question. Reload the page." in _text(response)
    assert _count(app, "attempts") == 0
    page = _text(named.get(run_url))
    assert "Question 1 of 10" in page and f'name="drill" value="{drill}"' in page  # still open


def test_a_sprint_form_without_a_drill_id_is_a_stale_tab(app, named, toys):
    run_url, _drill = _sprint(named)
    sprint_id = run_url.rstrip("/").rsplit("/", 1)[1]
    for action in ("answer", "skip"):
        response = named.post(f"/sprint/{sprint_id}/{action}", data={"answer": "2"})
        assert response.status_code == 302 and response.headers["Location"].endswith(run_url)
    assert _count(app, "attempts") == 0 and "Question 1 of 10" in _text(named.get(run_url))


# The self-check quiz --------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["abc", "²", "", "-3"])
def test_a_self_check_drill_list_with_a_non_number_is_refused(app, named, bad):
    assert named.post("/quiz/russian_poker/start").status_code == 303
    ids = re.findall(r'name="drill" value="(\d+)"', _text(named.get("/quiz/russian_poker")))
    assert ids
    answers = {"drill": [*ids, bad], **{f"q{i}-answer": "0" for i in range(len(ids))}}
    response = named.post("/quiz/russian_poker", data=answers)
    assert response.status_code == 400
    assert "The quiz form was changed. Reload the page and answer again." in _text(response)
    assert _count(app, "attempts") == 0


# The CSRF token is checked before any field ----------------------------------------------------------


def test_a_page_form_without_its_csrf_token_is_the_expired_sentence(tmp_path):
    app = make_app(DATABASE=str(tmp_path / "c.sqlite"))
    client = app.test_client()
    page = _text(client.get("/account/sign-up"))
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    data = {"username": "trainee.one", "password": "x" * 9, "confirm": "x" * 9, "csrf_token": token}
    assert client.post("/account/sign-up", data=data).status_code == 302
    for url, fields in [
        ("/account/tokens", {"label": "x" * (TOKEN_LABEL_MAX + 1)}),
        ("/practice/rp.bet_payout", {"level": "9"}),
        ("/today/", {"game": "checkers"}),
        ("/groups/practise-for", {"group": "abc"}),
    ]:
        response = client.post(url, data={**fields, "csrf_token": "forged"})
        assert response.status_code == 400, url
        assert "The form has expired or was changed (security check failed)." in _text(response), url
    assert _count(app, "api_tokens") == 0 and _count(app, "drills") == 0
    assert client.post("/account/tokens", data={"label": "phone", "csrf_token": token}).status_code == 200
    assert _count(app, "api_tokens") == 1
