"""House rules are passed in, never set globally: the engine keeps no list of house presets, an
instructor's edited copy is read from the database through the store and handed to the loader as
text, nothing is written to a file, and two apps in one process do not see each other's copies."""

import ast
import builtins
import inspect
import io
import os
import re
import threading
from pathlib import Path

import pytest
from conftest import make_app

from trainer.drills import RulesError, expected_of, issue
from trainer.drills.houses import in_use
from trainer.drills.rounds import RoundError, deal
from trainer.engine import presets
from trainer.engine.omaha import betting as omaha_rules
from trainer.engine.painted_poker import rules as painted_rules
from trainer.engine.presets import HouseTexts, PresetError
from trainer.engine.russian_poker import Category, load_rules
from trainer.engine.russian_poker import rules as russian_rules
from trainer.games import BY_ID
from trainer.store import open_db
from trainer.store.accounts import AccountError
from trainer.store.groups import Groups
from trainer.store.house_rules import StoredHouses, house_name

CIS = (BY_ID["russian_poker"].rules_folder / "cis.toml").read_text()


def _copy(full_house: int) -> tuple[str, str]:
    """A CIS copy paying `full_house` to 1 for a full house: (name, text)."""
    text = CIS.replace("full_house = 7,", f"full_house = {full_house},", 1)
    assert text != CIS
    return house_name(text), text


def _module_state(source: str) -> dict[str, str]:
    """The module-level names a statement binds to a list, dict or set display or call (mutable state)."""
    found = {}
    for node in ast.parse(source).body:
        targets = []
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        mutable = isinstance(value, ast.List | ast.Dict | ast.Set | ast.ListComp | ast.DictComp) or (
            isinstance(value, ast.Call) and getattr(value.func, "id", "") in ("list", "dict", "set")
        )
        for target in targets:
            if mutable and isinstance(target, ast.Name):
                found[target.id] = ast.unparse(value)[:60]
    return found


def test_the_loader_keeps_no_module_level_registry():
    """`trainer.engine.presets` holds no list, dict or set at module level (it once kept the house
    folders the web registered at start-up); each game's loader takes the house presets as an argument."""
    assert _module_state(inspect.getsource(presets)) == {}
    assert not hasattr(presets, "add_house_folder")
    for module in (russian_rules, omaha_rules, painted_rules):
        assert "houses" in inspect.signature(module.load_rules).parameters, module.__name__


def test_the_registry_check_finds_a_module_level_list():
    """The check above can fail: a list of folders at module level, as the loader once kept, is caught."""
    source = "from pathlib import Path\n_HOUSE_FOLDERS: list[Path] = []\nNAMES = ('a',)\nSEEN = dict()\n"
    assert _module_state(source) == {"_HOUSE_FOLDERS": "[]", "SEEN": "dict()"}


def test_two_house_copies_in_one_process_each_give_their_own_answers():
    (eight, text8), (nine, text9) = _copy(8), _copy(9)
    slug = BY_ID["russian_poker"].slug
    houses8, houses9 = HouseTexts.of(slug, eight, text8), HouseTexts.of(slug, nine, text9)
    assert load_rules(eight, houses8).bet_odds[Category.FULL_HOUSE] == 8
    assert load_rules(nine, houses9).bet_odds[Category.FULL_HOUSE] == 9
    assert load_rules("cis").bet_odds[Category.FULL_HOUSE] == 7  # the shipped preset, untouched
    # A copy is known only where it is handed over: not without a source, not from the other one.
    for name, houses in ((eight, None), (eight, houses9), (nine, houses8)):
        with pytest.raises(PresetError):
            load_rules(name, houses)
        with pytest.raises(RulesError):
            issue("rp.bet_payout", 1, seed=1, rules=name, houses=houses)
        with pytest.raises(RoundError):
            deal("russian_poker", 1, 1, rules=name, houses=houses)
    # The same seeds deal the same cards under both copies; a winning full house is paid by each its way.
    paid = {}
    for seed in range(200):
        under8 = issue("rp.bet_payout", 1, seed=seed, rules=eight, houses=houses8)
        under9 = issue("rp.bet_payout", 1, seed=seed, rules=nine, houses=houses9)
        assert under8.data | {"rules": None} == under9.data | {"rules": None}
        why = " ".join(str(s) for s in expected_of(under8, houses=houses8)[2]).lower()
        if "player's hand: full house" in why and "player's hand is higher" in why:
            paid = {8: expected_of(under8, houses=houses8)[0], 9: expected_of(under9, houses=houses9)[0]}
            break
    assert paid and paid[8] * 9 == paid[9] * 8, paid
    assert in_use() is None  # nothing outlives the calls


