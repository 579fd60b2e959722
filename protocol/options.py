"""The table configuration: which deck, how many seats, and every house rule and clock.

A ``TableConfig`` is a ``Record`` (``protocol.schema``): each field's metadata gives its
range, and its type its kind (an enum's values), so it validates itself on construction
like every wire record, and an engine or a table can never be built from a configuration
that makes no sense. What ties fields together (stacking's two names, teams, the deal) is
checked after. ``to_data`` / ``from_data`` give the plain form used on the wire and in
snapshots.

``TableOptions`` is some of those options: each field is a ``TableConfig`` option or None
where it is not given. A ``create-table`` asks for one (``TableOptions.parse`` refuses
what ``TableConfig`` would refuse, by name), the table lays it over its server's defaults
(``over``), and ``table-state`` and the match history send one with every option given
(``of``), or fewer to a client whose version knows fewer (protocol/compat.py).

Why this module is long: the options' vocabulary, the whole configuration, its partial
form and the presets must agree option by option, and read best side by side.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any

from protocol.errors import ErrorCode, LocalProtocolError
from protocol.schema import Limits, Record, number
from protocol.words import Translate, as_is, mark

__all__ = [
    "HOUSE_RULE_NAMES",
    "MAX_SEATS",
    "MIN_SEATS",
    "PRESETS",
    "PRESET_OPTIONS",
    "ConfigError",
    "CustomRule",
    "DanceCheck",
    "DeckName",
    "Scoring",
    "Stack",
    "TableConfig",
    "TableOptions",
    "UnusableOptions",
    "house_rule_words",
    "house_rules",
    "preset_options",
]

MIN_SEATS = 2
MAX_SEATS = 10


class ConfigError(ValueError):
    """A table configuration that cannot be played; the message says which field and why.

    ``option`` names the option at fault, a ``TableConfig`` field, when one is (1.3: a
    ``bad-options`` rejection carries it, so a client can say which one in its reader's
    language); an unknown option, a name the asker made up, is not named."""

    def __init__(self, message: str, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option


def _refused_field(error: LocalProtocolError, record: str) -> ConfigError:
    """A record's refusal of a value (``TableConfig.seats must be ...``) as a ConfigError
    naming the option, the field the error names (``seats``)."""
    return ConfigError(error.message.removeprefix(f"{record}."), option=error.field)


class DeckName(StrEnum):
    """Which deck a table plays with (docs/rules.md lists each one's cards).

    ``classic``: the 108-card deck. ``modern-swap`` / ``modern-shuffle``: classic plus one
    Wild Swap Hands (or one Wild Shuffle Hands) and ``custom_wilds`` Wild Customizable.
    ``bts``: classic plus four Dancing Wild. ``minecraft``: classic plus four Creeper.
    """

    CLASSIC = "classic"
    MODERN_SWAP = "modern-swap"
    MODERN_SHUFFLE = "modern-shuffle"
    BTS = "bts"
    MINECRAFT = "minecraft"


class Scoring(StrEnum):
    """How a round is scored and who wins the match at ``target_score``.

    ``standard``: the player who went out takes the points left in the other hands; once
    someone reaches the target, the highest total wins. ``lowest``: everyone adds the
    points of their own hand; once someone reaches the target, the lowest total wins.
    ``elimination``: everyone adds their own hand; reaching the target puts a player out,
    and the last one in wins. ``teams`` (an even number of seats, at least four): partners
    sit opposite, and the team that goes out takes the other teams' points.
    """

    STANDARD = "standard"
    LOWEST = "lowest"
    ELIMINATION = "elimination"
    TEAMS = "teams"


class CustomRule(StrEnum):
    """What a Wild Customizable does, chosen by the table before the match."""

    PLAIN = "plain"
    OTHERS_DRAW_TWO = "others-draw-two"
    EXTRA_TURN = "extra-turn"


class DanceCheck(StrEnum):
    """How a Dancing Wild is answered: by sending the steps, or on the player's honour."""

    STEPS = "steps"
    HONOUR = "honour"


class Stack(StrEnum):
    """Which draw cards may answer a draw card (docs/rules.md, Ruling 22 and after).

    ``off``: none. ``draw-two``: a Draw Two answers a Draw Two. ``draw-four``: a Wild Draw
    Four answers a Wild Draw Four. ``progressive``: a Draw Two answers a Draw Two, and a
    Wild Draw Four answers either.
    """

    OFF = "off"
    DRAW_TWO = "draw-two"
    DRAW_FOUR = "draw-four"
    PROGRESSIVE = "progressive"


@dataclass(frozen=True, slots=True)
class TableConfig(Record):
    """Everything that makes one table's match what it is. Defaults follow the rule texts.

    Each field's ``metadata["doc"]`` says in a few words what it changes; ``uno-server``
    makes a flag of every field with it as the help (docs/rules.md section 2 says more).
    A whole number's range is its ``metadata["wire"]`` (``protocol.schema.number``); a bad
    value is a ConfigError naming the option (``bad-options`` on the wire).
    """

    deck: DeckName = field(
        default=DeckName.CLASSIC, metadata={"doc": mark("table-option", "which cards are in play")}
    )
    seats: int = field(
        default=4,
        metadata={
            "doc": mark("table-option", "how many players sit at the table"),
            **number(MIN_SEATS, MAX_SEATS),
        },
    )
    target_score: int = field(
        default=500,
        metadata={
            "doc": mark("table-option", "the score that ends the match"),
            **number(1, 100_000),
        },
    )
    scoring: Scoring = field(
        default=Scoring.STANDARD,
        metadata={"doc": mark("table-option", "how rounds are scored and who wins")},
    )
    hand_size: int = field(
        default=7,
        metadata={"doc": mark("table-option", "cards dealt to each player"), **number(1, 15)},
    )
    stack_draw_two: bool = field(
        default=False,
        metadata={"doc": mark("table-option", "a Draw Two may be answered with a Draw Two")},
    )
    """The old name of ``stack`` ``draw-two``: true asks for it when ``stack`` is ``off``;
    on a built config it says whether a Draw Two answers a Draw Two (for old clients)."""
    stack: Stack = field(
        default=Stack.OFF,
        metadata={"doc": mark("table-option", "which draw cards may answer a draw card")},
    )
    skip_any: bool = field(
        default=False, metadata={"doc": mark("table-option", "a Skip names any opponent")}
    )
    seven_o: bool = field(
        default=False,
        metadata={
            "doc": mark("table-option", "a 7 swaps hands with a chosen player, a 0 passes them on")
        },
    )
    jump_in: bool = field(
        default=False,
        metadata={
            "doc": mark(
                "table-option", "a card identical to the top card may be played out of turn"
            )
        },
    )
    draw_until_playable: bool = field(
        default=False,
        metadata={"doc": mark("table-option", "a turn's draw goes on until a playable card comes")},
    )
    force_play: bool = field(
        default=False,
        metadata={"doc": mark("table-option", "a playable drawn card must be played")},
    )
    wd4_bluff: bool = field(
        default=True,
        metadata={
            "doc": mark("table-option", "an illegal Wild Draw Four may be played as a bluff")
        },
    )
    custom_wilds: int = field(
        default=3,
        metadata={
            "doc": mark("table-option", "how many Wild Customizable cards the modern decks use"),
            **number(1, 3),
        },
    )
    custom_rule: CustomRule = field(
        default=CustomRule.PLAIN,
        metadata={"doc": mark("table-option", "what a Wild Customizable does")},
    )
    dance_check: DanceCheck = field(
        default=DanceCheck.STEPS,
        metadata={"doc": mark("table-option", "how a Dancing Wild is answered")},
    )
    catch_grace_ms: int = field(
        default=1500,
        metadata={
            "doc": mark("table-option", "how long a missed UNO call stays catchable at least"),
            **number(0, 60_000),
        },
    )
    false_catch_penalty: int = field(
        default=0,
        metadata={
            "doc": mark("table-option", "cards drawn by someone who catches wrongly"),
            **number(0, 10),
        },
    )
    turn_seconds: int = field(
        default=60,
        metadata={"doc": mark("table-option", "time for a turn; 0 = no clock"), **number(0, 3600)},
    )
    decision_seconds: int = field(
        default=15,
        metadata={
            "doc": mark("table-option", "time to accept or challenge a Wild Draw Four"),
            **number(1, 3600),
        },
    )
    dance_seconds: int = field(
        default=15,
        metadata={"doc": mark("table-option", "time to answer a Dancing Wild"), **number(1, 3600)},
    )
    round_pause_seconds: int = field(
        default=10,
        metadata={"doc": mark("table-option", "the break between rounds"), **number(0, 3600)},
    )
    spectators_see_hands: bool = field(
        default=False,
        metadata={
            "doc": mark(
                "table-option", "spectators see every hand (a teaching table; they may not sit)"
            )
        },
    )
    """(1.3) A teaching table: every spectator's view holds every hand, and nobody who
    watched the match may take a seat in it. A trust feature: anyone watching sees all
    the cards. Players never see another's hand."""

    def __post_init__(self) -> None:
        try:
            Record.__post_init__(self)
        except LocalProtocolError as error:
            raise _refused_field(error, "TableConfig") from None
        self._settle_stack()
        if self.scoring is Scoring.TEAMS and (self.seats < 4 or self.seats % 2):
            raise ConfigError(
                "teams scoring needs an even number of seats, at least 4", option="scoring"
            )
        # 112 cards dealt out must leave a draw pile and a first card.
        if self.seats * self.hand_size > 100:
            raise ConfigError(
                f"{self.seats} seats of {self.hand_size} cards leave no draw pile; "
                "use fewer seats or a smaller hand_size",
                option="hand_size",
            )

    def _settle_stack(self) -> None:
        """``stack_draw_two`` true is ``stack`` ``draw-two``; beside another ``stack`` it
        must agree (``draw-two`` or ``progressive``). Afterwards it says whether a Draw Two
        answers a Draw Two, so that old clients read the table right."""
        if self.stack_draw_two:
            if self.stack is Stack.OFF:
                object.__setattr__(self, "stack", Stack.DRAW_TWO)
            elif self.stack is Stack.DRAW_FOUR:
                raise ConfigError(
                    "stack_draw_two and stack draw-four disagree; give only stack",
                    option="stack_draw_two",
                )
        object.__setattr__(
            self, "stack_draw_two", self.stack in (Stack.DRAW_TWO, Stack.PROGRESSIVE)
        )

    def to_data(self) -> dict[str, Any]:
        """The plain form: strings, ints and bools only, every option."""
        return Record.to_data(self)

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> TableConfig:
        """Build from plain data; raises ConfigError. Unknown keys are refused: a typo must
        not pass silently; nil is a bad value, not a default."""
        known = {option.name for option in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ConfigError(f"unknown table option(s): {', '.join(map(str, unknown))}")
        return cls(**data)


def _limits_of(name: str) -> dict[str, Limits]:
    """The range ``TableConfig`` gives the option ``name``, as field metadata, so that
    ``TableOptions`` keeps to the same ranges without restating them."""
    limits = TableConfig.__dataclass_fields__[name].metadata.get("wire", Limits())
    return {"wire": limits}


@dataclass(frozen=True, slots=True)
class TableOptions(Record):
    """Some or all of a table's options, as they travel: each field is the ``TableConfig``
    option of the same name, None where it is not given (and then left out of the map).

    Built in code, a value outside its option's range is refused as for every record
    (LocalProtocolError); received inside ``table-state`` or ``match-list``, a value is
    checked and an option this release does not know is ignored (docs/protocol.md
    section 2). What a ``create-table`` asks for is read by ``parse`` instead, which
    answers as ``TableConfig.from_data`` does: a ConfigError naming the option.
    """

    deck: DeckName | None = None
    seats: int | None = field(default=None, metadata=_limits_of("seats"))
    target_score: int | None = field(default=None, metadata=_limits_of("target_score"))
    scoring: Scoring | None = None
    hand_size: int | None = field(default=None, metadata=_limits_of("hand_size"))
    stack_draw_two: bool | None = None
    stack: Stack | None = None
    skip_any: bool | None = None
    seven_o: bool | None = None
    jump_in: bool | None = None
    draw_until_playable: bool | None = None
    force_play: bool | None = None
    wd4_bluff: bool | None = None
    custom_wilds: int | None = field(default=None, metadata=_limits_of("custom_wilds"))
    custom_rule: CustomRule | None = None
    dance_check: DanceCheck | None = None
    catch_grace_ms: int | None = field(default=None, metadata=_limits_of("catch_grace_ms"))
    false_catch_penalty: int | None = field(
        default=None, metadata=_limits_of("false_catch_penalty")
    )
    turn_seconds: int | None = field(default=None, metadata=_limits_of("turn_seconds"))
    decision_seconds: int | None = field(default=None, metadata=_limits_of("decision_seconds"))
    dance_seconds: int | None = field(default=None, metadata=_limits_of("dance_seconds"))
    round_pause_seconds: int | None = field(
        default=None, metadata=_limits_of("round_pause_seconds")
    )
    spectators_see_hands: bool | None = None

    @classmethod
    def of(cls, config: TableConfig) -> TableOptions:
        """Every option of ``config``, given (what ``table-state`` sends)."""
        # Trusted: a TableConfig holds only values its own checks let through.
        return cls.trusted(**{name: getattr(config, name) for name in _OPTION_NAMES})

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> TableOptions:
        """The options a ``create-table`` asks for, from plain data; raises ConfigError,
        with the message ``TableConfig.from_data`` gives (``bad-options`` on the wire): an
        unknown option first, then the first bad value in option order. nil is a bad
        value (``seats is required``), not a default."""
        unknown = sorted(set(data) - set(_OPTION_NAMES))
        if unknown:
            raise ConfigError(f"unknown table option(s): {', '.join(map(str, unknown))}")
        given: dict[str, Any] = {}
        for name in _OPTION_NAMES:
            if name not in data:
                continue
            if data[name] is None:
                cls._checked(given)  # an earlier bad value is named first, as before
                raise ConfigError(f"{name} is required", option=name)
            given[name] = data[name]
        return cls._checked(given)

    @classmethod
    def _checked(cls, given: dict[str, Any]) -> TableOptions:
        try:
            return cls(**given)
        except LocalProtocolError as error:
            raise _refused_field(error, cls.__name__) from None

    def over(self, base: TableConfig) -> TableConfig:
        """``base`` with these options in place of its own; raises ConfigError for a
        combination no table can have (teams, the deal, stacking's two names)."""
        data = base.to_data()
        # ``stack_draw_two`` only restates ``stack`` (for older clients): left in, the
        # base's would turn a request for ``stack`` ``off`` into ``draw-two``.
        del data["stack_draw_two"]
        data.update(self.to_data())
        return TableConfig.from_data(data)


_OPTION_NAMES = tuple(option.name for option in fields(TableConfig))
assert tuple(option.name for option in fields(TableOptions)) == _OPTION_NAMES, (
    "TableOptions must have TableConfig's options, in its order"
)


@dataclass(frozen=True, slots=True)
class UnusableOptions(TableOptions):
    """What a received ``create-table`` holds when ``TableOptions.parse`` refused its
    options: the request still reaches the lobby, which answers it ``bad-options`` in
    its turn (docs/protocol.md section 10, *Which code wins*). Never sent."""

    why: str = ""
    """The ConfigError's message, which ``over`` raises."""
    why_option: str | None = None
    """The ConfigError's option at fault, if it named one."""

    def over(self, base: TableConfig) -> TableConfig:
        """Raises the ConfigError that refused the options."""
        raise ConfigError(self.why, option=self.why_option)

    def to_data(self) -> dict[str, Any]:
        """Never sent: raises LocalProtocolError (options no table can have)."""
        raise LocalProtocolError(ErrorCode.BAD_MESSAGE, f"options no table can have: {self.why}")


PRESET_OPTIONS = (
    "seven_o",
    "jump_in",
    "stack",
    "draw_until_playable",
    "force_play",
    "skip_any",
)
"""The options a preset sets; it leaves every other option as it is."""

PRESETS: dict[str, dict[str, Any]] = {
    "official": {"stack": Stack.OFF.value},
    "party": {"seven_o": True, "jump_in": True, "stack": Stack.PROGRESSIVE.value},
    "family": {"stack": Stack.DRAW_TWO.value, "draw_until_playable": True},
}
"""Presets for people: each sets ``PRESET_OPTIONS`` (those not named here off)."""


def preset_options(name: str, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``options`` (plain data) with the preset ``name`` applied: the options a client sends.

    A preset is not a protocol value: it is expanded here, before the options travel. The
    preset's options replace those in ``options`` (``stack_draw_two`` too, which would name
    the stacking a second time); every other option stays. Raises ConfigError for an
    unknown name.
    """
    if name not in PRESETS:
        raise ConfigError(f"preset must be one of {', '.join(PRESETS)}, not {name!r}")
    expanded = {key: value for key, value in (options or {}).items() if key != "stack_draw_two"}
    for key in PRESET_OPTIONS:
        expanded[key] = PRESETS[name].get(key, Stack.OFF.value if key == "stack" else False)
    return expanded


HOUSE_RULE_NAMES: dict[str, str] = {
    "stack:off": mark("house-rule", "stacking off"),
    "stack:draw-two": mark("house-rule", "stacking draw-two"),
    "stack:draw-four": mark("house-rule", "stacking draw-four"),
    "stack:progressive": mark("house-rule", "stacking progressive"),
    "seven_o": mark("house-rule", "7-0"),
    "jump_in": mark("house-rule", "jump-in"),
    "skip_any": mark("house-rule", "Skip names anyone"),
    "draw_until_playable": mark("house-rule", "draw until playable"),
    "force_play": mark("house-rule", "force play"),
}
"""Each ``house_rules`` code's name for people, in English (marked for the catalogue
under ``house-rule``: ``protocol.words``)."""
_BOOL_RULES = ("seven_o", "jump_in", "skip_any", "draw_until_playable", "force_play")
_NO_HOUSE_RULES = mark("house-rule", "none (the official rules)")


def house_rules(options: TableOptions) -> tuple[str, ...]:
    """The house rules a table's options turn on, as codes: each of ``seven_o``,
    ``jump_in``, ``skip_any``, ``draw_until_playable``, ``force_play`` that is on, and
    ``stack:<kind>`` unless stacking is off (``table-list`` sends these). Options a 1.0 or
    1.1 server leaves out count as off; its ``stack_draw_two`` true as ``draw-two``."""
    codes = [name for name in _BOOL_RULES if getattr(options, name) is True]
    stack = options.stack or (Stack.DRAW_TWO if options.stack_draw_two else None)
    if stack is not None and stack is not Stack.OFF:
        codes.insert(0, f"stack:{stack.value}")
    return tuple(codes)


def house_rule_words(codes: tuple[str, ...] | list[str], translate: Translate = as_is) -> str:
    """``house_rules`` codes in words for people ("stacking progressive, 7-0, jump-in"),
    read through ``translate`` (``protocol.words``); an unknown code (a newer server's) is
    shown as it is."""
    words = [
        translate("house-rule", HOUSE_RULE_NAMES[code]) if code in HOUSE_RULE_NAMES else code
        for code in codes
    ]
    return ", ".join(words) if words else translate("house-rule", _NO_HOUSE_RULES)
