"""Configuration from the environment, for running the app for a class (see docs/running-a-school.md).

| variable | config key | default |
|---|---|---|
| `TRAINER_DATABASE` | `DATABASE` | `instance/trainer.sqlite` |
| `TRAINER_SECRET_KEY` | `SECRET_KEY` | generated once into `instance/secret_key` (mode 0600) |
| `TRAINER_SECURE_COOKIES` | `SECURE_COOKIES` | off: on (`1`) when the app is served over HTTPS |
| `TRAINER_RATELIMIT_STORAGE` | `RATELIMIT_STORAGE_URI` | `memory://` (per process) |
| `TRAINER_DATABASE_TIMEOUT` | `DATABASE_TIMEOUT` | 5 seconds |
| `TRAINER_SESSION_IDLE_MINUTES` | `SESSION_IDLE_MINUTES` | 240: a session unused this long ends |
| `TRAINER_SESSION_MAX_HOURS` | `SESSION_MAX_HOURS` | 24: any session ends this long after sign-in |
| `TRAINER_DATABASE_SYNCHRONOUS` | `DATABASE_SYNCHRONOUS` | `NORMAL` (`FULL`: every commit synced to disk) |

>>> from_environment({"TRAINER_SECURE_COOKIES": "yes", "TRAINER_DATABASE_TIMEOUT": "2.5"})
{'SECURE_COOKIES': True, 'DATABASE_TIMEOUT': 2.5}
>>> from_environment({"TRAINER_SESSION_IDLE_MINUTES": "30"})
{'SESSION_IDLE_MINUTES': 30}
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

TRUE = {"1", "true", "yes", "on"}
FALSE = {"0", "false", "no", "off", ""}

VARIABLES: dict[str, tuple[str, type]] = {
    "TRAINER_DATABASE": ("DATABASE", str),
    "TRAINER_SECRET_KEY": ("SECRET_KEY", str),
    "TRAINER_SECURE_COOKIES": ("SECURE_COOKIES", bool),
    "TRAINER_RATELIMIT_STORAGE": ("RATELIMIT_STORAGE_URI", str),
    "TRAINER_DATABASE_TIMEOUT": ("DATABASE_TIMEOUT", float),
    "TRAINER_SESSION_IDLE_MINUTES": ("SESSION_IDLE_MINUTES", int),
    "TRAINER_SESSION_MAX_HOURS": ("SESSION_MAX_HOURS", int),
    "TRAINER_DATABASE_SYNCHRONOUS": ("DATABASE_SYNCHRONOUS", str),
}
# Whole numbers: the least and the most each may be (a minute to a week idle; an hour to 90 days).
WHOLE_RANGES: dict[str, tuple[int, int, str]] = {
    "SESSION_IDLE_MINUTES": (1, 7 * 24 * 60, "minutes"),
    "SESSION_MAX_HOURS": (1, 90 * 24, "hours"),
}
CHOICES = {"TRAINER_DATABASE_SYNCHRONOUS": ("NORMAL", "FULL")}  # str settings with fixed words


class SettingError(ValueError):
    """An environment variable the app cannot use; the message names it."""


def from_environment(environ: Mapping[str, str] = os.environ) -> dict[str, Any]:
    """The config keys set by `TRAINER_*` variables (unset or empty variables are left out)."""
    found: dict[str, Any] = {}
    for variable, (key, kind) in VARIABLES.items():
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
                raise SettingError(f"{variable} must be a number of seconds, not {raw!r}") from None
            if not 0 < found[key] <= 600:
                raise SettingError(f"{variable} must be between 0 and 600 seconds, not {raw!r}")
        elif kind is int:
            low, high, unit = WHOLE_RANGES[key]
            word = raw.strip()
            if not (word.isascii() and word.isdigit() and low <= int(word) <= high):
                raise SettingError(
                    f"{variable} must be a whole number of {unit} from {low} to {high}, not {raw!r}"
                )
            found[key] = int(word)
        elif variable in CHOICES:
            if raw.strip().upper() not in CHOICES[variable]:
                raise SettingError(f"{variable} must be one of {', '.join(CHOICES[variable])}, not {raw!r}")
            found[key] = raw.strip().upper()
        else:
            found[key] = raw
    return found


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
