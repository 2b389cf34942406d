"""Accounts: usernames, argon2 password hashes, roles, server-side sessions, one-time codes, API tokens.

A user is a trainee with credentials (`users.id` is the trainee's id): a guest who signs up keeps
every attempt because nothing moves. Secrets the app hands out (API tokens, one-time codes) are
stored only as SHA-256 digests; passwords only as argon2id hashes.

>>> from trainer.store.schema import open_db
>>> accounts = Accounts(open_db(":memory:"), hasher=FAST_HASHER)
>>> user = accounts.sign_up("trainee.one", "a long secret")
>>> accounts.check_password("TRAINEE.ONE", "a long secret")["id"] == user["id"]
True
>>> accounts.check_password("trainee.one", "wrong") is None
True
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import secrets
import sqlite3
import unicodedata
from datetime import timedelta
from enum import StrEnum
from typing import Any

from argon2 import PasswordHasher, profiles
from argon2.exceptions import InvalidHashError, VerificationError
from sqlite_utils import Database

from trainer.store.clock import Clock
from trainer.store.common_passwords import is_common
from trainer.store.progress import MAX_ROWID, NotFoundError, Refusal, _iso, _parse_iso, _utc_now, row_by_id
from trainer.store.schema import insert, writing
from trainer.store.usernames import USERNAME_MAX, USERNAME_MIN, username_key, username_skeleton

# OWASP's argon2id minimum (19 MiB, 2 passes, 1 lane): about 30 ms a hash on this machine, so a class
# of 50 signing in at once costs the two cores under two seconds of hashing in all.
HASHER = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1)
# For tests only: the cheapest parameters argon2 accepts.
FAST_HASHER = PasswordHasher.from_parameters(profiles.CHEAPEST)

PASSWORD_MIN, PASSWORD_MAX = 8, 200
TOKEN_LABEL_MAX = 60  # a token's label is cut to this many characters, not refused
DISPLAY_MAX = 60
TOKEN_LABEL_MAX = 60  # what a trainee names an API token by
CODE_DAYS = 7
# No 0/O, 1/I/L: a code is read aloud or copied from a screen by hand.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 12
TOKEN_PREFIX = "ct_"
# A live session's last use is written at most this often (or a quarter of the idle limit, if that is
# shorter): every request would take the write lock. A session may so end this much before its limit.
SEEN_EVERY = timedelta(minutes=5)
# No session lives longer than this (the largest absolute limit the settings accept): older rows are
# dropped when the user signs in again, so the table does not grow without end.
SESSION_KEPT = timedelta(days=90)

# Letters of any script, digits, and . _ - inside (a Georgian or Russian username is fine).
_USERNAME = re.compile(r"^[^\W_](?:[\w.-]*[^\W_])?$")


_DUMMY_HASHES: dict[tuple[int, int, int, int, int], str] = {}


def dummy_hash(hasher: PasswordHasher) -> str:
    """A hash of a random secret with `hasher`'s parameters, made once per process and parameters:
    what an unknown username's password is checked against, so that it costs one verify, as a real
    account's does."""
    key = (hasher.time_cost, hasher.memory_cost, hasher.parallelism, hasher.hash_len, hasher.salt_len)
    if key not in _DUMMY_HASHES:
        _DUMMY_HASHES[key] = hasher.hash(secrets.token_hex(16))
    return _DUMMY_HASHES[key]


class Role(StrEnum):
    TRAINEE = "trainee"
    INSTRUCTOR = "instructor"


class AccountError(Refusal):
    """A request about accounts the store refuses; the web says why (`trainer.web.core.auth.say`)."""


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def clean_username(username: Any) -> str:
    """A username as stored: trimmed and normalized; `AccountError` saying what is wrong."""
    if not isinstance(username, str) or not username.strip():
        raise AccountError("username_missing")
    text = unicodedata.normalize("NFC", username.strip())
    if not USERNAME_MIN <= len(text) <= USERNAME_MAX:
        raise AccountError("username_length", min=USERNAME_MIN, max=USERNAME_MAX)
    if not _USERNAME.match(text):
        raise AccountError("username_letters")
    return text


