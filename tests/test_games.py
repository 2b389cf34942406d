"""The game registry (`trainer/games.py`): one record per game, and nothing else lists the games."""

import ast
import re
from pathlib import Path

import pytest

from trainer import games
from trainer.drills import REGISTRY
from trainer.engine.presets import data_path, read_toml
from trainer.games import GAMES

ROOT = Path(__file__).resolve().parents[1]


def _real_kinds():
    # The trainer's own kinds: tests register toy kinds of made-up games in the same registry.
    return [k for k in REGISTRY.values() if k.generate.__module__.startswith("trainer.drills.")]


def test_every_drill_kind_belongs_to_exactly_one_game_by_prefix():
    kinds = _real_kinds()
    assert kinds
    for kind in kinds:
        owners = [g for g in GAMES if kind.id.startswith(g.prefix)]
        assert len(owners) == 1, f"{kind.id} belongs to {[g.id for g in owners]}"
        assert kind.game == owners[0].id and kind.id in owners[0].kinds
        assert kind.generate.__module__.startswith(owners[0].drills + ".")
        assert games.game_of(kind.id) is owners[0]
    for game in GAMES:
        assert game.kinds and all(k in REGISTRY for k in game.kinds), game.id
        assert len(set(game.kinds)) == len(game.kinds)


def test_games_are_told_apart():
    for field in ("id", "prefix", "slug", "drills", "table_template", "reference_page", "title"):
        values = [getattr(g, field) for g in GAMES]
        assert len(set(values)) == len(values), field
    prefixes = [g.prefix for g in GAMES]
    assert all(p.endswith(".") and not q.startswith(p) for p in prefixes for q in prefixes if p != q)
    assert games.get("omaha") is games.OMAHA and games.get("painted-poker") is games.PAINTED_POKER
    assert games.get("decision") is None and games.game_of("xx.nothing") is None


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_games_folder_template_and_page_exist(game):
    assert game.rules_folder == data_path("rules", game.slug) and game.rules_folder.is_dir()
    assert (game.rules_folder / f"{game.default_preset}.toml").is_file()
    assert game.preset_names()[0] == game.default_preset
    assert game.load_rules(game.default_preset).name == game.default_preset
    assert (ROOT / "templates" / game.table_template).is_file()
    assert (ROOT / "templates" / game.reference_page).is_file()
    assert (ROOT / game.drills.replace(".", "/") / "__init__.py").is_file()
    assert (ROOT / "trainer" / "engine" / game.id / "__init__.py").is_file()


def test_every_rules_folder_is_a_games():
    folders = {p.name for p in data_path("rules").iterdir() if p.is_dir()}
    assert folders == {g.slug for g in GAMES}


def test_every_quiz_question_is_of_a_registered_game():
    questions = read_toml(data_path("quizzes.toml"))["questions"]
    assert questions and all(games.game_of(q["kind"]) is not None for q in questions)
    assert {games.game_of(q["kind"]).id for q in questions} == {g.id for g in GAMES}


# Nothing else spells the games out: no list of games, by id or by slug, outside the registry, the
# engine and the games' own packages, templates and pages.
NAMES = {name for g in GAMES for name in (g.id, g.slug)}


def _own_files():
    own = {ROOT / "trainer" / "games.py"}
    for game in GAMES:
        own |= {ROOT / "templates" / game.table_template, ROOT / "templates" / game.reference_page}
    return own


def _checked_files():
    own = _own_files()
    for path in sorted((ROOT / "trainer").rglob("*.py")):
        parts = path.relative_to(ROOT / "trainer").parts
        if parts[0] == "engine" or (len(parts) > 2 and parts[0] == "drills") or path in own:
            continue
        yield path
    for path in sorted((ROOT / "templates").rglob("*.html")):
        if path not in own:
            yield path


def _spelled(path):
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        return sorted(
            node.value
            for node in ast.walk(ast.parse(text))
            if isinstance(node, ast.Constant) and node.value in NAMES
        )
    return sorted(m.group(2) for m in re.finditer(r"([\"'])([a-z_-]+)\1", text) if m.group(2) in NAMES)


@pytest.mark.parametrize("path", list(_checked_files()), ids=lambda p: str(p.relative_to(ROOT)))
def test_nothing_else_spells_the_games_out(path):
    assert _spelled(path) == [], f"{path.relative_to(ROOT)} names a game: read trainer/games.py instead"


def test_the_spelling_check_can_fail(tmp_path):
    bad = tmp_path / "list.py"
    bad.write_text('GAMES = ("russian_poker", "omaha")\n', "utf-8")
    assert _spelled(bad) == ["omaha", "russian_poker"]
    page = tmp_path / "page.html"
    page.write_text("{% if kind.game == 'painted_poker' %}x{% endif %}", "utf-8")
    assert _spelled(page) == ["painted_poker"]


def test_quizzes_file_names_no_game():
    table = read_toml(data_path("quizzes.toml"))
    assert set(table) == {"questions", "size"}
