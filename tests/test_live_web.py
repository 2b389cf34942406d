"""The live class's pages: who may call each route (another instructor, a trainee not in the group, a
trainee who did not join), the state JSON carrying no answer or score, a replayed answer, an answer
after the reveal, a late joiner and a phone coming back, the results on the desk's export and the
summary, each page in ka and ru without English words."""

import json

import pytest
from accounts_helpers import AuthActions, add_user
from live_helpers import open_live
from test_i18n_catalogs import _visible_latin_words

from trainer.drills.base import expected_of
from trainer.store.groups import Groups
from trainer.web.core import db

KIND = "rp.bet_payout"
# Not in Latin letters, so that the Georgian and Russian pages can be checked for untranslated words.
NAMES = {
    "teacher": "მასწავლებელი",
    "other-teacher": "учитель",
    "one": "ერთი",
    "two": "ორი",
    "outsider": "чужой",
}


@pytest.fixture
def room(app):
    teacher = add_user(app, NAMES["teacher"], "instructor")
    add_user(app, NAMES["other-teacher"], "instructor")
    one = add_user(app, NAMES["one"])
    two = add_user(app, NAMES["two"])
    add_user(app, NAMES["outsider"])
    with app.app_context():
        groups = Groups(db.store().db)
        group = groups.create(teacher, "საღამოს ჯგუფი")
        groups.add_member(group["id"], one)
        groups.add_member(group["id"], two)
    clients = {}
    for name in NAMES:
        client = app.test_client()
        assert AuthActions(client).sign_in(NAMES[name]).status_code == 302
        clients[name] = client
    clients["group"] = group["id"]
    return clients


def _start(room, seconds=20, questions=2):
    return open_live(room["teacher"], room["group"], [KIND], questions=questions, seconds=seconds)


def _join(client, code):
    return client.post("/live/join", data={"code": code})


def _control(room, session_id, action):
    return room["teacher"].post(f"/live/{session_id}/control", data={"action": action})


def _question(app, session_id):
    with app.app_context():
        from trainer.store.live import LiveSessions

        return LiveSessions(db.store().db).current(session_id)


def _answers(question):
    right = expected_of(question["situation"])[0]
    return str(right), str(right + 1)


def test_the_projector_shows_the_code_and_qr_and_only_its_instructor_runs_it(app, room):
    session_id, code = _start(room)
    page = room["teacher"].get(f"/live/{session_id}/projector")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert code in html and "<svg" in html
    for who in ("other-teacher", "one", "outsider"):
        assert room[who].get(f"/live/{session_id}/projector").status_code in (403, 404)
        assert room[who].get(f"/live/{session_id}/summary").status_code in (403, 404)
        assert room[who].post(f"/live/{session_id}/control", data={"action": "start"}).status_code in (
            403,
            404,
        )
    # Another instructor cannot open a session for a group that is not his.
    refused = room["other-teacher"].post(
        "/live/new",
        data={
            "group": room["group"],
            "kinds": [KIND],
            "level": 1,
            "questions": 2,
            "seconds": 20,
            "scoring": "fast",
        },
    )
    assert refused.status_code in (400, 404)
    assert _question(app, session_id) is None


