"""Duels: a trainee challenges a groupmate to a sprint; both get the same situations (the same seeds
and rules); who may see, play and answer (the two sides only, each as himself); the scores hidden
until both have played; the result by right answers then time; expiry from data/duels.toml; a second
press, a replay or two requests at once start one sprint per side."""

import re
import threading
from datetime import timedelta

import pytest
from accounts_helpers import AuthActions, add_user

from trainer.store import open_db
from trainer.store.duels import Duels, load_expiry, shipped_expiry
from trainer.store.groups import Groups
from trainer.web.core import db

KIND = "toy.amount"


@pytest.fixture
def room(app, toys):
    teacher = add_user(app, "teacher", "instructor")
    ids = {name: add_user(app, name) for name in ("trainee.a", "trainee.b", "trainee.c", "outsider")}
    with app.app_context():
        groups = Groups(db.store().db)
        group = groups.create(teacher, "Evening class")["id"]
        for name in ("trainee.a", "trainee.b", "trainee.c"):
            groups.add_member(group, ids[name])
        other = groups.create(teacher, "Morning class")["id"]
        groups.add_member(other, ids["outsider"])
    clients = {}
    for name in ("teacher", "trainee.a", "trainee.b", "trainee.c", "outsider"):
        clients[name] = app.test_client()
        assert AuthActions(clients[name]).sign_in(name).status_code == 302
    return {"app": app, "group": group, "other": other, "ids": ids, "clients": clients}


def _challenge(room, by="trainee.a", to="trainee.b", group=None, length="10"):
    return room["clients"][by].post(
        "/duels/",
        data={
            "opponent": f"{group or room['group']}:{room['ids'][to]}",
            "kind": KIND,
            "level": "1",
            "length": length,
        },
    )


def _duel(room, **kwargs):
    response = _challenge(room, **kwargs)
    assert response.status_code == 303, response.get_data(as_text=True)
    return int(response.location.rstrip("/").rsplit("/", 1)[1])


def _play(room, name, duel_id, right):
    """Play one side's sprint through the pages, `right` of its 10 answers right: its sprint id."""
    client = room["clients"][name]
    started = client.post(f"/duels/{duel_id}/play")
    assert started.status_code == 303, started.get_data(as_text=True)
    run_url = started.location
    sprint_id = int(run_url.rstrip("/").rsplit("/", 1)[1])
    for i in range(10):
        page = client.get(run_url).get_data(as_text=True)
        drill = re.search(r'name="drill" value="(\d+)"', page).group(1)
        ante = int(re.search(r'<span class="v">(\d+)</span>', page).group(1))
        answer = 2 * ante if i < right else 1
        client.post(f"/sprint/{sprint_id}/answer", data={"drill": drill, "answer": str(answer)})
    return sprint_id


def _situations(app, sprint_id):
    with app.app_context():
        rows = db.store().db.execute(
            "SELECT kind, level, seed, version, rules, situation FROM drills WHERE sprint_id = ? "
            "ORDER BY position",
            [sprint_id],
        )
        return [tuple(row) for row in rows.fetchall()]


def test_both_sides_get_the_same_situations_and_the_result_compares_them(room):
    duel_id = _duel(room)
    trainee_a_sprint = _play(room, "trainee.a", duel_id, right=7)
    # Before trainee.b plays, the duel does not tell him trainee.a's mark.
    waiting = room["clients"]["trainee.b"].get(f"/duels/{duel_id}").get_data(as_text=True)
    assert "7 / 10" not in waiting and "Played: the scores show when both have played." in waiting
    trainee_b_sprint = _play(room, "trainee.b", duel_id, right=5)
    assert trainee_a_sprint != trainee_b_sprint
    trainee_a_asked, trainee_b_asked = (
        _situations(room["app"], trainee_a_sprint),
        _situations(room["app"], trainee_b_sprint),
    )
    assert len(trainee_a_asked) == 10 and trainee_a_asked == trainee_b_asked
    with room["app"].app_context():
        assert [row[2] for row in trainee_a_asked] == db.duels().duel(duel_id)["seeds"]
    trainee_a_view = room["clients"]["trainee.a"].get(f"/duels/{duel_id}").get_data(as_text=True)
    assert (
        'data-state="done"' in trainee_a_view and "You won" in trainee_a_view and "7 / 10" in trainee_a_view
    )
    assert "5 / 10" in trainee_a_view
    assert "You lost" in room["clients"]["trainee.b"].get(f"/duels/{duel_id}").get_data(as_text=True)
    result = room["clients"]["trainee.a"].get(f"/sprint/{trainee_a_sprint}/result").get_data(as_text=True)
    assert f'href="/duels/{duel_id}"' in result


