"""Configuration from the environment, for running the app for a class (see docs/running-a-school.md).

`TABLE` is the one list of the environment variables: those `from_environment` turns into config
keys, and those read where they are used (marked by `read_in`). The `--help` epilog of
`python3 -m trainer` (`epilog()`) and the table in docs/running-a-school.md (`markdown()`, through
the MkDocs hook docs/hooks/environment.py) are rendered from it.

>>> from_environment({"TRAINER_SECURE_COOKIES": "yes", "TRAINER_DATABASE_TIMEOUT": "2.5"})
{'SECURE_COOKIES': True, 'DATABASE_TIMEOUT': 2.5}
>>> from_environment({"TRAINER_SESSION_IDLE_MINUTES": "30"})
{'SESSION_IDLE_MINUTES': 30}
>>> row = TABLE["TRAINER_SESSION_IDLE_MINUTES"]
>>> row.key, row.takes, row.default
('SESSION_IDLE_MINUTES', 'whole minutes, 1 to 10080', '240')
>>> print(next(line for line in epilog().splitlines() if "IDLE" in line))
  TRAINER_SESSION_IDLE_MINUTES  a signed-in session unused this many minutes ends (default 240)
"""

from __future__ import annotations

import functools
import os
import secrets
import textwrap
import zoneinfo
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TRUE = {"1", "true", "yes", "on"}
FALSE = {"0", "false", "no", "off", ""}
HERE = "trainer/web/core/settings.py"
ZONE_SHAPE = "an IANA time zone name, such as Asia/Tbilisi"


@dataclass(frozen=True)
class Variable:
    """One environment variable: the config key it sets (`""`: read where it is used, in `read_in`),
    how `from_environment` parses it (`kind`; `low`/`high` bound numbers, `choices` fixed words), what
    it is when unset, and one line on what it does."""

    name: str
    key: str
    kind: type
    default: str
    description: str
    read_in: str = HERE
    shape: str = "text"  # what a str variable takes, in words
    low: int = 0
    high: int = 0
    unit: str = ""
    choices: tuple[str, ...] = ()

    @property
    def takes(self) -> str:
        """What the variable takes, said from the bounds the parser checks."""
        if self.kind is bool:
            return "1 or 0 (yes/no, on/off)"
        if self.kind is float:
            return f"{self.unit}, over {self.low} up to {self.high}"
        if self.kind is int:
            return f"whole {self.unit}, {self.low} to {self.high}"
        return " or ".join(self.choices) if self.choices else self.shape


_ROWS = (
    Variable(
        "TRAINER_DATABASE",
        "DATABASE",
        str,
        "instance/trainer.sqlite",
        "the SQLite file (its folder writable: WAL); a missing one is made on the instance's first start "
        "only, later by `migrate` only",
        shape="file path",
    ),
    Variable(
        "TRAINER_INSTANCE",
        "",
        str,
        "instance/ in a checkout",
        "the instance folder: secret key, config.py, the record of its databases; a fresh folder is a "
        "fresh instance",
        read_in="trainer/web/__init__.py",
        shape="folder path",
    ),
    Variable(
        "TRAINER_SECRET_KEY",
        "SECRET_KEY",
        str,
        "generated once into instance/secret_key, mode 0600",
        "signs the session cookie; set it when several servers share sessions",
    ),
    Variable(
        "TRAINER_SECURE_COOKIES",
        "SECURE_COOKIES",
        bool,
        "0",
        "1 behind HTTPS: the session cookie gets Secure, and HSTS is sent",
    ),
    Variable(
        "TRAINER_RATELIMIT_STORAGE",
        "RATELIMIT_STORAGE_URI",
        str,
        "memory://",
        "Flask-Limiter storage: memory:// counts per worker process, redis://host:6379 for all",
        shape="storage URI",
    ),
    Variable(
        "TRAINER_DATABASE_TIMEOUT",
        "DATABASE_TIMEOUT",
        float,
        "5",
        "seconds a write waits for another's lock before the request gets a 503",
        low=0,
        high=600,
        unit="seconds",
    ),
    Variable(
        "TRAINER_SESSION_IDLE_MINUTES",
        "SESSION_IDLE_MINUTES",
        int,
        "240",
        "a signed-in session unused this many minutes ends",
        low=1,
        high=7 * 24 * 60,  # a minute to a week
        unit="minutes",
    ),
    Variable(
        "TRAINER_SESSION_MAX_HOURS",
        "SESSION_MAX_HOURS",
        int,
        "24",
        "every session ends this many hours after sign-in, however busy",
        low=1,
        high=90 * 24,  # an hour to 90 days
        unit="hours",
    ),
    Variable(
        "TRAINER_DATABASE_SYNCHRONOUS",
        "DATABASE_SYNCHRONOUS",
        str,
        "NORMAL",
        "SQLite's synchronous: FULL syncs every commit to disk (safe from a power cut, slower writes)",
        choices=("NORMAL", "FULL"),
    ),
    Variable(
        "TRAINER_TIME_ZONE",
        "TIME_ZONE",
        str,
        "UTC",
        "the school's time zone: quiz times are entered and every time is shown in it (a group may "
        "choose its own on its desk)",
        shape=ZONE_SHAPE,
    ),
    Variable(
        "TRAINER_PASSWORD",
        "",
        str,
        "unset: asked for twice",
        "the new account's password for `flask --app trainer.web user add` (scripts: no prompt)",
        read_in="trainer/web/accounts/cli.py",
    ),
    Variable(
        "TRAINER_ADVISOR_KERNEL",
        "",
        str,
        "on where the install built the kernel module",
        "off: the advisor values draws with NumPy alone, not the built kernel (same sums, slower)",
        read_in="trainer/engine/russian_poker/strategy/kernel.py",
        shape="off, 0 or no to turn off",
    ),
    Variable(
        "TRAINER_ADVISOR_THREADS",
        "",
        str,
        "the processors this process may use, at most 4",
        "threads the advisor's kernel splits one exchange between",
        read_in="trainer/engine/russian_poker/strategy/kernel.py",
        shape="whole number, at most 8 used",
    ),
    Variable(
        "TRAINER_ADVISOR_KERNEL_DIR",
        "",
        str,
        "$XDG_CACHE_HOME/croupier-trainer, else ~/.cache/croupier-trainer",
        "the advisor's cache folder: its tables' files (the kernel is built at install, not kept here)",
        read_in="trainer/engine/russian_poker/strategy/tablefile.py",
        shape="folder path",
    ),
    Variable(
        "TRAINER_ADVISOR_TABLES",
        "",
        str,
        "on",
        "off: the advisor's tables are kept in each process's memory, not memory-mapped from files",
        read_in="trainer/engine/russian_poker/strategy/tablefile.py",
        shape="off, 0 or no to turn off",
    ),
)
TABLE: dict[str, Variable] = {row.name: row for row in _ROWS}


