"""The instructor's desk for assessed classes (issue 28): the house rules a trainee practises under,
time zones, readable item analysis and exports, the quiz report, the timed quiz's countdown, the
desk's sections and confirmations; each route's access for another instructor."""

import re

import pytest
from accounts_helpers import signed_in
from test_groups import _make_group, _practise, _trainee

from trainer.store import open_db
from trainer.store.accounts import FAST_HASHER, Accounts, Role
from trainer.store.groups import Groups
from trainer.web import db as web_db


@pytest.fixture
def teacher(app):
    return signed_in(app, "teacher", "instructor")


# (1) Whichever way a trainee comes into a group, he practises under its rules -------------------


def _practising(store_db, user_id):
    return store_db.execute("SELECT practice_group_id FROM users WHERE id = ?", [user_id]).fetchone()[0]


def test_a_member_added_any_way_practises_for_the_group_and_leaving_falls_back_to_another():
    store_db = open_db(":memory:")
    accounts = Accounts(store_db, hasher=FAST_HASHER)
    teacher = accounts.create_user("teacher", "a long secret", role=Role.INSTRUCTOR)["id"]
    nino = accounts.sign_up("nino", "a long secret")["id"]
    groups = Groups(store_db)
    evening, morning = groups.create(teacher, "Evening")["id"], groups.create(teacher, "Morning")["id"]
    groups.add_member(evening, nino)  # not by a join code: the store's own door in
    assert _practising(store_db, nino) == evening
    groups.join(nino, groups.group(morning)["join_code"])
    assert _practising(store_db, nino) == evening  # a second group does not take over his choice
    groups.remove_member(evening, nino)
    assert _practising(store_db, nino) == morning  # still in a group: its rules, not the shipped ones
    groups.remove_member(morning, nino)
    assert _practising(store_db, nino) is None


def test_the_desk_shows_which_rules_each_trainee_practises_under(app, teacher):
    group_id, code = _make_group(teacher)
    assert teacher.post(f"/groups/{group_id}/rules", data={"rules-russian_poker": "insured"}).status_code == 302
    other_id, other_code = _make_group(teacher, "Morning class")
    nino = _trainee(app, "nino", code)
    lasha = _trainee(app, "lasha", other_code)
    assert lasha.post("/groups/join", data={"code": code}).status_code == 302
    giorgi = _trainee(app, "giorgi", code)
    assert giorgi.post("/groups/practise-for", data={"group": ""}).status_code == 302
    assert web_db is not None and _practise(nino)
    desk = teacher.get(f"/groups/{group_id}").get_data(as_text=True)
    cells = dict(re.findall(r'data-trainee="(\w+)">.*?data-practising="(\w+)"', desk, re.S))
    assert cells == {"nino": "here", "lasha": "other", "giorgi": "none"}
    nino_row = re.search(r'data-trainee="nino">.*?</tr>', desk, re.S).group(0)
    assert "Insured" in nino_row or "insured" in nino_row.lower()
