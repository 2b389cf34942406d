"""Invitations: a class list made into one-time codes, one per name, printed on slips and handed out.

With his code a trainee makes his own account (he chooses the username and the password; nobody
else ever knows it) and is in the group from then on; a trainee who has an account already signs
in and uses the code to join. The instructor never sets a password and never acts as the trainee:
the invitation only says which group the code leads to and the name the desk shows.

A code is about 59 bits (`accounts.new_code`), kept only as its SHA-256 digest, as the one-time
password codes are; it works once, until it expires (`expires_days` in `data/invitations.toml`, with
the list's limits: `load_policy`) or its instructor withdraws it or prints a new slip for the name.
Only the group's owner makes, lists or withdraws its codes.
Redeeming is one transaction: the code is used up, the account written and the membership begun
together, so of two browsers using one code exactly one gets in, and a refused username leaves the
code unused.

>>> from trainer.store.examples import evening_class
>>> from trainer.store.groups import Groups
>>> school = evening_class()
>>> evening = school.group
>>> invitations = Invitations(school.db, school.accounts)
>>> [slip] = invitations.create(evening["id"], school.teacher["id"], ["Trainee One"])
>>> user = invitations.redeem(slip["code"].lower(), "trainee.one", "a long secret")
>>> (user["display_name"], [m["username"] for m in Groups(school.db).members(evening["id"])])
('Trainee One', ['trainee.one'])
>>> invitations.redeem(slip["code"], "trainee.again", "a long secret")
Traceback (most recent call last):
...
trainer.store.accounts.AccountError: invitation_wrong
"""

from __future__ import annotations

import csv
import unicodedata
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from trainer.engine.presets import Reader, data_path, read_toml
from trainer.store.accounts import (
    DISPLAY_MAX,
    AccountError,
    Accounts,
    Role,
    _clean_code,
    _digest,
    check_new_password,
    clean_username,
    new_code,
)
from trainer.store.groups import Groups
from trainer.store.progress import MAX_ROWID, _iso
from trainer.store.schema import insert, writing

INVITATIONS_FILE = data_path("invitations.toml")


@dataclass(frozen=True)
class Policy:
    """The school's figures for class lists and their slips (`data/invitations.toml`)."""

    days: int  # a code works this many days from when its slip is printed
    names_max: int  # names on one list
    list_bytes_max: int  # the largest list read, pasted or uploaded


def load_policy(path: Path = INVITATIONS_FILE) -> Policy:
    """The policy of `path`; `PresetError` naming the file and key of a missing, unknown or bad figure.

    >>> load_policy()
    Policy(days=14, names_max=200, list_bytes_max=65536)
    """
    reader = Reader(str(path), read_toml(path))
    policy = Policy(
        days=reader.whole("expires_days", 1),
        names_max=reader.whole("names_max", 1),
        list_bytes_max=reader.whole("list_kib_max", 1) * 1024,
    )
    reader.finish()
    return policy


POLICY = load_policy()
INVITATION_DAYS = POLICY.days
NAMES_MAX = POLICY.names_max
LIST_BYTES_MAX = POLICY.list_bytes_max