def epilog() -> str:
    """The `environment:` part of `python3 -m trainer --help`: each variable, what it does, its default."""
    lines = ["environment:"]
    width = max(len(name) for name in TABLE) + 4
    for row in TABLE.values():
        text = f"{row.description} (default {row.default})".replace("`", "")
        wrapped = textwrap.wrap(text, 100 - width)
        lines.append(f"  {row.name:<{width - 2}}{wrapped[0]}")
        lines += [" " * width + more for more in wrapped[1:]]
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown() -> str:
    """The table of docs/running-a-school.md: variable, config key, what it takes, default, what it does,
    where it is read."""
    lines = [
        "| variable | config key | takes | default | what it does | read in |",
        "|---|---|---|---|---|---|",
    ]
    for row in TABLE.values():
        key = f"`{row.key}`" if row.key else "(none)"
        cells = (f"`{row.name}`", key, row.takes, row.default, row.description, f"`{row.read_in}`")
        lines.append("| " + " | ".join(_cell(cell) for cell in cells) + " |")
    return "\n".join(lines) + "\n"


class SettingError(ValueError):
    """An environment variable the app cannot use; the message names it."""


def from_environment(environ: Mapping[str, str] = os.environ) -> dict[str, Any]:
    """The config keys set by `TRAINER_*` variables (unset or empty variables are left out)."""
    found: dict[str, Any] = {}
    for row in TABLE.values():
        variable, key, kind = row.name, row.key, row.kind
        if not key:
            continue  # read where it is used
        raw = environ.get(variable)
        if raw is None or (raw.strip() == "" and kind is not bool):
            continue
        if kind is bool:
            word = raw.strip().lower()
            if word not in TRUE | FALSE:
                raise SettingError(f"{variable} must be 1 or 0 (yes/no), not {raw!r}")
            found[key] = word in TRUE
        elif kind is float:
            try:
                found[key] = float(raw)
            except ValueError:
                raise SettingError(f"{variable} must be a number of {row.unit}, not {raw!r}") from None
            if not row.low < found[key] <= row.high:
                raise SettingError(
                    f"{variable} must be between {row.low} and {row.high} {row.unit}, not {raw!r}"
                )
        elif kind is int:
            low, high, unit = row.low, row.high, row.unit
            word = raw.strip()
            if not (word.isascii() and word.isdigit() and low <= int(word) <= high):
                raise SettingError(
                    f"{variable} must be a whole number of {unit} from {low} to {high}, not {raw!r}"
                )
            found[key] = int(word)
        elif row.choices:
            if raw.strip().upper() not in row.choices:
                raise SettingError(f"{variable} must be one of {', '.join(row.choices)}, not {raw!r}")
            found[key] = raw.strip().upper()
        elif row.shape == ZONE_SHAPE:
            if not is_time_zone(raw.strip()):
                raise SettingError(f"{variable} must be {ZONE_SHAPE}, not {raw!r}")
            found[key] = raw.strip()
        else:
            found[key] = raw
    return found


def is_time_zone(name: str) -> bool:
    """Is `name` an IANA time zone this machine knows (its tz database, or the tzdata package)?

    >>> is_time_zone("Asia/Tbilisi"), is_time_zone("UTC"), is_time_zone("Tbilisi"), is_time_zone("../etc")
    (True, True, False, False)
    """
    return name in known_zones()


@functools.cache
def known_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def instance_secret(instance_path: str | Path) -> str:
    """A secret kept in the instance folder (`secret_key`, readable by its owner only), so sessions
    survive restarts without configuration. Created once; later calls, and other processes, read it.
    A folder the server cannot write (or a key file it cannot read) stops start-up with a
    `SettingError` saying what to do, not a traceback."""
    try:
        return _kept_secret(Path(instance_path) / "secret_key")
    except OSError as error:
        raise SettingError(
            f"the session secret cannot be kept in {Path(instance_path) / 'secret_key'} "
            f"({error.strerror or error}): make the instance folder {instance_path} writable by the "
            "server's user, or set TRAINER_SECRET_KEY"
        ) from error


def _kept_secret(path: Path) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        # O_EXCL: of two processes starting together, one writes and the other reads its secret.
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        if path.stat().st_mode & 0o077:
            path.chmod(0o600)  # a key from an older version, readable by others: tighten it
        text = path.read_text().strip()
        if text:
            return text
        path.unlink()  # an empty file left by a crash between create and write
        return _kept_secret(path)
    with os.fdopen(handle, "w") as key_file:
        key_file.write(secrets.token_hex(32))
    return path.read_text().strip()