def test_only_the_two_sides_see_or_play_it_each_as_himself(room):
    duel_id = _duel(room)
    clients = room["clients"]
    for name in ("trainee.c", "outsider", "teacher"):
        assert clients[name].get(f"/duels/{duel_id}").status_code == 404
        assert clients[name].post(f"/duels/{duel_id}/play").status_code == 404
    guest = room["app"].test_client()
    assert guest.post(f"/duels/{duel_id}/play").status_code in (302, 401)
    with room["app"].app_context():
        assert db.duels().duel(duel_id)["challenger_sprint_id"] is None
    sprint_id = int(clients["trainee.a"].post(f"/duels/{duel_id}/play").location.rsplit("/", 1)[1])
    page = clients["trainee.a"].get(f"/sprint/{sprint_id}").get_data(as_text=True)
    drill = re.search(r'name="drill" value="(\d+)"', page).group(1)
    # The opponent cannot answer, skip or see the challenger's sprint.
    assert (
        clients["trainee.b"]
        .post(f"/sprint/{sprint_id}/answer", data={"drill": drill, "answer": "1"})
        .status_code
        == 404
    )
    assert clients["trainee.b"].post(f"/sprint/{sprint_id}/skip", data={"drill": drill}).status_code == 404
    assert clients["trainee.b"].get(f"/sprint/{sprint_id}/result").status_code == 404
    with room["app"].app_context():
        assert db.store().attempt(int(drill)) is None


def test_a_challenge_goes_to_a_groupmate_only(room):
    assert _challenge(room, to="outsider").status_code == 400  # not in the group
    assert _challenge(room, to="outsider", group=room["other"]).status_code == 400  # trainee.a is not in it
    assert _challenge(room, to="trainee.a").status_code == 400  # oneself
    assert _challenge(room, length="11").status_code == 400
    bad_kind = room["clients"]["trainee.a"].post(
        "/duels/",
        data={
            "opponent": f"{room['group']}:{room['ids']['trainee.b']}",
            "kind": "no.such",
            "level": "1",
            "length": "10",
        },
    )
    assert bad_kind.status_code == 400
    with room["app"].app_context():
        assert db.store().db.execute("SELECT count(*) FROM duels").fetchone()[0] == 0
    listed = room["clients"]["trainee.a"].get("/duels/").get_data(as_text=True)
    assert "trainee.b" in listed and "outsider" not in listed


def test_an_expired_duel_cannot_be_started_but_a_started_side_keeps_its_sprint(room):
    duel_id = _duel(room)
    started = room["clients"]["trainee.a"].post(f"/duels/{duel_id}/play").location
    with room["app"].app_context():
        store = db.store()
        store.db.execute("UPDATE duels SET expires_at = '2000-01-01T00:00:00+00:00' WHERE id = ?", [duel_id])
        store.db.conn.commit()
    assert room["clients"]["trainee.b"].post(f"/duels/{duel_id}/play").status_code == 409
    assert room["clients"]["trainee.a"].post(f"/duels/{duel_id}/play").location == started
    with room["app"].app_context():
        duel = db.duels().duel(duel_id)
        assert duel["opponent_sprint_id"] is None and db.duels().outcome(duel)["state"] == "expired"
    assert 'data-state="expired"' in room["clients"]["trainee.b"].get(f"/duels/{duel_id}").get_data(
        as_text=True
    )


