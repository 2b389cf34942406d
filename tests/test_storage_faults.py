"""Storage faults on a real database file: 503 with Retry-After and a clear page (JSON for the API),
logged, nothing stored before lost; a vanished database is never recreated by a request.

Root ignores file permissions, so the read-only and unwritable cases run in a child process that has
dropped to an unprivileged user (directly when the suite does not run as root).
"""

import logging
import multiprocessing
import os
import shutil
import sqlite3
import tempfile
from pathlib import Path

import pytest
from conftest import make_app
from web_toys import toy_kinds

from trainer.store import open_db

NOBODY = 65534


@pytest.fixture(autouse=True)
def toys():
    with toy_kinds() as kinds:
        yield kinds


@pytest.fixture
def folder():
    """A folder an unprivileged user can reach (pytest's tmp_path is private to root)."""
    path = Path(tempfile.mkdtemp(prefix="trainer-faults-"))
    path.chmod(0o755)
    yield path
    for child in [path, *path.rglob("*")]:
        child.chmod(0o755 if child.is_dir() else 0o644)
    shutil.rmtree(path)


def _app(database, **config):
    return make_app(**{"DATABASE": str(database), "WTF_CSRF_ENABLED": False, **config})


class Log(logging.Handler):
    def __init__(self, app):
        super().__init__(logging.ERROR)
        self.lines = []
        app.logger.addHandler(self)

    def emit(self, record):
        self.lines.append(record.getMessage())


def unprivileged(check):
    """Run `check()` as an unprivileged user and return what it returns (picklable)."""
    if os.geteuid() != 0:
        return check()
    # The child can no longer read Python's own library under /root (mode 0700), so a module first
    # imported there fails: jinja2 imports its traceback rewriter only when an error crosses a
    # template (a store error raised while a page renders), so import it while still privileged.
    import jinja2.debug  # noqa: F401

    context = multiprocessing.get_context("fork")
    results = context.Queue()

    def child():
        try:
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            results.put(("ok", check()))
        except BaseException as error:
            results.put(("error", repr(error)))

    process = context.Process(target=child)
    process.start()
    outcome, value = results.get(timeout=120)
    process.join()
    assert outcome == "ok", value
    return value


def progress(database):
    db = open_db(database, migrate=False)
    return [tuple(row) for row in db.execute("SELECT drill_id, correct FROM attempts ORDER BY drill_id")]


def answered_once(client):
    drill_url = client.post("/practice/toy.amount").headers["Location"]
    client.post(drill_url, data={"drill": drill_url.rsplit("/", 1)[1], "answer": "1"})
    return drill_url


def assert_503_page(response):
    assert response.status_code == 503, response.status_code
    assert response.headers["Retry-After"].isdigit()
    assert b"Everything you answered before is kept" in response.data and b"<main" in response.data


def assert_503_json(response):
    assert response.status_code == 503 and response.headers["Retry-After"].isdigit()
    assert response.json["status"] == 503 and "answered before is kept" in response.json["error"]


