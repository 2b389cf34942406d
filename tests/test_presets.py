"""The one house-rules loader (`trainer.engine.presets`): every game reads its presets through it,
`tomllib` is imported nowhere else, errors name the file, the key and the row."""

import ast
from pathlib import Path

import pytest

from trainer.engine import presets
from trainer.engine.omaha import betting as omaha_rules
from trainer.engine.painted_poker import rules as painted_rules
from trainer.engine.presets import PresetError, PresetFolder, Reader, pay_table, whole
from trainer.engine.russian_poker import rules as russian_rules

ROOT = Path(__file__).resolve().parents[1]
GAME_RULES = (russian_rules, omaha_rules, painted_rules)


def _imports(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module


def test_tomllib_is_imported_in_one_module_only():
    importers = sorted(
        str(path.relative_to(ROOT))
        for path in (ROOT / "trainer").rglob("*.py")
        if "tomllib" in set(_imports(path))
    )
    assert importers == ["trainer/engine/presets.py"]


def test_no_module_locates_the_data_folder_itself():
    # The data folder is found once (trainer.shipped, presets.DATA_DIR); nobody else climbs to it.
    for path in (ROOT / "trainer").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if path.relative_to(ROOT).as_posix() not in ("trainer/engine/presets.py", "trainer/__init__.py"):
            assert '/ "data"' not in text and "'data'" not in text, path


def test_errors_are_one_value_error():
    assert issubclass(PresetError, ValueError)
    error = PresetError("house.toml", "expected a whole number", "bet.odds", "pair")
    assert str(error) == "house.toml: key 'bet.odds': row 'pair': expected a whole number"
    assert (error.source, error.key, error.row) == ("house.toml", "bet.odds", "pair")


@pytest.mark.parametrize("rules", GAME_RULES, ids=lambda m: m.PRESETS.game)
def test_every_game_reads_its_presets_through_the_loader(rules):
    folder = rules.PRESETS
    assert isinstance(folder, PresetFolder) and folder.folder == presets.data_path("rules", folder.game)
    names = folder.names()
    assert names[0] == rules.DEFAULT_RULES and set(names) == {p.stem for p in folder.folder.glob("*.toml")}
    for name in names:
        built = rules.load_rules(name)
        assert built.name == name and built is rules.load_rules(name)  # cached: the same object
    table = presets.side_by_side(folder, rules.load_rules)
    assert [p["name"] for p in table["presets"]] == list(names)
    assert table["rows"] and all(set(row["values"]) == set(names) for row in table["rows"])


@pytest.mark.parametrize("rules", GAME_RULES, ids=lambda m: m.PRESETS.game)
@pytest.mark.parametrize("name", ["../x", "Big", "", "x" * 65, 3, "a b"])
def test_bad_preset_names_are_refused_in_every_game(rules, name):
    with pytest.raises(PresetError, match=f"{rules.PRESETS.noun} rules"):
        rules.load_rules(name)


@pytest.mark.parametrize("rules", GAME_RULES, ids=lambda m: m.PRESETS.game)
def test_shipped_folders_are_read_once_and_others_afresh(rules, tmp_path):
    # The shipped folder's listing and files are kept (drills name their preset on every question);
    # a folder elsewhere may gain a preset while running, and a kept listing would not show it.
    shipped = rules.PRESETS
    default = shipped.path(None)
    assert default == (shipped.folder / f"{rules.DEFAULT_RULES}.toml").resolve() and default.is_file()
    assert shipped.path(rules.DEFAULT_RULES) == default and shipped.names() is shipped.names()
    with pytest.raises(PresetError, match="no preset 'nowhere'"):
        shipped.path("nowhere")
    elsewhere = shipped.moved_to(tmp_path)
    (tmp_path / "one.toml").write_text(f'base = "{rules.DEFAULT_RULES}"\n', "utf-8")
    assert elsewhere.names() == ("one",)
    with pytest.raises(PresetError, match=r"no preset 'two' \(have: one\)"):
        elsewhere.path("two")
    (tmp_path / "two.toml").write_text(f'base = "{rules.DEFAULT_RULES}"\n', "utf-8")
    assert elsewhere.names() == ("one", "two") and elsewhere.path("two") == tmp_path.resolve() / "two.toml"
    (tmp_path / "one.toml").unlink()
    assert elsewhere.names() == ("two",) and not elsewhere.is_preset("one")


@pytest.mark.parametrize("rules", GAME_RULES, ids=lambda m: m.PRESETS.game)
def test_base_loops_and_missing_bases_name_the_file(rules, tmp_path, monkeypatch):
    monkeypatch.setattr(rules, "PRESETS", rules.PRESETS.moved_to(tmp_path))
    (tmp_path / "a.toml").write_text('base = "b"\n', "utf-8")
    (tmp_path / "b.toml").write_text('base = "c"\n', "utf-8")
    (tmp_path / "c.toml").write_text('base = "a"\n', "utf-8")
    game = rules.PRESETS.game
    with pytest.raises(PresetError, match=f"data/rules/{game}/a.toml: key 'base': presets inherit"):
        rules.load_rules("a")
    (tmp_path / "d.toml").write_text('base = "gone"\n', "utf-8")
    with pytest.raises(PresetError, match=r"d\.toml: key 'base': no preset 'gone'"):
        rules.load_rules("d")
    (tmp_path / "e.toml").write_text("base = \n", "utf-8")
    with pytest.raises(PresetError, match=f"data/rules/{game}/e.toml: not valid TOML"):
        rules.load_rules("e")


@pytest.mark.parametrize("rules", GAME_RULES, ids=lambda m: m.PRESETS.game)
def test_a_house_file_inherits_and_a_typo_is_refused(rules, tmp_path):
    default = rules.DEFAULT_RULES
    same = tmp_path / "same.toml"
    same.write_text(f'base = "{default}"\ntitle = "Our house"\n', "utf-8")
    built = rules.load_rules(same)
    assert built.title == "Our house" and built.name == "same"
    typo = tmp_path / "typo.toml"
    typo.write_text(f'base = "{default}"\n[limits]\nraise = 3\n', "utf-8")
    with pytest.raises(PresetError, match=r"typo\.toml: key 'limits\.raise': unknown key"):
        rules.load_rules(typo)
    with pytest.raises(PresetError, match=r"nowhere\.toml: no such rules file"):
        rules.load_rules(tmp_path / "nowhere.toml")


def test_reader_names_the_row_of_a_pay_table():
    reader = Reader("house.toml", {"bet": {"odds": {"pair": 1, "flush": "5"}}})
    with pytest.raises(PresetError) as err:
        reader.value("bet.odds", pay_table(("pair", "flush"), complete=True))
    assert (err.value.source, err.value.key, err.value.row) == ("house.toml", "bet.odds", "flush")
    reader = Reader("house.toml", {"bet": {"ante": True}})
    with pytest.raises(
        PresetError, match=r"house\.toml: key 'bet\.ante': expected a whole number >= 1, got True"
    ):
        reader.value("bet.ante", whole(1))
    with pytest.raises(PresetError, match=r"house\.toml: key 'bet\.max': missing"):
        reader.value("bet.max", whole(1))
    assert reader.value("bet.max", whole(1), required=False) is None


def test_pay_tables_replace_their_base_rows_and_sections_merge(tmp_path):
    # A Russian poker pay table lists every row it pays; a painted poker section changes one key.
    path = tmp_path / "short.toml"
    path.write_text('base = "lunar"\n[super]\nodds = { flush = 60 }\n', "utf-8")
    assert dict(russian_rules.load_rules(path).super_odds) == {russian_rules.SuperCombination.FLUSH: 60}
    path = tmp_path / "gold.toml"
    path.write_text('base = "classic"\n[scoring.multiplier]\ngold = 2\n', "utf-8")
    doubled = painted_rules.load_rules(path)
    assert doubled.scoring.multiplier[painted_rules.DealKind.GOLD] == 2
    assert (
        doubled.scoring.multiplier[painted_rules.DealKind.DARK]
        == (painted_rules.load_rules().scoring.multiplier[painted_rules.DealKind.DARK])
    )


def test_quizzes_are_read_through_the_loader(tmp_path):
    assert presets.read_toml(presets.data_path("quizzes.toml"))
    bad = tmp_path / "bad.toml"
    bad.write_text("[x\n", "utf-8")
    with pytest.raises(PresetError, match="quiz file: not valid TOML"):
        presets.read_toml(bad, "quiz file")
