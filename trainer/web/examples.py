"""Worked examples for the rules pages: the rule documents' examples (cards and stakes, in
`data/examples/<slug>.toml`) settled by the game's engine under its default preset, so a rules page
shows the engine's own steps and amounts."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from trainer.engine import russian_poker
from trainer.engine.presets import data_path, read_toml
from trainer.games import RUSSIAN_POKER, Game

SETTLE = {"bonus", "folded", "exchanges", "buy_game_card"}  # the settle() options an example may give


def _russian_poker(example: dict[str, Any], preset: str) -> dict[str, Any]:
    options = {key: example[key] for key in SETTLE if key in example}
    settled = russian_poker.settle(
        example["player"], example["dealer"], example["ante"], rules=preset, **options
    )
    return {
        "player": example["player"].split(),
        "dealer": example["dealer"].split(),
        "ante": example["ante"],
        "bonus": example.get("bonus", 0),
        "folded": example.get("folded", False),
        "steps": settled.steps,
        "net": settled.net,
    }


WORKERS: dict[str, Callable[[dict[str, Any], str], dict[str, Any]]] = {RUSSIAN_POKER.id: _russian_poker}


@lru_cache(maxsize=8)
def _settled(game_id: str, slug: str, preset: str) -> tuple[dict[str, Any], ...]:
    path = data_path(f"examples/{slug}.toml")
    if game_id not in WORKERS or not path.is_file():
        return ()
    examples = read_toml(path, f"data/examples/{slug}.toml")["examples"]
    return tuple(WORKERS[game_id](example, preset) for example in examples)


def worked_examples(game: Game) -> tuple[dict[str, Any], ...]:
    """The game's worked examples, settled (none for a game without a file or an engine worker)."""
    return _settled(game.id, game.slug, game.default_preset)
