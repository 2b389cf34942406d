"""Messages: every sentence a user reads, as one translatable template with named parameters.

The engines and drills write sentences in English, each one whole (never glued from fragments), and
mark them where they are written so that message extraction (`flask messages update`) finds them
without running anything:

- `step("Ante {ante} returned.", ante=10)`: one sentence; `{name}` fields are filled from the
  parameters.
- `nstep("{count} card", "{count} cards", count=n)`: a sentence whose wording follows a number
  (Babel plural forms: Russian has three, Georgian one); `count` chooses the form.
- `pstep("dealer", "Hand: {hand}.", hand=...)`: a sentence with a context, when the same English
  must be translated two ways.
- `N_("two pair")`: a word or phrase written here and translated where it is shown (a hand category,
  a suit, an answer label); `Term(N_("hearts"), "genitive")` asks for one of its grammatical forms
  (looked up as `pgettext("genitive", "hearts")`).

Parameters keep their type so each language can write them its own way: `int` amounts (grouped
digits for the locale), `Cards` (a croupier's notation: rank and suit symbol, "10" for ten), `Term`
(a translated word), a nested `Step`, a list (written as a list in the language: "1, 2 and 3"),
`Percent` (a share written as the language writes a percentage), `Fixed` (an unsigned number with a
fixed count of decimals: "0.0090", Russian "0,0090"), a `float` (a value in antes, written
with its sign and three decimals: "+0.363", Russian "+0,363"). A plain `str` parameter is shown as it
is (a low such as "8-4-3-2-A").

`str(step)` is the English sentence with cards as codes, for the engine's doctests and logs.

>>> step = Step("Bet {bet} pays {odds} to 1 = {win}.", {"bet": 20, "odds": 2, "win": 40})
>>> str(step)
'Bet 20 pays 2 to 1 = 40.'
>>> str(nstep("{count} card", "{count} cards", count=1)), str(nstep("{count} card", "{count} cards", count=6))
('1 card', '6 cards')
>>> hand = Step("Hand: {hand} ({cards}).", {"hand": Term("pair"), "cards": Cards.of(["Ah", "Ad"])})
>>> Step.from_json(hand.to_json()) == hand, str(hand)
(True, 'Hand: pair (Ah Ad).')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any


def N_(text: str) -> str:
    """Mark a word or phrase for the catalog; it is translated where it is shown."""
    return text


def pN_(context: str, text: str) -> str:
    """Mark a word in one of its grammatical forms (`Term(text, context)` looks it up)."""
    return text


@dataclass(frozen=True, slots=True)
class Cards:
    """Cards as a parameter: the codes ("Ah", "Td"), written for the reader by the web layer."""

    codes: tuple[str, ...]

    @classmethod
    def of(cls, cards: Iterable[Any]) -> Cards:
        return cls(tuple(str(c) for c in cards))

    def __str__(self) -> str:
        return " ".join(self.codes)


@dataclass(frozen=True, slots=True)
class Either:
    """Alternatives as a parameter: written as a list joined by "or" in the language ("Yes or No")."""

    items: tuple[Any, ...]

    def __str__(self) -> str:
        items = [str(_english(v)) for v in self.items]
        return ", ".join(items[:-1]) + " or " + items[-1] if len(items) > 1 else "".join(items)


@dataclass(frozen=True, slots=True)
class Term:
    """A word from the vocabulary (a hand category, a suit, a deal kind), translated where shown; the
    English text is its message id, `context` the grammatical form a sentence needs."""

    text: str
    context: str | None = None

    def __str__(self) -> str:
        return self.text


class Worded:
    """Mixed into a StrEnum of named things (hand categories, deal kinds, Super rows): `label` is a
    member's English name (a message id), `term` that name as a message parameter.

    >>> from enum import StrEnum
    >>> class Side(Worded, StrEnum):
    ...     LEFT = "left"
    ...     @property
    ...     def label(self) -> str:
    ...         return "left hand"
    >>> Side.LEFT.term
    Term(text='left hand', context=None)
    """

    @property
    def label(self) -> str:
        raise NotImplementedError  # each enum names its members

    @property
    def term(self) -> Term:
        """The name as a message parameter, translated where it is shown."""
        return Term(self.label)


@dataclass(frozen=True, slots=True)
class Percent:
    """A share as a parameter (0.09546 with 3 places): written as a percentage for the reader's
    language by the web layer ("9.546%", Russian "9,546 %").

    >>> str(Percent(0.09546, 3)), str(Percent(0.95))
    ('9.546%', '95%')
    """

    share: float
    places: int = 0

    def __str__(self) -> str:
        return f"{100 * self.share:.{self.places}f}%"


@dataclass(frozen=True, slots=True)
class Fixed:
    """A number with a fixed count of decimals, no sign (a cost in antes, 0.009 with 4 places): written
    for the reader's language by the web layer ("0.0090", Russian "0,0090").

    >>> str(Fixed(0.009, 4))
    '0.0090'
    """

    value: float
    places: int

    def __str__(self) -> str:
        return f"{self.value:.{self.places}f}"


def _json(value: Any) -> Any:
    if isinstance(value, Step):
        return value.to_json()
    if isinstance(value, Cards):
        return {"cards": list(value.codes)}
    if isinstance(value, Term):
        return {"term": value.text, **({"context": value.context} if value.context else {})}
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    if isinstance(value, Either):
        return {"either": [_json(v) for v in value.items]}
    if isinstance(value, Percent):
        return {"percent": value.share, "places": value.places}
    if isinstance(value, Fixed):
        return {"fixed": value.value, "places": value.places}
    return value


def _from_json(value: Any) -> Any:
    if isinstance(value, Mapping):
        if "template" in value:
            return Step.from_json(value)
        if "cards" in value:
            return Cards(tuple(str(c) for c in value["cards"]))
        if "term" in value:
            return Term(str(value["term"]), value.get("context"))
        if "either" in value:
            return Either(tuple(_from_json(v) for v in value["either"]))
        if "percent" in value:
            return Percent(float(value["percent"]), int(value.get("places", 0)))
        if "fixed" in value:
            return Fixed(float(value["fixed"]), int(value.get("places", 0)))
        return dict(value)
    if isinstance(value, list):
        return [_from_json(v) for v in value]
    return value


def _english(value: Any) -> Any:
    if isinstance(value, list | tuple):
        items = [str(_english(v)) for v in value]
        if len(items) < 2:
            return "".join(items)
        return ", ".join(items[:-1]) + " and " + items[-1]
    if isinstance(value, Step | Cards | Term | Either | Percent | Fixed):
        return str(value)
    if isinstance(value, float):
        return f"{value:+.3f}"  # a value in antes, as the web writes it (trainer.web.core.i18n)
    return value


@dataclass(frozen=True, slots=True)
class Step:
    """One sentence: `template` (the message id) with `str.format` fields filled from `params`;
    `plural` and `count` for a sentence with plural forms, `context` for a message with a context."""

    template: str
    params: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    plural: str | None = None
    count: str | None = None
    context: str | None = None

    @property
    def english(self) -> str:
        """The English template for these parameters (the plural chosen by the English rule)."""
        if self.plural is not None and self.count is not None and self.params.get(self.count) != 1:
            return self.plural
        return self.template

    def __str__(self) -> str:
        return self.english.format(**{k: _english(v) for k, v in self.params.items()})

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "template": self.template,
            "params": {k: _json(v) for k, v in self.params.items()},
        }
        for name in ("plural", "count", "context"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        out["text"] = str(self)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Step:
        params = data.get("params") or {}
        if not isinstance(data.get("template"), str) or not isinstance(params, Mapping):
            raise ValueError(f"not a message: {data!r:.80}")
        return cls(
            data["template"],
            MappingProxyType({str(k): _from_json(v) for k, v in params.items()}),
            data.get("plural"),
            data.get("count"),
            data.get("context"),
        )


def step(template: str, **params: Any) -> Step:
    """One sentence: `step("Ante {ante} returned.", ante=10)`."""
    return Step(template, MappingProxyType(params))


def nstep(singular: str, plural: str, *, count: int, **params: Any) -> Step:
    """A sentence with plural forms chosen by `count` (also available as `{count}`)."""
    return Step(singular, MappingProxyType({"count": count, **params}), plural, "count")


def pstep(context: str, template: str, **params: Any) -> Step:
    """A sentence with a context: the same English translated apart from its other uses."""
    return Step(template, MappingProxyType(params), context=context)
