"""The client session of docs/api.md ("A client session") runs as written: the curl block in bash,
the Python block in python3, against the app served on a free port instead of port 5000."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from browser_helpers import live_server
from conftest import make_app

README = Path(__file__).parent.parent / "docs" / "api.md"
QUICK_START_URL = "http://127.0.0.1:5000"


def _blocks(language: str) -> list[str]:
    text = README.read_text(encoding="utf-8")
    section = text.split("### A client session", 1)[1].split("\n## ", 1)[0]
    return re.findall(rf"```{language}\n(.*?)```", section, flags=re.S)


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    folder = tmp_path_factory.mktemp("readme-client")
    with live_server(make_app(DATABASE=str(folder / "trainer.sqlite"))) as url:
        yield url


def test_the_curl_session_runs_as_written(base):
    if shutil.which("curl") is None:
        pytest.fail("curl is missing (apt-get install -y curl; .ci/run installs it)")
    (script,) = _blocks("sh")
    assert QUICK_START_URL in script
    run = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script.replace(QUICK_START_URL, base)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.strip().splitlines()
    assert '"username":"trainee.two"' in lines[0]  # the account
    assert '"correct":' in lines[-1] and '"expected_text":' in lines[-1]  # the graded answer
    assert "paid on the bet" in run.stderr  # the drill's question, printed on its way


def test_the_python_session_runs_as_written(base):
    (script,) = _blocks("python")
    assert QUICK_START_URL in script
    run = subprocess.run(
        [sys.executable, "-c", script.replace(QUICK_START_URL, base)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    question, verdict, again = run.stdout.strip().splitlines()
    assert question.endswith("['yes', 'no']") and (verdict == "right" or verdict.startswith("wrong: "))
    assert again == "True"