def test_a_whole_round_on_phones(app, room):
    session_id, code = _start(room)
    outsider = _join(room["outsider"], code)
    assert outsider.status_code == 403
    assert room["outsider"].get(f"/live/{session_id}/phone").status_code == 404
    assert room["outsider"].get(f"/live/{session_id}/state.json").status_code == 404
    assert _join(room["one"], code).status_code == 303
    assert "session starts soon" in room["one"].get(f"/live/{session_id}/phone").get_data(as_text=True)
    assert _control(room, session_id, "start").status_code == 303
    question = _question(app, session_id)
    right, wrong = _answers(question)
    # A late joiner gets the current question.
    assert _join(room["two"], code).status_code == 303
    phone = room["two"].get(f"/live/{session_id}/phone").get_data(as_text=True)
    assert f'name="question" value="{question["id"]}"' in phone
    sent = room["one"].post(f"/live/{session_id}/answer", data={"question": question["id"], "answer": right})
    assert sent.status_code == 303
    # Nothing of the answer reaches a phone before the reveal: not on the page, not in the state.
    waiting = room["one"].get(f"/live/{session_id}/phone").get_data(as_text=True)
    assert "Your answer is in" in waiting and "Points" not in waiting and "✓" not in waiting
    state = room["one"].get(f"/live/{session_id}/state.json").get_json()
    assert set(state) == {"version", "state", "position", "questions", "left_ms", "answered", "players"}
    assert state["answered"] == 1 and state["state"] == "question"
    # A replayed answer (the same POST again, or another answer) counts once.
    replay = room["one"].post(
        f"/live/{session_id}/answer", data={"question": question["id"], "answer": wrong}
    )
    assert replay.status_code == 409
    _control(room, session_id, "reveal")
    late = room["two"].post(f"/live/{session_id}/answer", data={"question": question["id"], "answer": right})
    assert late.status_code == 409
    shown = room["one"].get(f"/live/{session_id}/phone").get_data(as_text=True)
    assert "✓" in shown and 'id="live-place"' in shown and 'id="live-pace" data-pace="fast"' in shown
    assert "No answer in time" in room["two"].get(f"/live/{session_id}/phone").get_data(as_text=True)
    projector = room["teacher"].get(f"/live/{session_id}/projector").get_data(as_text=True)
    assert 'id="spread"' in projector and 'id="leaderboard"' in projector
    _control(room, session_id, "next")
    assert _question(app, session_id)["position"] == 1
    assert _control(room, session_id, "end").status_code == 303
    summary = room["teacher"].get(f"/live/{session_id}/summary")
    # Ending the session closes (reveals) its open question: both are in the summary.
    assert summary.status_code == 200 and summary.get_data(as_text=True).count("live-summary-question") == 2
    with app.app_context():
        rows = db.store().db.execute("SELECT mode, correct FROM attempts").fetchall()
    assert rows == [("live", 1)]
    with app.app_context():
        one_id, drill_id = db.store().db.execute("SELECT trainee_id, drill_id FROM attempts").fetchone()
    desk = room["teacher"].get(f"/groups/{room['group']}/trainees/{one_id}")
    assert desk.status_code == 200 and f'data-drill="{drill_id}"' in desk.get_data(as_text=True)
    review = room["teacher"].get(f"/groups/{room['group']}/trainees/{one_id}/drills/{drill_id}")
    assert review.status_code == 200
    export = room["teacher"].get(f"/groups/{room['group']}/attempts.csv")
    assert export.status_code == 200 and ",live," in export.get_data(as_text=True)


def test_a_stale_form_for_an_old_question_is_refused(app, room):
    session_id, code = _start(room, seconds=0)
    _join(room["one"], code)
    _control(room, session_id, "start")
    first = _question(app, session_id)
    right, _wrong = _answers(first)
    _control(room, session_id, "reveal")
    _control(room, session_id, "next")
    stale = room["one"].post(f"/live/{session_id}/answer", data={"question": first["id"], "answer": right})
    assert stale.status_code == 409
    with app.app_context():
        assert db.store().db.execute("SELECT count(*) FROM live_answers").fetchone()[0] == 0


@pytest.mark.parametrize("locale", ["ka", "ru"])
def test_live_pages_in_georgian_and_russian_show_no_english_words(app, room, locale):
    session_id, code = _start(room)
    _join(room["one"], code)
    for client in (room["teacher"], room["one"]):
        client.post("/language", data={"lang": locale, "next": "/"})
    pages = [
        room["teacher"].get("/live/new"),
        room["teacher"].get(f"/live/{session_id}/projector"),
        room["one"].get(f"/live/{session_id}/phone"),
        room["one"].get("/live/join"),
    ]
    _control(room, session_id, "start")
    question = _question(app, session_id)
    right, _wrong = _answers(question)
    room["one"].post(f"/live/{session_id}/answer", data={"question": question["id"], "answer": right})
    _control(room, session_id, "reveal")
    pages += [
        room["teacher"].get(f"/live/{session_id}/projector"),
        room["one"].get(f"/live/{session_id}/phone"),
    ]
    for page in pages:
        assert page.status_code == 200
        words = _visible_latin_words(page.get_data(as_text=True))
        assert not words, words
    assert json.dumps(room["one"].get(f"/live/{session_id}/state.json").get_json())


