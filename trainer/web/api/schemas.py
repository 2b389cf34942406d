"""Every request and response body of /api/v1, once: pydantic models that read the requests
(`trainer.web.api.document.read`) and make the OpenAPI document (`trainer.web.api.document.document`).

A request model checks what a type can say (present, text or a whole number, its range, no unknown
field) and names the sentence of each refusal in `refusals`; what only the engines or the store can
judge (a card given twice, a username taken, a kind's levels) stays with them, and the model states it
to the document with `json_schema_extra`, built from the same constants the engines and the store use.
Response models only describe: the tests hold every response the API gives to them.

Models are strict (no "1" for 1, no true for 1), patterns are read as Python's `re` reads them (the
server's own check: `PATTERN_NOTE`).
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from trainer.drills import REGISTRY
from trainer.drills.base import MAX_SEED
from trainer.drills.own import OWN_KINDS
from trainer.drills.rounds import dealt_presets, game_rounds
from trainer.engine.cards import CARD_PATTERN, cards_pattern
from trainer.games import BY_ID, GAMES, RUSSIAN_POKER
from trainer.store.accounts import PASSWORD_MAX, PASSWORD_MIN, TOKEN_LABEL_MAX, USERNAME_MAX, USERNAME_MIN
from trainer.store.groups import NAME_MAX, NAME_PATTERN

# JSON Schema asks for ECMA-262 patterns; the server checks with Python's `re`, and the two read `\w`
# differently. Said once here, and by each schema whose pattern depends on it.
PATTERN_NOTE = (
    "Patterns are regular expressions as Python's `re` reads them, the server's own check. Where they "
    "differ from ECMA-262 (JavaScript): `\\w` and `[^\\W_]` match letters and digits of any script "
    "(Georgian and Cyrillic usernames and group names), where JavaScript matches only ASCII ones, even "
    "with the `u` flag; `\\s` matches any Unicode space. A JavaScript client checking a name with the "
    "pattern as written therefore refuses names in other scripts that the server accepts; use "
    "`[\\p{L}\\p{N}_]` for `\\w` with the `u` flag. The card patterns use neither `\\w` nor `\\s`: literal "
    "ranks and suits, and the spaces around and between cards named one by one (every character Python's "
    "`str.split` cuts at), which both read alike. A date is `format: date` (YYYY-MM-DD)."
)
# The most chips the advisor takes for the ante or the bonus.
ADVISOR_MAX_CHIPS = 10**9

Id = Annotated[int, Field(ge=1)]
Count = Annotated[int, Field(ge=0)]
Share = Annotated[float, Field(ge=0, le=1)]
Seed = Annotated[int, Field(ge=0, le=MAX_SEED)]
DateTime = Annotated[str, Field(json_schema_extra={"format": "date-time"})]
Day = Annotated[str, Field(json_schema_extra={"format": "date"})]
GameId = Literal[tuple(game.id for game in GAMES)]  # type: ignore[valid-type]
# Not Literal[1, 2, 3]: pydantic takes true for the literal 1, even strict.
Level = Annotated[int, Field(ge=1, le=3)]
Role = Literal["trainee", "instructor"]
# What a page shows for a choice or an amount: a message (as in prompt_messages), a word to translate
# ({"term": ...}) or text shown as it is (a number, a low such as "8-4-3-2-A").
Label = Annotated[
    dict[str, Any] | str,
    Field(description="the label as a message: a Step, a term to translate, or text shown as it is"),
]
# Any JSON is read by the answer's parser (its sentence, 422, the question still open): the model
# requires the answer and tells the document the forms a parser reads.
Answer = Annotated[
    Any,
    Field(
        json_schema_extra={
            "description": 'amount: an integer or text such as "1 400", "1,400", "+40"; choice: a value or '
            'label; amounts: {label: amount}, a list in label order or text "300; 120"; cards: text '
            '"As Kd" or a list, "none" for no cards.',
            "anyOf": [
                {"type": "string"},
                {"type": "integer"},
                {"type": "array", "items": {"type": ["string", "integer"]}},
                {"type": "object", "additionalProperties": {"type": ["string", "integer"]}},
            ],
        }
    ),
]
# Present in some responses only (a drill's result once answered): not required, never null.
LATER: Any = Field(default=None)


class Body(BaseModel):
    """A request body. `refusals`: the sentence of the 400 when a field is refused, by field name
    (`"<field>.missing"` when it is absent); `{value!r}` is the value sent."""

    model_config = ConfigDict(strict=True, regex_engine="python-re")
    refusals: ClassVar[dict[str, str]] = {}


class Out(BaseModel):
    """A response body (described, not read)."""


# Requests ------------------------------------------------------------------------------------------


def _drill_variants(schema: dict[str, Any]) -> None:
    """One variant per game and set of levels, with that game's house rules (from the registry when
    the document is made: a kind installed later is listed too)."""
    groups: dict[tuple[str, tuple[int, ...]], list[str]] = {}
    for kind_id in sorted(REGISTRY):
        kind = REGISTRY[kind_id]
        groups.setdefault((kind.game, tuple(kind.levels)), []).append(kind_id)
    properties, variants = schema["properties"], []
    for (game, levels), kinds in groups.items():
        presets = BY_ID[game].preset_names() if game in BY_ID else ()
        rules = properties["rules"]
        if presets:
            rules = {"enum": [*presets, None], "description": rules["description"]}
        variants.append(
            {
                "type": "object",
                "required": ["kind", "level"],
                "properties": {
                    **properties,
                    "kind": {"enum": kinds},
                    "level": {"type": "integer", "enum": list(levels)},
                    "rules": rules,
                },
            }
        )
    if variants:
        schema.clear()
        schema.update(description="A drill kind of GET /api/v1/kinds and one of its levels.", oneOf=variants)


class NewDrill(Body):
    model_config = ConfigDict(json_schema_extra=_drill_variants)
    refusals = {
        "kind": 'Give the drill kind, such as {"kind": "rp.qualify", "level": 1}.',
        "level.missing": "Give the level: 1, 2 or 3.",
        "level": "Give the level as a whole number, one of the kind's levels, not {value!r}.",
        "seed": f"seed must be a whole number from 0 to {MAX_SEED}, not {{value!r}}.",
        "rules": "rules must be the name of a house-rules preset of the kind's game.",
    }
    kind: Annotated[str, Field(min_length=1)]
    level: int
    seed: Seed | None = Field(
        None,
        description="Kind + level + seed + version deal the same drill; instructors only (a trainee who "
        "chose a seed could replay a known question); null: a new one.",
    )
    rules: str | None = Field(None, description="House rules of the game; null: the default.")


class AnswerBody(Body):
    refusals = {"answer": 'Give the answer, such as {"answer": "1400"}.'}
    answer: Answer


class RoundAnswer(AnswerBody):
    refusals = {
        **AnswerBody.refusals,
        "step": "step is the index of the step answered, a whole number from 0.",
    }
    step: Count | None = Field(None, description="The step answered (default: current).")


def _round_variants(schema: dict[str, Any]) -> None:
    """One variant per game: its seats, its house rules, its house's chips."""
    schema.pop("title", None)
    properties, variants = schema["properties"], []
    for game in GAMES:
        rounds = game_rounds(game.id)
        denominations = ", ".join(rounds.house_chips(rounds.default_rules).labels())
        seats = {"type": "integer", "minimum": rounds.seats.start, "maximum": rounds.seats.stop - 1}
        variants.append(
            {
                **schema,
                "properties": {
                    **properties,
                    "game": {"const": game.id},
                    "seats": {
                        "anyOf": [seats, {"type": "null"}],
                        "description": f"{rounds.seat_word} at the table; by default the level chooses.",
                    },
                    "rules": {
                        "enum": [*dealt_presets(game.id), None],
                        "description": properties["rules"]["description"],
                    },
                    "payout": {
                        "enum": ["amount", "chips", "fewest", None],
                        "description": "How payouts are answered: an amount, chips (a count per "
                        f"denomination of the house's chips: {denominations}; any chips of the right "
                        "value), or fewest (chips cut from the float: only the fewest chips are right); "
                        "default: the house's choice.",
                    },
                },
            }
        )
    schema.clear()
    schema.update(
        description="A game, a level and optional choices; null or absent: the default.", oneOf=variants
    )


