"""The advisor's static tables kept in files (strategy/tablefile.py): what a process reads back is what
it would have built, read-only, rebuilt when broken, never read across versions of the code; `warm()`
makes them ready without building what is on file; the production server warms before it forks."""

import numpy as np
import pytest

from trainer.engine.russian_poker import strategy
from trainer.engine.russian_poker.strategy import buying, counting, solver, tablefile


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A fresh cache folder for the test."""
    monkeypatch.setenv("TRAINER_ADVISOR_KERNEL_DIR", str(tmp_path))
    monkeypatch.delenv("TRAINER_ADVISOR_TABLES", raising=False)
    return tmp_path


def _same(a, b):
    assert a.keys() == b.keys()
    for name in a:
        assert a[name].dtype == b[name].dtype and a[name].shape == b[name].shape, name
        assert np.array_equal(a[name], b[name]), name


def test_tables_read_back_equal_the_tables_built(folder):
    # One of each kind; the largest draw size and both replacement rules.
    cases = [
        ("up-12", lambda: counting._build_up_tables(12)),
        ("draw-5", lambda: solver._build_draw_classes(5)),
        ("draw-0", lambda: solver._build_draw_classes(0)),  # arrays of length 0 among them
        ("no-game-3-lowest", lambda: buying._build_no_game_tables(3, False)),
        ("no-game-0-highest", lambda: buying._build_no_game_tables(0, True)),
    ]
    for name, build in cases:
        built = tablefile.load_or_build(name, build)  # built in memory, and written
        assert (tablefile.tables_dir() / name / "names.txt").is_file()
        read = tablefile.load_or_build(name, lambda: pytest.fail("built again"))
        _same(read, built)
        assert not any(a.flags.writeable for a in read.values())  # a write raises
        assert all(type(a) is np.ndarray for a in read.values())


def test_the_dataclasses_from_files_are_those_from_the_builders(folder):
    up = counting.up_tables.__wrapped__(4)  # past the process's own cache: from the file
    again = counting.up_tables.__wrapped__(4)
    assert up.suited_id == again.suited_id and up.entries == again.entries == up.slots.shape[1]
    masks = up.suited_masks.tolist()
    assert up.suited_id == {m: i for i, m in enumerate(masks)} and len(masks) == 495
    classes = solver.draw_classes.__wrapped__(3)
    assert classes.index == solver.draw_classes(3).index and classes.kept_index == {
        m: i for i, m in enumerate(counting.multisets(2))
    }
    assert np.array_equal(classes.final, solver.draw_classes(3).final)
    no_game = buying.no_game_tables.__wrapped__(7, True)
    assert no_game.failing == buying.no_game_tables(7, True).failing > 0


def test_a_broken_table_is_built_again_and_rewritten(folder):
    built = []

    def build():
        built.append(1)
        return {"a": np.arange(10), "b": np.ones((2, 3))}

    tablefile.load_or_build("t", build)
    path = tablefile.tables_dir() / "t"
    (path / "a.npy").write_bytes((path / "a.npy").read_bytes()[:-8])  # truncated
    assert tablefile.load_or_build("t", build)["a"].tolist() == list(range(10))
    assert len(built) == 2
    assert tablefile.load_or_build("t", build)["b"].shape == (2, 3) and len(built) == 2  # rewritten
    (path / "names.txt").write_text("format-0 a b\n")  # another layout
    tablefile.load_or_build("t", build)
    assert len(built) == 3


def test_an_unwritable_cache_folder_leaves_the_tables_in_memory(tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("TRAINER_ADVISOR_KERNEL_DIR", str(blocked))
    arrays = tablefile.load_or_build("t", lambda: {"a": np.arange(3)})
    assert arrays["a"].tolist() == [0, 1, 2]
    monkeypatch.setenv("TRAINER_ADVISOR_KERNEL_DIR", str(tmp_path / "ok"))
    monkeypatch.setenv("TRAINER_ADVISOR_TABLES", "off")
    assert tablefile.tables_dir() is None
    assert tablefile.load_or_build("t", lambda: {"a": np.arange(2)})["a"].tolist() == [0, 1]
    assert not (tmp_path / "ok").exists()


def test_the_folder_is_named_by_the_sources_so_a_change_of_code_reads_none_of_it(folder, monkeypatch):
    first = tablefile.tables_dir()
    assert first.parent == folder and first.name.startswith("advisor-tables-")
    tablefile._digest.cache_clear()
    with monkeypatch.context() as m:
        m.setattr(tablefile, "FORMAT", tablefile.FORMAT + 1)
        try:
            assert tablefile.tables_dir() != first
        finally:
            tablefile._digest.cache_clear()
    real = tablefile.Path.read_bytes

    def edited(path):
        data = real(path)
        return data + b"# edited" if path.name == "counting.py" else data

    with monkeypatch.context() as m:
        m.setattr(tablefile.Path, "read_bytes", edited)
        try:
            assert tablefile.tables_dir() not in (first, None)
        finally:
            tablefile._digest.cache_clear()
    assert tablefile.tables_dir() == first


def test_warm_reads_every_table_from_its_file_without_building(tmp_path, monkeypatch):
    monkeypatch.delenv("TRAINER_ADVISOR_TABLES", raising=False)
    # Every table in the suite's own folder (where the other tests read them; built there once)
    for r in range(13):
        counting.up_tables.__wrapped__(r)
        buying.no_game_tables.__wrapped__(r, True)
        buying.no_game_tables.__wrapped__(r, False)
    for k in range(6):
        solver.draw_classes.__wrapped__(k)
    shared = tablefile.tables_dir()
    names = sorted(p.name for p in shared.iterdir() if not p.name.startswith("."))
    assert len(names) == 13 + 6 + 26
    # A fresh cache folder holding those tables (a link: copying 100 MB would only slow the suite)
    monkeypatch.setenv("TRAINER_ADVISOR_KERNEL_DIR", str(tmp_path))
    tablefile.tables_dir().symlink_to(shared, target_is_directory=True)
    for module, name in ((counting, "up_tables"), (solver, "draw_classes"), (buying, "no_game_tables")):
        monkeypatch.setattr(module, name, getattr(module, name).__wrapped__)  # past the process's cache

    def never(*_args):
        raise AssertionError("a table was built, not read")

    for module, name in (
        (counting, "_build_up_tables"),
        (solver, "_build_draw_classes"),
        (buying, "_build_no_game_tables"),
    ):
        monkeypatch.setattr(module, name, never)
    done = strategy.warm()
    assert done["tables"] == tmp_path / shared.name
    # and the advisor answers from them as before
    assert [o.label for o in strategy.best_options("Qh 9h 6h 3h 2c", "Ad")] == ["sixth card"]


def test_the_production_server_warms_the_advisor_before_its_workers_start(monkeypatch):
    from trainer.web.core import server

    calls = []
    monkeypatch.setattr(strategy, "warm", lambda: calls.append("warm"))
    monkeypatch.setattr(server, "listening_socket", lambda host, port: calls.append("listen") or 1 / 0)
    with pytest.raises(ZeroDivisionError):  # stopped where the socket is opened, before any fork
        server.serve(None, "127.0.0.1", 0, 2, 2)
    assert calls == ["warm", "listen"]


def test_other_versions_tables_are_removed_only_when_unused_for_two_weeks(folder):
    import os
    import time

    old, recent = folder / "advisor-tables-0000000000000000", folder / "advisor-tables-1111111111111111"
    for p in (old, recent):
        (p / "up-0").mkdir(parents=True)
    weeks = time.time() - (tablefile.STALE_DAYS + 1) * 86400
    os.utime(old, (weeks, weeks))
    tablefile.load_or_build("t", lambda: {"a": np.arange(3)})  # this version's first table
    assert not old.exists() and recent.exists() and (tablefile.tables_dir() / "t").is_dir()
