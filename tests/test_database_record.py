"""A database that existed is found or start-up stops: never an empty class made in its place.

Only the instance's very first start creates a missing database (and `python3 -m trainer migrate`, on
purpose); the instance folder records the databases it has run on (`trainer/web/core/known_databases.py`).
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from trainer import __main__ as trainer_main
from trainer.store import Store, open_db
from trainer.web import create_app
from trainer.web.core import known_databases

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def instance(tmp_path, monkeypatch):
    """A fresh instance folder, configured from the environment as the server is."""
    folder = tmp_path / "instance"
    monkeypatch.setenv("TRAINER_INSTANCE", str(folder))
    monkeypatch.setenv("TRAINER_SECRET_KEY", "record")
    monkeypatch.delenv("TRAINER_DATABASE", raising=False)
    return folder


def trainees(path):
    return open_db(path, migrate=False).execute("SELECT count(*) FROM trainees").fetchone()[0]


def test_the_first_start_of_an_instance_creates_its_database_and_records_it(instance):
    app = create_app()
    database = instance / "trainer.sqlite"
    assert app.config["DATABASE"] == str(database) and database.exists()
    assert known_databases.known(instance / "databases") == [str(database)]


def test_a_lost_database_stops_the_restart_naming_the_file_and_the_remedies(instance, capsys):
    create_app()
    database = instance / "trainer.sqlite"
    Store(open_db(database)).trainee_named("Trainee A")
    for path in instance.glob("trainer.sqlite*"):
        path.unlink()
    with pytest.raises(known_databases.DatabaseMissing):
        create_app()
    assert trainer_main.main(["serve"]) == 2
    error = capsys.readouterr().err
    assert str(database) in error and "has run on it before" in error
    assert "restore it from a backup" in error and "python3 -m trainer migrate" in error
    assert not database.exists()  # refused before SQLite could make an empty one
    assert trainer_main.main(["migrate"]) == 0  # on purpose
    assert database.exists() and trainees(database) == 0
    create_app()  # and from then on it starts


def test_a_wrong_trainer_database_stops_start_up_naming_the_known_one(
    instance, tmp_path, monkeypatch, capsys
):
    right = tmp_path / "class.sqlite"
    monkeypatch.setenv("TRAINER_DATABASE", str(right))
    create_app()
    Store(open_db(right)).trainee_named("Trainee A")
    wrong = tmp_path / "clas.sqlite"
    monkeypatch.setenv("TRAINER_DATABASE", str(wrong))
    assert trainer_main.main([]) == 2  # the bare command serves: refused the same way
    error = capsys.readouterr().err
    assert str(wrong) in error and str(right) in error and "TRAINER_DATABASE" in error
    assert not wrong.exists()
    monkeypatch.setenv("TRAINER_DATABASE", str(right))
    assert create_app().config["DATABASE"] == str(right) and trainees(right) == 1


def test_an_existing_database_is_adopted_into_the_record(instance, tmp_path, monkeypatch):
    """A database made before the record existed (an older version) is found and recorded, so losing
    it later is noticed too."""
    older = tmp_path / "older.sqlite"
    Store(open_db(older)).trainee_named("Trainee A")
    instance.mkdir()
    (instance / "databases").write_text("/srv/elsewhere/class.sqlite\n")
    monkeypatch.setenv("TRAINER_DATABASE", str(older))
    create_app()
    assert known_databases.known(instance / "databases") == ["/srv/elsewhere/class.sqlite", str(older)]


def test_the_production_command_exits_2_on_a_lost_database(tmp_path):
    folder = tmp_path / "instance"
    env = {**os.environ, "TRAINER_INSTANCE": str(folder), "TRAINER_SECRET_KEY": "record"}
    env.pop("TRAINER_DATABASE", None)

    def run(*args):
        return subprocess.run(
            [sys.executable, "-m", "trainer", *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )

    assert run("migrate").returncode == 0
    (folder / "trainer.sqlite").unlink()
    refused = run("serve", "--port", "1")  # never reaches the bind: the check comes first
    assert refused.returncode == 2, refused.stderr
    assert "trainer.sqlite does not exist" in refused.stderr and "Traceback" not in refused.stderr
    assert not (folder / "trainer.sqlite").exists()


def test_apps_given_a_test_config_keep_no_record(tmp_path):
    """The suite's throwaway databases (and an in-memory one) are made freely, as before."""
    for database in (str(tmp_path / "a.sqlite"), ":memory:"):
        app = create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "t"})
        assert "DATABASE_RECORD" not in app.config
    assert (tmp_path / "a.sqlite").exists()