class NewRound(Body):
    model_config = ConfigDict(extra="forbid", json_schema_extra=_round_variants)
    refusals = {
        "extra": "Unknown field {field!r}: a round takes game, level, seats, seed, rules and payout.",
        "game.missing": 'Give the game and the level, such as {"game": "omaha", "level": 2}.',
        "level.missing": 'Give the game and the level, such as {"game": "omaha", "level": 2}.',
        "game": f"game must be one of {', '.join(game.id for game in GAMES)}, not {{value!r}}.",
        "level": "level must be a whole number from 1 to 3, not {value!r}.",
        "seats": "seats must be a whole number of seats the game deals for, not {value!r}.",
        "seed": f"seed must be a whole number from 0 to {MAX_SEED}, not {{value!r}}.",
        "rules": "rules must be the name of a house-rules preset of the game, not {value!r}.",
        "payout": "payout answers are 'amount', 'chips' or 'fewest', not {value!r}.",
    }
    game: GameId
    level: Level
    seats: int | None = None
    seed: Seed | None = Field(
        None, description="Instructors only (403 for anyone else): otherwise the server draws it."
    )
    rules: str | None = Field(
        None,
        description="House rules (default first); null: the rules in force for the trainee (his choice, "
        "else his group's, an edited copy included), else the default.",
    )
    payout: Literal["amount", "chips", "fewest"] | None = None


