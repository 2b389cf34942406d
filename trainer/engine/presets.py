"""The one house-rules loader: every game's presets in `data/rules/<game>/*.toml` are read here.

House rules vary by casino, so every number a croupier pays or scores by lives in a preset file. A
preset may name a `base` preset of the same game and state only what differs (tables merge key by
key; the base's `not_applied` list is not inherited: each file states its own gaps). A game's rules
module keeps only its own small `build(name, reader)` that turns a checked table into its frozen
rules object; everything else is here:

- `DATA_DIR` / `data_path`: where `data/` is, found once (a source checkout or an installed wheel);
- `read_toml`: the only place `tomllib` is used in `trainer/`;
- `PresetFolder`: one game's presets (names, the default first; `base` chains with loop detection);
- `Reader`: reads a table key by key, so every `PresetError` names the file, the key and the row;
- `side_by_side`: a game's presets compared row by row, for the reference pages and the API;
- house presets: an instructor's edited copy of a preset, named `house-<12 hex digits>` (the digest of
  its text, so a name always means the same rules). The loader keeps no list of them: the caller
  hands them over as text, through a `HouseSource` passed to `load`, `is_preset`, `table_of` and
  `side_by_side` (`HouseTexts` holds a few in memory; the store reads them from the database). They
  load like shipped presets but are not listed by `names()`, so the reference pages show the
  shipped ones only. Without a source, only the shipped presets in `data/rules/` exist.

>>> merge_tables({"bet": {"ante": 1, "max": 5}}, {"bet": {"max": 9}})
{'bet': {'ante': 1, 'max': 9}}
>>> reader = Reader("house.toml", {"bet": {"odds": {"pair": 0}}})
>>> reader.value("bet.odds", pay_table(("pair", "flush"), complete=False))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
trainer.engine.presets.PresetError: house.toml: key 'bet.odds': row 'pair': expected a whole ... got 0
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path
from types import MappingProxyType
from typing import Any, Protocol, TypeVar

from trainer import shipped

DATA_DIR = shipped("data")  # the repository's data/, or trainer/data in an installed wheel

# A preset name: short, lower-case letters, digits, "-" and "_" (so it is always a valid file name).
PRESET_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
# Keys that describe a preset rather than set a rule.
META_KEYS = ("title", "source", "base", "not_applied")
# A house preset's name: "house-" and the first 12 hex digits of the SHA-256 of its text.
HOUSE_NAME = re.compile(r"house-[0-9a-f]{12}")


class HouseSource(Protocol):
    """Where house presets come from: the TOML text of a game's house preset, or None when the source
    has none of that name. `game` is the game's rules folder name ("russian-poker")."""

    def house_text(self, game: str, name: str) -> str | None: ...


@dataclass(frozen=True)
class HouseTexts:
    """House presets handed over as text, {(game folder, name): TOML text}; read-only.

    >>> houses = HouseTexts.of("omaha", "house-0123456789ab", 'base = "standard"')
    >>> houses.house_text("omaha", "house-0123456789ab"), houses.house_text("omaha", "other")
    ('base = "standard"', None)
    """

    texts: Mapping[tuple[str, str], str] = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def of(cls, game: str, name: str, text: str) -> HouseTexts:
        return cls(MappingProxyType({(game, name): text}))

    def house_text(self, game: str, name: str) -> str | None:
        return self.texts.get((game, name))


Rules = TypeVar("Rules")


def data_path(*parts: str) -> Path:
    """A file or folder under `data/`.

    >>> data_path("rules", "omaha").name, data_path("rules").is_dir()
    ('omaha', True)
    """
    return DATA_DIR.joinpath(*parts)


