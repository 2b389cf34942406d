"""The desk's readiness (`readiness_of` for a group's current members) against the one-trainee rule
(`readiness`, which reads his answers and drills within his stretches in the group) on generated
groups with questions passed over: practice questions left open with and without a newer one of
their kind, sprint questions skipped, at every level and before, in and after the stretches. A
member-game with no question passed over is read from his answers alone (no union with the
skipped ones); these cases check that shortcut changes no verdict. And `reading`: one read
transaction sees the database of one moment while another connection writes."""

from __future__ import annotations

import random
import sqlite3
import threading

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.test_desk_sql import KINDS, _iso, make_group
from trainer.drills import REGISTRY
from trainer.games import GAMES
from trainer.store.groups import Groups
from trainer.store.readiness import Target, readiness, readiness_of
from trainer.store.schema import open_db, reading


def _pass_over_some(db, rng: random.Random, members: list[int]) -> None:
    """Questions the members did not answer: open practice ones (some with a newer drill of the
    kind, which makes them passed over), skipped sprint ones, none for some members."""
    drill = db.execute("SELECT coalesce(max(id), 0) FROM drills").fetchone()[0]
    with db.conn:
        for user in members:
            if rng.random() < 0.3:
                continue
            kinds = rng.sample(KINDS, rng.randint(1, 4))
            for _ in range(rng.randint(1, 12)):
                drill += 1
                kind = rng.choice(kinds)
                when = _iso(rng.choice([rng.uniform(0, 1100), 100.0, 500.0, 700.0]))
                sprint = rng.random() < 0.4
                skipped = _iso(rng.uniform(0, 1100)) if sprint and rng.random() < 0.7 else None
                db["drills"].insert(
                    {
                        "id": drill,
                        "trainee_id": user,
                        "kind": kind,
                        "level": rng.choice(REGISTRY[kind].levels),
                        "seed": 1,
                        "version": 1,
                        "situation": "{}",
                        "mode": "sprint" if sprint else "practice",
                        "issued_at": when,
                        "skipped_at": skipped,
                        "answered": int(skipped is not None),  # a skipped one is closed (m012)
                    }
                )


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32))
def test_the_desks_readiness_is_each_members_readiness_with_questions_passed_over(seed: int) -> None:
    groups, group_id, _ = make_group(seed)
    members = [int(m["id"]) for m in groups.members(group_id)]
    rng = random.Random(seed)
    _pass_over_some(groups.db, rng, members)
    for game in GAMES:  # small windows: questions passed over and answers compete for places
        if rng.random() < 0.7:
            target = Target(rng.choice([0.5, 1.0]), rng.choice([1, 2, 3, 5]), rng.randint(1, 3), 10)
            groups.set_target(group_id, game.id, target)
    targets = {game.id: groups.target(group_id, game.id) for game in GAMES}
    games = {game.id: (game.kinds, targets[game.id]) for game in GAMES}
    desk = readiness_of(groups.db, members, games, group_id=group_id, members=True)
    union = readiness_of(groups.db, members, games, group_id=group_id)  # every term with the skipped
    for member in members:
        for game in GAMES:
            one = readiness(groups.db, member, game.kinds, targets[game.id], group_id=group_id)
            assert desk[member, game.id] == one == union[member, game.id], (member, game.id)


def test_a_question_passed_over_counts_as_a_miss_on_the_desk() -> None:
    # Two practice questions of one kind left open: the older was passed over (a newer one of its
    # kind was drawn) and is a miss; the newest is not (yet). The member leaves the shortcut.
    groups, group_id, _ = make_group(3)
    db = groups.db
    members = [int(m["id"]) for m in groups.members(group_id)]
    assert members
    game = GAMES[0]
    target = groups.target(group_id, game.id)
    kind = sorted(game.kinds)[0]
    level = max(REGISTRY[kind].levels)
    member = members[0]
    with db.conn:
        db["membership_periods"].insert(
            {"group_id": group_id, "user_id": member, "joined_at": _iso(-10), "left_at": None}
        )
        first = db.execute("SELECT max(id) FROM drills").fetchone()[0] + 1
        for n in (0, 1):
            db["drills"].insert(
                {
                    "id": first + n,
                    "trainee_id": member,
                    "kind": kind,
                    "level": level,
                    "seed": 1,
                    "version": 1,
                    "situation": "{}",
                    "mode": "practice",
                    "issued_at": _iso(2000 + n),
                    "answered": 0,
                }
            )
    sent: list[str] = []
    db.conn.set_trace_callback(sent.append)
    try:
        ruled = readiness_of(db, [member], {game.id: (game.kinds, target)}, group_id=group_id, members=True)
    finally:
        db.conn.set_trace_callback(None)
    one = readiness(db, member, game.kinds, target, group_id=group_id)
    assert ruled[member, game.id] == one
    assert one.answers >= 1 and one.correct < one.answers  # the passed-over one counts, as a miss
    # The questions passed over reach his statement as JSON, read with json_each and json_extract:
    # the JSON operators -> and ->> came with SQLite 3.38, newer than the 3.37 STRICT tables need
    # (Ubuntu 22.04's), where the desk's statement would not even compile.
    handed = [s for s in sent if "json_each" in s]
    assert handed and not any("->" in s for s in handed), handed


