"""Lint, format and type checks run as part of the one test command."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True)


def test_ruff_lint():
    result = _run("ruff", "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format():
    result = _run("ruff", "format", "--check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def _mypy_cache() -> Path:
    """mypy's cache outside the checkout, one per checkout path: a clean clone at the same place (CI)
    starts warm (13 s cold on 2 cores, under 1 s warm). mypy checks every cached module's source
    against its hash and checks again whatever changed, so the cache never hides an error."""
    import hashlib
    import os

    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "croupier-trainer" / f"mypy-{hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]}"


def test_mypy_strict_engine():
    result = _run("mypy", "--cache-dir", str(_mypy_cache()))
    assert result.returncode == 0, result.stdout + result.stderr


def test_compiled_modules_are_kept_outside_the_checkout():
    # tests/conftest.py: the suite's processes keep compiled and assertion-rewritten modules in a
    # cache (8.1 s -> 3.5 s of CPU to collect the suite, per worker); never beside the sources.
    prefix = Path(sys.pycache_prefix or "")
    assert sys.pycache_prefix and not sys.dont_write_bytecode
    assert ROOT not in (prefix, *prefix.parents) and prefix.is_absolute()
    here = Path(__file__).resolve()
    rewritten = list((prefix / Path(*here.parts[1:-1])).glob(f"{here.stem}.*-pytest-*.pyc"))
    assert rewritten, "this module's rewritten asserts were not kept"
    child = subprocess.run(
        [sys.executable, "-c", "import sys; print(sys.pycache_prefix, sys.dont_write_bytecode)"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert child.stdout.split() == [str(prefix), "False"]
