"""The live class's store: a session's clock and states, one answer per trainee and question timed by the
server, refusals (not joined, not a member, after the reveal, after the time, paused), points and the
leaderboard's ties, and a whole class answering at once against a real database file."""

import threading
from datetime import UTC, datetime, timedelta

import pytest
from conftest import memory_db

from trainer.drills import issue
from trainer.drills.base import expected_of
from trainer.store import open_db
from trainer.store.accounts import FAST_HASHER, Accounts, Role
from trainer.store.groups import Groups
from trainer.store.live import LiveSessions, points_for
from trainer.store.progress import NotFoundError, Refusal

KIND = "rp.bet_payout"


class Clock:
    def __init__(self):
        self.now = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)

    def __call__(self):
        return self.now

    def advance(self, seconds):
        self.now += timedelta(seconds=seconds)


def _class(db, trainees=2, clock=None):
    accounts = Accounts(db, hasher=FAST_HASHER)
    teacher = accounts.create_user("teacher", "a long secret", role=Role.INSTRUCTOR)
    other = accounts.create_user("other-teacher", "a long secret", role=Role.INSTRUCTOR)
    groups = Groups(db)
    group = groups.create(teacher["id"], "Morning class")
    ids = []
    for n in range(trainees):
        user = accounts.sign_up(f"trainee{n}", "a long secret")
        groups.add_member(group["id"], user["id"])
        ids.append(user["id"])
    outsider = accounts.sign_up("outsider", "a long secret")["id"]
    live = LiveSessions(db, clock=clock) if clock else LiveSessions(db)
    return live, teacher["id"], other["id"], group["id"], ids, outsider


def _right_and_wrong(situation):
    right = expected_of(situation)[0]
    choices = [c.value for c in situation.answer_format.choices]
    wrong = next(c for c in choices if c != right) if choices else right + 1
    return str(right), str(wrong)


@pytest.fixture
def store_db():
    return memory_db()


def test_points_for_right_and_fast():
    assert points_for(True, 0, 20, "fast") == 1000
    assert points_for(True, 10_000, 20, "fast") == 750
    assert points_for(True, 40_000, 20, "fast") == 500  # late in the question still beats wrong
    assert points_for(False, 0, 20, "fast") == 0
    assert points_for(True, 19_000, 20, "right") == 1000


def test_a_session_of_another_instructor_or_group_does_not_exist(store_db):
    live, teacher, other, group, _ids, _outsider = _class(store_db)
    with pytest.raises(NotFoundError):
        live.create(other, group, kinds=[KIND], level=1, questions=3, seconds=20, scoring="fast")
    session = live.create(teacher, group, kinds=[KIND], level=1, questions=3, seconds=20, scoring="fast")
    with pytest.raises(NotFoundError):
        live.owned(session["id"], other)
    assert live.owned(session["id"], teacher)["code"] == session["code"]
    assert live.by_code(session["code"].lower())["id"] == session["id"]


def test_one_answer_per_trainee_timed_by_the_server_refused_after_reveal(store_db):
    clock = Clock()
    live, teacher, _other, group, (one, two), outsider = _class(store_db, clock=clock)
    session = live.create(teacher, group, kinds=[KIND], level=1, questions=2, seconds=20, scoring="fast")
    sid = session["id"]
    with pytest.raises(Refusal) as refused:
        live.join(sid, outsider)
    assert refused.value.reason == "not_member"
    live.join(sid, one)
    live.join(sid, one)  # a phone that comes back: still one player
    assert live.players(sid) == 1
    situation = issue(KIND, 1, seed=7)
    right, wrong = _right_and_wrong(situation)
    live.open_next(sid, situation)
    question = live.current(sid)
    with pytest.raises(Refusal) as refused:
        live.answer(sid, question["id"], two, right)  # in the group, but did not join
    assert refused.value.reason == "not_player"
    live.join(sid, two)
    clock.advance(4)
    _grade, first = live.answer(sid, question["id"], one, right)
    assert first["time_ms"] == 4000 and first["points"] == 900
    with pytest.raises(Refusal) as refused:
        live.answer(sid, question["id"], one, wrong)  # a replayed or second answer
    assert refused.value.reason == "answered"
    # Nothing of the open question counts on the leaderboard before the reveal.
    assert [r["points"] for r in live.leaderboard(sid)] == [0, 0]
    live.reveal(sid)
    with pytest.raises(Refusal) as refused:
        live.answer(sid, question["id"], two, right)
    assert refused.value.reason == "closed"
    board = live.leaderboard(sid)
    assert [(r["trainee_id"], r["points"], r["place"]) for r in board] == [(one, 900, 1), (two, 0, 2)]
    # Kept as an attempt of its own mode, for the group.
    attempt = store_db.execute("SELECT mode, correct, time_ms FROM attempts").fetchall()
    assert attempt == [("live", 1, 4000)]
    assert store_db.execute("SELECT mode, group_id FROM drills").fetchall() == [("live", group)]


