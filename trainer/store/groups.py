"""Groups: an instructor's classes or shifts, joined with a code; per group and game the house rules
(a shipped preset) and the readiness target; the group a trainee is practising for; and what the
instructor's desk reads (`report`, `attempts`).

>>> from trainer.store.schema import open_db
>>> from trainer.store.accounts import FAST_HASHER, Accounts, Role
>>> db = open_db(":memory:")
>>> accounts = Accounts(db, hasher=FAST_HASHER)
>>> teacher = accounts.create_user("teacher", "a long secret", role=Role.INSTRUCTOR)
>>> trainee = accounts.sign_up("trainee.one", "a long secret")
>>> groups = Groups(db)
>>> evening = groups.create(teacher["id"], "Evening class")
>>> groups.join(trainee["id"], evening["join_code"].lower())["id"] == evening["id"]
True
>>> [m["username"] for m in groups.members(evening["id"])]
['trainee.one']
"""

from __future__ import annotations

import heapq
import json
import re
import secrets
import sqlite3
import zoneinfo
from collections.abc import Iterator
from typing import Any

from sqlite_utils import Database

from trainer.drills.mistakes import mistake_title
from trainer.engine.presets import HouseTexts, PresetError
from trainer.games import BY_ID, GAMES, game_of
from trainer.store.accounts import CODE_ALPHABET, AccountError, Role
from trainer.store.clock import Clock
from trainer.store.clock import iso as _iso
from trainer.store.clock import utc_now as _utc_now
from trainer.store.house_rules import house_name
from trainer.store.medians import add_median
from trainer.store.periods import IN_SPAN, Span, during, each_select, member_spans, spans_table, while_member
from trainer.store.progress import NotFoundError, on_days, row_by_id
from trainer.store.readiness import Target, default_target, readiness_of
from trainer.store.schema import equal_to, insert, reading, writing

NAME_MAX = 60
# Letters and digits of any script, spaces and a few signs: the API document states the same pattern.
NAME_PATTERN = rf"[^\W_][\w .,'&()/-]{{0,{NAME_MAX - 1}}}"
JOIN_CODE_LENGTH = 8
HOUSE_TEXT_MAX = 20_000


def _now(clock: Clock) -> str:
    return _iso(clock())


def new_join_code() -> str:
    """A code such as "Q7MK-2TXA" a trainee types to join (about 40 bits: not guessable by trying)."""
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(JOIN_CODE_LENGTH))
    return f"{raw[:4]}-{raw[4:]}"


def clean_join_code(code: Any) -> str:
    if not isinstance(code, str):
        return ""
    raw = "".join(ch for ch in code.upper() if ch.isalnum())
    return f"{raw[:4]}-{raw[4:]}" if len(raw) == JOIN_CODE_LENGTH else raw


def clean_group_name(name: Any) -> str:
    text = name.strip() if isinstance(name, str) else ""
    if not text:
        raise AccountError("group_name_missing")
    if re.fullmatch(NAME_PATTERN, text) is None:
        raise AccountError("group_name_long", max=NAME_MAX)
    return " ".join(text.split())