class PresetError(ValueError):
    """A house-rules file that cannot be used. The message names the file, and the key and the row
    when one of them is at fault; the parts are kept as `source`, `key`, `row` and `reason`.

    `code` names the kind of refusal ("missing_key", "toml_syntax", ...) and `params` its named values,
    so that a page can say it in the reader's language (`trainer.web.core.preset_refusals`); the English
    `str()` is for the command line and the logs."""

    def __init__(
        self,
        source: str,
        reason: str,
        key: str | None = None,
        row: str | None = None,
        *,
        code: str = "other",
        **params: Any,
    ) -> None:
        self.source, self.reason, self.key, self.row = source, reason, key, row
        self.code, self.params = code, params
        where = [source]
        if key is not None:
            where.append(f"key {key!r}")
        if row is not None:
            where.append(f"row {row!r}")
        super().__init__(": ".join([*where, reason]))


class ValueRefusal(ValueError):
    """Raised by a converter: the English reason, its `code` and named `params` (see `PresetError`)."""

    def __init__(self, reason: str, code: str, **params: Any) -> None:
        super().__init__(reason)
        self.code, self.params = code, params


class RowError(ValueRefusal):
    """Raised by a converter of a table of rows: `row` is the row at fault, the message the reason."""

    def __init__(self, row: str, reason: str, code: str = "other", **params: Any) -> None:
        super().__init__(reason, code, **params)
        self.row = row


def read_toml(path: Path, source: str | None = None) -> dict[str, Any]:
    """A TOML file as a dict; a missing, unreadable or malformed file is a `PresetError` naming
    `source` (the path by default)."""
    label = str(path) if source is None else source
    try:
        text = path.read_bytes().decode()
    except FileNotFoundError:
        raise PresetError(label, "no such file", code="no_file") from None
    except OSError as err:
        raise PresetError(label[:200], f"cannot read the file: {err.strerror}", code="unreadable") from None
    return parse_toml(text, label)