_PLAYER_DOC = {
    "description": "The five different cards dealt to the player (the options are valued before any "
    'buy): text "Qh 9h 6h 3h 2c" or a list. A card given twice, in the hand or as the up-card, is '
    "refused with 422: the list says its items are unique, but no schema can say it of the text, of one "
    'card in two notations ("Th", "10h") or across the two fields.',
    "anyOf": [
        {"type": "string", "pattern": cards_pattern(5, 5)},
        {
            "type": "array",
            "items": {"type": "string", "pattern": CARD_PATTERN},
            "minItems": 5,
            "maxItems": 5,
            "uniqueItems": True,
        },
    ],
    "examples": ["Qh 9h 6h 3h 2c"],
}


def _advisor_rules(schema: dict[str, Any]) -> None:
    schema["properties"]["rules"] = {
        "enum": [*RUSSIAN_POKER.preset_names(), None],
        "description": "House rules the advisor can value; null: the default.",
    }


# The cards are read by the engine (its sentence for a bad card, 422 for a card given twice): the model
# takes text or a list and tells the document the patterns, the count and that cards differ.
class AdvisorQuestion(Body):
    model_config = ConfigDict(json_schema_extra=_advisor_rules)
    refusals = {
        "player": 'Give the player\'s five cards, such as {"player": "Qh 9h 6h 3h 2c", "upcard": "Ad"}.',
        "upcard": 'Give the dealer\'s up-card, such as {"upcard": "Ad"}.',
        "rules": "rules must be the name of a house-rules preset.",
        "ante": f"ante must be a whole number of chips from 1 to {ADVISOR_MAX_CHIPS}.",
        "bonus": f"bonus must be a whole number of chips from 0 to {ADVISOR_MAX_CHIPS}.",
    }
    player: Annotated[
        Annotated[str, Field(min_length=1)] | Annotated[list[Any], Field(min_length=1)],
        Field(json_schema_extra=_PLAYER_DOC),
    ]
    upcard: Annotated[
        str,
        Field(
            pattern=r"\S",
            description="The dealer's up-card: not one of the player's cards (422).",
            json_schema_extra={"pattern": cards_pattern(1, 1), "examples": ["Ad"]},
        ),
    ]
    rules: str | None = None
    ante: int = Field(1, ge=1, le=ADVISOR_MAX_CHIPS, description="Chips (default 1), for the table maximum.")
    bonus: int = Field(0, ge=0, le=ADVISOR_MAX_CHIPS, description="Bonus side bet in chips (default 0).")


