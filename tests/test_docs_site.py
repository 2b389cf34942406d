"""The documentation site builds strictly (no broken link, anchor or missing page) and the README
stays the front door: short, the two quick-start commands, a pointer to the site."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from docs_pages import DOCS, ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_site_builds_strictly(tmp_path):
    pytest.importorskip("mkdocs")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--quiet",
            "--site-dir",
            str(tmp_path / "site"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "site" / "api-reference" / "index.html").is_file()
    # The environment variables' table, rendered by docs/hooks/environment.py from settings.TABLE.
    school = (tmp_path / "site" / "running-a-school" / "index.html").read_text(encoding="utf-8")
    from trainer.web.core.settings import TABLE

    assert "<!-- environment variables -->" not in school
    assert [name for name in TABLE if f"<code>{name}</code></td>" not in school] == []


def test_every_page_is_in_the_navigation():
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    pages = sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md"))
    missing = [p for p in pages if f": {p}" not in config]
    assert not missing, f"docs pages missing from mkdocs.yml's nav: {missing}"


def test_the_readme_is_the_front_door():
    assert len(README.encode("utf-8")) < 10_000
    assert "python3 -m pip install -e . && python3 -m trainer" in README
    assert "python3 -m pip install -e '.[test]' && python3 -m pytest" in README
    assert "python3 -m venv" in README
    for link in re.findall(r"\]\((docs/[^)#]+)", README):
        assert (ROOT / link).exists(), link


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python3 -m pip install -e '.[test]' && python3 -m pytest" in ci
