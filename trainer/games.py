"""The games the trainer teaches: one `Game` record per game, the one place that lists them.

The drills, the store and the web read this registry (never the engine, which knows nothing of the
trainer around it): which drills package to import, which drill kinds a game has and in what order
the catalog shows them, where its house rules are, which template draws its table and which page
states its rules. Adding a game is one engine package, one drills package, one record here and its
data (docs/architecture.md, "Adding a game").

>>> game_of("om.side_pots").title, RUSSIAN_POKER.rules_folder.name, RUSSIAN_POKER.default_preset
('Omaha', 'russian-poker', 'cis')
>>> [game.id for game in GAMES]
['russian_poker', 'omaha', 'painted_poker']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from trainer.engine.omaha import betting as omaha_rules
from trainer.engine.painted_poker import rules as painted_rules
from trainer.engine.presets import HouseSource, PresetFolder, Reader
from trainer.engine.russian_poker import rules as russian_rules


def _(message: str) -> str:
    """Marks a title for the message catalog; the pages translate it where they show it."""
    return message


class RulesLoader(Protocol):
    """A game's `load_rules`: a shipped preset by name, or a house preset that `houses` holds."""

    def __call__(self, name_or_path: str, houses: HouseSource | None = None, /) -> Any: ...


@dataclass(frozen=True)
class Game:
    """One game: its identity, drills, house rules and pages.

    `id` names the game in drills, the store and URLs of drills and quizzes (`russian_poker`);
    `prefix` starts every drill kind id of the game (`rp.`); `slug` (the rules folder's name,
    `russian-poker`) names it in the reference pages' URLs.
    """

    id: str
    title: str  # English; translated where shown (`gettext(game.title)`)
    prefix: str
    presets: PresetFolder  # the engine's: data/rules/<slug>/ and the default preset
    load_rules: RulesLoader  # the engine's loader: a preset name -> its frozen rules
    build: Callable[[str, Reader], Any]  # the engine's builder of a checked table (the rules form reads it)
    kinds: tuple[str, ...]  # drill kind ids, in the order the catalog lists them

    # Named after the id, so that a record states only what differs between games.
    @property
    def drills(self) -> str:
        """The drills package, imported by `trainer.drills` to register the kinds."""
        return f"trainer.drills.{self.id}"

    @property
    def table_template(self) -> str:
        """The template that draws a situation of the game (templates/)."""
        return f"situations/{self.id}.html"

    @property
    def reference_page(self) -> str:
        """The game's rules page (templates/)."""
        return f"reference/rules_{self.id}.html"

    @property
    def slug(self) -> str:
        return self.presets.game

    @property
    def rules_folder(self) -> Path:
        return self.presets.folder

    @property
    def default_preset(self) -> str:
        return self.presets.default

    def preset_names(self) -> tuple[str, ...]:
        """The shipped presets, the default first."""
        return self.presets.names()


RUSSIAN_POKER = Game(
    id="russian_poker",
    title=_("Russian poker"),
    prefix="rp.",
    presets=russian_rules.PRESETS,
    load_rules=russian_rules.load_rules,
    build=russian_rules.build,
    kinds=(
        "rp.qualify",
        "rp.combination",
        "rp.bet_payout",
        "rp.bonus_payout",
        "rp.no_game",
        "rp.buy",
        "rp.settle",
        "rp.decision",
        "rp.two_combinations",
        "rp.insurance",
        "rp.boxes",
        "rp.spot_mistake",
        "rp.chip_change",
        "rp.colour_up",
        "rp.chip_count",
        "rp.pay_box",
    ),
)

OMAHA = Game(
    id="omaha",
    title=_("Omaha"),
    prefix="om.",
    presets=omaha_rules.PRESETS,
    load_rules=omaha_rules.load_rules,
    build=omaha_rules.build,
    kinds=(
        "om.high",
        "om.winner",
        "om.low",
        "om.split",
        "om.side_pots",
        "om.pot_limit",
        "om.limit",
        "om.blinds",
        "om.new_player",
        "om.showdown",
        "om.spot_mistake",
        "om.chip_change",
        "om.colour_up",
        "om.chip_count",
    ),
)

PAINTED_POKER = Game(
    id="painted_poker",
    title=_("Painted poker"),
    prefix="pp.",
    presets=painted_rules.PRESETS,
    load_rules=painted_rules.load_rules,
    build=painted_rules.build,
    kinds=("pp.score", "pp.schedule", "pp.hook", "pp.trick", "pp.sheet", "pp.spot_mistake"),
)

GAMES: tuple[Game, ...] = (RUSSIAN_POKER, OMAHA, PAINTED_POKER)
BY_ID = {game.id: game for game in GAMES}
BY_SLUG = {game.slug: game for game in GAMES}


def game_of(kind_id: str) -> Game | None:
    """The game whose prefix starts a drill kind id, or None (a kind of no registered game)."""
    return next((game for game in GAMES if kind_id.startswith(game.prefix)), None)


def get(game_id: str) -> Game | None:
    """The game by id (`russian_poker`) or by slug (`russian-poker`), or None."""
    return BY_ID.get(game_id) or BY_SLUG.get(game_id)
