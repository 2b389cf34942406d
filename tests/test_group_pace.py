"""Pace on the feedback and the sprint result, against the drill kind's target in data/pace.toml or
the group's own (set on the desk by the group's instructor only): known ratings at a stored time, who
may set a group's pace, refused figures, and the live class following the group's pace too."""

import re

import pytest
from accounts_helpers import AuthActions, add_user

from trainer.drills.pace import KindPace, Paces, shipped_paces
from trainer.store.groups import Groups
from trainer.web.core import db

KIND = "toy.amount"  # not in data/pace.toml: the school's default, 12 s, fast within 7.2 s


@pytest.fixture
def room(app, toys):
    teacher = add_user(app, "teacher", "instructor")
    add_user(app, "other.teacher", "instructor")
    trainee = add_user(app, "trainee.a")
    with app.app_context():
        group = Groups(db.store().db).create(teacher, "Evening class")
        Groups(db.store().db).add_member(group["id"], trainee)
    clients = {}
    for name in ("teacher", "other.teacher", "trainee.a"):
        clients[name] = app.test_client()
        assert AuthActions(clients[name]).sign_in(name).status_code == 302
    return {"app": app, "group": group["id"], "clients": clients}


def _answered_in(room, time_ms):
    """A practice drill answered right, its server-measured time set to `time_ms`: its page."""
    trainee_a, app = room["clients"]["trainee.a"], room["app"]
    drill_url = trainee_a.post(f"/practice/{KIND}", data={"level": "1"}).location
    drill_id = int(drill_url.rstrip("/").rsplit("/", 1)[1])
    page = trainee_a.get(drill_url).get_data(as_text=True)
    ante = int(re.search(r'<span class="v">(\d+)</span>', page).group(1))
    trainee_a.post(drill_url, data={"drill": str(drill_id), "answer": str(2 * ante)})
    with app.app_context():
        store = db.store()
        assert store.drill(drill_id)["group_id"] == room["group"]
        store.db.execute("UPDATE attempts SET time_ms = ? WHERE drill_id = ?", [time_ms, drill_id])
        store.db.conn.commit()
    return trainee_a.get(drill_url).get_data(as_text=True)


def _pace(page):
    found = re.search(r'<p class="pace" id="pace" data-pace="(\w+)">([^<]*)</p>', page)
    return found and (found.group(1), found.group(2))


def test_feedback_is_rated_against_the_school_then_the_groups_pace(room):
    assert _pace(_answered_in(room, 5_000)) == ("fast", "Fast: well within the school's pace of 12\xa0s.")
    assert _pace(_answered_in(room, 10_000)) == ("on_pace", "On pace: within the school's 12\xa0s.")
    saved = room["clients"]["teacher"].post(
        f"/groups/{room['group']}/pace", data={"kind": KIND, "seconds": "6"}
    )
    assert saved.status_code == 303
    assert _pace(_answered_in(room, 10_000)) == ("slow", "Slow: over your group's pace of 6\xa0s.")
    # Back to the school's.
    room["clients"]["teacher"].post(f"/groups/{room['group']}/pace", data={"kind": KIND, "seconds": ""})
    assert _pace(_answered_in(room, 10_000))[0] == "on_pace"


def test_a_wrong_answer_is_not_rated(room):
    trainee_a = room["clients"]["trainee.a"]
    drill_url = trainee_a.post(f"/practice/{KIND}", data={"level": "1"}).location
    drill_id = drill_url.rstrip("/").rsplit("/", 1)[1]
    page = trainee_a.post(drill_url, data={"drill": drill_id, "answer": "1"}, follow_redirects=True)
    assert 'class="pace"' not in page.get_data(as_text=True)


def test_only_the_groups_instructor_sets_its_pace_and_bad_figures_are_refused(room):
    url = f"/groups/{room['group']}/pace"
    clients = room["clients"]
    assert clients["other.teacher"].post(url, data={"kind": KIND, "seconds": "5"}).status_code == 404
    assert clients["trainee.a"].post(url, data={"kind": KIND, "seconds": "5"}).status_code == 403
    assert room["app"].test_client().post(url, data={"kind": KIND, "seconds": "5"}).status_code in (302, 401)
    for seconds in ("0", "601", "abc", "nan", "inf", "-3"):
        assert clients["teacher"].post(url, data={"kind": KIND, "seconds": seconds}).status_code == 400
    assert clients["teacher"].post(url, data={"kind": "no.such", "seconds": "5"}).status_code == 400
    with room["app"].app_context():
        assert Groups(db.store().db).paces(room["group"]) == {}
    assert clients["teacher"].post(url, data={"kind": KIND, "seconds": "7,5"}).status_code == 303
    with room["app"].app_context():
        assert Groups(db.store().db).paces(room["group"]) == {KIND: 7.5}
    desk = clients["teacher"].get(f"/groups/{room['group']}").get_data(as_text=True)
    assert f'<li data-kind="{KIND}">' in desk


def test_the_sprint_result_counts_right_answers_by_pace(room):
    trainee_a = room["clients"]["trainee.a"]
    run_url = trainee_a.post(
        "/sprint/", data={"kind": KIND, "level": "1", "length": "10", "seconds": "90"}
    ).location
    sprint_id = run_url.rstrip("/").rsplit("/", 1)[1]
    for i in range(10):
        page = trainee_a.get(run_url).get_data(as_text=True)
        drill = re.search(r'name="drill" value="(\d+)"', page).group(1)
        ante = int(re.search(r'<span class="v">(\d+)</span>', page).group(1))
        trainee_a.post(
            f"/sprint/{sprint_id}/answer", data={"drill": drill, "answer": str(2 * ante if i < 3 else 1)}
        )
    with room["app"].app_context():
        store = db.store()
        ids = [
            row[0]
            for row in store.db.execute("SELECT id FROM drills WHERE sprint_id = ? ORDER BY id", [sprint_id])
        ]
        for drill_id, time_ms in zip(ids[:3], (1_000, 9_000, 20_000), strict=True):
            store.db.execute("UPDATE attempts SET time_ms = ? WHERE drill_id = ?", [time_ms, drill_id])
        store.db.conn.commit()
    page = trainee_a.get(f"/sprint/{sprint_id}/result").get_data(as_text=True)
    assert 'data-fast="1" data-on-pace="1" data-slow="1"' in page
    assert "Right answers by pace: 1 fast, 1 on pace, 1 slow." in page


def test_a_groups_pace_replaces_only_its_kinds():
    school = Paces(
        KindPace(12, 6, 20), 0.6, {"rp.bet_payout": KindPace(9, 6, 20), "om.high": KindPace(10, 5, 15)}
    )
    own = school.overridden({"rp.bet_payout": 6})
    assert (own.target_s("rp.bet_payout"), own.target_s("om.high"), own.target_s("x")) == (6, 10, 12)
    assert own.of("rp.bet_payout") == KindPace(6, 6, 20)  # practice's bounds stay the school's
    assert shipped_paces().overridden({}) is shipped_paces()
