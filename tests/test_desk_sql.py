"""The desk's figures counted in SQLite (`Groups.report`, `readiness_of`, `Groups.item_analysis`, a
trainee's page of answers with LIMIT) against the Python computations they replaced, kept here as
the reference, on many generated groups: members with several membership periods (overlapping,
touching, empty, still open), former members, answers before, between and after the periods, ties
in times and in answer times, and small readiness windows. The membership rule (`while_member`)
is the reference's: what the new queries read must be exactly what it keeps."""

from __future__ import annotations

import random
import re
import statistics
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from conftest import memory_db
from flask import render_template_string
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.accounts_helpers import signed_in
from trainer.drills import REGISTRY, issue
from trainer.drills.base import expected_of
from trainer.games import GAMES
from trainer.store.groups import Groups, readable_answer
from trainer.store.periods import during, member_spans, while_member
from trainer.store.readiness import Target, readiness_of, verdict
from trainer.web.core import db as web_db
from trainer.web.groups.views import heat, practising_under

START = datetime(2026, 1, 1, tzinfo=UTC)
KINDS = sorted(REGISTRY)


def _iso(minutes: float) -> str:
    return (START + timedelta(minutes=minutes)).isoformat(timespec="microseconds")


# The reference: the code the SQL replaced --------------------------------------------------------


def old_readiness(db: Any, trainee_id: int, kinds: Any, target: Target, *, group_id: int | None) -> Any:
    kinds = sorted(set(kinds))
    if not kinds:
        return verdict([], target)
    marks = ", ".join("?" for _ in kinds)
    seen, seen_params = while_member(group_id, "a.trainee_id", "a.answered_at")
    rows = db.query(
        f"""SELECT a.correct, a.time_ms FROM attempts a JOIN drills d ON d.id = a.drill_id
            WHERE a.trainee_id = ? AND d.level >= ? AND a.kind IN ({marks}) AND {seen}
            ORDER BY a.answered_at DESC, a.id DESC LIMIT ?""",
        [trainee_id, target.min_level, *kinds, *seen_params, target.window],
    )
    newest_first = [(bool(r["correct"]), int(r["time_ms"])) for r in rows]
    return verdict(newest_first[::-1], target)


def old_report(groups: Groups, group_id: int) -> dict[str, Any]:
    members = groups.members(group_id)
    ids = [int(m["id"]) for m in members]
    per: dict[int, dict[str, list[tuple[int, int]]]] = {i: {} for i in ids}
    last: dict[int, str | None] = dict.fromkeys(ids)
    if ids:
        marks = ", ".join("?" for _ in ids)
        seen, seen_params = while_member(group_id)
        for row in groups.db.query(
            f"SELECT trainee_id, kind, correct, time_ms, answered_at FROM attempts "
            f"WHERE trainee_id IN ({marks}) AND {seen} ORDER BY answered_at",
            [*ids, *seen_params],
        ):
            who = int(row["trainee_id"])
            per[who].setdefault(row["kind"], []).append((int(row["correct"]), int(row["time_ms"])))
            last[who] = row["answered_at"]
    order = [kind for game in GAMES for kind in game.kinds]
    answered = {kind for kinds in per.values() for kind in kinds}
    kinds = [k for k in order if k in answered] + sorted(answered - set(order))
    targets = {game.id: groups.target(group_id, game.id) for game in GAMES}
    trainees = []
    for member in members:
        who = int(member["id"])
        cells = {}
        for kind, marks_ in per[who].items():
            cells[kind] = {
                "attempts": len(marks_),
                "correct": sum(c for c, _ in marks_),
                "accuracy": sum(c for c, _ in marks_) / len(marks_),
                "median_ms": float(statistics.median(ms for _, ms in marks_)),
            }
        ready = {
            game.id: old_readiness(groups.db, who, game.kinds, targets[game.id], group_id=group_id).to_json()
            for game in GAMES
        }
        trainees.append({**member, "kinds": cells, "readiness": ready, "last_activity": last[who]})
    return {"group": groups.group(group_id), "kinds": kinds, "trainees": trainees, "targets": targets}