def _two_connections(tmp_path):
    """A reader and a writer on one migrated database file."""
    path = tmp_path / "trainer.sqlite"
    open_db(path).conn.close()
    return open_db(path, migrate=False), open_db(path, migrate=False)


def _read_with_a_write_between(reader, marker: str, write, read):
    """`read()` on `reader`, with `write()` done on another connection once, just before the first
    statement naming `marker` (after the reads before it); fails if no statement named it."""
    written: list[str] = []

    def between(statement: str) -> None:
        if marker in statement and not written:
            written.append(statement)
            write()

    reader.conn.set_trace_callback(between)
    try:
        result = read()
    finally:
        reader.conn.set_trace_callback(None)
    assert written, f"no statement read {marker}"
    return result


def test_one_read_transaction_sees_one_moment_while_another_connection_writes(tmp_path) -> None:
    reader, writer = _two_connections(tmp_path)
    count = "SELECT count(*) FROM trainees"

    def add(n: int) -> None:
        with writer.conn:
            writer.execute("INSERT INTO trainees (id, name, created_at) VALUES (?, NULL, ?)", [n, _iso(0)])

    add(1)
    with reading(reader):
        assert reader.execute(count).fetchone()[0] == 1
        add(2)
        assert reader.execute(count).fetchone()[0] == 1  # the moment of its first read
        with reading(reader):  # nested: the same transaction
            assert reader.execute(count).fetchone()[0] == 1
    assert not reader.conn.in_transaction
    assert reader.execute(count).fetchone()[0] == 2
    try:
        with reading(reader):
            reader.execute(count)
            raise sqlite3.OperationalError("a fault while reading")
    except sqlite3.OperationalError:
        pass
    assert not reader.conn.in_transaction  # ended, not left open for the next request
    reader.conn.close()
    writer.conn.close()


def test_the_report_is_of_one_moment_while_a_member_answers(tmp_path) -> None:
    # A member answering on another connection while the desk's report is read again and again:
    # his answers counted over the kinds and his last activity always belong together (the last
    # activity is the time of the answer that many answers in), as one read transaction gives.
    path = tmp_path / "trainer.sqlite"
    open_db(path).conn.close()
    setup = open_db(path, migrate=False)
    with setup.conn:
        for i, role in ((1, "instructor"), (2, "trainee")):
            setup["trainees"].insert({"id": i, "name": None, "created_at": _iso(0)})
            setup["users"].insert(
                {
                    "id": i,
                    "username": f"u{i}",
                    "username_key": f"u{i}",
                    "display_name": f"U{i}",
                    "password_hash": None,
                    "role": role,
                    "created_at": _iso(0),
                }
            )
        setup["groups"].insert(
            {"id": 1, "name": "G", "owner_id": 1, "join_code": "AAAA-BBBB", "created_at": _iso(0)}
        )
        setup["memberships"].insert({"group_id": 1, "user_id": 2, "joined_at": _iso(0)})
        setup["membership_periods"].insert(
            {"group_id": 1, "user_id": 2, "joined_at": _iso(0), "left_at": None}
        )
    setup.conn.close()
    times = [_iso(1 + n) for n in range(300)]
    kinds = KINDS[:5]
    done = threading.Event()

    def answer() -> None:
        writer = open_db(path, migrate=False)
        try:
            for n, at in enumerate(times, start=1):
                kind = kinds[n % len(kinds)]
                with writer.conn:
                    writer["drills"].insert(
                        {
                            "id": n,
                            "trainee_id": 2,
                            "kind": kind,
                            "level": REGISTRY[kind].levels[0],
                            "seed": 1,
                            "version": 1,
                            "situation": "{}",
                            "mode": "practice",
                            "issued_at": at,
                            "answered": 1,
                        }
                    )
                    writer["attempts"].insert(
                        {
                            "id": n,
                            "drill_id": n,
                            "trainee_id": 2,
                            "kind": kind,
                            "raw": "1",
                            "answer": "1",
                            "expected": "1",
                            "correct": 1,
                            "time_ms": 1000,
                            "mode": "practice",
                            "answered_at": at,
                        }
                    )
        finally:
            writer.conn.close()
            done.set()

    reader = Groups(open_db(path, migrate=False))
    thread = threading.Thread(target=answer)
    thread.start()
    seen = 0
    while not done.is_set() or seen < 2:
        [member] = reader.report(1)["trainees"]
        total = sum(c["attempts"] for c in member["kinds"].values())
        assert member["last_activity"] == (times[total - 1] if total else None), total
        seen += 1
    thread.join()
    assert sum(c["attempts"] for c in reader.report(1)["trainees"][0]["kinds"].values()) == len(times)
    reader.db.conn.close()