# What `clean_username` keeps: a letter or digit of any script at both ends, letters, digits and . _ -
# between, whitespace around it trimmed (Python `re` classes: \w is Unicode). The store judges it (its
# sentence names the rule broken, a name taken is a 409): the document states it.
USERNAME_PATTERN = rf"^\s*[^\W_][\w.-]{{{USERNAME_MIN - 2},{USERNAME_MAX - 2}}}[^\W_]\s*$"
_USERNAME = {
    "type": "string",
    "pattern": USERNAME_PATTERN,
    "description": f"{USERNAME_MIN} to {USERNAME_MAX} letters and digits of any script, with . _ - "
    "between; the pattern is read as Python's `re` reads it (see the document's description).",
    "examples": ["trainee.one"],
}
_PASSWORD = {
    "type": "string",
    "minLength": PASSWORD_MIN,
    "maxLength": PASSWORD_MAX,
    "description": "Not the username (422 when it is).",
}


def _required(*names: str) -> Any:
    """The document requires these fields; the model leaves them to the store, whose sentence says
    what is missing or wrong (and whose status a 401 or 403 of the route comes before)."""
    return lambda schema: schema.update(required=list(names))


class Credentials(Body):
    model_config = ConfigDict(json_schema_extra=_required("username", "password"))
    refusals = {
        "password": 'Give a username and a password, such as {"username": "trainee.one", "password": "..."}.',
    }
    username: Annotated[Any, Field(json_schema_extra=_USERNAME)] = None
    password: Annotated[str, Field(json_schema_extra=_PASSWORD)]


# Any username and password: a wrong one is a 401 (counted by the rate limit), never a 400.
class TokenRequest(Body):
    model_config = ConfigDict(json_schema_extra=_required("username", "password"))
    refusals = {"label": "label must be text."}
    username: Annotated[Any, Field(json_schema_extra=_USERNAME)] = None
    password: Annotated[Any, Field(json_schema_extra=_PASSWORD)] = None
    label: str = Field(
        "",
        description=f"A name for the token; kept to its first {TOKEN_LABEL_MAX} characters (a longer one "
        "is cut, not refused).",
    )


# The store judges the name (`trainer.store.groups`: NAME_PATTERN, NAME_MAX) after the route has
# checked the caller (401, 403); the document states its rule.
class NewGroup(Body):
    model_config = ConfigDict(json_schema_extra=_required("name"))
    name: Annotated[
        Any,
        Field(
            json_schema_extra={
                "type": "string",
                "pattern": rf"^\s*{NAME_PATTERN}\s*$",
                "description": "Letters and digits of any script, spaces and . , ' & ( ) / - (at most "
                f"{NAME_MAX}); the pattern is read as Python's `re` reads it (see the document's "
                "description).",
                "examples": ["Morning class"],
            }
        ),
    ] = None


# Any code: one no group has is a 404, whatever it looks like.
class JoinGroup(Body):
    model_config = ConfigDict(json_schema_extra=_required("code"))
    code: Annotated[Any, Field(json_schema_extra={"type": "string"})] = None


# Responses -----------------------------------------------------------------------------------------


class Error(Out):
    error: str = Field(description="A sentence for the trainee.")
    status: int = Field(ge=400, le=599, description="The HTTP status.")


class Kind(Out):
    id: str = Field(examples=["rp.qualify"])
    game: str
    title: str
    version: int = Field(ge=1, description="Generator version.")
    levels: list[int]


class Kinds(Out):
    kinds: list[Kind]


class Trainee(Out):
    id: int | None = Field(description="null: a guest before his first drill.")
    name: str | None = Field(description="Display name; null for a guest.")
    username: str | None
    role: Role | None


class Choice(Out):
    value: str
    label: str = Field(description="English; may be typed back as the answer")
    message: Label = LATER


class AnswerFormat(Out):
    kind: Literal["amount", "choice", "amounts", "cards"]
    choices: list[Choice]
    labels: list[str]
    label_messages: list[Label] = LATER


class Step(Out):
    template: str = Field(description="English message id, for translation.")
    params: dict[str, Any] = Field(
        description='Named values: numbers, text, {"cards": ["Ah", "Td"]}, {"term": "two pair"} (a word to '
        "translate), a nested message, or a list of these."
    )
    plural: str = Field(None, description="The plural message id (with count).")
    count: str = Field(None, description="The parameter choosing the plural form.")
    context: str = Field(None, description="The message context (msgctxt).")
    text: str = Field(description="The English sentence.")


