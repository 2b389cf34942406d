"""Every trainee page and API read, requested for unusual but reachable states built through the store
and the pages (no row the store could not write): a new trainee, only skipped sprint questions, a
sprint whose time ran out with no answer, only wrong answers at every level, answers on a DST change
in the group's zone, a huge time taken, a second tab's answer, a quiz handed in twice, a trainee who
left his group and a duel with him. Each answers 200 or a 4xx (or a redirect), never a 500."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime

from accounts_helpers import AuthActions, add_user
from clock_helpers import sprint_clock_ahead
from live_helpers import open_live
from test_exams import _answers, _assign, _sitting
from test_groups import _make_group, _trainee

from trainer.drills.base import expected_of
from trainer.store import open_db
from trainer.store.progress import Store
from trainer.web.core import db

PAGES = (
    "/",
    "/progress/",
    "/today/",
    "/practice/rp.bet_payout",
    "/practice/rules",
    "/sprint/",
    "/sprint/?kind=rp.bet_payout",
    "/quiz/",
    "/quiz/russian_poker",
    "/quiz/omaha",
    "/table/",
    "/duels/",
    "/account/",
    "/groups/",
    "/live/",
    "/api/v1/trainee",
    "/api/v1/practice/next",
    "/api/v1/groups",
    "/api/v1/kinds",
)


# The pages whose figures a state changes: read for each state after the whole list was read once for
# the trainee (the other pages show nothing of his record).
SUMMARY_PAGES = ("/", "/progress/", "/today/", "/duels/", "/api/v1/trainee", "/api/v1/practice/next")


def _sweep(client, *extra: str, pages: tuple[str, ...] = PAGES) -> dict[str, int]:
    codes = {}
    for url in pages + extra:
        response = client.get(url)
        codes[url] = response.status_code
        assert response.status_code < 500, (url, response.get_data(as_text=True)[:2000])
        if response.status_code == 200 and response.mimetype == "text/html":
            # A figure of nothing written as Python writes it, never as the page should.
            shown = re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))
            odd = re.findall(r"\b(?:None|nan|NaN|inf|undefined)\b|-?\d+\.\d{4,}", shown)
            assert not odd, (url, odd)
    return codes


def _sprint(client, kind="rp.bet_payout", length=10, seconds=60) -> int:
    started = client.post("/sprint/", data={"kind": kind, "level": 1, "length": length, "seconds": seconds})
    assert started.status_code == 302, started.get_data(as_text=True)[:500]
    return int(started.location.rstrip("/").rsplit("/", 1)[1])


def _current(client, sprint_id) -> str:
    page = client.get(f"/sprint/{sprint_id}").get_data(as_text=True)
    return re.search(r'name="drill" value="(\d+)"', page).group(1)


def _user_id(app, username) -> int:
    with app.app_context():
        row = db.store().db.execute("SELECT id FROM users WHERE username = ?", [username]).fetchone()
        return int(row[0])


def _class(app):
    """An instructor signed in with a new group: his client, the group's id and its join code."""
    add_user(app, "teacher", "instructor")
    teacher = app.test_client()
    assert AuthActions(teacher).sign_in("teacher").status_code == 302
    group_id, code = _make_group(teacher)
    return teacher, group_id, code


def test_a_new_trainee_sees_every_page(app):
    client = app.test_client()
    assert AuthActions(client).sign_up("trainee.new").status_code == 302
    codes = _sweep(client)
    assert codes["/"] == codes["/progress/"] == codes["/today/"] == 200