def parse_toml(text: str, source: str) -> dict[str, Any]:
    """TOML text as a dict; malformed text is a `PresetError` naming `source`, the line and column."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        line, column = _toml_position(err, text)
        raise PresetError(
            source, f"not valid TOML: {err}", code="toml_syntax", line=line, column=column
        ) from None


def _toml_position(err: tomllib.TOMLDecodeError, text: str) -> tuple[int, int]:
    """Line and column of a TOML syntax error; an error "at end of document" is after the last
    character of the text."""
    found = re.search(r"line (\d+), column (\d+)", str(err))
    if found:
        return int(found[1]), int(found[2])
    lines = text.split("\n")
    return len(lines), len(lines[-1]) + 1


def merge_tables(
    base: dict[str, Any], over: dict[str, Any], whole: frozenset[str] = frozenset(), prefix: str = ""
) -> dict[str, Any]:
    """`over` laid on `base`, table by table; the overriding file wins wherever both set a value.
    The tables named in `whole` (dotted keys, such as a pay table) are replaced, not merged.

    >>> merge_tables({"bet": {"odds": {"pair": 1, "flush": 5}}}, {"bet": {"odds": {"pair": 2}}},
    ...              whole=frozenset({"bet.odds"}))
    {'bet': {'odds': {'pair': 2}}}
    """
    merged = dict(base)
    for key, value in over.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict) and isinstance(merged.get(key), dict) and dotted not in whole:
            merged[key] = merge_tables(merged[key], value, whole, dotted + ".")
        else:
            merged[key] = value
    return merged


# Converters: a raw TOML value -> the checked value, or ValueError / RowError with the reason.


WHOLE_LIMIT = 1_000_000  # no house rule's number goes beyond this, either way, unless its rule says less


@dataclass(frozen=True)
class Whole:
    """The converter `whole(minimum, maximum)` returns; a page building a form reads the range off it
    (`low`, `high`: the bounds given, else -/+ `WHOLE_LIMIT`)."""

    minimum: int | None = None
    maximum: int | None = None

    @property
    def low(self) -> int:
        return -WHOLE_LIMIT if self.minimum is None else self.minimum

    @property
    def high(self) -> int:
        return WHOLE_LIMIT if self.maximum is None else self.maximum

    def __call__(self, value: Any) -> int:
        minimum = self.minimum
        if isinstance(value, bool) or not isinstance(value, int):
            floor = "" if minimum is None else f" >= {minimum}"
            raise ValueRefusal(
                f"expected a whole number{floor}, got {value!r}", "whole_number", minimum=minimum, value=value
            )
        if value < self.low:
            raise ValueRefusal(
                f"expected a whole number >= {self.low}, got {value!r}",
                "whole_number",
                minimum=self.low,
                value=value,
            )
        if value > self.high:
            raise ValueRefusal(
                f"expected a whole number <= {self.high}, got {value!r}",
                "at_most",
                maximum=self.high,
                value=value,
            )
        return value


WORD_OR_WHOLE = Whole(1)
"""The numbers a rule of a whole number or a word takes (painted poker's `schedule.repeat`: a number
or `players`), from 1 to `WHOLE_LIMIT`: its game's `build` checks the word and reads the number
against this range, and the house-rules form shows it."""


def whole(minimum: int | None = None, maximum: int | None = None) -> Callable[[Any], int]:
    """A whole number (not a boolean) from `minimum` to `maximum`, each -/+ `WHOLE_LIMIT` when not
    given."""
    return Whole(minimum, maximum)


def flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueRefusal(f"expected true or false, got {value!r}", "flag", value=value)
    return value


def text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueRefusal(f"expected text, got {value!r}", "text", value=value)
    return value


def texts(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ValueRefusal(f"expected a list of sentences, got {value!r}", "texts", value=value)
    return tuple(value)


E = TypeVar("E", bound=StrEnum)


@dataclass(frozen=True)
class Choice:
    """The converter `choice(kind)` returns; `values` are the allowed ones, in the enum's order."""

    kind: type[StrEnum]

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(m.value for m in self.kind)

    def __call__(self, value: Any) -> Any:
        try:
            return self.kind(value)
        except ValueError:
            allowed = ", ".join(repr(v) for v in self.values)
            raise ValueRefusal(
                f"expected one of {allowed}, got {value!r}", "choice", allowed=allowed, value=value
            ) from None


def choice(kind: type[E]) -> Callable[[Any], E]:
    """One of the values of a `StrEnum`."""
    return Choice(kind)


K = TypeVar("K", bound=str)


@dataclass(frozen=True)
class PayTable:
    """The converter `pay_table(...)` returns: `rows` (in order), whether all must be there, the
    least odds of a row."""

    rows: tuple[str, ...]
    complete: bool
    noun: str = "category"
    minimum: int = 1
    maximum: int = WHOLE_LIMIT

    def __call__(self, value: Any) -> Mapping[Any, int]:
        allowed = {str(r): r for r in self.rows}
        noun = self.noun
        if not isinstance(value, dict):
            raise ValueRefusal(f"expected a table of {noun} = odds, got {value!r}", "pay_table", value=value)
        out: dict[Any, int] = {}
        for key, odds in value.items():
            if key not in allowed:
                raise ValueRefusal(
                    f"unknown {noun} {key!r} (allowed: {', '.join(allowed)})",
                    "unknown_row",
                    typed_row=key,
                    allowed=", ".join(allowed),
                )
            try:
                out[allowed[key]] = whole(self.minimum, self.maximum)(odds)
            except ValueRefusal as err:
                raise RowError(key, str(err), err.code, **err.params) from None
        missing = [name for name in allowed if allowed[name] not in out]
        if self.complete and missing:
            raise ValueRefusal(f"missing {', '.join(missing)}", "missing_rows", rows=", ".join(missing))
        return MappingProxyType({r: out[r] for r in self.rows if r in out})


