"""The environment variables are listed once, in `trainer.web.core.settings.TABLE`: every `TRAINER_*` name
the code mentions is in it, each row is read where it says, and `--help` and the docs page list each."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from docs_pages import ROOT, page

from trainer import __main__ as trainer_main
from trainer.web.core import settings
from trainer.web.core.settings import TABLE, SettingError, from_environment

NAME = re.compile(r"\bTRAINER_[A-Z][A-Z0-9_]*[A-Z0-9]\b")
READ = re.compile(r"""environ(?:\.get\(|\[)\s*["'](TRAINER_[A-Z0-9_]+)["']""")
SOURCES = sorted(p for p in (ROOT / "trainer").rglob("*") if p.suffix in {".py", ".c"})


def _sample(row: settings.Variable) -> str:
    if row.kind is bool:
        return "1"
    if row.kind in (int, float):
        return str(row.high)
    if row.shape == settings.ZONE_SHAPE:
        return "Asia/Tbilisi"
    return row.choices[0] if row.choices else "x"


def test_every_trainer_name_in_the_code_is_in_the_table():
    mentioned = {
        (name, path.relative_to(ROOT).as_posix())
        for path in SOURCES
        for name in NAME.findall(path.read_text(encoding="utf-8"))
    }
    assert mentioned, "the search found no TRAINER_ names at all"
    missing = sorted(pair for pair in mentioned if pair[0] not in TABLE)
    assert not missing, f"TRAINER_ names in the code but not in settings.TABLE: {missing}"


def test_each_variable_read_outside_settings_is_read_where_the_table_says():
    read = {
        (name, path.relative_to(ROOT).as_posix())
        for path in SOURCES
        for name in READ.findall(path.read_text(encoding="utf-8"))
    }
    assert read  # os.environ.get("TRAINER_...") reads exist outside settings.py
    for name, where in read:
        assert name in TABLE, name
        assert TABLE[name].read_in == where and not TABLE[name].key, (name, where)
    elsewhere = {(row.name, row.read_in) for row in TABLE.values() if row.read_in != settings.HERE}
    assert elsewhere == read, "rows marked as read elsewhere that no file reads there (or the reverse)"


def test_each_variable_of_settings_sets_its_config_key():
    for row in TABLE.values():
        if row.read_in == settings.HERE:
            assert row.key and row.key in from_environment({row.name: _sample(row)}), row.name
        else:
            assert from_environment({row.name: _sample(row)}) == {}, row.name  # not a config key


@pytest.mark.parametrize(
    ("variable", "raw", "message"),
    [
        ("TRAINER_SECURE_COOKIES", "maybe", "TRAINER_SECURE_COOKIES must be 1 or 0 (yes/no), not 'maybe'"),
        (
            "TRAINER_DATABASE_TIMEOUT",
            "soon",
            "TRAINER_DATABASE_TIMEOUT must be a number of seconds, not 'soon'",
        ),
        (
            "TRAINER_DATABASE_TIMEOUT",
            "601",
            "TRAINER_DATABASE_TIMEOUT must be between 0 and 600 seconds, not '601'",
        ),
        (
            "TRAINER_DATABASE_TIMEOUT",
            "0",
            "TRAINER_DATABASE_TIMEOUT must be between 0 and 600 seconds, not '0'",
        ),
        (
            "TRAINER_SESSION_IDLE_MINUTES",
            "0",
            "TRAINER_SESSION_IDLE_MINUTES must be a whole number of minutes from 1 to 10080, not '0'",
        ),
        (
            "TRAINER_SESSION_MAX_HOURS",
            "2161",
            "TRAINER_SESSION_MAX_HOURS must be a whole number of hours from 1 to 2160, not '2161'",
        ),
        (
            "TRAINER_DATABASE_SYNCHRONOUS",
            "off",
            "TRAINER_DATABASE_SYNCHRONOUS must be one of NORMAL, FULL, not 'off'",
        ),
        (
            "TRAINER_TIME_ZONE",
            "Tbilisi",
            "TRAINER_TIME_ZONE must be an IANA time zone name, such as Asia/Tbilisi, not 'Tbilisi'",
        ),
    ],
)
def test_refusals_say_what_they_said_before_the_table(variable, raw, message):
    with pytest.raises(SettingError) as refused:
        from_environment({variable: raw})
    assert str(refused.value) == message


def test_the_limits_accepted_are_the_table_s():
    assert from_environment({"TRAINER_DATABASE_TIMEOUT": "600"}) == {"DATABASE_TIMEOUT": 600.0}
    assert from_environment({"TRAINER_SESSION_IDLE_MINUTES": "10080", "TRAINER_SESSION_MAX_HOURS": "1"}) == {
        "SESSION_IDLE_MINUTES": 10080,
        "SESSION_MAX_HOURS": 1,
    }
    assert from_environment({"TRAINER_DATABASE_SYNCHRONOUS": " full "}) == {"DATABASE_SYNCHRONOUS": "FULL"}


def test_help_lists_every_variable(capsys):
    done = subprocess.run(
        [sys.executable, "-m", "trainer", "--help"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0
    listed = re.findall(r"^  (TRAINER_[A-Z_]+) ", done.stdout, flags=re.M)
    assert listed == list(TABLE)
    for command in ("serve", "migrate", "backup"):  # the commands' own --help carry the same list
        with pytest.raises(SystemExit):
            trainer_main.parser().parse_args([command, "--help"])
        shown = capsys.readouterr().out
        assert re.findall(r"^  (TRAINER_[A-Z_]+) ", shown, flags=re.M) == list(TABLE), command


def _rendered_page() -> str:
    sys.path.insert(0, str(ROOT / "docs" / "hooks"))
    try:
        import environment
    finally:
        sys.path.pop(0)
    source = page("running-a-school.md")
    assert source.count(environment.MARKER) == 1
    return environment.on_page_markdown(source, None, None, None)


def test_the_docs_list_every_variable_from_the_table():
    rendered = _rendered_page()
    rows = re.findall(r"^\| `(TRAINER_[A-Z_]+)` \| (.*) \|$", rendered, flags=re.M)
    assert [name for name, _ in rows] == list(TABLE)
    for name, cells in rows:
        row = TABLE[name]
        assert row.description in cells and row.default in cells and row.read_in in cells
    assert "docs/hooks/environment.py" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