class Groups:
    """Groups, members, and each group's settings per game, over one sqlite-utils `Database`."""

    def __init__(self, db: Database, *, clock: Clock = _utc_now) -> None:
        self.db = db
        self.clock = clock
        add_median(db.conn)

    # Groups and members ----------------------------------------------------------------------------

    def create(self, owner_id: int, name: Any) -> dict[str, Any]:
        owner = list(self.db.query("SELECT role FROM users WHERE id = ?", [owner_id]))
        if not owner or owner[0]["role"] != Role.INSTRUCTOR:
            raise AccountError("not_instructor")
        text = clean_group_name(name)
        for _ in range(5):
            try:
                with writing(self.db):
                    pk = insert(
                        self.db,
                        "groups",
                        {
                            "name": text,
                            "owner_id": owner_id,
                            "join_code": new_join_code(),
                            "created_at": _now(self.clock),
                        },
                    )
                return self.group(pk)
            except sqlite3.IntegrityError:
                continue  # the same join code drawn twice: draw again
        raise AccountError("try_again")

    def group(self, group_id: Any) -> dict[str, Any]:
        return row_by_id(self.db, "groups", group_id, "group")

    def owned_group(self, group_id: Any, owner_id: int) -> dict[str, Any]:
        """The group if `owner_id` owns it; `NotFoundError` otherwise (another's group does not exist)."""
        group = self.group(group_id)
        if group["owner_id"] != owner_id:
            raise NotFoundError(f"no group {group_id}")
        return group

    def owned_by(self, owner_id: int) -> list[dict[str, Any]]:
        return list(
            self.db.query(
                """SELECT g.*, (SELECT count(*) FROM memberships m WHERE m.group_id = g.id) AS members
                   FROM groups g WHERE owner_id = ? ORDER BY g.name COLLATE NOCASE, g.id""",
                [owner_id],
            )
        )

    def of_member(self, user_id: int) -> list[dict[str, Any]]:
        return list(
            self.db.query(
                """SELECT g.*, u.display_name AS owner_name FROM groups g
                   JOIN memberships m ON m.group_id = g.id JOIN users u ON u.id = g.owner_id
                   WHERE m.user_id = ? ORDER BY g.name COLLATE NOCASE, g.id""",
                [user_id],
            )
        )

    def is_member(self, group_id: int, user_id: int) -> bool:
        return bool(
            list(
                self.db.query(
                    "SELECT 1 FROM memberships WHERE group_id = ? AND user_id = ?", [group_id, user_id]
                )
            )
        )

    def join(self, user_id: int, code: Any) -> dict[str, Any]:
        """Join the group with this code (any case, with or without the dash); joining twice is fine.
        Joining is the trainee's own act: no route lets anyone else put him in a group."""
        rows = list(self.db.query("SELECT * FROM groups WHERE join_code = ?", [clean_join_code(code)]))
        if not rows:
            raise AccountError("join_code_wrong")
        self.add_member(int(rows[0]["id"]), user_id)
        return rows[0]

    def add_member(self, group_id: int, user_id: int) -> None:
        """Make the user a member from now on (a new membership period); already a member: nothing.
        Called by `join`, for the trainee's own request (and by whatever else may ever bring a trainee
        into a group). A user practising for no group practises for this one from now on, in the same
        transaction: whichever way he comes in, his drills follow the group's house rules."""
        self.group(group_id)
        if not list(self.db.query("SELECT 1 FROM users WHERE id = ?", [user_id])):
            raise NotFoundError(f"no user {user_id}")
        with writing(self.db):
            now = _now(self.clock)  # under the lock: periods and codes are ordered as written
            cursor = self.db.execute(
                "INSERT OR IGNORE INTO memberships (group_id, user_id, joined_at) VALUES (?, ?, ?)",
                [group_id, user_id, now],
            )
            if cursor.rowcount == 1:
                self.db.execute(
                    "INSERT INTO membership_periods (group_id, user_id, joined_at) VALUES (?, ?, ?)",
                    [group_id, user_id, now],
                )
                self.db.execute(
                    "UPDATE users SET practice_group_id = ? WHERE id = ? AND practice_group_id IS NULL",
                    [group_id, user_id],
                )

    def remove_member(self, group_id: int, user_id: int) -> bool:
        """The member leaves (his own choice, or his instructor's): his period in the group ends now,
        so the group's instructor no longer sees what he does from here on."""
        with writing(self.db):
            now = _now(self.clock)
            cursor = self.db.execute(
                "DELETE FROM memberships WHERE group_id = ? AND user_id = ?", [group_id, user_id]
            )
            self.db.execute(
                "UPDATE membership_periods SET left_at = ? "
                "WHERE group_id = ? AND user_id = ? AND left_at IS NULL",
                [now, group_id, user_id],
            )
            # Practising for the group he leaves: he practises for his earliest other group, if any
            # (not the shipped rules while he is still in a group).
            self.db.execute(
                """UPDATE users SET practice_group_id = (
                       SELECT m.group_id FROM memberships m WHERE m.user_id = users.id
                       ORDER BY m.joined_at, m.group_id LIMIT 1)
                   WHERE id = ? AND practice_group_id = ?""",
                [user_id, group_id],
            )
        return cursor.rowcount == 1

    def answered_while_member(self, group_id: int, user_id: int, drill_id: int) -> bool:
        """Was the user's answer to this drill given while he was in the group?"""
        seen, params = while_member(group_id, "a.trainee_id", "a.answered_at")
        return bool(
            list(
                self.db.query(
                    f"SELECT 1 FROM attempts a WHERE a.drill_id = ? AND a.trainee_id = ? AND {seen}",
                    [drill_id, user_id, *params],
                )
            )
        )

    def periods(self, group_id: int, user_id: int) -> list[dict[str, Any]]:
        """The times the user was in the group, oldest first (`left_at` None: still in it)."""
        return list(
            self.db.query(
                "SELECT joined_at, left_at FROM membership_periods WHERE group_id = ? AND user_id = ? "
                "ORDER BY joined_at, id",
                [group_id, user_id],
            )
        )

    def members(self, group_id: int) -> list[dict[str, Any]]:
        return list(
            self.db.query(
                """SELECT u.id, u.username, u.display_name, u.password_hash IS NULL AS unclaimed,
                          m.joined_at, u.practice_group_id
                   FROM memberships m JOIN users u ON u.id = m.user_id
                   WHERE m.group_id = ? ORDER BY u.display_name COLLATE NOCASE, u.id""",
                [group_id],
            )
        )

    def new_code(self, group_id: int) -> dict[str, Any]:
        """A fresh join code (the old one stops working: for a code that was passed around)."""
        for _ in range(5):
            try:
                with writing(self.db):
                    self.db.execute(
                        "UPDATE groups SET join_code = ? WHERE id = ?", [new_join_code(), group_id]
                    )
                return self.group(group_id)
            except sqlite3.IntegrityError:
                continue
        raise AccountError("try_again")

    def set_time_zone(self, group_id: int, zone: str | None) -> dict[str, Any]:
        """The group's own time zone (an IANA name), or None: the instance's."""
        if zone is not None and zone not in zoneinfo.available_timezones():
            raise AccountError("time_zone_unknown")
        with writing(self.db):
            self.db.execute("UPDATE groups SET time_zone = ? WHERE id = ?", [zone, group_id])
        return self.group(group_id)

    def rename(self, group_id: int, name: Any) -> dict[str, Any]:
        with writing(self.db):
            self.db.execute("UPDATE groups SET name = ? WHERE id = ?", [clean_group_name(name), group_id])
        return self.group(group_id)

    def instructs(self, instructor_id: int, user_id: int) -> bool:
        """Does the instructor own a group the user is in?"""
        return bool(
            list(
                self.db.query(
                    """SELECT 1 FROM memberships m JOIN groups g ON g.id = m.group_id
                       WHERE g.owner_id = ? AND m.user_id = ? LIMIT 1""",
                    [instructor_id, user_id],
                )
            )
        )

    # The group a trainee practises for -------------------------------------------------------------

    def practising_for(self, user_id: int) -> dict[str, Any] | None:
        rows = list(
            self.db.query(
                """SELECT g.* FROM users u JOIN groups g ON g.id = u.practice_group_id
                   JOIN memberships m ON m.group_id = g.id AND m.user_id = u.id WHERE u.id = ?""",
                [user_id],
            )
        )
        return rows[0] if rows else None

    def practise_for(self, user_id: int, group_id: int | None) -> None:
        """Choose the group whose house rules and targets the user's practice follows (None: none)."""
        if group_id is not None and not self.is_member(group_id, user_id):
            raise NotFoundError(f"no group {group_id}")
        with writing(self.db):
            self.db.execute("UPDATE users SET practice_group_id = ? WHERE id = ?", [group_id, user_id])

    # Pace ------------------------------------------------------------------------------------------

    def paces(self, group_id: int | None) -> dict[str, float]:
        """The group's own targets per drill kind, in seconds (none: the school's hold)."""
        if group_id is None:
            return {}
        rows = self.db.execute("SELECT kind, seconds FROM group_paces WHERE group_id = ?", [group_id])
        return {str(kind): float(seconds) for kind, seconds in rows.fetchall()}

    def set_pace(self, group_id: int, kind: str, seconds: float | None) -> None:
        """Set the group's target for a kind (None: back to the school's)."""
        with writing(self.db):
            if seconds is None:
                self.db.execute("DELETE FROM group_paces WHERE group_id = ? AND kind = ?", [group_id, kind])
            else:
                self.db.execute(
                    """INSERT INTO group_paces (group_id, kind, seconds, updated_at) VALUES (?, ?, ?, ?)
                       ON CONFLICT (group_id, kind) DO UPDATE SET seconds = excluded.seconds,
                       updated_at = excluded.updated_at""",
                    [group_id, kind, float(seconds), _now(self.clock)],
                )

    # Readiness targets -----------------------------------------------------------------------------

    def target(self, group_id: int | None, game: str) -> Target:
        """The group's readiness target for the game, or the default from data/readiness.toml."""
        if group_id is not None:
            rows = list(
                self.db.query(
                    "SELECT accuracy, window, min_level, median_seconds FROM group_targets "
                    "WHERE group_id = ? AND game = ?",
                    [group_id, game],
                )
            )
            if rows:
                return Target.from_mapping(rows[0])
        return default_target()

    def set_target(self, group_id: int, game: str, target: Target) -> None:
        with writing(self.db):
            self.db.table("group_targets").upsert(
                {"group_id": group_id, "game": game, **target.to_json()}, pk=("group_id", "game")
            )

    # House rules -----------------------------------------------------------------------------------

    def rules(self, group_id: int) -> dict[str, str]:
        """The group's preset per game id; a game without a choice uses the game's default preset."""
        chosen = {
            row["game"]: row["preset"]
            for row in self.db.query("SELECT game, preset FROM group_rules WHERE group_id = ?", [group_id])
        }
        return {game.id: chosen.get(game.id, game.default_preset) for game in GAMES}

    def set_rules(self, group_id: int, game: str, preset: str) -> None:
        """Choose the preset the group's drills of this game use: shipped, or a house copy."""
        if game not in BY_ID:
            raise AccountError("game_unknown")
        if preset not in BY_ID[game].preset_names() and self.house_text(game, preset) is None:
            raise AccountError("preset_unknown")
        with writing(self.db):
            self.db.table("group_rules").upsert(
                {"group_id": group_id, "game": game, "preset": preset, "updated_at": _now(self.clock)},
                pk=("group_id", "game"),
            )

    def save_house_rules(self, game: str, text: Any, made_by: int | None) -> str:
        """Check an edited copy of a preset with the game's own rules loader and keep it; its name.

        The text is handed to the loader as it is (never written to a file) and loaded as any
        shipped preset would be; it is kept in the `house_rules` table, where `self.houses` (the
        engine's `HouseSource`) finds it. A refusal is `AccountError("rules_invalid", detail=...)`
        naming the key and row."""
        if game not in BY_ID:
            raise AccountError("game_unknown")
        if not isinstance(text, str) or not text.strip() or len(text) > HOUSE_TEXT_MAX:
            raise AccountError(
                "rules_invalid", detail=f"the text is empty or over {HOUSE_TEXT_MAX} characters"
            )
        text = text.replace("\r\n", "\n")
        name = house_name(text)
        found = BY_ID[game]
        try:
            found.load_rules(name, HouseTexts.of(found.slug, name, text))
        except (PresetError, ValueError, TypeError, KeyError) as error:
            detail = str(error).replace(f"{name}.toml", "").lstrip(": ") or "not usable"
            refusal = error if isinstance(error, PresetError) else None
            raise AccountError("rules_invalid", detail=detail, refusal=refusal) from None
        with writing(self.db):
            self.db.execute(
                """INSERT OR IGNORE INTO house_rules (game, name, text, made_by, created_at)
                   VALUES (?, ?, ?, ?, ?)""",
                [game, name, text, made_by, _now(self.clock)],
            )
        return name

    def house_text(self, game: str, name: str) -> str | None:
        rows = list(self.db.query("SELECT text FROM house_rules WHERE game = ? AND name = ?", [game, name]))
        return str(rows[0]["text"]) if rows else None

    def house_rules_by(self, made_by: int, game: str) -> list[dict[str, Any]]:
        """The instructor's edited copies of the game's rules, oldest first: name and when saved."""
        return list(
            self.db.query(
                "SELECT name, created_at FROM house_rules WHERE made_by = ? AND game = ? ORDER BY id",
                [made_by, game],
            )
        )

    def rules_for_kind(self, group_id: int | None, kind: str) -> str | None:
        """The preset a drill of this kind uses for the group (None: no group, the default)."""
        game = game_of(kind)
        if group_id is None or game is None:
            return None
        return self.rules(group_id)[game.id]

    # The desk ---------------------------------------------------------------------------------------

    def report(self, group_id: int, *, trainee_id: int | None = None) -> dict[str, Any]:
        """Per member: attempts, correct and median time per drill kind, readiness per game (by the
        group's targets), last activity; the kinds answered in the group, in catalog order. With
        `trainee_id`, that member only (his page: the rest of the group is not read).

        A row per (member, kind) from `kind_totals` (kept by triggers as answers are written) when
        one of his stretches in the group (`member_spans`) holds all his answers of the kind, as
        it does for a member since before his first answer; a member with answers outside his
        stretches has them counted in SQLite from the answers within (`_member_terms`). Readiness
        for all members along the indexes with LIMIT (`readiness_of`). No row per answer reaches
        Python. All in one read transaction (`reading`): an answer written meanwhile is in every
        figure or in none."""
        with reading(self.db):  # the members, their totals and readiness of one moment
            members = self.members(group_id)
            if trainee_id is not None:
                members = [m for m in members if m["id"] == trainee_id]
            ids = [int(m["id"]) for m in members]
            per: dict[int, dict[str, dict[str, Any]]] = {i: {} for i in ids}
            rows, last = self._member_rows(group_id, ids)
            for who, kind, n, correct, median in rows:
                per[who][kind] = {
                    "attempts": n,
                    "correct": correct,
                    "accuracy": correct / n,
                    "median_ms": median,
                }
            order = [kind for game in GAMES for kind in game.kinds]
            answered = {kind for kinds in per.values() for kind in kinds}
            kinds = [k for k in order if k in answered] + sorted(answered - set(order))
            targets = {game.id: self.target(group_id, game.id) for game in GAMES}
            ready = readiness_of(
                self.db,
                ids,
                {game.id: (game.kinds, targets[game.id]) for game in GAMES},
                group_id=group_id,
                members=True,
            )
            trainees = [
                {
                    **member,
                    "kinds": per[int(member["id"])],
                    "readiness": {game.id: ready[int(member["id"]), game.id].to_json() for game in GAMES},
                    "last_activity": last[int(member["id"])],
                }
                for member in members
            ]
            group = self.group(group_id)
        return {"group": group, "kinds": kinds, "trainees": trainees, "targets": targets}

    def _member_rows(
        self, group_id: int, ids: list[int]
    ) -> tuple[list[tuple[Any, ...]], dict[int, str | None]]:
        """(member, kind, attempts, correct, median time) of his answers while in the group, and
        each member's last answer in it: his `kind_totals` rows where a stretch of his holds every
        answer they count, else counted from the answers within his stretches. First and last
        answer per member are asked of SQLite (a row per member): where one stretch holds them,
        as it does for a member since before his first answer, his rows are read without their
        times (7,200 rows at 200 members, 12 -> 9 ms)."""
        spans = member_spans(self.db, group_id, ids)
        last: dict[int, str | None] = dict.fromkeys(ids)
        held, doubtful = [], []
        for chunk in _chunks(ids):
            for who, first, latest in self.db.execute(
                "SELECT trainee_id, min(first_at), max(last_at) FROM kind_totals "
                f"WHERE trainee_id IN ({', '.join('?' for _ in chunk)}) GROUP BY trainee_id",
                chunk,
            ):
                if _held(spans[who], first, latest):
                    held.append(who)
                    last[who] = latest
                else:
                    doubtful.append(who)
        totals: dict[int, list[tuple[Any, ...]]] = {who: [] for who in ids}
        for chunk in _chunks(held):
            for row in self.db.execute(
                "SELECT trainee_id, kind, attempts, correct, median_ms FROM kind_totals "
                f"WHERE trainee_id IN ({', '.join('?' for _ in chunk)}) ORDER BY trainee_id, kind",
                chunk,
            ):
                totals[row[0]].append(row)
        plain = []
        for chunk in _chunks(doubtful):
            timed: dict[int, list[tuple[Any, ...]]] = {who: [] for who in chunk}
            for row in self.db.execute(
                "SELECT trainee_id, kind, attempts, correct, median_ms, last_at, first_at FROM kind_totals "
                f"WHERE trainee_id IN ({', '.join('?' for _ in chunk)}) ORDER BY trainee_id, kind",
                chunk,
            ):
                timed[row[0]].append(row)
            for who, rows in timed.items():
                if _all_held(spans[who], rows):
                    totals[who] = [r[:5] for r in rows]
                    last[who] = max(r[5] for r in rows)
                else:
                    plain.append(who)
        for row in each_select(self.db, self._member_terms(group_id, plain, spans)):
            totals[row[0]].append(row[:5])
            last[row[0]] = max(last[row[0]] or row[5], row[5])
        return [row for who in ids for row in totals[who]], last

    def _member_terms(
        self, group_id: int, ids: list[int], spans: dict[int, list[Span]] | None = None
    ) -> list[tuple[str, list[Any]]]:
        """Per member, a SELECT of his (kind, attempts, correct, median time, last answer) while in
        the group, for `each_select`: the plain count, from his answers within his stretches."""
        if spans is None:
            spans = member_spans(self.db, group_id, ids)
        terms = []
        for who in ids:
            seen, params = during(spans[who])
            terms.append(
                (
                    f"""SELECT trainee_id, kind, count(*), sum(correct), median(time_ms), max(answered_at)
                        FROM attempts WHERE trainee_id = ? AND ({seen}) GROUP BY kind""",
                    [who, *params],
                )
            )
        return terms

    def attempts(
        self,
        group_id: int,
        *,
        since: str | None = None,
        until: str | None = None,
        kind: str | None = None,
        trainee_id: int | None = None,
        newest_first: bool = False,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[dict[str, Any]]:
        """The attempts answered while their trainee was in the group (a former member's too, from
        his time in it), oldest first (or `newest_first`), with the drill's level, rules and mode;
        `since` and `until` are ISO dates (UTC days, both included). `limit` and `offset` page in
        SQL: a trainee's page reads the 100 answers it shows, not all of them."""
        where, params = self._attempts_where(group_id, since, until, kind, trainee_id)
        order = "DESC" if newest_first else "ASC"
        paging = ""
        if limit is not None:
            paging = " LIMIT ? OFFSET ?"
            params += [limit, offset]
        return list(
            self.db.query(
                f"""SELECT a.id, a.drill_id, u.username, a.trainee_id, a.kind, d.level, d.rules, a.mode,
                           a.raw, a.answer, a.expected, a.correct, a.time_ms, a.mistake, a.answered_at
                    FROM attempts a JOIN drills d ON d.id = a.drill_id JOIN users u ON u.id = a.trainee_id
                    WHERE {where} ORDER BY a.answered_at {order}, a.id {order}{paging}""",
                params,
            )
        )

    def streamed_attempts(
        self, group_id: int, *, since: str | None = None, until: str | None = None, kind: str | None = None
    ) -> Iterator[dict[str, Any]]:
        """`attempts` (oldest first, the same rows and columns) as they are read: per trainee who was
        ever in the group, his answers within his stretches in it along the index of his answers by
        time (`attempts_trainee_order`), merged by time. The first rows come before the last are
        read, no sort of the whole group's answers is made, and the answers of trainees who were
        never in the group are not read (the plain query reads every answer in the database). All
        in one read transaction: one snapshot, whatever is written meanwhile."""
        ids = [
            row[0]
            for row in self.db.execute(
                "SELECT DISTINCT user_id FROM membership_periods WHERE group_id = ?", [group_id]
            )
        ]
        spans = member_spans(self.db, group_id, ids)
        days, day_params = on_days("a.answered_at", since, until)
        if kind:
            days, day_params = [*days, "a.kind = ?"], [*day_params, kind]
        names = [
            "id",
            "drill_id",
            "username",
            "trainee_id",
            "kind",
            "level",
            "rules",
            "mode",
            "raw",
            "answer",
            "expected",
            "correct",
            "time_ms",
            "mistake",
            "answered_at",
        ]
        columns = ", ".join(
            {"username": "u.username", "level": "d.level", "rules": "d.rules"}.get(name, f"a.{name}")
            for name in names
        )
        conn = self.db.conn
        began = not conn.in_transaction
        if began:
            conn.execute("BEGIN")
        try:
            streams = []
            for who in ids:
                if not spans[who]:
                    continue
                seen, params = during(spans[who], "a.answered_at")
                where = " AND ".join([f"({seen})", *days])
                cursor = conn.execute(
                    f"""SELECT a.answered_at, a.id, {columns}
                        FROM attempts a JOIN drills d ON d.id = a.drill_id JOIN users u ON u.id = a.trainee_id
                        WHERE a.trainee_id = ? AND {where} ORDER BY a.answered_at, a.id""",
                    [who, *params, *day_params],
                )
                streams.append(cursor)
            for row in heapq.merge(*streams):
                yield dict(zip(names, row[2:], strict=True))
        finally:
            if began and conn.in_transaction:
                conn.execute("COMMIT")

    def export_rows(
        self, group_id: int, *, after: str | None = None, before: str | None = None, kind: str | None = None
    ) -> list[dict[str, Any]]:
        """The rows of `attempts` (oldest first) for the spreadsheet export, read as they are written
        out: with the trainee's name, and the drill's stored answer format (`answer_format`, JSON
        text) by which the answers are worded. `after` and `before` are UTC instants in the stored
        ISO form (from the start of a local day, up to the start of the next), `kind` one drill."""
        where, params = self._attempts_where(group_id, None, None, kind, None)
        if after is not None:
            where, params = where + " AND a.answered_at >= ?", [*params, after]
        if before is not None:
            where, params = where + " AND a.answered_at < ?", [*params, before]
        return list(
            self.db.query(
                f"""SELECT a.answered_at, u.username, u.display_name, a.kind, d.level, d.rules, a.mode,
                       a.raw, a.answer, a.expected, a.correct, a.time_ms, a.mistake,
                       json_extract(d.situation, '$.answer_format') AS answer_format
                FROM attempts a JOIN drills d ON d.id = a.drill_id JOIN users u ON u.id = a.trainee_id
                WHERE {where} ORDER BY a.answered_at, a.id""",
                params,
            )
        )

    def attempt_count(self, group_id: int, *, trainee_id: int | None = None) -> int:
        """How many attempts `attempts` gives for the group (and trainee) without its filters."""
        where, params = self._attempts_where(group_id, None, None, None, trainee_id)
        return int(self.db.execute(f"SELECT count(*) FROM attempts a WHERE {where}", params).fetchone()[0])

    @staticmethod
    def _attempts_where(
        group_id: int, since: str | None, until: str | None, kind: str | None, trainee_id: int | None
    ) -> tuple[str, list[Any]]:
        clauses, params = on_days("a.answered_at", since, until)
        seen, seen_params = while_member(group_id, "a.trainee_id", "a.answered_at")
        # A blank kind (the export form's empty field) is no filter.
        given, given_params = equal_to(("a.kind", kind or None), ("a.trainee_id", trainee_id))
        return " AND ".join([*clauses, seen, *given]), [*params, *seen_params, *given_params]

    def item_analysis(self, group_id: int, *, wrong: int = 3) -> list[dict[str, Any]]:
        """Per drill kind the members answered: attempts, accuracy, median time and the `wrong` most
        common wrong answers (as the trainees typed them, normalised by the grader), catalog order.

        Read from the counts the triggers keep (`group_kinds`, `group_kind_wrong`; migration m023):
        a row per kind and the first `wrong` answers of each, the same figures as counting the
        answers (`item_analysis_counted`)."""
        tally = {
            kind: (n, correct, median)
            for kind, n, correct, median in self.db.execute(
                "SELECT kind, attempts, correct, median_ms FROM group_kinds WHERE group_id = ?", [group_id]
            )
        }
        common: dict[str, list[dict[str, Any]]] = {}
        for kind in tally:  # the first `wrong` along the index ordered by count
            common[kind] = [
                {"answer": readable_answer(answer), "count": n}
                for answer, n in self.db.execute(
                    "SELECT answer, n FROM group_kind_wrong WHERE group_id = ? AND kind = ? "
                    "ORDER BY n DESC, answer LIMIT ?",
                    [group_id, kind, wrong],
                )
            ]
        return _items_by_kind(tally, common)

    def item_analysis_counted(self, group_id: int, *, wrong: int = 3) -> list[dict[str, Any]]:
        """`item_analysis` counted from the members' answers within their stretches in the group."""
        ids = [int(m["id"]) for m in self.members(group_id)]
        spans, spans_params = spans_table(member_spans(self.db, group_id, ids))
        answers = f"WITH {spans} SELECT {{}} FROM spans s JOIN attempts a ON {IN_SPAN}"
        tally: dict[str, tuple[int, int, float]] = {}  # kind: attempts, correct, median time
        for kind, n, correct, median in self.db.execute(
            answers.format("a.kind, count(*), sum(a.correct), median(a.time_ms)") + " GROUP BY a.kind",
            spans_params,
        ):
            tally[kind] = (n, correct, median)
        common: dict[str, list[dict[str, Any]]] = {}
        for kind, answer, n in self.db.execute(
            answers.format("a.kind, a.answer, count(*) AS n")
            + " WHERE a.correct = 0 GROUP BY a.kind, a.answer ORDER BY a.kind, n DESC, a.answer",
            spans_params,
        ):
            found = common.setdefault(kind, [])
            if len(found) < wrong:
                found.append({"answer": readable_answer(answer), "count": n})
        return _items_by_kind(tally, common)

    def item_details(self, group_id: int, *, wrong: int = 3) -> list[dict[str, Any]]:
        """Item analysis per drill kind, level and mode (practice, sprint, quiz), catalog order then
        level and mode: attempts, accuracy, median time, the `wrong` most common wrong answers (the
        parsed answer as stored JSON, with the answer format of a drill it was given to, so that the
        page can word it) and the `wrong` most frequent catalogued mistakes (ids).

        Read from the counts the triggers keep (`group_items`, `group_wrong`,
        `group_item_mistakes`; migration m023): a row per kind, level and mode, and the `wrong`
        first of each's answers and mistakes, whatever the number of answers behind them; the same
        figures as counting the answers (`item_details_counted`). In one read transaction: a row's
        wrong answers are never counted from a later moment than its attempts."""
        with reading(self.db):
            return self._item_details(group_id, wrong)

    def _item_details(self, group_id: int, wrong: int) -> list[dict[str, Any]]:
        rows: dict[tuple[str, int, str], dict[str, Any]] = {}
        for kind, level, mode, n, correct, median in self.db.execute(
            "SELECT kind, level, mode, attempts, correct, median_ms FROM group_items WHERE group_id = ?",
            [group_id],
        ):
            rows[kind, level, mode] = _item_row(kind, level, mode, n, correct, median)
        sample: dict[int, list[dict[str, Any]]] = {}
        for (kind, level, mode), row in rows.items():
            # The first `wrong` of each along the indexes ordered by count (`..._rank`, m023).
            key = [group_id, kind, level, mode, wrong]
            for answer, drill_id, n in self.db.execute(_FIRST_WRONG, key):
                row["wrong_answers"].append({"answer": answer, "format": None, "count": n})
                sample.setdefault(int(drill_id), []).append(row["wrong_answers"][-1])
            for mistake, n in self.db.execute(_FIRST_MISTAKES, key):
                row["mistakes"].append({"mistake": mistake, "count": n})
        self._answer_formats(sample)
        return _items_in_order(rows)

    def mistakes(self, group_id: int, *, first: int | None = None) -> list[dict[str, Any]]:
        """The group's catalogued mistakes, most frequent first, each with how many of its members
        made it and how often in all, over the kinds (`stats.group_mistakes` of the members, read
        from the counts the triggers keep: `group_mistake_kinds`, `group_mistake_members`). With
        `first`, the first that many: the totals are summed in SQLite and the kinds read of those
        only (the desk shows ten of a hundred mistakes in thirty kinds). In one read transaction: a
        mistake first made between the reads is in all of them or in none."""
        with reading(self.db):
            totals: dict[str, dict[str, Any]] = {}
            for mistake, count in self.db.execute(
                "SELECT mistake, sum(n) FROM group_mistake_kinds WHERE group_id = ? GROUP BY mistake",
                [group_id],
            ):
                totals[mistake] = {"mistake": mistake, "count": count, "trainees": 0, "kinds": []}
            for mistake, trainees in self.db.execute(
                "SELECT mistake, count(*) FROM group_mistake_members WHERE group_id = ? GROUP BY mistake",
                [group_id],
            ):
                totals[mistake]["trainees"] = trainees
            shown = sorted(totals.values(), key=lambda t: (-t["count"], -t["trainees"], t["mistake"]))[:first]
            if shown:
                names = [t["mistake"] for t in shown]
                for mistake, kind in self.db.execute(
                    "SELECT mistake, kind FROM group_mistake_kinds WHERE group_id = ? "
                    f"AND mistake IN ({', '.join('?' for _ in names)}) ORDER BY mistake, kind",
                    [group_id, *names],
                ):
                    totals[mistake]["kinds"].append(kind)
        # The keys in the order they always had (`stats.group_mistakes`'s).
        return [
            {
                "mistake": t["mistake"],
                "title": mistake_title(t["mistake"]),
                "count": t["count"],
                "trainees": t["trainees"],
                "kinds": t["kinds"],
            }
            for t in shown
        ]

    def _answer_formats(self, sample: dict[int, list[dict[str, Any]]]) -> None:
        """Fill each wrong answer's `format` from the drill it was first given to (`sample`: drill id
        -> the entries shown of it): read only for the drills shown."""
        shown = sorted(sample)
        for start in range(0, len(shown), 500):
            chunk = shown[start : start + 500]
            for drill_id, fmt in self.db.execute(
                "SELECT id, json_extract(situation, '$.answer_format') FROM drills "
                f"WHERE id IN ({', '.join('?' for _ in chunk)})",
                chunk,
            ):
                for entry in sample[int(drill_id)]:
                    entry["format"] = fmt

    def item_details_counted(self, group_id: int, *, wrong: int = 3) -> list[dict[str, Any]]:
        """`item_details` counted from the members' answers within their stretches in the group."""
        ids = [int(m["id"]) for m in self.members(group_id)]
        spans, spans_params = spans_table(member_spans(self.db, group_id, ids))
        answers = (
            f"WITH {spans} SELECT a.kind, d.level, a.mode, {{}} FROM spans s JOIN attempts a ON {IN_SPAN} "
            "JOIN drills d ON d.id = a.drill_id"
        )
        by = " GROUP BY a.kind, d.level, a.mode"
        rows: dict[tuple[str, int, str], dict[str, Any]] = {}
        for kind, level, mode, n, correct, median in self.db.execute(
            answers.format("count(*), sum(a.correct), median(a.time_ms)") + by, spans_params
        ):
            rows[kind, level, mode] = _item_row(kind, level, mode, n, correct, median)

        def most_common(column: str, where: str, also: str = "") -> Any:
            """Per kind, level and mode, each value of `column` given where `where` holds, with (after
            `also`) how often, the most often first."""
            return self.db.execute(
                answers.format(f"{column}, {also}count(*) AS n")
                + f" WHERE {where}"
                + by
                + f", {column} ORDER BY a.kind, d.level, a.mode, n DESC, {column}",
                spans_params,
            )

        # The answer format (inside the drill's situation JSON) is read only for the drills shown: one
        # drill each answer was given to, not every wrong answer's.
        sample: dict[int, list[dict[str, Any]]] = {}
        for kind, level, mode, answer, drill_id, n in most_common(
            "a.answer", "a.correct = 0", "min(a.drill_id), "
        ):
            found = rows[kind, level, mode]["wrong_answers"]
            if len(found) < wrong:
                found.append({"answer": answer, "format": None, "count": n})
                sample.setdefault(int(drill_id), []).append(found[-1])
        self._answer_formats(sample)
        for kind, level, mode, mistake, n in most_common("a.mistake", "a.mistake IS NOT NULL"):
            found = rows[kind, level, mode]["mistakes"]
            if len(found) < wrong:
                found.append({"mistake": mistake, "count": n})
        return _items_in_order(rows)


_FIRST_WRONG = """SELECT answer, drill_id, n FROM group_wrong
    WHERE group_id = ? AND kind = ? AND level = ? AND mode = ? ORDER BY n DESC, answer LIMIT ?"""
_FIRST_MISTAKES = """SELECT mistake, n FROM group_item_mistakes
    WHERE group_id = ? AND kind = ? AND level = ? AND mode = ? ORDER BY n DESC, mistake LIMIT ?"""


def _item_row(kind: str, level: int, mode: str, n: int, correct: int, median: float) -> dict[str, Any]:
    return {
        "kind": kind,
        "level": level,
        "mode": mode,
        "attempts": n,
        "accuracy": correct / n,
        "median_ms": median,
        "wrong_answers": [],
        "mistakes": [],
    }


def _items_in_order(rows: dict[tuple[str, int, str], dict[str, Any]]) -> list[dict[str, Any]]:
    """Catalog order, then level, then mode (practice, sprint, quiz)."""
    order = {kind: i for i, kind in enumerate(k for game in GAMES for k in game.kinds)}
    modes = {"practice": 0, "sprint": 1, "quiz": 2}
    return sorted(
        rows.values(),
        key=lambda r: (order.get(r["kind"], 10**6), r["kind"], r["level"], modes.get(r["mode"], 9)),
    )


def _items_by_kind(
    tally: dict[str, tuple[int, int, float]], common: dict[str, list[dict[str, Any]]]
) -> list[dict[str, Any]]:
    order = {kind: i for i, kind in enumerate(k for game in GAMES for k in game.kinds)}
    return [
        {
            "kind": kind,
            "attempts": n,
            "accuracy": correct / n,
            "median_ms": median,
            "wrong_answers": common.get(kind, []),
        }
        for kind, (n, correct, median) in sorted(
            tally.items(), key=lambda item: (order.get(item[0], 10**6), item[0])
        )
    ]


def _chunks(ids: list[int], size: int = 500) -> Iterator[list[int]]:
    """`ids` in pieces of at most `size`, each one statement's parameters."""
    for start in range(0, len(ids), size):
        yield ids[start : start + size]


def _all_held(spans: list[Span], rows: list[tuple[Any, ...]]) -> bool:
    """Does a stretch hold every answer the member's `kind_totals` rows count (first at `row[6]`,
    last at `row[5]`)? One holding them all, from the first to the last, is asked first: a member
    since before his first answer, as most are, is one test rather than one per drill kind."""
    if not rows:
        return True
    if _held(spans, min(r[6] for r in rows), max(r[5] for r in rows)):
        return True
    return all(_held(spans, r[6], r[5]) for r in rows)


def _held(spans: list[Span], first: str, last: str) -> bool:
    """Does one stretch hold every time from `first` to `last` (the stretches are disjoint)?"""
    return any(joined <= first and (left is None or last < left) for joined, left in spans)


def readable_answer(stored: Any) -> Any:
    """A stored (JSON) answer as the desk shows it: "yes" rather than '"yes"'."""
    try:
        value = json.loads(stored)
    except (TypeError, ValueError):
        return stored
    return " ".join(str(v) for v in value) if isinstance(value, list) else value