def test_only_skipped_sprint_questions_with_no_accuracy_and_a_sprint_out_of_time(app, monkeypatch):
    client = app.test_client()
    assert AuthActions(client).sign_up("trainee.skips").status_code == 302
    skipped = _sprint(client)
    for _ in range(10):
        assert (
            client.post(f"/sprint/{skipped}/skip", data={"drill": _current(client, skipped)}).status_code
            == 302
        )
    result = client.get(f"/sprint/{skipped}/result")
    assert result.status_code == 200
    # No answer given has no accuracy: the result said "Accuracy: 0% of the answers given".
    page = result.get_data(as_text=True)
    assert "Answered 0 of 10" in page
    assert "Accuracy" not in page and "No answer was given, so there is no accuracy." in page
    assert client.post("/language", data={"lang": "ka"}).status_code == 302
    page = client.get(f"/sprint/{skipped}/result").get_data(as_text=True)
    assert "პასუხი არ გაცემულა, ამიტომ სიზუსტე არ ითვლება." in page
    _sweep(client, f"/sprint/{skipped}", f"/sprint/{skipped}/result", pages=SUMMARY_PAGES)
    ran_out = _sprint(client)
    sprint_clock_ahead(monkeypatch, 120)
    assert client.post(f"/sprint/{ran_out}/finish").status_code == 303
    _sweep(client, f"/sprint/{ran_out}", f"/sprint/{ran_out}/result")


def test_only_wrong_answers_at_every_level_with_a_huge_time(app):
    teacher, group_id, code = _class(app)
    client = _trainee(app, "trainee.wrong", code)
    store = Store(open_db(app.config["DATABASE"]))
    for kind in ("rp.bet_payout", "om.high", "pp.score"):
        for level in (1, 2, 3):
            for time_ms in (0, 10**12):
                made = client.post(f"/practice/{kind}", data={"level": level})
                drill = int(made.headers["Location"].rsplit("/", 1)[1])
                situation = store.drill(drill)["situation"]
                # A wrong answer: the answer graded against itself is right, any other reading
                # of the format is wrong; a number one past the expected one is always wrong.
                expected = expected_of(situation)[0]
                choices = [c.value for c in situation.answer_format.choices]
                wrong = next(c for c in choices if c != expected) if choices else None
                if wrong is None and isinstance(expected, int):
                    wrong = expected + 1
                if wrong is None:
                    continue
                grade, _ = store.answer(drill, wrong, time_ms=time_ms)
                assert not grade.correct
    _sweep(
        client,
        f"/groups/{group_id}/leaderboard",
        f"/api/v1/groups/{group_id}/leaderboard",
        pages=SUMMARY_PAGES,
    )
    assert teacher.get(f"/groups/{group_id}").status_code == 200


def test_answers_on_a_dst_change_in_the_groups_zone(app):
    teacher, group_id, code = _class(app)
    assert (
        teacher.post(f"/groups/{group_id}/time-zone", data={"time_zone": "Europe/Berlin"}).status_code < 400
    )
    client = _trainee(app, "trainee.dst", code)
    # Berlin's clocks went from 02:00 to 03:00 on 29 March 2026 (00:59:59 UTC to 01:00 UTC) and back
    # on 25 October 2026; answers on either side of each, and on the local midnights around them.
    moments = [
        datetime(2026, 3, 28, 22, 59, 59, tzinfo=UTC),
        datetime(2026, 3, 28, 23, 0, 1, tzinfo=UTC),
        datetime(2026, 3, 29, 0, 59, 59, tzinfo=UTC),
        datetime(2026, 3, 29, 1, 0, 1, tzinfo=UTC),
        datetime(2026, 10, 25, 0, 59, 59, tzinfo=UTC),
        datetime(2026, 10, 25, 1, 0, 1, tzinfo=UTC),
        datetime(2026, 10, 25, 22, 59, 59, tzinfo=UTC),
        datetime(2026, 10, 25, 23, 0, 1, tzinfo=UTC),
    ]
    at = iter(moments + moments)
    store = Store(open_db(app.config["DATABASE"]), clock=lambda: next(at))
    for _ in moments:
        made = client.post("/practice/rp.qualify", data={"level": 1})
        store.answer(int(made.headers["Location"].rsplit("/", 1)[1]), "yes")
    _sweep(client, f"/groups/{group_id}/leaderboard", pages=SUMMARY_PAGES)


