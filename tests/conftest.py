import itertools
import os
import shutil
import sqlite3

import pytest
from accounts_helpers import AuthActions
from hypothesis import settings
from web_toys import toy_kinds

from trainer.web import create_app


def pytest_xdist_auto_num_workers(config):
    """`-n auto` (the README's command): one worker more than the cores. A browser test keeps its worker
    waiting while Chromium draws, so two workers on the 2-core CI machine left a core partly idle: on
    a clean clone, one after the other, 215.9 s with two and 205.2 s with three (2026-12-03)."""
    return (os.cpu_count() or 1) + 1


def _share_url_builders() -> None:
    """Werkzeug compiles two URL builders for every rule of every app (132 rules: half the 50 ms of a
    `create_app`, and the suite makes about 700 apps). A builder is a plain function of the rule's
    text, its parts and its defaults, reading the rule's converters only when called (`.self`), so
    one compiled for an identical rule of an earlier app is the same function: the suite compiles
    each once. The key holds everything `Rule._compile_builder` reads."""
    from werkzeug.routing.rules import Rule

    compile_builder = Rule._compile_builder
    compiled: dict[tuple, object] = {}

    def shared(self, append_unknown=True):
        defaults = self.defaults or {}
        baked = tuple(
            (name, self._converters[name].to_url(defaults[name]))
            for dynamic, name in self._trace
            if dynamic and name in defaults
        )
        key = (self.rule, tuple(self._trace), tuple(sorted(map(str, defaults))), baked, append_unknown)
        found = compiled.get(key)
        if found is None:
            found = compiled[key] = compile_builder(self, append_unknown)
        return found

    Rule._compile_builder = shared


_share_url_builders()

_COMPILE_RULE = None  # Werkzeug's own Rule.compile, kept for the test that compares with it


def _share_rule_parts() -> None:
    """Werkzeug parses each rule's text into the parts its URL matcher walks (regular expressions
    and weights) for every app: with the builders shared, 60% of a `create_app` (12.4 ms). The parts
    are a plain function of the rule's text, its host or subdomain, `merge_slashes` and the converters
    it names, so those of an identical rule of an earlier app are reused (the matcher only reads
    them); the rule's converters are made afresh for its own map, by the same calls `_parse_rule`
    made (recorded on the first). tests/test_shared_routing.py compares every rule with Werkzeug's own."""
    from werkzeug.routing.rules import Rule

    global _COMPILE_RULE
    compile_rule = _COMPILE_RULE = Rule.compile
    parsed: dict[tuple, tuple] = {}

    def shared(self):
        m = self.map
        key = (
            self.rule,
            self.host if m.host_matching else self.subdomain,
            m.host_matching,
            self.merge_slashes,
            tuple(sorted((name, id(cls)) for name, cls in m.converters.items())),
        )
        found = parsed.get(key)
        if found is None:
            calls = []

            def recorded(variable, name, args, kwargs):
                calls.append((variable, name, args, kwargs))
                return Rule.get_converter(self, variable, name, args, kwargs)

            self.get_converter = recorded
            try:
                compile_rule(self)
            finally:
                del self.get_converter
            parsed[key] = (tuple(self._parts), tuple(self._trace), tuple(calls))
            return
        parts, trace, calls = found
        self._parts, self._trace, self._converters = list(parts), list(trace), {}
        for variable, name, args, kwargs in calls:
            self._converters[variable] = self.get_converter(variable, name, args, kwargs)
            self.arguments.add(variable)
        self._build = self._compile_builder(False).__get__(self, None)
        self._build_unknown = self._compile_builder(True).__get__(self, None)

    Rule.compile = shared


_share_rule_parts()

# No deadline on any property test: speed is measured by the benchmarks under bench/, never by a
# timed assertion, and a loaded CI machine made a 200 ms deadline fail a correct test (680 ms).
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")