class Mistake(Out):
    """The typical mistake a wrong answer matches (the drill kind's catalogue)."""

    id: str = Field(examples=["rp.stake_in_net"], description="Stable id.")
    title: str = Field(description="The mistake's name, in the trainee's language.")
    text: str | None = Field(
        description="The step that differs, with this situation's numbers, in the trainee's language "
        "(null when the catalogue no longer names this answer)."
    )


MISTAKE_NOTE = "The typical mistake matched, or null: none matched, or the answer is right."


class Grade(Out):
    correct: bool
    expected: Any = Field(description="The expected answer in the parsed form of `answer`.")
    expected_text: str
    explanation: list[Step]
    answer: Any = Field(description="The answer as understood (canonical form).")
    time_ms: Count
    mistake: Mistake | None = Field(description=MISTAKE_NOTE)


class Drill(Out):
    """An issued drill. Never contains the expected answer until it is answered."""

    id: int
    kind: str
    title: str
    level: int
    seed: int = Field(description="Kind + level + seed + version reproduce it.")
    version: int
    rules: str | None = Field(description="House-rules preset, null for default.")
    prompt: str = Field(description="The question in English.")
    prompt_messages: list[Step] = Field(
        description="The question sentence by sentence: each a message id with its parameters."
    )
    situation: dict[str, Any] = Field(description='Cards as strings such as "As", amounts.')
    answer_format: AnswerFormat
    answer_url: str
    answered: bool = LATER
    result: Grade = LATER


class QueueItem(Out):
    kind: str
    level: int
    reason: Literal["due", "next_level", "new", "ahead"] = Field(
        description="Due for review; the next level of a mastered one; a drill not practised yet; practice "
        "ahead of schedule (a weak drill keeps due or ahead)."
    )
    due: str | None = Field(description="When the card is due (ISO 8601, UTC).")
    stability_days: float | None = Field(description="FSRS stability of the card.")
    recall: float | None = Field(description="FSRS chance of a right answer now.")
    correct: int | None = Field(
        description="Right answers among the kind's last 20 (null: a drill not practised yet)."
    )
    attempts: int | None = Field(description="The kind's last answers counted (at most 20).")
    sure: float | None = Field(
        description="The accuracy those answers show for sure (Wilson lower bound, 95%)."
    )
    weak: bool = Field(
        description="Under 80% for sure and the level not mastered: weak drills come first, the lowest "
        "first, so one wrong answer counts as unknown, not strong."
    )


class NextDrill(QueueItem):
    title: str
    drill_url: str = Field(description='POST {"kind", "level"} here to draw it.')


class PracticeNext(Out):
    next: NextDrill
    answered_today: Count
    goal: int = Field(ge=1, description="Answers a day (data/practice.toml).")
    new_today: Count
    new_per_day: Count
    queue: list[QueueItem]


class Option(Out):
    action: Literal["fold", "bet", "insure", "exchange", "sixth_card", "instant_payout"]
    discard: list[str]
    label: str
    ev: float = Field(description="Expected result in antes (ante staked).")
    exact: str = Field(description="The same value as an exact fraction of an ante, e.g. -19/125.")
    stderr: float = Field(ge=0, description="Always 0: exact.")
    equivalent: bool = Field(description="Worth exactly as much as the best option.")


class SuperBet(Out):
    """Lunar's Super bet on the dealt five, settled whatever the player does."""

    row: str | None
    odds: int
    stake: int = Field(description="Antes.")
    result: int = Field(description="Antes won (or lost, negative).")


class Advice(Out):
    player: list[str]
    upcard: str
    rules: str
    ante: Id
    bonus: Count
    options: list[Option]
    super: SuperBet | None = Field(description="null where the house has no Super bet.")


class Preset(Out):
    name: str
    title: str
    source: str = LATER
    not_applied: list[str] = LATER


class RulesRow(Out):
    key: str
    label: str
    values: dict[str, Any]
    same: bool


class RulesTable(Out):
    game: str
    default: str
    presets: list[Preset]
    rows: list[RulesRow]


