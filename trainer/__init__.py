"""Croupier Trainer: rule engines, drills, a progress store and the web app (docs/architecture.md, "Layout").

`shipped(folder)` is where a folder shipped beside the code is found (`data`, `templates`, `static`,
`translations`), the one place that knows: a source checkout keeps them at the repository's top level;
a wheel carries them inside the package, as `trainer/<folder>` (mapped in setup.py).

>>> shipped("data").name, (shipped("data") / "rules").is_dir()
('data', True)
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
SHIPPED = ("data", "templates", "static", "translations")


def installed() -> bool:
    """True when running from an installed wheel (the shipped folders are inside the package)."""
    return (PACKAGE / "data").is_dir()


def shipped(folder: str) -> Path:
    """The folder `folder` (one of `SHIPPED`) as installed or in the source checkout."""
    if folder not in SHIPPED:
        raise ValueError(f"{folder!r} is not shipped with the trainer (one of {', '.join(SHIPPED)})")
    return (PACKAGE if installed() else PACKAGE.parent) / folder