def old_item_analysis(groups: Groups, group_id: int, *, wrong: int = 3) -> list[dict[str, Any]]:
    members = "trainee_id IN (SELECT user_id FROM memberships WHERE group_id = ?)"
    seen, seen_params = while_member(group_id)
    members = f"{members} AND {seen}"
    params = [group_id, *seen_params]
    marks: dict[str, list[tuple[int, int]]] = {}
    for row in groups.db.query(f"SELECT kind, correct, time_ms FROM attempts WHERE {members}", params):
        marks.setdefault(row["kind"], []).append((int(row["correct"]), int(row["time_ms"])))
    common: dict[str, list[dict[str, Any]]] = {}
    for row in groups.db.query(
        f"""SELECT kind, answer, count(*) AS n FROM attempts WHERE {members} AND correct = 0
            GROUP BY kind, answer ORDER BY kind, n DESC, answer""",
        params,
    ):
        found = common.setdefault(row["kind"], [])
        if len(found) < wrong:
            found.append({"answer": readable_answer(row["answer"]), "count": row["n"]})
    order = {kind: i for i, kind in enumerate(k for game in GAMES for k in game.kinds)}
    return [
        {
            "kind": kind,
            "attempts": len(rows),
            "accuracy": sum(c for c, _ in rows) / len(rows),
            "median_ms": float(statistics.median(ms for _, ms in rows)),
            "wrong_answers": common.get(kind, []),
        }
        for kind, rows in sorted(marks.items(), key=lambda item: (order.get(item[0], 10**6), item[0]))
    ]


# Generated groups --------------------------------------------------------------------------------


def _insert(db: Any, table: str, row: dict[str, Any]) -> int:
    """`row` written as sqlite-utils' `db[table].insert(row)` writes it (the same statement), without
    the look at the schema it takes on every call: a third of this file's CPU went there, 89,000 rows
    in its generated groups. The new row's id."""
    columns = ", ".join(f"[{column}]" for column in row)
    marks = ", ".join("?" for _ in row)
    sql = f"INSERT INTO [{table}] ({columns}) VALUES ({marks})"
    return db.conn.execute(sql, list(row.values())).lastrowid


def make_group(seed: int, db: Any = None) -> tuple[Groups, int, list[int]]:
    """A group with members, former members and outsiders, random periods and answers (in `db`, or
    a new database)."""
    rng = random.Random(seed)
    db = memory_db() if db is None else db
    groups = Groups(db)
    people = rng.randint(1, 9)
    ids = list(range(1, people + 2))  # id 1: the instructor
    with db.conn:
        for i in ids:
            _insert(db, "trainees", {"id": i, "name": None, "created_at": _iso(0)})
            _insert(
                db,
                "users",
                {
                    "id": i,
                    "username": f"u{i}",
                    "username_key": f"u{i}",
                    "display_name": rng.choice(["Same", f"Name {i}"]),
                    "password_hash": None,
                    "role": "instructor" if i == 1 else "trainee",
                    "created_at": _iso(0),
                },
            )
        group_id = _insert(
            db, "groups", {"name": "G", "owner_id": 1, "join_code": "AAAA-BBBB", "created_at": _iso(0)}
        )
        other = _insert(
            db, "groups", {"name": "H", "owner_id": 1, "join_code": "CCCC-DDDD", "created_at": _iso(0)}
        )
        for game in rng.sample(GAMES, rng.randint(0, len(GAMES))):
            _insert(
                db,
                "group_targets",
                {
                    "group_id": group_id,
                    "game": game.id,
                    "accuracy": rng.choice([0.5, 0.8, 1.0]),
                    "window": rng.choice([1, 2, 3, 5, 8]),
                    "min_level": rng.randint(1, 3),
                    "median_seconds": rng.choice([0.5, 3, 10]),
                },
            )
        drill = 0
        for user in ids[1:]:
            status = rng.choice(["member", "member", "former", "outsider"])
            moments = sorted(rng.choice([rng.uniform(0, 1000), 100.0, 500.0]) for _ in range(6))
            periods: list[tuple[str, str | None]] = []
            if status != "outsider":
                for start, end in zip(moments[0::2], moments[1::2], strict=True):
                    if rng.random() < 0.6:
                        periods.append((_iso(start), _iso(end)))
                if rng.random() < 0.3:  # an overlapping or empty one, as a clock set back would make
                    a, b = sorted(rng.uniform(0, 1000) for _ in range(2))
                    periods.append((_iso(b), _iso(a)) if rng.random() < 0.3 else (_iso(a), _iso(b)))
                if status == "member":
                    periods.append((_iso(rng.choice([moments[-1], rng.uniform(0, 1000)])), None))
            for joined, left in periods:
                _insert(
                    db,
                    "membership_periods",
                    {"group_id": group_id, "user_id": user, "joined_at": joined, "left_at": left},
                )
            if rng.random() < 0.3:
                _insert(
                    db,
                    "membership_periods",
                    {"group_id": other, "user_id": user, "joined_at": _iso(0), "left_at": None},
                )
            if status == "member":
                _insert(db, "memberships", {"group_id": group_id, "user_id": user, "joined_at": _iso(0)})
            kinds = rng.sample(KINDS, rng.randint(1, 6))
            for _ in range(rng.randint(0, 60)):
                drill += 1
                kind = rng.choice(kinds)
                when = _iso(rng.choice([rng.uniform(0, 1100), 100.0, 500.0, 700.0]))
                correct = rng.random() < 0.7
                _insert(
                    db,
                    "drills",
                    {
                        "id": drill,
                        "trainee_id": user,
                        "kind": kind,
                        "level": rng.choice(REGISTRY[kind].levels),
                        "seed": 1,
                        "version": 1,
                        "situation": "{}",
                        "mode": "practice",
                        "issued_at": when,
                        "answered": 1,
                    },
                )
                _insert(
                    db,
                    "attempts",
                    {
                        "id": drill,
                        "drill_id": drill,
                        "trainee_id": user,
                        "kind": kind,
                        "raw": "1",
                        "answer": rng.choice(['"yes"', '"no"', "[2, 3]", "1400"]),
                        "expected": '"yes"',
                        "correct": int(correct),
                        "time_ms": rng.choice([rng.randint(300, 20000), 1000, 2000]),
                        "mode": "practice",
                        "answered_at": when,
                    },
                )
    return groups, group_id, ids[1:]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32))