def pay_table(
    rows: Sequence[K], *, complete: bool, noun: str = "category", minimum: int = 1, maximum: int = WHOLE_LIMIT
) -> Callable[[Any], Mapping[K, int]]:
    """A table {row: odds} whose rows are some (or, if `complete`, all) of `rows`, each odds from
    `minimum` to `maximum`; the result is read-only and in the order of `rows`."""
    return PayTable(tuple(rows), complete, noun, minimum, maximum)


class Reader:
    """Reads a parsed preset key by key (dotted keys: "scoring.multiplier.gold"), so that every
    error names the file, the key and the row. `finish()` refuses keys nobody asked for (typos)."""

    def __init__(self, source: str, table: Mapping[str, Any]) -> None:
        self.source = source
        self.table = table
        self.used: set[str] = set()

    def fail(
        self, key: str | None, reason: str, row: str | None = None, code: str = "other", **params: Any
    ) -> PresetError:
        return PresetError(self.source, reason, key, row, code=code, **params)

    def value(self, key: str, convert: Callable[[Any], Any] | None = None, *, required: bool = True) -> Any:
        """The value at `key`, through `convert`; None when an optional key is absent."""
        node: Any = self.table
        for part in key.split("."):
            if not isinstance(node, Mapping) or part not in node:
                if required:
                    raise self.fail(key, "missing", code="missing_key")
                return None
            node = node[part]
        self.used.add(key)
        if convert is None:
            return node
        try:
            return convert(node)
        except RowError as err:
            params = {k: v for k, v in err.params.items() if k != "row"}
            raise self.fail(key, str(err), err.row, err.code, **params) from None
        except ValueRefusal as err:
            raise self.fail(key, str(err), None, err.code, **err.params) from None
        except ValueError as err:
            raise self.fail(key, str(err)) from None

    def whole(self, key: str, minimum: int | None = None, maximum: int | None = None) -> int:
        return int(self.value(key, whole(minimum, maximum)))

    def optional_whole(self, key: str, minimum: int | None = None, maximum: int | None = None) -> int | None:
        value = self.value(key, whole(minimum, maximum), required=False)
        return None if value is None else int(value)

    def flag(self, key: str) -> bool:
        return bool(self.value(key, flag))

    def text(self, key: str) -> str:
        return str(self.value(key, text))

    def texts(self, key: str) -> tuple[str, ...]:
        found = self.value(key, texts, required=False)
        return () if found is None else tuple(found)

    def choice(self, key: str, kind: type[E]) -> E:
        result: E = self.value(key, choice(kind))
        return result

    def finish(self) -> None:
        """Refuse any key of the table that was not read (a misspelt key would otherwise be ignored)."""
        unknown: list[str] = []

        def walk(node: Mapping[str, Any], prefix: str) -> None:
            for k, v in node.items():
                dotted = f"{prefix}{k}"
                if dotted in self.used or dotted == "base":
                    continue
                if isinstance(v, Mapping) and v:
                    walk(v, dotted + ".")
                else:
                    unknown.append(dotted)

        walk(self.table, "")
        if unknown:
            raise self.fail(unknown[0], "unknown key (misspelt?)", code="unknown_key")


class SchemaReader(Reader):
    """A `Reader` that records every key a game's `build` reads, in order, with its converter (None:
    read raw and checked by `build` itself) and whether it is required: what a page builds a form of
    a preset from, one field per rule.

    >>> folder = PresetFolder("omaha", "Omaha", "standard")
    >>> from trainer.engine.omaha.betting import build
    >>> reader = SchemaReader("standard.toml", folder.table(folder.path("standard")))
    >>> _rules = build("standard", reader)
    >>> [(key, type(convert).__name__, required) for key, convert, required in reader.read][:2]
    [('chip_set', 'function', False), ('limit.raises_per_round', 'Whole', True)]
    """

    def __init__(self, source: str, table: Mapping[str, Any]) -> None:
        super().__init__(source, table)
        self.read: list[tuple[str, Callable[[Any], Any] | None, bool]] = []

    def value(self, key: str, convert: Callable[[Any], Any] | None = None, *, required: bool = True) -> Any:
        if all(key != seen for seen, _c, _r in self.read):
            self.read.append((key, convert, required))
        return super().value(key, convert, required=required)


