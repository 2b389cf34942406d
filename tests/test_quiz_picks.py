"""Generated situations picked from a preview: the instructor sees a few situations of a drill kind
and level drawn from server seeds on the quiz form, keeps the ones he wants, and the quiz asks
exactly those. Only tokens the server made for this group and this instructor are kept: a
tampered form, a token from another instructor's preview or for another group is refused and
nothing is assigned."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta

from accounts_helpers import signed_in
from quiz_helpers import group_and_quiz_fields
from test_i18n_catalogs import _visible_latin_words

from trainer.drills.base import issue
from trainer.web.core import db as web_db
from trainer.web.quizzes import picks


def _form(**extra):
    now = datetime.now(UTC)
    return {
        "title": "Picked situations",
        "questions": "10",
        "attempts_allowed": "1",
        "opens_at": (now - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M"),
        "closes_at": (now + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"),
        "answers_before_close": "1",
        **extra,
    }


def _group(client, name="Evening class"):
    made = client.post("/groups/new", data={"name": name})
    return int(made.headers["Location"].rsplit("/", 1)[1])


def _tokens(page):
    return re.findall(r'name="pick" value="([^"]+)"', page)


def _altered(token: str) -> str:
    """One character changed in the middle: the last base64 character may carry only padding bits, so
    changing it can leave the decoded signature as it was."""
    i = len(token) // 2
    return token[:i] + ("A" if token[i] != "A" else "B") + token[i + 1 :]


def test_picked_situations_are_the_ones_asked_and_forged_picks_are_refused(app):
    teacher = signed_in(app, "teacher", "instructor")
    group_id = _group(teacher)
    other_group = _group(teacher, "Morning class")
    url = f"/exams/group/{group_id}/new"
    shown = teacher.post(url, data=_form(preview="1", preview_item="om.side_pots:2"))
    assert shown.status_code == 200
    page = shown.get_data(as_text=True)
    tokens = _tokens(page)
    assert len(tokens) == picks.PREVIEW_COUNT and len(set(tokens)) == picks.PREVIEW_COUNT
    assert 'value="om.side_pots:2" selected' in page and "checked" not in page.split('id="picks"')[1][:200]
    with app.test_request_context():
        seeds = [picks.read(t, group_id, _teacher_id(app))[2] for t in tokens]
    # Keep two; show more: the kept two stay kept (checked) and three new ones come.
    again = teacher.post(url, data=_form(preview="1", preview_item="om.split:1", pick=tokens[:2]))
    page = again.get_data(as_text=True)
    assert page.count('name="pick"') == 2 + picks.PREVIEW_COUNT
    assert _tokens(page)[:2] == tokens[:2] and page.count(" checked>") >= 2
    kept = _tokens(page)[:2] + _tokens(page)[2:3]  # two side-pot situations and one split

    # A tampered form: a made-up token, a token changed by one character, a token of his other group.
    with app.test_request_context():
        foreign = picks.token(other_group, _teacher_id(app), ("om.side_pots", 2, 7))
    for bad in ("om.side_pots:2:7", _altered(tokens[0]), foreign):
        refused = teacher.post(url, data=_form(pick=[tokens[0], bad]))
        assert refused.status_code == 400
        assert "could not be read" in refused.get_data(as_text=True)
    with app.app_context():
        assert web_db.exams().of_group(group_id) == []

    made = teacher.post(url, data=_form(pick=kept))
    assert made.status_code == 302
    exam_id = int(made.headers["Location"].split("/")[-2])
    with app.app_context():
        exam = web_db.exams().exam(exam_id)
        code = web_db.groups().group(group_id)["join_code"]
    assert exam["items"] == [] and exam["questions"] == 3
    assert [(p["kind"], p["level"], p["seed"]) for p in exam["picked"]][:2] == [
        ("om.side_pots", 2, seeds[0]),
        ("om.side_pots", 2, seeds[1]),
    ]
    assert exam["picked"][2]["kind"] == "om.split"
    assert "3 situations picked from a preview" in teacher.get(f"/exams/{exam_id}/results").get_data(
        as_text=True
    )

    trainee = signed_in(app, "trainee.one")
    trainee.post("/groups/join", data={"code": code})
    sitting_id = int(trainee.post(f"/exams/{exam_id}/start").headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        store = web_db.store()
        asked = [store.drill(d)["situation"] for d in web_db.exams().drills(sitting_id)]
    # Exactly the previewed situations, by their seeds, under the group's rules (the default here).
    for situation, pick in zip(asked, exam["picked"], strict=True):
        assert (
            situation.data
            == issue(pick["kind"], pick["level"], seed=pick["seed"], rules=situation.rules).data
        )


def test_a_pick_from_another_instructors_preview_is_refused_in_his_quiz(app):
    first = signed_in(app, "teacher", "instructor")
    first_group = _group(first)
    tokens = _tokens(
        first.post(
            f"/exams/group/{first_group}/new", data=_form(preview="1", preview_item="rp.settle:1")
        ).get_data(as_text=True)
    )
    second = signed_in(app, "teacher.two", "instructor")
    second_group = _group(second, "Other class")
    refused = second.post(f"/exams/group/{second_group}/new", data=_form(pick=tokens[:1]))
    assert refused.status_code == 400
    # Nor may he preview or assign in the first instructor's group: it is not his.
    assert (
        second.post(
            f"/exams/group/{first_group}/new", data=_form(preview="1", preview_item="rp.settle:1")
        ).status_code
        == 404
    )
    assert second.post(f"/exams/group/{first_group}/new", data=_form(pick=tokens[:1])).status_code == 404
    with app.app_context():
        assert web_db.exams().of_group(first_group) == web_db.exams().of_group(second_group) == []
    # In Georgian, the preview and its situations speak Georgian.
    second.post("/language", data={"lang": "ka"})
    ka = second.post(
        f"/exams/group/{second_group}/new", data=_form(preview="1", preview_item="om.side_pots:3")
    )
    assert ka.status_code == 200 and len(_tokens(ka.get_data(as_text=True))) == picks.PREVIEW_COUNT
    assert _visible_latin_words(ka.get_data(as_text=True)) <= {"Other", "class", "teacher", "two"}  # names
    second.post("/language", data={"lang": "en"})
    # A drill the group's rules cannot deal (the shipped CIS table offers no insurance): a sentence.
    no_insurance = second.post(
        f"/exams/group/{second_group}/new", data=_form(preview="1", preview_item="rp.insurance:1")
    )
    assert no_insurance.status_code == 400
    assert "cannot be drawn under the group's house rules" in html.unescape(
        no_insurance.get_data(as_text=True)
    )
    # A preview of a kind the catalog has not: refused with a sentence, nothing drawn.
    bad = second.post(
        f"/exams/group/{second_group}/new", data=_form(preview="1", preview_item="rp.nothing:1")
    )
    assert bad.status_code == 400 and "Choose a drill and level to preview." in bad.get_data(as_text=True)


def _teacher_id(app):
    with app.app_context():
        rows = web_db.store().db.query("SELECT id FROM users WHERE username = 'teacher'")
        return next(iter(rows))["id"]


def test_the_groups_api_lists_a_quizs_own_questions_and_picks_as_documented(app):
    from jsonschema import Draft202012Validator

    teacher = signed_in(app, "teacher", "instructor")
    group_id = _group(teacher)
    url = f"/exams/group/{group_id}/new"
    tokens = _tokens(
        teacher.post(url, data=_form(preview="1", preview_item="om.winner:1")).get_data(as_text=True)
    )
    own = "As Ks Qs Js 9s / 2c 2d 7h 8s Kc / 25"
    omaha = "hilo 2c 4d 7h Jc Ks / Ah 3d 9c 9d 50 / K♦ K♥ 5♠ 6♠ 50 / * - 20"
    made = teacher.post(url, data=_form(item=["rp.qualify:1"], own=own, own_omaha=omaha, pick=tokens[:1]))
    assert made.status_code == 302
    api = f"/api/v1/groups/{group_id}/quizzes"
    response = teacher.get(api)
    assert response.status_code == 200
    doc = app.test_client().get("/api/v1/openapi.json").json
    schema = doc["paths"]["/api/v1/groups/{group_id}/quizzes"]["get"]["responses"]["200"]["content"]
    Draft202012Validator({**schema["application/json"]["schema"], "components": doc["components"]}).validate(
        response.json
    )
    [quiz] = response.json["quizzes"]
    assert quiz["items"] == [{"kind": "rp.qualify", "level": 1}]
    assert quiz["own"] == [
        {
            "kind": "rp.settle",
            "level": 1,
            "question": {
                "player": ["As", "Ks", "Qs", "Js", "9s"],
                "dealer": ["2c", "2d", "7h", "8s", "Kc"],
                "ante": 25,
            },
        },
        {
            "kind": "om.side_pots",
            "level": 2,
            "question": {
                "board": ["2c", "4d", "7h", "Jc", "Ks"],
                "holes": [["Ah", "3d", "9c", "9d"], ["Kd", "Kh", "5s", "6s"], None],
                "contributions": [50, 50, 20],
                "button": 2,
                "hi_lo": True,
            },
        },
    ]
    with app.test_request_context():
        seed = picks.read(tokens[0], group_id, _teacher_id(app))[2]
    assert quiz["picked"] == [{"kind": "om.winner", "level": 1, "seed": seed}]
    # Another instructor, a trainee: not theirs.
    assert signed_in(app, "teacher.two", "instructor").get(api).status_code == 404
    assert signed_in(app, "trainee.one").get(api).status_code == 404


def test_the_store_refuses_a_pick_of_no_drill_or_no_seed():
    import pytest

    from trainer.store.quizzes import ExamError, Exams

    database, group, fields = group_and_quiz_fields("Picked", 2)
    for bad, reason in (
        (("rp.nothing", 1, 5), "item"),
        (("om.winner", 9, 5), "item"),
        (("om.winner", 1, -1), "seed"),
        (("om.winner", 1, "5"), "seed"),
    ):
        with pytest.raises(ExamError) as refused:
            Exams(database).create(group, **fields, picked=[bad])
        assert refused.value.reason == reason
    exam = Exams(database).create(group, **fields, picked=[("om.winner", 1, 5), ("rp.settle", 2, 6)])
    assert exam["picked"] == [
        {"kind": "om.winner", "level": 1, "seed": 5},
        {"kind": "rp.settle", "level": 2, "seed": 6},
    ]
    assert exam["items"] == [] and exam["own"] == []