def check_new_password(password: Any, username: str = "") -> str:
    if not isinstance(password, str) or len(password) < PASSWORD_MIN:
        raise AccountError("password_short", min=PASSWORD_MIN)
    if len(password) > PASSWORD_MAX:
        raise AccountError("password_long", max=PASSWORD_MAX)
    if username and username_key(password) == username_key(username):
        raise AccountError("password_is_username")
    if is_common(password):
        raise AccountError("password_common")
    return password


def new_code() -> str:
    """A one-time code such as "K7QM-4TXA-9PRW" (about 59 bits)."""
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return "-".join(raw[i : i + 4] for i in range(0, CODE_LENGTH, 4))


def _clean_code(code: Any) -> str:
    if not isinstance(code, str):
        return ""
    return "".join(ch for ch in code.upper() if ch.isalnum())


class Accounts:
    """Users, their sessions, one-time codes and API tokens over one sqlite-utils `Database`."""

    def __init__(self, db: Database, *, clock: Clock = _utc_now, hasher: PasswordHasher = HASHER) -> None:
        self.db = db
        self.clock = clock
        self.hasher = hasher

    # Users -----------------------------------------------------------------------------------------

    def user(self, user_id: Any) -> dict[str, Any]:
        return row_by_id(self.db, "users", user_id, "user")

    def user_named(self, username: Any) -> dict[str, Any]:
        if not isinstance(username, str):
            raise NotFoundError("no such user")
        key = username_key(unicodedata.normalize("NFC", username.strip()))
        rows = list(self.db.query("SELECT * FROM users WHERE username_key = ?", [key]))
        if not rows:
            raise NotFoundError(f"no user {username!r}")
        return rows[0]

    def create_user(
        self,
        username: Any,
        password: str | None,
        *,
        role: Role | str = Role.TRAINEE,
        display_name: str | None = None,
        trainee_id: int | None = None,
    ) -> dict[str, Any]:
        """A new account; `trainee_id` makes an existing (guest) trainee the account, keeping its work.

        `password=None` makes an unclaimed account, to be handed over with a one-time code."""
        name = clean_username(username)
        role = Role(role)
        if password is not None:
            check_new_password(password, name)
        password_hash = self.hasher.hash(password) if password is not None else None
        return self.user(self.insert_user(name, password_hash, role, display_name, trainee_id))

    def insert_user(
        self,
        name: str,
        password_hash: str | None,
        role: Role,
        display_name: str | None = None,
        trainee_id: int | None = None,
    ) -> int:
        """Write the account of a cleaned username with a password hash made beforehand (never
        while the write lock is held); its id. Inside a caller's transaction it is a savepoint, so
        a refused name undoes only this write."""
        display = " ".join((display_name or name).split())[:DISPLAY_MAX] or name
        now = _iso(self.clock())
        try:
            with writing(self.db):
                if trainee_id is None:
                    trainee_id = insert(self.db, "trainees", {"name": None, "created_at": now})
                elif list(self.db.query("SELECT 1 FROM users WHERE id = ?", [trainee_id])):
                    raise AccountError("guest_taken")
                insert(
                    self.db,
                    "users",
                    {
                        "id": trainee_id,
                        "username": name,
                        "username_key": username_key(name),
                        "username_skeleton": username_skeleton(name),
                        "display_name": display,
                        "password_hash": password_hash,
                        "role": str(role),
                        "session_epoch": 0,
                        "created_at": now,
                        "password_changed_at": now if password_hash is not None else None,
                    },
                )
        except sqlite3.IntegrityError as error:
            if "username" in str(error):
                # Both unique indexes may refuse one name; the same name says "taken", not "alike".
                same = self.db.execute("SELECT 1 FROM users WHERE username_key = ?", [username_key(name)])
                if "username_skeleton" in str(error) and same.fetchone() is None:
                    raise AccountError("username_lookalike", username=name) from None
                raise AccountError("username_taken", username=name) from None
            raise
        return trainee_id

    def sign_up(self, username: Any, password: Any, *, guest_id: int | None = None) -> dict[str, Any]:
        """A trainee signs up; a guest's trainee row (with all its attempts) becomes the account."""
        if guest_id is not None and not self.is_guest(guest_id):
            guest_id = None
        return self.create_user(username, password, trainee_id=guest_id)

    def is_guest(self, trainee_id: int) -> bool:
        rows = list(
            self.db.query(
                "SELECT t.id FROM trainees t LEFT JOIN users u ON u.id = t.id "
                "WHERE t.id = ? AND u.id IS NULL AND t.name IS NULL",
                [trainee_id],
            )
        )
        return bool(rows)

    def check_password(self, username: Any, password: Any) -> dict[str, Any] | None:
        """The user if the password is right, else None (same work done for an unknown username)."""
        if not isinstance(password, str) or len(password) > PASSWORD_MAX:
            return None
        try:
            user = self.user_named(username)
        except NotFoundError:
            user = None
        stored = user["password_hash"] if user else None
        if stored is None:
            # Spend the same time as a real check, so timing does not tell which usernames exist:
            # one verify against a hash of the same parameters, made once per process and hasher
            # (never per request: building it is a whole extra hash).
            with contextlib.suppress(VerificationError):
                self.hasher.verify(dummy_hash(self.hasher), password)
            return None
        try:
            self.hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return None
        assert user is not None
        if self.hasher.check_needs_rehash(stored):
            rehashed = self.hasher.hash(password)  # before the write lock, never while it is held
            with writing(self.db):
                # Only if nobody changed the password meanwhile (the new hash is of the old password).
                self.db.execute(
                    "UPDATE users SET password_hash = ? WHERE id = ? AND password_hash = ?",
                    [rehashed, user["id"], stored],
                )
        return user

    def set_password(self, user_id: int, new_password: Any) -> dict[str, Any]:
        """A new password; every other session and token of the user ends (the epoch moves on)."""
        user = self.user(user_id)
        check_new_password(new_password, user["username"])
        password_hash = self.hasher.hash(new_password)  # before the write lock, never while it is held
        now = _iso(self.clock())
        with writing(self.db):
            self.db.execute(
                "UPDATE users SET password_hash = ?, password_changed_at = ?, "
                "session_epoch = session_epoch + 1 WHERE id = ?",
                [password_hash, now, user_id],
            )
            self.db.execute(
                "UPDATE one_time_codes SET used_at = ? WHERE user_id = ? AND used_at IS NULL", [now, user_id]
            )
            self._end_access(user_id, now)
        return self.user(user_id)

    def change_password(self, user_id: int, current: Any, new_password: Any) -> dict[str, Any]:
        user = self.user(user_id)
        if self.check_password(user["username"], current) is None:
            raise AccountError("password_wrong")
        return self.set_password(user_id, new_password)

    def end_sessions(self, user_id: int) -> dict[str, Any]:
        """Sign out everywhere: every session's login id stops matching, every API token is revoked."""
        now = _iso(self.clock())
        with writing(self.db):
            self.db.execute("UPDATE users SET session_epoch = session_epoch + 1 WHERE id = ?", [user_id])
            self._end_access(user_id, now)
        return self.user(user_id)

    def _end_access(self, user_id: int, now: str) -> None:
        """Inside a write: revoke every API token and end every session row of the user (the epoch,
        raised by the caller, already stops the sessions' login ids)."""
        self.db.execute(
            "UPDATE api_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL", [now, user_id]
        )
        self.db.execute(
            "UPDATE sessions SET ended_at = ? WHERE user_id = ? AND ended_at IS NULL", [now, user_id]
        )

    def set_role(self, user_id: int, role: Role | str) -> dict[str, Any]:
        with writing(self.db):
            self.db.execute("UPDATE users SET role = ? WHERE id = ?", [str(Role(role)), user_id])
        return self.user(user_id)

    def unclaimed(self) -> list[dict[str, Any]]:
        """Accounts nobody has set a password for yet (migrated names, accounts made by instructors)."""
        return list(
            self.db.query(
                "SELECT * FROM users WHERE password_hash IS NULL ORDER BY display_name COLLATE NOCASE, id"
            )
        )

    # One-time codes --------------------------------------------------------------------------------

    def make_code(self, user_id: int, made_by: int | None) -> str:
        """A code that lets the user set a new password once (within `CODE_DAYS` days); older codes of
        the user stop working. The code itself is returned once and never stored; the row (who made
        it, when, when it was redeemed) is the log the user's account page shows.

        `made_by=None` is the administrator (the command line). An instructor may make one only for
        a trainee whose every group is one of his (and who is in at least one): `AccountError
        ("code_not_allowed")` otherwise, checked in the same transaction as the write."""
        self.user(user_id)
        code = new_code()
        with writing(self.db):
            now = self.clock()  # under the lock: the log's times follow the order of the writes
            if made_by is not None and not self._may_make_code(made_by, user_id):
                raise AccountError("code_not_allowed")
            self.db.execute(
                "UPDATE one_time_codes SET used_at = ? WHERE user_id = ? AND used_at IS NULL",
                [_iso(now), user_id],
            )
            insert(
                self.db,
                "one_time_codes",
                {
                    "user_id": user_id,
                    "code_hash": _digest(_clean_code(code)),
                    "made_by": made_by,
                    "created_at": _iso(now),
                    "expires_at": _iso(now + timedelta(days=CODE_DAYS)),
                },
            )
        return code

    def _may_make_code(self, made_by: int, user_id: int) -> bool:
        rows = list(
            self.db.query(
                """SELECT count(*) AS groups, coalesce(sum(g.owner_id = ?), 0) AS his,
                          (SELECT role FROM users WHERE id = ?) AS role
                   FROM memberships m JOIN groups g ON g.id = m.group_id WHERE m.user_id = ?""",
                [made_by, user_id, user_id],
            )
        )
        found = rows[0]
        return found["role"] == Role.TRAINEE and found["groups"] > 0 and found["his"] == found["groups"]

    def codes_of(self, user_id: int) -> list[dict[str, Any]]:
        """Every one-time code made for the user, newest first: when, by whom (`made_by_name`; None:
        the administrator), until when it worked, when it was redeemed or void."""
        return list(
            self.db.query(
                """SELECT c.id, c.made_by, u.display_name AS made_by_name, c.created_at, c.expires_at,
                          c.used_at, c.redeemed_at
                   FROM one_time_codes c LEFT JOIN users u ON u.id = c.made_by
                   WHERE c.user_id = ? ORDER BY c.created_at DESC, c.id DESC""",
                [user_id],
            )
        )

    def redeem_code(self, username: Any, code: Any, new_password: Any) -> dict[str, Any]:
        """Set the password with a one-time code; the code is used up. Wrong or old codes: AccountError."""
        refused = AccountError("code_wrong")
        try:
            user = self.user_named(username)
        except NotFoundError:
            raise refused from None
        check_new_password(new_password, user["username"])
        now = _iso(self.clock())
        with writing(self.db):
            cursor = self.db.execute(
                "UPDATE one_time_codes SET used_at = ?, redeemed_at = ? "
                "WHERE user_id = ? AND code_hash = ? AND used_at IS NULL AND expires_at > ?",
                [now, now, user["id"], _digest(_clean_code(code)), now],
            )
            if cursor.rowcount != 1:
                raise refused
        return self.set_password(user["id"], new_password)

    # API tokens ------------------------------------------------------------------------------------

    def new_token(self, user_id: int, label: str = "") -> tuple[str, dict[str, Any]]:
        """A bearer token (returned once, stored as a digest) and its row."""
        self.user(user_id)
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        with writing(self.db):
            pk = insert(
                self.db,
                "api_tokens",
                {
                    "user_id": user_id,
                    "token_hash": _digest(token),
                    "label": label[:TOKEN_LABEL_MAX],
                    "created_at": _iso(self.clock()),
                },
            )
        return token, self.token(pk)

    def token(self, token_id: int) -> dict[str, Any]:
        rows = list(
            self.db.query(
                "SELECT id, user_id, label, created_at, revoked_at FROM api_tokens WHERE id = ?",
                [token_id],
            )
        )
        if not rows:
            raise NotFoundError(f"no token {token_id}")
        return rows[0]

    def user_for_token(self, token: Any) -> tuple[dict[str, Any], int] | None:
        """The user a live bearer token belongs to, and the token's id; None for anything else."""
        if not isinstance(token, str) or not token.startswith(TOKEN_PREFIX) or len(token) > 100:
            return None
        rows = list(
            self.db.query(
                "SELECT id, user_id FROM api_tokens WHERE token_hash = ? AND revoked_at IS NULL",
                [_digest(token)],
            )
        )
        if not rows:
            return None
        return self.user(rows[0]["user_id"]), int(rows[0]["id"])

    def tokens_of(self, user_id: int) -> list[dict[str, Any]]:
        return list(
            self.db.query(
                "SELECT id, user_id, label, created_at, revoked_at FROM api_tokens "
                "WHERE user_id = ? ORDER BY id",
                [user_id],
            )
        )

    def revoke_token(self, user_id: int, token_id: int) -> bool:
        """Revoke one of the user's own tokens; False when the user has no such live token."""
        if not 0 < token_id <= MAX_ROWID:  # an id SQLite cannot hold names no token (not OverflowError)
            return False
        with writing(self.db):
            cursor = self.db.execute(
                "UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL",
                [_iso(self.clock()), token_id, user_id],
            )
        return cursor.rowcount == 1

    # Sessions --------------------------------------------------------------------------------------

    def open_session(self, user_id: int) -> str:
        """A new server-side session for a signed-in browser: its key (kept in the signed cookie; the
        store keeps its digest)."""
        key = secrets.token_urlsafe(24)
        moment = self.clock()
        now = _iso(moment)
        with writing(self.db):
            self.db.execute(
                "DELETE FROM sessions WHERE user_id = ? AND created_at < ?",
                [user_id, _iso(moment - SESSION_KEPT)],
            )
            insert(
                self.db,
                "sessions",
                {"user_id": user_id, "key_hash": _digest(key), "created_at": now, "seen_at": now},
            )
        return key

    def session_alive(self, user_id: int, key: Any, *, idle: timedelta, absolute: timedelta) -> bool:
        """Is this the user's session, not ended, used within `idle` and begun within `absolute`?
        A live session's last use is moved on (at most once a `SEEN_EVERY`, to spare the write lock)."""
        if not isinstance(key, str) or not key or len(key) > 100:
            return False
        rows = list(
            self.db.query(
                "SELECT id, created_at, seen_at FROM sessions "
                "WHERE key_hash = ? AND user_id = ? AND ended_at IS NULL",
                [_digest(key), user_id],
            )
        )
        if not rows:
            return False
        now = self.clock()
        created, seen = _parse_iso(rows[0]["created_at"]), _parse_iso(rows[0]["seen_at"])
        if now - seen > idle or now - created > absolute:
            return False
        if now - seen >= min(SEEN_EVERY, idle / 4):
            # Best effort: a database that is read-only or locked for a moment must not sign anyone
            # out or fail a page that only reads; the next request tries again.
            with contextlib.suppress(sqlite3.OperationalError), writing(self.db):
                self.db.execute("UPDATE sessions SET seen_at = ? WHERE id = ?", [_iso(now), rows[0]["id"]])
        return True

    def end_session(self, key: Any) -> None:
        """Sign-out: this session stops signing anyone in, whoever holds a copy of its cookie."""
        if not isinstance(key, str) or not key:
            return
        with writing(self.db):
            self.db.execute(
                "UPDATE sessions SET ended_at = ? WHERE key_hash = ? AND ended_at IS NULL",
                [_iso(self.clock()), _digest(key)],
            )

    # Guests ----------------------------------------------------------------------------------------

    def move_guest_work(self, guest_id: int, user_id: int) -> int:
        """A guest who signs in to an existing account: the guest's work moves into the account.

        Every table with a `trainee_id` column follows (drills, attempts, sprints and whatever other
        lanes keep per trainee); a row that would clash with the account's own (a unique per-trainee
        record) stays behind on the guest. Returns how many attempts moved."""
        if guest_id == user_id or not self.is_guest(guest_id):
            return 0
        moved = 0
        with writing(self.db):
            for table in self.db.table_names():
                if (
                    table.startswith(("_", "sqlite_"))
                    or "trainee_id" not in self.db.table(table).columns_dict
                ):
                    continue
                cursor = self.db.execute(
                    f"UPDATE OR IGNORE [{table}] SET trainee_id = ? WHERE trainee_id = ?", [user_id, guest_id]
                )
                if table == "attempts":
                    moved = cursor.rowcount
        return moved