def test_the_report_in_sql_is_the_python_report(seed: int) -> None:
    groups, group_id, _ = make_group(seed)
    assert groups.report(group_id) == old_report(groups, group_id)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32))
def test_one_members_report_is_his_row_of_the_groups(seed: int) -> None:
    groups, group_id, _ = make_group(seed)
    whole = old_report(groups, group_id)
    for row in whole["trainees"]:
        mine = groups.report(group_id, trainee_id=row["id"])
        assert mine["trainees"] == [row]
        assert set(mine["kinds"]) == set(row["kinds"])


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32))
def test_the_item_analysis_in_sql_is_the_python_one(seed: int) -> None:
    groups, group_id, _ = make_group(seed)
    assert groups.item_analysis(group_id) == old_item_analysis(groups, group_id)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 7))
def test_a_page_of_answers_is_the_slice_of_all_of_them(seed: int, size: int) -> None:
    groups, group_id, users = make_group(seed)
    for user in users:  # former members and outsiders too: their time in the group, or nothing
        every = groups.attempts(group_id, trainee_id=user)[::-1]
        assert groups.attempt_count(group_id, trainee_id=user) == len(every)
        for start in range(0, len(every) + size, size):
            page = groups.attempts(group_id, trainee_id=user, newest_first=True, limit=size, offset=start)
            assert page == every[start : start + size]


@settings(max_examples=6, deadline=None)  # each a generated group; the suite's time is near its limit
@given(st.integers(0, 2**32), st.sampled_from([None, "rp.qualify"]), st.sampled_from([None, 3]))
def test_the_streamed_export_is_the_groups_attempts_oldest_first(seed, kind, day) -> None:
    groups, group_id, _ = make_group(seed)
    since = until = None
    if day is not None:  # a few days of the generated answers' span
        every = groups.attempts(group_id)
        if every:
            since = every[len(every) // 3]["answered_at"][:10]
            until = every[2 * len(every) // 3]["answered_at"][:10]
    wanted = groups.attempts(group_id, since=since, until=until, kind=kind)
    assert list(groups.streamed_attempts(group_id, since=since, until=until, kind=kind)) == wanted
    assert not groups.db.conn.in_transaction  # its read transaction ended with it


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32))
def test_readiness_without_a_group_reads_every_answer(seed: int) -> None:
    groups, _, users = make_group(seed)
    target = Target(accuracy=0.5, window=3, min_level=1, median_seconds=5)
    games = {game.id: (game.kinds, target) for game in GAMES}
    ready = readiness_of(groups.db, users, games)
    for user in users:
        for game in GAMES:
            assert ready[user, game.id] == old_readiness(groups.db, user, game.kinds, target, group_id=None)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32))
def test_the_stretches_keep_exactly_what_while_member_keeps(seed: int) -> None:
    groups, group_id, users = make_group(seed)
    spans = member_spans(groups.db, group_id, users)
    for user in users:
        seen, params = while_member(group_id)
        expected = [
            r[0]
            for r in groups.db.execute(
                f"SELECT id FROM attempts WHERE trainee_id = ? AND {seen} ORDER BY id", [user, *params]
            )
        ]
        inside, more = during(spans[user])
        found = [
            r[0]
            for r in groups.db.execute(
                f"SELECT id FROM attempts WHERE trainee_id = ? AND ({inside}) ORDER BY id", [user, *more]
            )
        ]
        assert found == expected
        for (_, left), (joined, _) in zip(spans[user], spans[user][1:], strict=False):
            assert left is not None and left < joined  # disjoint, oldest first


def test_many_members_take_several_compound_statements() -> None:
    """Hundreds of (trainee, game) pairs: readiness reads every one."""
    groups, _, users = make_group(3)
    target = Target(accuracy=0.5, window=2, min_level=1, median_seconds=5)
    games = {f"g{n}": (KINDS, target) for n in range(450)}  # 450 games x members: > 400 terms
    ready = readiness_of(groups.db, users, games)
    for user in users:
        expected = old_readiness(groups.db, user, KINDS, target, group_id=None)
        assert all(ready[user, game] == expected for game in games)