def test_a_lock_held_past_the_timeout_is_503_and_logged_then_works_again(folder):
    database = folder / "t.sqlite"
    app = _app(database, DATABASE_TIMEOUT=0.2)
    log = Log(app)
    client = app.test_client()
    drill_url = answered_once(client)
    before = progress(database)
    holder = sqlite3.connect(database, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        assert_503_page(client.post("/practice/toy.amount"))
        assert_503_json(client.post("/api/v1/drills", json={"kind": "toy.amount", "level": 1}))
        assert client.get(drill_url).status_code == 200  # reading goes on beside a writer (WAL)
        georgian = client.post("/practice/toy.amount", headers={"Accept-Language": "ka"})
        assert georgian.status_code == 503 and "შენახულია" in georgian.get_data(as_text=True)
    finally:
        holder.execute("ROLLBACK")
    assert any("Storage fault on POST /practice/toy.amount" in line for line in log.lines)
    assert progress(database) == before
    assert client.post("/practice/toy.amount").status_code == 303


@pytest.mark.parametrize("remove", ["file", "folder"])
def test_a_database_that_disappears_is_not_recreated(folder, remove):
    instance = folder / "instance"
    instance.mkdir()
    database = instance / "t.sqlite"
    app = _app(database)
    client = app.test_client()
    drill_url = answered_once(client)
    api = app.test_client()
    api.post("/api/v1/drills", json={"kind": "toy.amount", "level": 1})
    if remove == "file":
        for path in instance.glob("t.sqlite*"):
            path.unlink()
    else:
        shutil.rmtree(instance)
    assert_503_page(client.get(drill_url))
    assert_503_page(client.post("/practice/toy.amount"))
    assert_503_page(client.get("/"))  # the home page shows the named trainee's figures
    assert_503_json(api.get("/api/v1/trainee"))
    assert_503_json(api.post("/api/v1/drills", json={"kind": "toy.amount", "level": 1}))
    assert client.get("/reference/glossary").status_code == 200  # what needs no store still works
    assert not database.exists() and (remove == "file" or not instance.exists())


def test_a_damaged_file_is_503_not_500(folder):
    database = folder / "t.sqlite"
    app = _app(database)
    client = app.test_client()
    for path in folder.glob("t.sqlite-*"):
        path.unlink()
    database.write_bytes(b"this is not a database" * 200)
    assert_503_page(client.post("/practice/toy.amount"))
    assert_503_json(app.test_client().post("/api/v1/drills", json={"kind": "toy.amount", "level": 1}))


def test_a_read_only_database_is_503_and_loses_nothing(folder):
    database = folder / "t.sqlite"
    app = _app(database)
    app.test_client().get("/")  # catalogs compiled while still privileged
    client = app.test_client()
    drill_url = answered_once(client)
    open_url = client.post("/practice/toy.amount").headers["Location"]
    before = progress(database)
    for path in folder.glob("t.sqlite*"):
        path.chmod(0o444)
    folder.chmod(0o555)

    def check():
        log = Log(app)
        statuses = {
            "new": client.post("/practice/toy.amount").status_code,
            "answer": client.post(open_url, data={"drill": open_url.rsplit("/", 1)[1], "answer": "2"}),
            "api": app.test_client().post("/api/v1/drills", json={"kind": "toy.amount", "level": 1}),
            "show": client.get(drill_url).status_code,
        }
        statuses["answer"] = (statuses["answer"].status_code, statuses["answer"].headers.get("Retry-After"))
        statuses["api"] = (statuses["api"].status_code, statuses["api"].json)
        return statuses, log.lines

    statuses, lines = unprivileged(check)
    assert statuses["new"] == 503 and statuses["answer"][0] == 503 and statuses["answer"][1]
    assert statuses["api"][0] == 503 and statuses["api"][1]["status"] == 503
    assert statuses["show"] in (200, 503)
    assert any("readonly" in line or "unable to open" in line for line in lines), lines
    folder.chmod(0o755)
    for path in folder.glob("t.sqlite*"):
        path.chmod(0o644)
    assert progress(database) == before
    assert b'name="answer"' in client.get(open_url).data  # the open question is still open


def test_an_unwritable_instance_folder_at_start_up_is_503_until_fixed(folder):
    instance = folder / "instance"
    instance.mkdir(mode=0o555)
    if os.geteuid() == 0:
        os.chown(instance, NOBODY, NOBODY)
    _app(folder / "warm.sqlite").test_client().get("/")  # catalogs compiled while privileged

    def check():
        app = _app(instance / "t.sqlite")  # starts: the store pages answer 503, the rest work
        client = app.test_client()
        seen = [client.get("/").status_code, client.get("/reference/glossary").status_code]
        account = {"username": "trainee.one", "password": "a long secret", "confirm": "a long secret"}
        seen.append(client.post("/account/sign-up", data=account).status_code)
        seen.append(app.test_client().post("/api/v1/users", json=account).status_code)
        instance.chmod(0o755)  # the operator fixes the folder: nothing was ever stored, so it is created
        seen.append(client.post("/account/sign-up", data=account).status_code)
        seen.append(client.post("/practice/toy.amount").status_code)
        return seen

    assert unprivileged(check) == [200, 200, 503, 503, 302, 303]
    assert (instance / "t.sqlite").exists()


@pytest.fixture
def own_folder(folder):
    """A folder the unprivileged user owns, so that it can change its files' permissions itself."""
    path = folder / "class"
    path.mkdir()
    if os.geteuid() == 0:
        os.chown(path, NOBODY, NOBODY)
    _app(folder / "warm.sqlite").test_client().get("/")  # catalogs compiled while privileged
    return path


def modes(path):
    return {
        p.name: oct(p.stat().st_mode & 0o777) for p in sorted(path.glob("t.sqlite*")) if "lock" not in p.name
    }


def test_after_a_read_only_episode_writes_work_again_by_themselves(own_folder):
    """The database made read-only, then writable again: the -shm that SQLite made meanwhile (with the
    read-only file's permissions) would refuse every write, after a restart too, until fixed by hand."""
    database = own_folder / "t.sqlite"

    def check():
        app = _app(database)
        client = app.test_client()
        seen = [client.post("/practice/toy.amount").status_code]
        database.chmod(0o444)
        seen.append(client.post("/practice/toy.amount").status_code)
        during = modes(own_folder)
        database.chmod(0o644)
        seen += [client.post("/practice/toy.amount").status_code for _ in range(2)]
        seen.append(_app(database).test_client().post("/practice/toy.amount").status_code)  # restart
        return seen, during, modes(own_folder)

    seen, during, after = unprivileged(check)
    assert during.get("t.sqlite-shm") == "0o444"  # the trap: a read-only -shm beside the database
    assert seen == [303, 503, 303, 303, 303]
    assert all(mode == "0o644" for mode in after.values()), after


def test_a_read_only_shm_the_server_cannot_fix_is_named_in_the_log(own_folder, monkeypatch):
    database = own_folder / "t.sqlite"

    def check():
        app = _app(database)
        client = app.test_client()
        client.post("/practice/toy.amount")
        database.chmod(0o444)
        client.post("/practice/toy.amount")
        database.chmod(0o644)
        log = Log(app)

        def refused(self, mode):
            raise PermissionError(1, "Operation not permitted", str(self))  # another user's file

        monkeypatch.setattr(Path, "chmod", refused)
        status = client.post("/practice/toy.amount").status_code
        monkeypatch.undo()
        return status, log.lines

    status, lines = unprivileged(check)
    assert status == 503
    named = [line for line in lines if f"{database}-shm cannot be written" in line]
    assert named and "chmod u+w" in named[0] and "delete it with the server stopped" in named[0], lines
