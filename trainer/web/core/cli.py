"""Developer and house commands, run as `flask --app trainer.web <command>`
(docs/getting-started.md, "Commands").

Developer tools live here as Flask CLI commands rather than as `__main__` blocks in runtime modules:

    flask --app trainer.web games                      # the registry: games, prefixes, presets, kinds
    flask --app trainer.web presets check              # load and check every shipped preset
    flask --app trainer.web presets check --game russian_poker house.toml   # a house's own file
    flask --app trainer.web presets compare omaha      # a game's presets side by side, as text
"""

from __future__ import annotations

from pathlib import Path

import click
from flask import Flask
from flask.cli import AppGroup

from trainer import games as registry
from trainer.engine.presets import PresetError, side_by_side

presets_cli = AppGroup("presets", help="Check and compare the house-rules presets in data/rules/.")


def _game(name: str) -> registry.Game:
    game = registry.get(name)
    if game is None:
        ids = ", ".join(g.id for g in registry.GAMES)
        raise click.BadParameter(f"no game {name!r} (one of {ids})", param_hint="GAME")
    return game


@click.command("games")
def games_command() -> None:
    """List the registered games (trainer/games.py) with their drill kinds and presets."""
    for game in registry.GAMES:
        click.echo(f"{game.id} ({game.title}): kinds {game.prefix}*, rules {game.presets.folder}")
        click.echo(f"  presets: {', '.join(game.preset_names())} (default {game.default_preset})")
        click.echo(f"  kinds: {', '.join(game.kinds)}")
        click.echo(f"  pages: {game.table_template}, {game.reference_page}")


@presets_cli.command("check")
@click.option("--game", "game_name", help="The game of the FILES (an id such as russian_poker).")
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False, path_type=Path))
def check_command(game_name: str | None, files: tuple[Path, ...]) -> None:
    """Load and check every shipped preset, or the FILES of one --game; exit 1 on the first error."""
    if files and game_name is None:
        raise click.UsageError("name the game of the files with --game")
    targets = (
        [(_game(game_name), str(f)) for f in files]
        if files and game_name is not None
        else [(g, name) for g in registry.GAMES for name in g.preset_names()]
    )
    failed = 0
    for game, name in targets:
        try:
            rules = game.load_rules(name)
        except PresetError as error:
            failed += 1
            click.echo(f"error: {error}", err=True)
            continue
        click.echo(f"ok {game.id} {name}: {rules.title}")
    if failed:
        raise click.exceptions.Exit(1)


@presets_cli.command("compare")
@click.argument("game_name", metavar="GAME")
def compare_command(game_name: str) -> None:
    """A game's presets side by side: every rule, one column per preset, differences marked."""
    game = _game(game_name)
    table = side_by_side(game.presets, game.load_rules)
    names = [p["name"] for p in table["presets"]]
    rows = [["", *names]] + [
        [("  " if row["same"] else "≠ ") + row["key"], *(_cell(row["values"][n]) for n in names)]
        for row in table["rows"]
    ]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        click.echo("  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip())


def _cell(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "-"
    return str(value)


def init_app(app: Flask) -> None:
    app.cli.add_command(games_command)
    app.cli.add_command(presets_cli)