def test_the_expiry_comes_from_the_data_file(tmp_path):
    assert shipped_expiry() == timedelta(hours=48)
    bad = tmp_path / "duels.toml"
    bad.write_text("expires_hours = 0\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"duels\.toml"):
        load_expiry(bad)


def test_a_replayed_or_concurrent_play_starts_one_sprint(room):
    duel_id = _duel(room)
    first = room["clients"]["trainee.b"].post(f"/duels/{duel_id}/play").location
    assert room["clients"]["trainee.b"].post(f"/duels/{duel_id}/play").location == first  # a second press
    path, trainee_a = room["app"].config["DATABASE"], room["ids"]["trainee.a"]
    barrier, found = threading.Barrier(8), []

    def press():
        duels = Duels(open_db(path, migrate=False))
        barrier.wait()
        found.append(duels.start_side(duel_id, trainee_a))

    threads = [threading.Thread(target=press) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(found) == 8 and len(set(found)) == 1
    with room["app"].app_context():
        count = (
            db.store()
            .db.execute("SELECT count(*) FROM sprints WHERE trainee_id = ?", [trainee_a])
            .fetchone()[0]
        )
    assert count == 1


def test_the_result_is_right_answers_then_time(room):
    with room["app"].app_context():
        store, duels = db.store(), db.duels()
        ids = room["ids"]
        duel_id = duels.challenge(
            room["group"], ids["trainee.a"], ids["trainee.b"], KIND, 1, 10, 90, seeds=[1] * 10, rules=None
        )
        one, two = duels.start_side(duel_id, ids["trainee.a"]), duels.start_side(duel_id, ids["trainee.b"])

        def score(sprint_id, correct, seconds):
            store.db.execute(
                "UPDATE sprints SET correct = ?, answered = 10, "
                "finished_at = strftime('%Y-%m-%dT%H:%M:%f+00:00', started_at, ?) WHERE id = ?",
                [correct, f"+{seconds} seconds", sprint_id],
            )
            store.db.conn.commit()
            return duels.outcome(duels.duel(duel_id))

        score(one, 8, 50)
        assert score(two, 7, 20)["winner"] == ids["trainee.a"]  # more right beats faster
        assert score(two, 8, 40)["winner"] == ids["trainee.b"]  # as many right: the faster
        outcome = score(two, 8, 50)
        assert outcome["state"] == "done" and outcome["winner"] is None  # a draw


@pytest.mark.parametrize("locale", ["ka", "ru"])
def test_duel_and_leaderboard_pages_are_translated(room, locale):
    from test_i18n_catalogs import _visible_latin_words

    from trainer.drills import REGISTRY

    trainee_a = room["clients"]["trainee.a"]
    trainee_a.post("/language", data={"lang": locale, "next": "/"})
    duel_id = _duel(room)  # its notice, too, in the language
    with room["app"].app_context():  # both sides scored (no answers: a 0-0 draw), without playing
        for name in ("trainee.a", "trainee.b"):
            db.store().finish_sprint(db.duels().start_side(duel_id, room["ids"][name]))

    # Data, not prose: the names, the groups' names and the toy drills' titles (in no catalog).
    data = {"trainee", "a", "b", "c", "Evening", "Morning", "class"}  # usernames split at their dots
    data |= {word for kind in REGISTRY.values() if kind.id.startswith("toy.") for word in kind.title.split()}
    for url in (
        "/duels/",
        f"/duels/{duel_id}",
        f"/groups/{room['group']}/leaderboard",
    ):
        page = trainee_a.get(url)
        assert page.status_code == 200, url
        assert not _visible_latin_words(page.get_data(as_text=True)) - data, (url, locale)