def test_time_up_refuses_and_reveals_and_pause_stops_the_clock(store_db):
    clock = Clock()
    live, teacher, _other, group, (one, two), _outsider = _class(store_db, clock=clock)
    sid = live.create(teacher, group, kinds=[KIND], level=1, questions=3, seconds=10, scoring="right")["id"]
    live.join(sid, one)
    live.join(sid, two)
    situation = issue(KIND, 1, seed=3)
    right, _wrong = _right_and_wrong(situation)
    live.open_next(sid, situation)
    qid = live.current(sid)["id"]
    clock.advance(6)
    live.pause(sid)
    with pytest.raises(Refusal):
        live.answer(sid, qid, one, right)  # paused: no answers
    clock.advance(100)  # a long pause does not eat the question's time
    live.resume(sid)
    assert live.left_ms(live.session(sid), live.current(sid)) == 4000
    live.answer(sid, qid, one, right)
    clock.advance(4)
    with pytest.raises(Refusal) as refused:
        live.answer(sid, qid, two, right)
    assert refused.value.reason == "closed"
    assert live.tick(sid)["state"] == "revealed"
    with pytest.raises(Refusal) as refused:
        live.open_next(sid, situation) and live.open_next(sid, situation)
    assert refused.value.reason == "busy"
    live.end(sid)
    with pytest.raises(Refusal) as refused:
        live.open_next(sid, situation)
    assert refused.value.reason == "done"


def test_ties_are_broken_by_time(store_db):
    clock = Clock()
    live, teacher, _other, group, (one, two), _outsider = _class(store_db, clock=clock)
    sid = live.create(teacher, group, kinds=[KIND], level=1, questions=1, seconds=None, scoring="right")["id"]
    live.join(sid, one)
    live.join(sid, two)
    situation = issue(KIND, 1, seed=5)
    right, _wrong = _right_and_wrong(situation)
    live.open_next(sid, situation)
    qid = live.current(sid)["id"]
    clock.advance(3)
    live.answer(sid, qid, two, right)
    clock.advance(1)
    live.answer(sid, qid, one, right)
    live.reveal(sid)
    assert [(r["trainee_id"], r["points"]) for r in live.leaderboard(sid)] == [(two, 1000), (one, 1000)]
    assert live.fastest(qid)[0]["username"] == "trainee1"
    assert live.spread(qid) == [
        {"answer": live.spread(qid)[0]["answer"], "correct": True, "mistake": None, "n": 2}
    ]


CLASS = 40


def test_a_whole_class_answering_at_once_on_a_real_file(tmp_path):
    """40 trainees (threads, one connection each) send their answer to one question at the same moment,
    each twice, while a late one answers after the reveal: every answer is stored once, no error."""
    path = tmp_path / "live.db"
    setup = open_db(path)
    live, teacher, _other, group, ids, _outsider = _class(setup, trainees=CLASS)
    sid = live.create(teacher, group, kinds=[KIND], level=1, questions=2, seconds=60, scoring="fast")["id"]
    for trainee in ids:
        live.join(sid, trainee)
    situation = issue(KIND, 1, seed=11)
    right, wrong = _right_and_wrong(situation)
    live.open_next(sid, situation)
    qid = live.current(sid)["id"]
    barrier = threading.Barrier(CLASS)
    outcomes, errors = [], []

    def phone(n, trainee):
        db = open_db(path)
        mine = LiveSessions(db)
        barrier.wait()
        for _ in range(2):  # the second send is a double tap: refused
            try:
                mine.answer(sid, qid, trainee, right if n % 3 else wrong)
                outcomes.append("stored")
            except Refusal as refusal:
                outcomes.append(refusal.reason)
            except Exception as error:
                errors.append(repr(error))
        db.conn.close()

    threads = [threading.Thread(target=phone, args=(n, t)) for n, t in enumerate(ids)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert outcomes.count("stored") == CLASS and outcomes.count("answered") == CLASS
    check = open_db(path)
    assert check.execute("SELECT count(*) FROM live_answers").fetchone()[0] == CLASS
    assert check.execute("SELECT count(*), count(DISTINCT trainee_id) FROM attempts").fetchone() == (
        CLASS,
        CLASS,
    )
    LiveSessions(check).reveal(sid)
    with pytest.raises(Refusal):
        LiveSessions(check).answer(sid, qid, ids[0], right)
    board = LiveSessions(check).leaderboard(sid)
    assert len(board) == CLASS
    assert sum(r["right_answers"] for r in board) == sum(1 for n in range(CLASS) if n % 3)
