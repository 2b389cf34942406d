"""A wrong answer's mistake: recorded with the attempt, named on the practice page and in the API in
the trainee's language, counted on the progress page and in the store's queries for the desk."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import pytest
from accounts_helpers import AuthActions
from conftest import memory_db

from trainer.drills import Situation, expected_of, get_kind, issue, prompt
from trainer.engine.explain import step
from trainer.store import Store, open_db, stats

# Ante 10, a flush against a pair of kings: the bet 20 wins 5 to 1 = 100. Answering 120 adds the stake.
FLUSH = {
    "rules": "cis",
    "ante": 10,
    "player": ["Ah", "Jh", "9h", "6h", "2h"],
    "dealer": ["Ks", "Kd", "7c", "5s", "2d"],
}


def situation(kind_id: str, data: dict[str, Any]) -> Situation:
    kind = get_kind(kind_id)
    data = prompt(dict(data), step("What is paid on the bet?"))
    return Situation(kind_id, 1, 0, kind.version, data.get("rules"), data, kind.answer_format(data))


def saved_drill(app, client, kind_id: str = "rp.bet_payout", data: dict[str, Any] = FLUSH) -> int:
    """A drill saved for the trainee signed in on `client`."""
    store = Store(open_db(app.config["DATABASE"]))
    return store.save_drill(client.get("/api/v1/trainee").json["id"], situation(kind_id, data))


@pytest.fixture
def named(client):
    assert AuthActions(client).sign_up("trainee.one").status_code == 302
    return client


def test_the_practice_page_names_the_mistake_with_the_step_that_differs(app, named):
    drill_id = saved_drill(app, named)
    named.post(f"/practice/drill/{drill_id}", data={"drill": drill_id, "answer": "120"})
    page = named.get(f"/practice/drill/{drill_id}").get_data(as_text=True)
    assert 'data-mistake="rp.stake_in_payout"' in page
    assert "Mistake: The stake counted in the win" in page
    assert "You added the stake 20 to the win: a payout is the win alone, 100" in page

    named.post("/language", data={"lang": "ru"})
    page = named.get(f"/practice/drill/{drill_id}").get_data(as_text=True)
    assert "Ошибка: Ставка засчитана в выигрыш" in page and "Вы прибавили к выигрышу ставку 20" in page
    named.post("/language", data={"lang": "ka"})
    page = named.get(f"/practice/drill/{drill_id}").get_data(as_text=True)
    assert "შეცდომა: ფსონი ჩათვლილი მოგებაში" in page


def test_a_wrong_answer_without_a_catalogued_mistake_names_none(app, named):
    drill_id = saved_drill(app, named)
    named.post(f"/practice/drill/{drill_id}", data={"drill": drill_id, "answer": "7"})
    page = named.get(f"/practice/drill/{drill_id}").get_data(as_text=True)
    assert "Not right" in page and "data-mistake" not in page


def test_the_api_returns_the_mistake_with_the_graded_answer(app, client):
    AuthActions(client).sign_up("trainee.two")
    wrong, right = saved_drill(app, client), saved_drill(app, client)
    body = client.post(f"/api/v1/drills/{wrong}/answer", json={"answer": "50"}).get_json()
    assert body["correct"] is False
    assert body["mistake"]["id"] == "rp.odds_on_ante"
    assert body["mistake"]["title"] == "The odds applied to the ante instead of the bet"
    assert body["mistake"]["text"] == "The odds apply to the bet, which is twice the ante: 20 x 5 = 100."
    assert client.get(f"/api/v1/drills/{wrong}").get_json()["result"]["mistake"] == body["mistake"]
    body = client.post(f"/api/v1/drills/{right}/answer", json={"answer": "100"}).get_json()
    assert body["correct"] is True and body["mistake"] is None
    russian = client.get(f"/api/v1/drills/{wrong}", headers={"Accept-Language": "ru"}).get_json()
    assert russian["result"]["mistake"]["title"] == "Коэффициент применён к анте вместо ставки"


def test_progress_shows_the_most_frequent_mistakes(app, named):
    for answer in ("120", "120", "50"):
        drill_id = saved_drill(app, named)
        named.post(f"/practice/drill/{drill_id}", data={"drill": drill_id, "answer": answer})
    page = named.get("/progress/").get_data(as_text=True)
    first = page.index('data-mistake="rp.stake_in_payout"')
    second = page.index('data-mistake="rp.odds_on_ante"')
    assert first < second
    assert '<td class="num">2</td>' in page[first:second]


def test_the_store_records_mistakes_and_wrong_choices_and_counts_them():
    store = Store(memory_db())
    one, two = store.trainee_named("One")["id"], store.trainee_named("Two")["id"]
    answers = [(one, "120"), (one, "120"), (one, "50"), (two, "120"), (two, "100"), (two, "7")]
    for trainee, answer in answers:
        store.answer(store.save_drill(trainee, situation("rp.bet_payout", FLUSH)), answer)
    recorded = [row["mistake"] for row in store.db.query("SELECT mistake FROM attempts ORDER BY id")]
    assert recorded == ["rp.stake_in_payout"] * 2 + ["rp.odds_on_ante", "rp.stake_in_payout", None, None]

    mine = stats.frequent_mistakes(store.db, one)
    assert [(m["mistake"], m["count"], m["kinds"]) for m in mine] == [
        ("rp.stake_in_payout", 2, ["rp.bet_payout"]),
        ("rp.odds_on_ante", 1, ["rp.bet_payout"]),
    ]
    assert mine[0]["title"] == "The stake counted in the win"
    by_trainee = stats.mistakes_by_trainee(store.db, [one, two])
    assert [m["count"] for m in by_trainee[two]] == [1]
    group = stats.group_mistakes(store.db, [one, two])
    assert [(m["mistake"], m["count"], m["trainees"]) for m in group] == [
        ("rp.stake_in_payout", 3, 2),
        ("rp.odds_on_ante", 1, 1),
    ]
    assert stats.frequent_mistakes(store.db, one, since=datetime(2999, 1, 1, tzinfo=UTC)) == []

    qualify = issue("rp.qualify", 1, seed=3)
    right = expected_of(qualify)[0]
    wrong = "no" if right == "yes" else "yes"
    for answer in (right, wrong):
        store.answer(store.save_drill(one, qualify), answer)
    rows = list(store.db.query("SELECT correct, wrong_choice FROM attempts WHERE kind = 'rp.qualify'"))
    assert [(r["correct"], r["wrong_choice"]) for r in rows] == [(1, None), (0, wrong)]
    assert stats.wrong_choices(store.db, "rp.qualify") == [{"choice": wrong, "count": 1}]


def test_the_instructors_desk_shows_the_mistakes_per_group_and_per_trainee(app):
    from accounts_helpers import signed_in

    from trainer.web.core import db as web_db

    teacher = signed_in(app, "teacher", "instructor")
    made = teacher.post("/groups/new", data={"name": "Evening class"})
    group_id = int(made.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    with app.app_context():
        code = web_db.groups().group(group_id)["join_code"]
    plans = {"trainee.one": ["120", "120", "50"], "trainee.two": ["120", "100"]}
    for username, answers in plans.items():
        client = app.test_client()
        AuthActions(client).sign_up(username)
        assert client.post("/groups/join", data={"code": code}).status_code == 302
        for answer in answers:
            drill_id = saved_drill(app, client)
            client.post(f"/practice/drill/{drill_id}", data={"drill": drill_id, "answer": answer})

    desk = teacher.get(f"/groups/{group_id}").get_data(as_text=True)
    table = _table(desk, "group-mistakes")
    counts = r'<tr data-mistake="([\w.]+)">.*?<td class="num">(\d+)</td><td class="num">(\d+)</td>'
    rows = re.findall(counts, table)
    assert rows == [("rp.stake_in_payout", "3", "2"), ("rp.odds_on_ante", "1", "1")]
    assert "The stake counted in the win" in table

    one = int(re.search(rf"/groups/{group_id}/trainees/(\d+)\"[^>]*>[^<]*trainee\.one", desk).group(1))
    page = teacher.get(f"/groups/{group_id}/trainees/{one}").get_data(as_text=True)
    mine = _table(page, "mistakes")
    assert re.findall(r'<tr data-mistake="([\w.]+)">.*?<td class="num">(\d+)</td>', mine) == [
        ("rp.stake_in_payout", "2"),
        ("rp.odds_on_ante", "1"),
    ]


def _table(page: str, table_id: str) -> str:
    start = page.index(f'id="{table_id}"')
    return page[start : page.index("</table>", start)]