class Described(Protocol):
    """What the comparison shows of a built preset."""

    @property
    def name(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def source(self) -> str: ...
    @property
    def not_applied(self) -> tuple[str, ...]: ...


@dataclass(frozen=True)
class PresetFolder:
    """One game's presets: `data/rules/<game>/*.toml`.

    `game` is the folder's name, `noun` how messages name the game ("painted poker"), `default` the
    preset used when none is named; `whole_tables` the dotted keys whose tables a preset replaces
    rather than merges with its base's (a pay table lists every row it pays).

    >>> folder = PresetFolder("omaha", "Omaha", "standard")
    >>> folder.names(), folder.source(folder.path("standard"))
    (('standard',), 'data/rules/omaha/standard.toml')
    >>> folder.path("Standard")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    trainer.engine.presets.PresetError: Omaha rules: bad preset name 'Standard': use one such as ...
    """

    game: str
    noun: str
    default: str
    whole_tables: frozenset[str] = frozenset()
    directory: Path | None = None  # None: data/rules/<game>

    @property
    def folder(self) -> Path:
        return self.directory if self.directory is not None else data_path("rules", self.game)

    def moved_to(self, directory: Path) -> PresetFolder:
        """The same game's presets read from another folder (tests, a house's own presets)."""
        return replace(self, directory=directory)

    def names(self) -> tuple[str, ...]:
        """The presets of the folder, the default first, then by name."""
        if self.directory is None:
            return _shipped_names(self)
        return self._listed()

    def _listed(self) -> tuple[str, ...]:
        found = sorted(p.stem for p in self.folder.glob("*.toml") if PRESET_NAME.fullmatch(p.stem))
        return (
            (self.default, *(n for n in found if n != self.default))
            if self.default in found
            else tuple(found)
        )

    def house_text(self, name: str, houses: HouseSource | None) -> str | None:
        """The text of a house preset of this game that `houses` holds, else None."""
        if houses is None or not isinstance(name, str) or not HOUSE_NAME.fullmatch(name):
            return None
        return houses.house_text(self.game, name)

    def is_preset(self, name: str, houses: HouseSource | None = None) -> bool:
        """A name the drills may use: a shipped preset or a house preset of this game in `houses`."""
        return name in self.names() or self.house_text(name, houses) is not None

    def source(self, path: Path) -> str:
        """How messages name a file: `data/rules/<game>/<name>.toml` for the folder's own presets."""
        if path.parent == self.folder.resolve():
            return f"data/rules/{self.game}/{path.name}"
        return str(path)

    def path(self, name_or_path: str | Path | None) -> Path:
        """The file of a preset name (None: the default) or a path to a `.toml` file, resolved."""
        if name_or_path is None:
            name_or_path = self.default
        if not isinstance(name_or_path, str | Path):
            raise PresetError(
                f"{self.noun} rules",
                f"expected a preset name such as {self.default!r}, not {name_or_path!r:.60}",
                code="preset_name_expected",
            )
        raw = str(name_or_path)
        if isinstance(name_or_path, Path) or "/" in raw or raw.endswith(".toml"):
            path = Path(name_or_path)
            if len(path.name) > 128 or path.suffix != ".toml":
                raise PresetError(
                    f"{self.noun} rules",
                    f"bad rules file name {path.name[:40]!r}: expected a short .toml name",
                    code="bad_file_name",
                )
            if not path.is_file():
                raise PresetError(str(path)[:200], "no such rules file", code="no_file")
            return path.resolve()
        if not PRESET_NAME.fullmatch(raw):
            raise PresetError(
                f"{self.noun} rules",
                f"bad preset name {raw[:40]!r}: use one such as {self.default!r} or a path to a .toml file",
                code="bad_preset_name",
            )
        found = _shipped_file(self, raw) if self.directory is None else self._file(raw)
        if found is None:
            have = ", ".join(self.names())
            raise PresetError(
                f"{self.noun} rules", f"no preset {raw!r} (have: {have})", code="no_preset", name=raw
            )
        return found

    def _file(self, name: str) -> Path | None:
        path = self.folder / f"{name}.toml"
        return path.resolve() if path.is_file() else None

    def table(self, path: Path) -> dict[str, Any]:
        """The preset file's table with its `base` chain merged underneath (the file wins)."""
        return self._merged(path, ())

    def table_of(self, name: str | None, houses: HouseSource | None = None) -> dict[str, Any]:
        """The merged table of a preset by name: a house preset of `houses`, else a shipped one."""
        if isinstance(name, str) and (text := self.house_text(name, houses)) is not None:
            return self.text_table(name, text)
        return self.table(self.path(name))

    def text_table(self, name: str, text: str) -> dict[str, Any]:
        """A house preset's table from its text (named `<name>.toml` in messages), its `base` (a
        shipped preset of the game) merged underneath."""
        source = f"{name}.toml"
        return self._on_base(parse_toml(text, source), source, ())

    def _merged(self, path: Path, seen: tuple[Path, ...]) -> dict[str, Any]:
        source = self.source(path)
        if path in seen:
            raise PresetError(source, "presets inherit from each other in a loop", "base", code="base_loop")
        return self._on_base(read_toml(path, source), source, (*seen, path))

    def _on_base(self, data: dict[str, Any], source: str, seen: tuple[Path, ...]) -> dict[str, Any]:
        base = data.pop("base", None)
        if base is None:
            return data
        if not isinstance(base, str) or not PRESET_NAME.fullmatch(base):
            raise PresetError(source, f"expected a preset name, got {base!r}", "base", code="base_not_name")
        base_path = self.folder / f"{base}.toml"
        if not base_path.is_file():
            raise PresetError(
                source,
                f"no preset {base!r} (no file data/rules/{self.game}/{base}.toml)",
                "base",
                code="no_preset",
                name=base,
            )
        merged = self._merged(base_path.resolve(), seen)
        merged.pop("not_applied", None)  # each file states its own gaps
        return merge_tables(merged, data, self.whole_tables)

    def load(
        self,
        name_or_path: str | Path | None,
        build: Callable[[str, Reader], Rules],
        houses: HouseSource | None = None,
    ) -> Rules:
        """A preset built by the game's `build(name, reader)`: a house preset of `houses` by name, else
        a shipped preset or a file. Cached per file (per text for a house preset), so the same preset
        is the same (frozen) object. Every key must be read by `build`."""
        if isinstance(name_or_path, str):
            text = self.house_text(name_or_path, houses)
            if text is not None:
                return _built_text(self, name_or_path, text, build)  # type: ignore[no-any-return]
        return _built(self, self.path(name_or_path), build)  # type: ignore[no-any-return]


# The shipped folders (`data/rules/<game>/`) are read once: every drill question names its preset, and
# listing the folder and resolving the file were a third of drawing a painted poker question. Like
# `_built`, this holds the files unchanged while running; a folder elsewhere (`moved_to`: tests, a
# house's files) is read afresh on each call.
@functools.cache
def _shipped_names(folder: PresetFolder) -> tuple[str, ...]:
    return folder._listed()


@functools.lru_cache(maxsize=256)
def _shipped_file(folder: PresetFolder, name: str) -> Path | None:
    return folder._file(name)


@functools.lru_cache(maxsize=128)
def _built(folder: PresetFolder, path: Path, build: Callable[[str, Reader], Any]) -> Any:
    # Cached: drills ask for their rules on every question; the files do not change while running.
    reader = Reader(folder.source(path), folder.table(path))
    rules = build(path.stem, reader)
    reader.finish()
    return rules


@functools.lru_cache(maxsize=128)
def _built_text(folder: PresetFolder, name: str, text: str, build: Callable[[str, Reader], Any]) -> Any:
    # Keyed by the text itself, so the cache answers only what the caller's source holds.
    reader = Reader(f"{name}.toml", folder.text_table(name, text))
    rules = build(name, reader)
    reader.finish()
    return rules


def flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """{"bet.odds.flush": 5, ...}: every leaf of a preset under its dotted key, `META_KEYS` left out.

    >>> flatten({"title": "x", "bet": {"odds": {"pair": 1}, "offered": True}})
    {'bet.odds.pair': 1, 'bet.offered': True}
    """
    flat: dict[str, Any] = {}
    for key, value in table.items():
        if not prefix and key in META_KEYS:
            continue
        dotted = f"{prefix}{key}"
        if isinstance(value, Mapping) and value:
            flat.update(flatten(value, dotted + "."))
        else:
            flat[dotted] = value
    return flat


Row = tuple[str, str, Callable[[Any], Any]]


def side_by_side(
    folder: PresetFolder,
    load: Callable[[str], Described],
    rows: Iterable[Row] | None = None,
    extra: Iterable[str] = (),
    houses: HouseSource | None = None,
) -> dict[str, Any]:
    """A game's presets side by side, as JSON-able data generated from the rules files. Every preset
    is loaded (so checked) first.

    `rows` are (key, label, function of the built preset giving the cell); without them every leaf of
    the merged files is a row, labelled by its key, in the order the files give them. Shape:

    ``{"game": "russian-poker", "default": "cis",
       "presets": [{"name": "cis", "title": ..., "source": ..., "not_applied": [...]}, ...],
       "rows": [{"key": "bet.odds.royal_flush", "label": ..., "values": {"cis": 100, ...},
                 "same": true}, ...]}``

    A preset without a row has null in it; `same` is true when every preset agrees. `extra` adds the
    named house presets of the game (an instructor's edited copy) as columns after the shipped ones;
    a name that `houses` does not hold for the game is left out. `load` is given each name and must
    find the house presets in the same `houses`.

    >>> from types import SimpleNamespace as Rules
    >>> omaha = PresetFolder("omaha", "Omaha", "standard")
    >>> table = side_by_side(omaha, lambda n: Rules(name=n, title="T", source="S", not_applied=()))
    >>> [r["key"] for r in table["rows"]][:2], table["rows"][0]["values"]
    (['chip_set', 'limit.raises_per_round'], {'standard': 'poker-room'})
    """
    shipped = folder.names()
    copies = [
        n for n in dict.fromkeys(extra) if n not in shipped and folder.house_text(n, houses) is not None
    ]
    presets = [load(name) for name in (*shipped, *copies)]
    columns: dict[str, dict[str, Any]] = {}
    labels: dict[str, str] = {}
    if rows is None:
        for preset in presets:
            columns[preset.name] = flatten(folder.table_of(preset.name, houses))
            for key in columns[preset.name]:
                labels.setdefault(key, key)
    else:
        for key, label, get in rows:
            labels[key] = label
            for preset in presets:
                columns.setdefault(preset.name, {})[key] = get(preset)
    table_rows = []
    for key, label in labels.items():
        values = {p.name: _plain(columns[p.name].get(key)) for p in presets}
        same = len({repr(v) for v in values.values()}) == 1
        table_rows.append({"key": key, "label": label, "values": values, "same": same})
    return {
        "game": folder.game,
        "default": folder.default,
        "presets": [
            {"name": p.name, "title": p.title, "source": p.source, "not_applied": list(p.not_applied)}
            for p in presets
        ],
        "rows": table_rows,
    }


def _plain(value: Any) -> Any:
    """A cell as JSON gives it back: tuples as lists, enum members as their values."""
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value
