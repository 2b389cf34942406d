"""The `flask --app trainer.web` developer commands (trainer/web/core/cli.py)."""

import pytest
from conftest import make_app

from trainer.games import GAMES


@pytest.fixture
def runner(tmp_path):
    app = make_app(DATABASE=str(tmp_path / "t.sqlite"))
    return app.test_cli_runner()


def test_games_lists_the_registry(runner):
    result = runner.invoke(args=["games"])
    assert result.exit_code == 0
    for game in GAMES:
        assert f"{game.id} ({game.title}): kinds {game.prefix}*" in result.output
        assert all(kind in result.output for kind in game.kinds)


def test_presets_check_loads_every_shipped_preset(runner):
    result = runner.invoke(args=["presets", "check"])
    assert result.exit_code == 0, result.output
    for game in GAMES:
        for name in game.preset_names():
            assert f"ok {game.id} {name}: " in result.output


def test_presets_check_names_the_file_key_and_row_of_a_bad_house_file(runner, tmp_path):
    good = tmp_path / "good.toml"
    good.write_text('base = "cis"\ntitle = "Our house"\n', "utf-8")
    bad = tmp_path / "bad.toml"
    bad.write_text('base = "cis"\n[bet]\nodds = { pair = "x" }\n', "utf-8")
    result = runner.invoke(args=["presets", "check", "--game", "russian_poker", str(good), str(bad)])
    assert result.exit_code == 1
    assert f"ok russian_poker {good}: Our house" in result.output
    assert "bad.toml: key 'bet.odds': row 'pair': expected a whole number >= 1, got 'x'" in result.output
    assert runner.invoke(args=["presets", "check", str(good)]).exit_code == 2  # --game is needed
    assert runner.invoke(args=["presets", "check", "--game", "chess", str(good)]).exit_code == 2


def test_presets_compare_marks_the_rows_that_differ(runner):
    result = runner.invoke(args=["presets", "compare", "russian-poker"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].split() == ["cis", "caribbean", "insured", "lunar"]
    assert any(
        line.startswith("≠ buy_game.replaces") and "highest" in line and "lowest" in line for line in lines
    )
    assert any(line.startswith("  bet.odds.royal_flush") for line in lines)
    assert runner.invoke(args=["presets", "compare", "chess"]).exit_code == 2