@pytest.fixture(scope="session")
def instances(tmp_path_factory):
    """The folder under which each test's instance folder is named."""
    return tmp_path_factory.mktemp("instances")


_INSTANCE_NUMBERS = itertools.count()


@pytest.fixture(autouse=True)
def own_instance(instances, monkeypatch):
    """Every test that starts the app from the environment (a subprocess, `create_app()` without a
    test config) gets an instance folder of its own, never the checkout's `instance/`: the suite
    must leave the quick start's first `python3 -m trainer` a fresh instance (the instance folder
    records its databases and refuses to start on a lost one). A test may set its own.

    The folder is named, not made (the app makes it when it starts): `tmp_path` made one per test,
    and pytest numbers a test's folder by listing every folder made before it, 3 ms a test by the
    end of a worker's 3,000 tests."""
    monkeypatch.setenv("TRAINER_INSTANCE", str(instances / f"instance-{next(_INSTANCE_NUMBERS)}"))


_MIGRATED_MEMORY: list[sqlite3.Connection] = []


def memory_db():
    """A fresh migrated in-memory database, as `open_db(":memory:")` gives, copied (SQLite's backup)
    from one migrated once per worker: migrating afresh costs 21 ms, which property tests that build
    a database per example paid hundreds of times."""
    from sqlite_utils import Database

    from trainer.store import open_db

    if not _MIGRATED_MEMORY:
        _MIGRATED_MEMORY.append(open_db(":memory:").conn)
    conn = sqlite3.connect(":memory:", check_same_thread=False)
    _MIGRATED_MEMORY[0].backup(conn)
    db = Database(conn)
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA synchronous = NORMAL")
    return db


class DrawnOnUse(dict):
    """A module's drawn situations by key, each list drawn when a test first asks for it (`make(*key)`):
    under xdist a worker runs only some of a module's cases, and a module fixture that drew every key
    up front drew all of them in every worker that ran any one case."""

    def __init__(self, make):
        super().__init__()
        self._make = make

    def __missing__(self, key):
        found = self[key] = self._make(*key)
        return found


def make_app(**overrides):
    """The app a test builds: `create_app` under TESTING, with a test secret key and an in-memory
    database, and `overrides` (config keys: `DATABASE=str(tmp_path / "x.sqlite")` for a file,
    `TESTING=False` for the app as a server runs it) on top."""
    return create_app({"TESTING": True, "DATABASE": ":memory:", "SECRET_KEY": "test", **overrides})


@pytest.fixture(scope="session")
def migrated(tmp_path_factory):
    """A database file the app has started on once (every migration applied), whole in its one file."""
    path = tmp_path_factory.mktemp("migrated") / "trainer.sqlite"
    make_app(DATABASE=str(path))
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    return path


@pytest.fixture
def app(tmp_path, migrated):
    """The app on a database file of the test's own: a copy of `migrated`, the file a first start
    leaves (applying the migrations afresh for each test cost 20 ms of CPU and a few disk syncs)."""
    database = tmp_path / "test.sqlite"
    shutil.copyfile(migrated, database)
    return make_app(DATABASE=str(database), WTF_CSRF_ENABLED=False, FAST_PASSWORD_HASHING=True)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def toys():
    """The toy drill kinds (tests/web_toys.py) registered for the test."""
    with toy_kinds() as kinds:
        yield kinds


@pytest.fixture
def named(client):
    """A client signed in to a new trainee account (a module may define its own `named`)."""
    assert AuthActions(client).sign_up("trainee.one").status_code == 302
    return client


@pytest.fixture(scope="session")
def browser():
    """One Chromium for all of a worker's browser tests, started at the first (each test opens its own
    context, so no cookie or storage passes between them): a launch of Playwright's driver and the
    browser costs about half a second of CPU, and each module launched its own."""
    from browser_helpers import CHROMIUM, LAUNCH_ARGS, need_chromium

    need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield launched
        launched.close()
