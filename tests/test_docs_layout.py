"""The docs' layout, games and module names cannot drift: every game, drill kind and rules file is
named, every package is in the layout, and every module the docs name exists."""

import dataclasses
import re
from pathlib import Path

from docs_pages import all_pages, section

from trainer.games import GAMES, Game

ROOT = Path(__file__).resolve().parents[1]
DOCS = all_pages()  # every page of docs/


def _section(title):
    return section(title)


def test_every_game_is_in_the_readme():
    registry = _section("Games registry")
    for game in GAMES:
        for name in (game.id, game.prefix, game.drills, game.table_template, game.reference_page):
            assert f"`{name}`" in registry, f"{game.id}: {name} is not in the docs' 'Games registry'"
        assert f"`data/rules/{game.slug}/`" in registry
        assert f"## {game.title} engine" in DOCS, f"the docs have no '## {game.title} engine' section"


def test_every_drill_kind_of_every_game_is_in_the_drill_list():
    listed = set(re.findall(r"^\| `([a-z]+\.[a-z_]+)` \|", _section("Drills"), flags=re.M))
    for game in GAMES:
        missing = sorted(set(game.kinds) - listed)
        assert not missing, f"{game.id}: drill kinds missing from the docs' 'Drills': {missing}"


def test_every_rules_file_is_in_the_readme():
    for game in GAMES:
        for path in sorted(game.rules_folder.glob("*.toml")):
            assert f"`{path.name}`" in DOCS or f"data/rules/{game.slug}/{path.name}" in DOCS, (
                f"rules file data/rules/{game.slug}/{path.name} is not in the docs"
            )


def test_every_package_is_in_the_layout():
    layout = _section("Layout")
    for init in sorted((ROOT / "trainer").rglob("__init__.py")):
        package = init.parent.relative_to(ROOT).as_posix() + "/"
        assert f"`{package}" in layout or f"`{init.parent.name}/`" in layout, f"{package} not in 'Layout'"
    assert "`trainer/games.py`" in layout


def test_adding_a_game_gives_every_field_of_the_record():
    section = _section("Adding a game")
    for field in dataclasses.fields(Game):
        assert f"{field.name}=" in section, f"'Adding a game' does not set Game.{field.name}"


_FILES = [p for top in ("trainer", "tests", "bench") for p in (ROOT / top).rglob("*.py")]


def _exists(name):
    if (ROOT / name).is_file():
        return True
    if "/" in name:
        return any(p.as_posix().endswith("/" + name) for p in _FILES)
    return any(p.name == name for p in _FILES)


def test_every_module_the_readme_names_exists():
    named = sorted(set(re.findall(r"`([A-Za-z0-9_./-]+\.py)`", DOCS)))
    assert named
    stale = [name for name in named if not _exists(name)]
    assert not stale, f"the docs name modules that do not exist: {stale}"


def test_the_module_check_knows_an_old_name():
    assert not _exists("russian_hands.py") and not _exists("trainer/drills/omaha.py")
    assert _exists("strategy/counting.py") and _exists("trainer/games.py") and _exists("records.py")