class RoundStep(Out):
    """One ruling to make: the table as the dealer sees it, the question and its answer format. Never
    the answer."""

    index: Count = Field(description="Send it back as `step`.")
    number: Id
    of: int = Field(ge=1, description="Steps in the round.")
    kind: str = Field(examples=["rp.payout", "om.pot", "pp.trick"])
    question: Step
    answer_format: AnswerFormat
    money: Literal["pay", "collect", ""] = Field(
        description="Whose chips a wrong answer moves: the house pays, collects, or neither."
    )
    table: dict[str, Any] = Field(
        description="Every card and stake the dealer can see now (per game: boxes and the dealer; seats, "
        "board, bets and the action log; bids, the trick and tricks taken)."
    )


class RoundResult(Out):
    steps: int
    answered: int
    right: int
    accuracy: Share
    time_ms: Count
    mean_step_ms: Count
    step_times_ms: list[int] = LATER
    house_chips: int = Field(
        description="Chips the house would have lost (negative) or gained through mistakes."
    )
    finished: bool = LATER


class AnsweredStep(Out):
    index: int
    kind: str
    answer: Any
    expected: Any
    correct: bool
    time_ms: Count
    house_chips: int


class Round(Out):
    id: int
    game: GameId
    level: Level
    seed: int = Field(description="Game + level + seed + seats + rules + version deal it again.")
    seats: int
    rules: str
    payout: Literal["amount", "chips", "fewest"]
    version: int
    mode: Literal["practice", "test"] = LATER
    test_id: int | None = LATER
    steps: int
    answered: list[AnsweredStep]
    finished: bool
    step: RoundStep | None
    answer_url: str
    result: RoundResult = LATER
    end_table: dict[str, Any] = LATER


class StepGrade(Out):
    correct: bool
    answer: Any = Field(description="The answer as understood (canonical form).")
    expected: Any = Field(description="The expected answer (the fewest chips for a chips answer).")
    expected_text: str
    explanation: list[Step]
    house_chips: int
    index: int
    time_ms: Count
    step: RoundStep | None = Field(description="The next step.")
    finished: bool
    result: RoundResult = LATER
    end_table: dict[str, Any] = LATER


class User(Out):
    id: int = Field(description="Also the user's trainee id.")
    username: str
    role: Role


class Token(Out):
    id: int
    label: str
    created_at: DateTime


class NewToken(Token):
    token: str = Field(description="Shown once; only its digest is stored.")
    user: User


class Tokens(Out):
    tokens: list[Token]


class Group(Out):
    id: int
    name: str
    created_at: DateTime
    join_code: str = Field(None, description="Only to the group's instructor.")
    members: int = Field(None, description="Only to the group's instructor.")


class Groups(Out):
    owned: list[Group]
    member_of: list[Group]
    practising_for: int | None


class Target(Out):
    accuracy: Share
    window: Id
    min_level: Level
    median_seconds: float


class Readiness(Out):
    status: Literal["ready", "not_yet", "too_few"]
    answers: int
    correct: int
    accuracy: float | None
    median_ms: float | None
    target: Target


class KindFigures(Out):
    attempts: int
    correct: int
    median_ms: float


class ReportTrainee(Out):
    id: int
    username: str
    name: str
    last_activity: str | None
    kinds: dict[str, KindFigures]
    readiness: dict[GameId, Readiness]


class WrongAnswer(Out):
    answer: Any
    count: int


class ItemAnalysis(Out):
    kind: str
    attempts: int
    accuracy: Share
    median_ms: float
    wrong_answers: list[WrongAnswer] = Field(max_length=3)


class BoardRow(Out):
    place: Id
    name: str | None = Field(description="The trainee's name; null when he hides it from his groupmates.")
    hidden: bool = Field(description="He hides his name (his instructor and he himself still read it).")
    you: bool = Field(description="The caller's own row.")
    correct: Count
    questions: Count
    share: Share = Field(description="Right answers over the sprint's questions: the first rank.")
    taken_s: float = Field(ge=0, description="The sprint's time in seconds: the second rank.")


class Board(Out):
    what: str = Field(description="A drill kind's id, or a game's id for a mixed sprint.")
    level: Level
    rows: list[BoardRow] = Field(description="Each trainee's best sprint of the week, best first.")


class Leaderboard(Out):
    week: Day = Field(description="The week's Monday in the group's time zone.")
    zone: str = Field(description="The group's time zone (an IANA name).")
    since: DateTime
    until: DateTime
    boards: list[Board]