def test_a_second_tab_a_quiz_handed_in_twice_and_a_trainee_who_left(app):
    teacher, group_id, code = _class(app)
    one = _trainee(app, "trainee.one", code)
    two = _trainee(app, "trainee.two", code)
    # A second tab answers a practice question the first answered.
    made = one.post("/practice/rp.bet_payout", data={"level": 1})
    drill_id = int(made.headers["Location"].rsplit("/", 1)[1])
    assert one.post(f"/practice/drill/{drill_id}", data={"drill": drill_id, "answer": "1"}).status_code < 500
    again = one.post(f"/practice/drill/{drill_id}", data={"drill": drill_id, "answer": "2"})
    assert again.status_code < 500
    # A sprint question answered in one tab, then again in another.
    sprint = _sprint(one)
    drill = _current(one, sprint)
    assert one.post(f"/sprint/{sprint}/answer", data={"drill": drill, "answer": "1"}).status_code < 400
    assert one.post(f"/sprint/{sprint}/answer", data={"drill": drill, "answer": "1"}).status_code < 500
    assert one.post(f"/sprint/{sprint}/skip", data={"drill": drill}).status_code < 500
    # A quiz handed in twice.
    exam_id = _assign(teacher, group_id)
    sitting_id = _sitting(one, exam_id)
    _, form = _answers(app, sitting_id, right=False)
    assert one.post(f"/exams/sittings/{sitting_id}", data=form).status_code < 400
    assert one.post(f"/exams/sittings/{sitting_id}", data=form).status_code < 500
    exam_pages = (
        f"/exams/{exam_id}",
        f"/exams/sittings/{sitting_id}",
        f"/exams/sittings/{sitting_id}/review",
    )
    _sweep(one, *exam_pages, f"/sprint/{sprint}/result", f"/practice/drill/{drill_id}")
    # A duel with a groupmate, who then leaves the group (and the duel's other side plays after).
    two_id = _user_id(app, "trainee.two")
    challenged = one.post(
        "/duels/",
        data={"opponent": f"{group_id}:{two_id}", "kind": "rp.bet_payout", "level": "1", "length": "10"},
    )
    assert challenged.status_code == 303, challenged.get_data(as_text=True)[:500]
    duel_id = int(challenged.location.rstrip("/").rsplit("/", 1)[1])
    assert two.post(f"/groups/{group_id}/leave").status_code < 400
    _sweep(two, f"/duels/{duel_id}", f"/groups/{group_id}/leaderboard", *exam_pages[:1])
    assert two.post(f"/duels/{duel_id}/play").status_code < 500
    _sweep(one, f"/duels/{duel_id}", f"/groups/{group_id}/leaderboard", pages=SUMMARY_PAGES)
    assert one.post(f"/duels/{duel_id}/play").status_code < 500
    _sweep(one, f"/duels/{duel_id}", pages=SUMMARY_PAGES)