def test_a_class_answering_at_once_over_http_counts_each_answer_once(app, room):
    """Twenty signed-in phones send their answer to the same question at the same moment, each twice
    (a double tap): twenty answers stored, twenty refused, no error."""
    import threading

    session_id, code = _start(room, questions=1)
    phones = []
    with app.app_context():
        groups = Groups(db.store().db)
        for n in range(20):
            user_id = add_user(app, f"ტელეფონი{n}")
            groups.add_member(room["group"], user_id)
    for n in range(20):
        client = app.test_client()
        assert AuthActions(client).sign_in(f"ტელეფონი{n}").status_code == 302
        assert _join(client, code).status_code == 303
        phones.append(client)
    _control(room, session_id, "start")
    question = _question(app, session_id)
    right, _wrong = _answers(question)
    barrier = threading.Barrier(len(phones))
    codes = []

    def send(client):
        barrier.wait()
        for _ in range(2):
            form = {"question": question["id"], "answer": right}
            codes.append(client.post(f"/live/{session_id}/answer", data=form).status_code)

    threads = [threading.Thread(target=send, args=(c,)) for c in phones]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(codes) == [303] * 20 + [409] * 20
    with app.app_context():
        stored = (
            db.store().db.execute("SELECT count(*), count(DISTINCT trainee_id) FROM live_answers").fetchone()
        )
    assert stored == (20, 20)
    desk = room["teacher"].get(f"/groups/{room['group']}")
    assert f"/live/new?group={room['group']}" in desk.get_data(as_text=True)


def test_time_up_reveals_on_the_next_look_and_refuses_the_answer(app, room):
    session_id, code = _start(room, seconds=10)
    _join(room["one"], code)
    _control(room, session_id, "start")
    question = _question(app, session_id)
    right, _wrong = _answers(question)
    version = room["one"].get(f"/live/{session_id}/state.json").get_json()["version"]
    with app.app_context():  # the question's time runs out (the server's clock decides)
        store_db = db.store().db
        store_db.execute("UPDATE live_questions SET closes_at = '2000-01-01T00:00:00+00:00'")
        store_db.conn.commit()
    late = room["one"].post(f"/live/{session_id}/answer", data={"question": question["id"], "answer": right})
    assert late.status_code == 409
    state = room["one"].get(f"/live/{session_id}/state.json").get_json()
    assert state["state"] == "revealed" and state["version"] > version
    assert _control(room, session_id, "next").status_code == 303  # straight on: no "reveal" needed
    assert _question(app, session_id)["position"] == 1


def test_the_phone_rates_a_right_answer_against_the_groups_own_pace(app, room):
    """9 s is on pace by the school's 9 s for a bet's payout, slow by a group's own 6 s."""
    session_id, code = _start(room)
    _join(room["one"], code)
    _control(room, session_id, "start")
    question = _question(app, session_id)
    right, _wrong = _answers(question)
    room["one"].post(f"/live/{session_id}/answer", data={"question": question["id"], "answer": right})
    with app.app_context():
        db.store().db.execute(
            "UPDATE live_answers SET time_ms = 9000 WHERE question_id = ?", [question["id"]]
        )
        db.store().db.conn.commit()
    _control(room, session_id, "reveal")
    shown = room["one"].get(f"/live/{session_id}/phone").get_data(as_text=True)
    assert 'id="live-pace" data-pace="on_pace"' in shown
    with app.app_context():
        Groups(db.store().db).set_pace(room["group"], KIND, 6)
    shown = room["one"].get(f"/live/{session_id}/phone").get_data(as_text=True)
    assert 'id="live-pace" data-pace="slow"' in shown and "your group's pace of 6\xa0s" in shown