def test_the_groups_mistakes_are_of_one_moment_while_a_member_makes_a_new_one(tmp_path) -> None:
    # `Groups.mistakes` reads the totals per mistake, then how many members made each: a mistake
    # made for the first time between the two (another connection's answer, which writes both
    # counts in its transaction) was in the second read and not the first, a KeyError and a 500
    # on the desk. One read transaction reads both of one moment.
    reader, writer = _two_connections(tmp_path)

    def made(mistake: str) -> None:
        with writer.conn:
            writer.execute(
                "INSERT INTO group_mistake_kinds (group_id, mistake, kind, n) "
                "VALUES (1, ?, 'rp.bet_payout', 1)",
                [mistake],
            )
            writer.execute(
                "INSERT INTO group_mistake_members (group_id, mistake, trainee_id, n) VALUES (1, ?, 2, 1)",
                [mistake],
            )

    made("rp.wrong_odds")

    shown = _read_with_a_write_between(  # after the first read, before the second
        reader,
        "FROM group_mistake_members",
        lambda: made("rp.short_pay"),
        lambda: Groups(reader).mistakes(1, first=10),
    )
    assert [(m["mistake"], m["count"], m["trainees"], m["kinds"]) for m in shown] == [
        ("rp.wrong_odds", 1, 1, ["rp.bet_payout"])
    ]
    assert [m["mistake"] for m in Groups(reader).mistakes(1)] == ["rp.short_pay", "rp.wrong_odds"]
    reader.conn.close()
    writer.conn.close()


def test_the_item_analysis_is_of_one_moment_while_a_member_answers_wrong(tmp_path) -> None:
    # `Groups.item_details` reads each item's attempts, then its most common wrong answers: another
    # connection's wrong answer between the two counted it among the wrong answers and not among the
    # attempts (two wrong answers shown of an item with one). One read transaction reads both at once.
    reader, writer = _two_connections(tmp_path)

    def answered_wrong(attempts: int) -> None:
        with writer.conn:
            writer.execute(
                "INSERT INTO group_items (group_id, kind, level, mode, attempts, correct, low_ms, low_id, "
                "median_ms) VALUES (1, 'rp.bet_payout', 1, 'practice', ?, 1, 900, 1, 900) "
                "ON CONFLICT DO UPDATE SET attempts = excluded.attempts",
                [attempts],
            )
            writer.execute(
                "INSERT INTO group_wrong (group_id, kind, level, mode, answer, n, drill_id) "
                "VALUES (1, 'rp.bet_payout', 1, 'practice', '\"5\"', 1, 1) "
                "ON CONFLICT DO UPDATE SET n = n + 1"
            )

    answered_wrong(2)  # one right, one wrong

    [item] = _read_with_a_write_between(  # after the attempts were read, before the wrong answers
        reader, "FROM group_wrong", lambda: answered_wrong(3), lambda: Groups(reader).item_details(1)
    )
    assert (item["attempts"], [w["count"] for w in item["wrong_answers"]]) == (2, [1])
    [item] = Groups(reader).item_details(1)
    assert (item["attempts"], [w["count"] for w in item["wrong_answers"]]) == (3, [2])
    reader.conn.close()
    writer.conn.close()