class GroupReport(Out):
    group: Group
    rules: dict[GameId, str]
    targets: dict[GameId, Target]
    kinds: list[str]
    trainees: list[ReportTrainee]
    items: list[ItemAnalysis] = Field(
        description="Item analysis: per drill kind the members answered (catalog order), the answers, "
        "accuracy, median time and the three most common wrong answers."
    )


class _Figures(Out):
    attempts: int
    correct: int
    accuracy: Share
    median_ms: float


class DayFigures(_Figures):
    day: Day


class KindSummary(_Figures):
    kind: str


class FrequentMistake(Out):
    mistake: str
    count: int
    kinds: list[str]


class SprintBest(Out):
    scope: str
    level: int
    duration_s: int
    correct: int
    answered: int
    questions: int


class SittingResult(Out):
    quiz_id: int
    title: str
    sitting_id: int
    finished_at: DateTime
    correct: int
    questions: int


class GroupTrainee(Out):
    id: int
    username: str
    name: str
    last_activity: str | None
    readiness: dict[GameId, Readiness]
    trend: list[DayFigures] = Field(description="Per day with answers, oldest first.")
    kinds: list[KindSummary] = Field(description="Per drill kind answered, weakest first.")
    mistakes: list[FrequentMistake] = Field(
        description="The most frequent catalogued mistakes (up to 10), most frequent first."
    )
    sprint_bests: list[SprintBest]
    quizzes: list[SittingResult] = Field(
        description="His handed-in sittings of the group's quizzes, newest first."
    )


class QuizItem(Out):
    kind: str
    level: int


class Sitting(Out):
    id: int
    started_at: DateTime
    finished_at: DateTime
    answered: int
    correct: int


class MemberResult(Out):
    id: int
    username: str
    name: str
    best: int | None
    sittings: list[Sitting]


CardCode = Annotated[str, Field(pattern=r"^[2-9TJQKA][cdhs]$", examples=["As", "Td"])]


class RussianOwnQuestion(Out):
    """A Russian poker hand the instructor entered (`rp.settle`)."""

    player: list[CardCode] = Field(min_length=5, max_length=5)
    dealer: list[CardCode] = Field(min_length=5, max_length=5)
    ante: Id


class OmahaOwnQuestion(Out):
    """An Omaha or Omaha Hi/Lo showdown the instructor entered (`om.side_pots`), a seat a row."""

    board: list[CardCode] = Field(min_length=5, max_length=5)
    holes: list[Annotated[list[CardCode], Field(min_length=4, max_length=4)] | None] = Field(
        min_length=2, max_length=10, description="Each seat's hole cards; null for a seat that folded."
    )
    contributions: list[Count] = Field(min_length=2, max_length=10, description="The chips each seat put in.")
    button: Count = Field(description="The button's seat, counted from 0.")
    hi_lo: bool


class OwnQuestion(Out):
    kind: Literal[tuple(sorted(OWN_KINDS))]  # type: ignore[valid-type]  # the kinds that take own questions
    level: Level
    question: RussianOwnQuestion | OmahaOwnQuestion = Field(
        description="The facts as entered and checked; the trainee is asked them as a drawn situation "
        "of the kind and level."
    )


class PickedSituation(Out):
    kind: str = Field(examples=["om.side_pots"])
    level: Level
    seed: Seed = Field(description="The seed the preview drew it from; each sitting draws it again.")


class GroupQuiz(Out):
    id: int
    title: str
    items: list[QuizItem] = Field(description="The drill kinds and levels drawn afresh.")
    own: list[OwnQuestion] = Field(description="The instructor's own questions, asked after the drawn ones.")
    picked: list[PickedSituation] = Field(
        description="Generated situations the instructor kept from a preview, asked after his own."
    )
    questions: int
    time_limit_s: int | None
    attempts_allowed: int
    same_questions: bool
    opens_at: DateTime
    closes_at: DateTime
    answers_before_close: bool
    is_open: bool
    results: list[MemberResult] = Field(
        description="Every member: his handed-in sittings and best score (null: not taken)."
    )


class GroupQuizzes(Out):
    quizzes: list[GroupQuiz]