# The heat map's cells: translated once per request, the same text as the template gave per cell --

OLD_CELL = (
    '<td class="num heat heat-{{ heat(c.accuracy) }}" tabindex="0" data-kind="{{ k }}">'
    '{{ (100 * c.accuracy)|round|int }}%<span class="tip">'
    '{{ ngettext("%(num)s\u00a0answer", "%(num)s\u00a0answers", c.attempts) }}, '
    '{{ _("median %(s)s\u00a0s", s=(c.median_ms / 1000)|round(1)) }}</span></td>'
)


# The cells of a member's row between his name and his last activity, as the template wrote them
# per member and game before `member_cells`.
OLD_MEMBER_CELLS = (
    '{% from "groups/readiness.html" import verdict %}'
    '{% set w = {"ready": _("Ready"), "not_yet": _("Not yet"), "too_few": _("Too few answers"),'
    ' "s": _("s")} %}\n'
    '  {% set here_word = _("This group\'s rules") %}{% set other_word = _("Another group\'s rules") %}'
    '{% set none_word = _("The shipped rules (no group chosen)") %}\n'
    '    {% for g in games %}<td data-game="{{ g.id }}" data-status="{{ t.readiness[g.id].status }}">'
    "{{ verdict(t.readiness[g.id], w) }}</td>{% endfor %}\n"
    '    {% set p = practising[t.id] %}<td data-practising="{{ p.where }}">{% if p.where == "here" %}'
    '{{ here_word }}{% elif p.where == "other" %}{{ other_word }}{% else %}{{ none_word }}{% endif %}\n'
    '      <span class="muted practice-titles">{% for g in games %}{{ tr(p.titles[g.id]) }}'
    "{% if not loop.last %}; {% endif %}{% endfor %}</span></td>\n"
)


@pytest.mark.parametrize("locale", ["en", "ka", "ru"])
def test_heat_map_and_member_cells_are_what_the_template_gave_per_cell(app, locale):
    teacher = signed_in(app, "teacher", "instructor")
    made = teacher.post("/groups/new", data={"name": "Evening class"})
    group_id = int(made.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    signed_in(app, "trainee.one")
    with app.app_context():
        groups = web_db.groups()
        user = groups.db.execute("SELECT id FROM users WHERE username = 'trainee.one'").fetchone()[0]
        groups.add_member(group_id, user)
        store = web_db.store()
        # 1, 2, 5, 21 and 22 answers: each plural form of ka and ru; medians such as 1.25 s and 1.3 s
        for kind, count in zip(
            ("rp.qualify", "rp.bet_payout", "rp.bonus_payout", "om.high", "pp.score"),
            (1, 2, 5, 21, 22),
            strict=True,
        ):
            for n in range(count):
                situation = issue(kind, REGISTRY[kind].levels[0])
                right = str(expected_of(situation)[0])
                store.answer(store.save_drill(user, situation), right, time_ms=1250 + 50 * (n % 3))
        # Each verdict: ready (Russian poker), not yet (Omaha: too slow), too few (painted poker).
        groups.set_target(group_id, "russian_poker", Target(0.9, 3, 1, 10))
        groups.set_target(group_id, "omaha", Target(0.9, 5, 1, 0.5))
        groups.practise_for(user, group_id)
    teacher.post("/language", data={"lang": locale})
    page = teacher.get(f"/groups/{group_id}").get_data(as_text=True)
    cells = re.findall(r'<td class="num heat heat-.*?</td>', page)
    with app.app_context():
        report = web_db.groups().report(group_id)
    [row] = report["trainees"]
    with app.test_request_context("/", headers={"Accept-Language": locale}):
        expected = [
            render_template_string(OLD_CELL, c=row["kinds"][k], k=k, heat=heat)
            for k in report["kinds"]
            if k in row["kinds"]
        ]
    assert len(cells) == 5
    assert cells == expected
    [shown] = re.findall(
        r'<td data-game=.*?<span class="muted practice-titles">.*?</span></td>\n', page, re.S
    )
    with app.test_request_context("/", headers={"Accept-Language": locale}):
        practising = practising_under(group_id, report["trainees"], web_db.groups().rules(group_id))
        wanted = render_template_string(OLD_MEMBER_CELLS, t=row, games=GAMES, practising=practising)
    assert shown == wanted + "\n"  # the template went on with the next cell on its next line
    assert [r["status"] for r in row["readiness"].values()] == ["ready", "not_yet", "too_few"]
    assert practising[row["id"]]["where"] == "here"
    assert (locale == "en") == ("answers" in " ".join(cells))  # the page's language, in both