def test_table_rounds_tests_self_check_and_the_api_in_odd_states(app):
    from api_helpers import token_client

    client = app.test_client()
    assert AuthActions(client).sign_up("trainee.table").status_code == 302
    from trainer.drills.rounds import GAMES

    extra = []
    for game in GAMES:
        started = client.post("/table/rounds", data={"game": game, "level": 1, "rules": "no-such-preset"})
        assert started.status_code < 500, started.get_data(as_text=True)[:2000]
        started = client.post("/table/rounds", data={"game": game, "level": 1})
        assert started.status_code < 400, started.get_data(as_text=True)[:2000]
        round_url = started.location
        extra.append(round_url)
        # A step posted out of turn and an empty answer.
        for step in (0, 99999):
            assert client.post(round_url, data={"step": step}).status_code < 500, round_url
        tested = client.post("/table/tests", data={"game": game, "level": 1})
        assert tested.status_code < 400, tested.get_data(as_text=True)[:2000]
        test_url = tested.location
        extra.append(test_url)
        assert client.post(f"{test_url}/finish").status_code < 500
        assert client.post(f"{test_url}/finish").status_code < 500
        assert client.post(f"{test_url}/next").status_code < 500
    # The self-check quiz handed in twice, and handed in with nothing.
    for game in ("russian_poker", "omaha", "painted_poker"):
        assert client.post(f"/quiz/{game}/start").status_code < 500
        first = client.post(f"/quiz/{game}", data={})
        assert first.status_code < 500, first.get_data(as_text=True)[:2000]
        page = client.get(f"/quiz/{game}").get_data(as_text=True)
        ids = re.findall(r'name="drill" value="(\d+)"', page)
        data = {"drill": ids, **{f"q{i}-answer": "1" for i in range(len(ids))}}
        for _ in range(2):
            assert client.post(f"/quiz/{game}", data=data).status_code < 500
    _sweep(client, *extra, pages=SUMMARY_PAGES)
    api = token_client(app, "trainee.api")
    made = api.post("/api/v1/drills", json={"kind": "rp.bet_payout", "level": 3})
    assert made.status_code == 201, made.json
    drill = made.json["id"]
    for body in ({"answer": 1}, {"answer": 1}, {"answer": 10**30}, {}, {"answer": None}):
        assert api.post(f"/api/v1/drills/{drill}/answer", json=body).status_code < 500, body
    for game in GAMES:
        made = api.post("/api/v1/rounds", json={"game": game, "level": 1})
        assert made.status_code < 500, made.json
        if made.status_code == 201:
            rid = made.json["id"]
            for body in ({"step": 0, "answer": 1}, {"step": 0, "answer": 1}, {"step": 10**9}, {}):
                assert api.post(f"/api/v1/rounds/{rid}/answer", json=body).status_code < 500, body
            assert api.get(f"/api/v1/rounds/{rid}").status_code == 200
    for url in PAGES:
        if url.startswith("/api/"):
            assert api.get(url).status_code < 500, url


def test_a_group_whose_house_rules_were_edited_between_the_deal_and_the_answer(app, monkeypatch):
    teacher, group_id, code = _class(app)
    client = _trainee(app, "trainee.rules", code)
    url = f"/groups/{group_id}/rules/russian_poker"
    page = teacher.get(url).get_data(as_text=True)
    text = html.unescape(re.search(r'<textarea id="rules-text"[^>]*>(.*?)</textarea>', page, re.S).group(1))
    edited = text.replace("full_house = 7,", "full_house = 8,", 1)
    assert edited != text
    assert teacher.post(url, data={"text": edited}).status_code < 400
    made = client.post("/practice/rp.bet_payout", data={"level": 2})
    drill_id = int(made.headers["Location"].rsplit("/", 1)[1])
    sprint = _sprint(client)
    first = _current(client, sprint)
    round_url = client.post("/table/rounds", data={"game": "russian_poker", "level": 1}).location
    # The instructor edits the rules again, then sets the group back to a shipped preset.
    assert (
        teacher.post(url, data={"text": edited.replace("full_house = 8,", "full_house = 9,", 1)}).status_code
        < 400
    )
    assert (
        teacher.post(f"/groups/{group_id}/rules", data={"rules-russian_poker": "insured"}).status_code == 302
    )
    assert (
        client.post(f"/practice/drill/{drill_id}", data={"drill": drill_id, "answer": "1"}).status_code < 500
    )
    assert client.post(f"/sprint/{sprint}/answer", data={"drill": first, "answer": "1"}).status_code < 500
    assert client.post(round_url, data={"step": 0}).status_code < 500
    sprint_clock_ahead(monkeypatch, 600)
    assert client.post(f"/sprint/{sprint}/finish").status_code == 303
    _sweep(client, f"/practice/drill/{drill_id}", f"/sprint/{sprint}/result", round_url)
    user = _user_id(app, "trainee.rules")
    for shown in (f"/groups/{group_id}", f"/groups/{group_id}/trainees/{user}/drills/{drill_id}"):
        assert teacher.get(shown).status_code == 200, shown


