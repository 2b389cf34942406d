"""Worked examples for the rules pages: the rule documents' examples (cards and stakes, in
`data/examples/<slug>.toml`) settled by the game's engine under its default preset, so a rules page
shows the engine's own steps and amounts."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from trainer.engine import omaha, painted_poker, russian_poker
from trainer.engine.omaha.explain import explain_pot_limit
from trainer.engine.presets import data_path, read_toml
from trainer.games import OMAHA, PAINTED_POKER, RUSSIAN_POKER, Game

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


def _omaha(example: dict[str, Any], _preset: str) -> dict[str, Any]:
    if example["type"] == "pot_limit":
        total, steps = explain_pot_limit(example["pot"], example["to_call"])
        return {**example, "steps": steps, "answer": total}
    built = omaha.side_pots(example["contributions"])
    pots = [{"amount": pot.amount, "seats": [seat + 1 for seat in pot.eligible]} for pot in built.pots]
    return {**example, "seats": list(enumerate(example["contributions"], 1)), "pots": pots, "steps": ()}


def _painted_poker(example: dict[str, Any], preset: str) -> dict[str, Any]:
    points, steps = painted_poker.explain_score(example["bid"], example["took"], rules=preset)
    return {**example, "steps": steps, "answer": points}


WORKERS: dict[str, Callable[[dict[str, Any], str], dict[str, Any]]] = {
    RUSSIAN_POKER.id: _russian_poker,
    OMAHA.id: _omaha,
    PAINTED_POKER.id: _painted_poker,
}


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