def read_names(text: str) -> list[str]:
    """The names of a class list: one a line (a CSV row's cells joined with spaces, so that
    "Trainee;One" is one name), spaces tidied, empty lines skipped; `AccountError` naming the
    line of a name that is too long or has no letter, or a list that is empty or too long.

    >>> read_names("Trainee One\\n\\n  Слушатель   Два \\nTrainee;Three\\n")
    ['Trainee One', 'Слушатель Два', 'Trainee Three']
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    sample = "\n".join(lines[:20])
    delimiter = next((d for d in ("\t", ";", ",") if d in sample), None)
    names = []
    for number, line in enumerate(lines, start=1):
        cells = next(csv.reader([line], delimiter=delimiter)) if delimiter and line else [line]
        name = " ".join(" ".join(cells).split())
        if not name:
            continue
        name = unicodedata.normalize("NFC", name)
        if len(name) > DISPLAY_MAX:
            raise AccountError("class_list_name_long", line=number, max=DISPLAY_MAX)
        if not any(ch.isalpha() for ch in name) or any(unicodedata.category(ch)[0] == "C" for ch in name):
            raise AccountError("class_list_name_letters", line=number)
        names.append(name)
    if not names:
        raise AccountError("class_list_empty")
    if len(names) > NAMES_MAX:
        raise AccountError("class_list_long", max=NAMES_MAX)
    return names


def decode_list(data: bytes) -> str:
    """An uploaded .txt or .csv as text: UTF-8 (with or without a byte-order mark) or UTF-16 with
    its mark (a spreadsheet's "Unicode text"); anything else is `AccountError("class_list_encoding")`."""
    if len(data) > LIST_BYTES_MAX:
        raise AccountError("class_list_big", kib=LIST_BYTES_MAX // 1024)
    try:
        if data.startswith((b"\xff\xfe", b"\xfe\xff")):
            return data.decode("utf-16")
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise AccountError("class_list_encoding") from None


class Invitations:
    """A group's invitations over the `Accounts` of one database (whose clock and hasher they use)."""

    def __init__(self, db: Database, accounts: Accounts) -> None:
        self.db = db
        self.accounts = accounts
        self.groups = Groups(db, clock=accounts.clock)

    def _owner_check(self, group_id: int, made_by: int) -> None:
        """Inside the write: the group is `made_by`'s (else it does not exist for him)."""
        rows = list(self.db.query("SELECT owner_id FROM groups WHERE id = ?", [group_id]))
        if not rows or rows[0]["owner_id"] != made_by:
            raise AccountError("invitation_not_yours")

    def create(self, group_id: int, made_by: int, names: list[str]) -> list[dict[str, Any]]:
        """An invitation per name, in the list's order: each with its `code`, returned this once."""
        slips = [{"name": name, "code": new_code()} for name in names]
        with writing(self.db):
            self._owner_check(group_id, made_by)
            now = self.accounts.clock()
            for slip in slips:
                slip["id"] = insert(self.db, "invitations", self._row(group_id, made_by, slip, now))
                slip["expires_at"] = _iso(now + timedelta(days=INVITATION_DAYS))
        return slips

    def _row(self, group_id: int, made_by: int, slip: dict[str, Any], now: Any) -> dict[str, Any]:
        return {
            "group_id": group_id,
            "name": slip["name"],
            "code_hash": _digest(_clean_code(slip["code"])),
            "made_by": made_by,
            "created_at": _iso(now),
            "expires_at": _iso(now + timedelta(days=INVITATION_DAYS)),
        }

    def renew(self, group_id: int, made_by: int) -> list[dict[str, Any]]:
        """New slips for every waiting invitation of the group (a lost or expired sheet): the old
        codes stop working, each name gets a new code (returned this once)."""
        with writing(self.db):
            self._owner_check(group_id, made_by)
            now = self.accounts.clock()
            waiting = list(
                self.db.query(
                    "SELECT id, name FROM invitations WHERE group_id = ? AND redeemed_at IS NULL "
                    "AND withdrawn_at IS NULL ORDER BY id",
                    [group_id],
                )
            )
            self.db.execute(
                "UPDATE invitations SET withdrawn_at = ? WHERE group_id = ? AND redeemed_at IS NULL "
                "AND withdrawn_at IS NULL",
                [_iso(now), group_id],
            )
            slips = []
            for old in waiting:
                slip = {"name": old["name"], "code": new_code()}
                slip["id"] = insert(self.db, "invitations", self._row(group_id, made_by, slip, now))
                slip["expires_at"] = _iso(now + timedelta(days=INVITATION_DAYS))
                slips.append(slip)
        return slips

    def withdraw(self, group_id: int, made_by: int, invitation_id: int) -> bool:
        """The code stops working (a name put on the list by mistake); False: no such waiting one."""
        if not 0 < invitation_id <= MAX_ROWID:
            return False
        with writing(self.db):
            self._owner_check(group_id, made_by)
            cursor = self.db.execute(
                "UPDATE invitations SET withdrawn_at = ? WHERE id = ? AND group_id = ? "
                "AND redeemed_at IS NULL AND withdrawn_at IS NULL",
                [_iso(self.accounts.clock()), invitation_id, group_id],
            )
        return cursor.rowcount == 1

    def of_group(self, group_id: int, made_by: int) -> list[dict[str, Any]]:
        """The group's invitations, newest first, each with its `status` ("joined", "waiting",
        "expired", "withdrawn") and the username of the account that joined with it. Never a code:
        only digests are kept."""
        self._owner_check(group_id, made_by)
        now = _iso(self.accounts.clock())
        rows = list(
            self.db.query(
                """SELECT i.id, i.name, i.created_at, i.expires_at, i.redeemed_at, i.withdrawn_at,
                          u.username AS joined_as
                   FROM invitations i LEFT JOIN users u ON u.id = i.redeemed_by
                   WHERE i.group_id = ? ORDER BY i.id DESC""",
                [group_id],
            )
        )
        for row in rows:
            row["status"] = (
                "joined"
                if row["redeemed_at"]
                else "withdrawn"
                if row["withdrawn_at"]
                else "expired"
                if row["expires_at"] <= now
                else "waiting"
            )
        return rows

    def _claim(self, code: Any, now: str) -> dict[str, Any]:
        """Inside the write: use up a live code; its invitation, or `AccountError("invitation_wrong")`."""
        cleaned = _clean_code(code)
        rows = list(
            self.db.query(
                "SELECT id, group_id, name FROM invitations WHERE code_hash = ? AND redeemed_at IS NULL "
                "AND withdrawn_at IS NULL AND expires_at > ?",
                [_digest(cleaned), now],
            )
        )
        if not cleaned or not rows:
            raise AccountError("invitation_wrong")
        self.db.execute("UPDATE invitations SET redeemed_at = ? WHERE id = ?", [now, rows[0]["id"]])
        return rows[0]

    def redeem(
        self, code: Any, username: Any, password: Any, *, guest_id: int | None = None
    ) -> dict[str, Any]:
        """A new trainee account of the trainee's own username and password, in the code's group
        (a guest's practice in this browser becomes the account's, as at sign-up). The password is
        hashed before the write lock is taken; the code, the account and the membership are one
        transaction."""
        name = clean_username(username)
        check_new_password(password, name)
        password_hash = self.accounts.hasher.hash(password)
        if guest_id is not None and not self.accounts.is_guest(guest_id):
            guest_id = None
        with writing(self.db):
            now = _iso(self.accounts.clock())
            invitation = self._claim(code, now)
            user_id = self.accounts.insert_user(
                name, password_hash, Role.TRAINEE, invitation["name"], trainee_id=guest_id
            )
            self._join(invitation, user_id)
        return self.accounts.user(user_id)

    def join_with(self, code: Any, user_id: int) -> dict[str, Any]:
        """A signed-in trainee uses his code to join its group; the group. Already a member: the
        code is still used up (it has done its work)."""
        if self.accounts.user(user_id)["role"] != Role.TRAINEE:
            raise AccountError("invitation_trainees_only")
        with writing(self.db):
            invitation = self._claim(code, _iso(self.accounts.clock()))
            self._join(invitation, user_id)
        return self.groups.group(int(invitation["group_id"]))

    def _join(self, invitation: dict[str, Any], user_id: int) -> None:
        self.db.execute("UPDATE invitations SET redeemed_by = ? WHERE id = ?", [user_id, invitation["id"]])
        self.groups.add_member(int(invitation["group_id"]), user_id)