def test_a_live_round_and_a_duel_played_out_by_a_trainee_who_left(app):
    teacher, group_id, code = _class(app)
    one = _trainee(app, "trainee.one", code)
    two = _trainee(app, "trainee.two", code)
    assert one.post("/groups/leaderboard-name", data={"name": "x" * 500}).status_code < 500
    assert one.post("/groups/practise-for", data={"group": group_id}).status_code < 500
    session_id, live_code = open_live(teacher, group_id, ["rp.qualify"], seconds=10)
    for client in (one, two):
        assert client.post("/live/join", data={"code": live_code}).status_code < 400
    assert teacher.post(f"/live/{session_id}/control", data={"action": "start"}).status_code < 400
    with app.app_context():
        question = (
            db.store()
            .db.execute(
                "SELECT id FROM live_questions WHERE session_id = ? ORDER BY id DESC LIMIT 1", [session_id]
            )
            .fetchone()[0]
        )
    live = (
        f"/live/{session_id}/phone",
        f"/live/{session_id}/state.json",
        "/live/join",
        f"/live/j/{live_code}",
    )
    for answer in ("yes", "no", "", "yes"):  # answered, then again from a second tab, then empty
        sent = one.post(f"/live/{session_id}/answer", data={"question": question, "answer": answer})
        assert sent.status_code < 500, sent.get_data(as_text=True)[:2000]
    # The other member leaves the group mid-session, then answers.
    assert two.post(f"/groups/{group_id}/leave").status_code < 400
    assert (
        two.post(f"/live/{session_id}/answer", data={"question": question, "answer": "yes"}).status_code < 500
    )
    _sweep(two, *live, pages=SUMMARY_PAGES)
    for action in ("reveal", "next", "reveal", "next", "end"):
        assert teacher.post(f"/live/{session_id}/control", data={"action": action}).status_code < 500
    _sweep(one, *live, f"/live/{session_id}/summary", pages=SUMMARY_PAGES)
    assert teacher.get(f"/live/{session_id}/summary").status_code == 200
    # A duel both sides play out, one side after he left the group.
    two_id = _user_id(app, "trainee.two")
    assert two.post("/groups/join", data={"code": code}).status_code == 302
    duel = one.post(
        "/duels/",
        data={"opponent": f"{group_id}:{two_id}", "kind": "rp.qualify", "level": "1", "length": "10"},
    )
    assert duel.status_code == 303, duel.get_data(as_text=True)[:500]
    duel_id = int(duel.location.rstrip("/").rsplit("/", 1)[1])
    sprints = {}
    for client in (one, two):
        started = client.post(f"/duels/{duel_id}/play")
        assert started.status_code == 303, started.get_data(as_text=True)[:500]
        sprints[client] = int(started.location.rstrip("/").rsplit("/", 1)[1])
    assert two.post(f"/groups/{group_id}/leave").status_code < 400
    for client, sprint in sprints.items():
        for _ in range(10):
            drill = _current(client, sprint)
            assert (
                client.post(f"/sprint/{sprint}/answer", data={"drill": drill, "answer": "yes"}).status_code
                < 400
            )
    for client, sprint in sprints.items():
        _sweep(
            client, f"/duels/{duel_id}", f"/sprint/{sprint}/result", f"/api/v1/groups/{group_id}/leaderboard"
        )
    assert teacher.get(f"/groups/{group_id}").status_code == 200
    assert teacher.get(f"/groups/{group_id}/leaderboard").status_code == 200
    api = app.test_client()
    assert api.delete(f"/api/v1/groups/{group_id}/membership").status_code < 500