def test_threads_dealing_under_different_copies_each_keep_their_own():
    """The copies a call is handed are held for that call in that thread only: two threads grading
    under two copies at once never see the other's, and nothing is left held after an error."""
    (eight, text8), (nine, text9) = _copy(8), _copy(9)
    slug = BY_ID["russian_poker"].slug
    sources = {8: (eight, HouseTexts.of(slug, eight, text8)), 9: (nine, HouseTexts.of(slug, nine, text9))}
    start = threading.Barrier(2)
    seen: dict[int, set[int]] = {8: set(), 9: set()}
    failures: list[BaseException] = []

    def work(odds: int) -> None:
        name, houses = sources[odds]
        try:
            start.wait()
            for seed in range(60):
                situation = issue("rp.bet_payout", 1, seed=seed, rules=name, houses=houses)
                steps = " ".join(str(s) for s in expected_of(situation, houses=houses)[2])
                seen[odds].update(int(n) for n in re.findall(r"pays (\d+) to 1", steps) if int(n) in (8, 9))
                assert in_use() is None
        except BaseException as error:  # reported below: a thread's assertion would be lost
            failures.append(error)

    threads = [threading.Thread(target=work, args=(odds,)) for odds in (8, 9)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures
    assert seen == {8: {8}, 9: {9}}, seen  # each paid its full houses its way (seeds 7, 49, 50, 53 have one)
    with pytest.raises(RulesError):  # the kind refuses a preset of another game: nothing stays held
        issue("om.blinds", 1, seed=1, rules=eight, houses=sources[8][1])
    assert in_use() is None


def test_saving_an_instructors_rules_writes_no_file(tmp_path, monkeypatch):
    """The copy is checked from its text and kept in the database: no file is opened for writing, no
    folder made, nothing renamed (SQLite writes its own file from C, unseen here)."""
    database = tmp_path / "trainer.sqlite"
    db = open_db(database)
    monkeypatch.chdir(tmp_path)
    written = []
    real_open, real_mkdir, real_replace = io.open, os.mkdir, os.replace

    def opening(file, mode="r", *args, **kwargs):
        if any(flag in mode for flag in "wax+"):
            written.append(("open", str(file)))
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(io, "open", opening)
    monkeypatch.setattr(builtins, "open", opening)
    monkeypatch.setattr(
        os, "mkdir", lambda path, *a, **k: written.append(("mkdir", str(path))) or real_mkdir(path, *a, **k)
    )
    monkeypatch.setattr(
        os, "replace", lambda a, b, **k: written.append(("replace", str(b))) or real_replace(a, b, **k)
    )
    name, text = _copy(9)
    groups = Groups(db)
    assert groups.save_house_rules("russian_poker", text, None) == name
    with pytest.raises(AccountError):  # a refused copy writes nothing either
        groups.save_house_rules("russian_poker", text.replace("full_house = 9,", "full_house = -9,"), None)
    monkeypatch.undo()
    assert written == []
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        p.name for p in tmp_path.iterdir() if p.name.startswith("trainer.sqlite")
    )
    # The copy is in the database, and read from there: a fresh store over the file knows it.
    again = StoredHouses(open_db(database, migrate=False))
    assert again.house_text("russian-poker", name) == text
    assert load_rules(name, again).bet_odds[Category.FULL_HOUSE] == 9


def _app(folder: Path):
    folder.mkdir()
    return make_app(
        DATABASE=str(folder / "trainer.sqlite"), WTF_CSRF_ENABLED=False, FAST_PASSWORD_HASHING=True
    )


def test_two_apps_in_one_process_do_not_see_each_others_house_rules(tmp_path):
    first, second = _app(tmp_path / "first"), _app(tmp_path / "second")
    name, text = _copy(9)
    db = open_db(first.config["DATABASE"], migrate=False)
    try:
        Groups(db).save_house_rules("russian_poker", text, None)
    finally:
        db.conn.close()
    page = f"/reference/presets/russian-poker?preset={name}"
    drill = {"kind": "rp.bet_payout", "level": 1, "rules": name}
    round_ = {"game": "russian_poker", "level": 1, "rules": name}
    mine, theirs = first.test_client(), second.test_client()
    made = mine.post("/api/v1/drills", json=drill)
    assert made.status_code == 201 and made.json["rules"] == name, made.json
    assert mine.post("/api/v1/rounds", json=round_).status_code == 201
    assert 'class="mine"' in mine.get(page).get_data(as_text=True)
    # The second app's database has no such copy: it is unknown there, before and after the first.
    assert theirs.post("/api/v1/drills", json=drill).status_code == 400
    assert theirs.post("/api/v1/rounds", json=round_).status_code == 400
    assert 'class="mine"' not in theirs.get(page).get_data(as_text=True)
    assert mine.post("/api/v1/drills", json=drill).status_code == 201
