"""The table configuration: which deck, how many seats, and every house rule and clock.

A ``TableConfig`` is a ``Record`` (``protocol.schema``): each field's metadata gives its
range, and its type its kind (an enum's values), so it validates itself on construction
like every wire record, and an engine or a table can never be built from a configuration
that makes no sense. What ties fields together (stacking's two names, teams, the deal) is
checked after. ``to_data`` / ``from_data`` give the plain form used on the wire and in
snapshots.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any

from protocol.errors import LocalProtocolError
from protocol.schema import Record, number

__all__ = [
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
    "house_rule_words",
    "house_rules",
    "preset_options",
]

MIN_SEATS = 2
MAX_SEATS = 10


class ConfigError(ValueError):
    """A table configuration that cannot be played; the message says which field and why."""


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

    deck: DeckName = field(default=DeckName.CLASSIC, metadata={"doc": "which cards are in play"})
    seats: int = field(
        default=4,
        metadata={"doc": "how many players sit at the table", **number(MIN_SEATS, MAX_SEATS)},
    )
    target_score: int = field(
        default=500, metadata={"doc": "the score that ends the match", **number(1, 100_000)}
    )
    scoring: Scoring = field(
        default=Scoring.STANDARD, metadata={"doc": "how rounds are scored and who wins"}
    )
    hand_size: int = field(
        default=7, metadata={"doc": "cards dealt to each player", **number(1, 15)}
    )
    stack_draw_two: bool = field(
        default=False, metadata={"doc": "a Draw Two may be answered with a Draw Two"}
    )
    """The old name of ``stack`` ``draw-two``: true asks for it when ``stack`` is ``off``;
    on a built config it says whether a Draw Two answers a Draw Two (for old clients)."""
    stack: Stack = field(
        default=Stack.OFF, metadata={"doc": "which draw cards may answer a draw card"}
    )
    skip_any: bool = field(default=False, metadata={"doc": "a Skip names any opponent"})
    seven_o: bool = field(
        default=False, metadata={"doc": "a 7 swaps hands with a chosen player, a 0 passes them on"}
    )
    jump_in: bool = field(
        default=False,
        metadata={"doc": "a card identical to the top card may be played out of turn"},
    )
    draw_until_playable: bool = field(
        default=False, metadata={"doc": "a turn's draw goes on until a playable card comes"}
    )
    force_play: bool = field(
        default=False, metadata={"doc": "a playable drawn card must be played"}
    )
    wd4_bluff: bool = field(
        default=True, metadata={"doc": "an illegal Wild Draw Four may be played as a bluff"}
    )
    custom_wilds: int = field(
        default=3,
        metadata={"doc": "how many Wild Customizable cards the modern decks use", **number(1, 3)},
    )
    custom_rule: CustomRule = field(
        default=CustomRule.PLAIN, metadata={"doc": "what a Wild Customizable does"}
    )
    dance_check: DanceCheck = field(
        default=DanceCheck.STEPS, metadata={"doc": "how a Dancing Wild is answered"}
    )
    catch_grace_ms: int = field(
        default=1500,
        metadata={
            "doc": "how long a missed UNO call stays catchable at least",
            **number(0, 60_000),
        },
    )
    false_catch_penalty: int = field(
        default=0, metadata={"doc": "cards drawn by someone who catches wrongly", **number(0, 10)}
    )
    turn_seconds: int = field(
        default=60, metadata={"doc": "time for a turn; 0 = no clock", **number(0, 3600)}
    )
    decision_seconds: int = field(
        default=15,
        metadata={"doc": "time to accept or challenge a Wild Draw Four", **number(1, 3600)},
    )
    dance_seconds: int = field(
        default=15, metadata={"doc": "time to answer a Dancing Wild", **number(1, 3600)}
    )
    round_pause_seconds: int = field(
        default=10, metadata={"doc": "the break between rounds", **number(0, 3600)}
    )

    def __post_init__(self) -> None:
        try:
            Record.__post_init__(self)
        except LocalProtocolError as error:
            raise ConfigError(error.message.removeprefix("TableConfig.")) from None
        self._settle_stack()
        if self.scoring is Scoring.TEAMS and (self.seats < 4 or self.seats % 2):
            raise ConfigError("teams scoring needs an even number of seats, at least 4")
        # 112 cards dealt out must leave a draw pile and a first card.
        if self.seats * self.hand_size > 100:
            raise ConfigError(
                f"{self.seats} seats of {self.hand_size} cards leave no draw pile; "
                "use fewer seats or a smaller hand_size"
            )

    def _settle_stack(self) -> None:
        """``stack_draw_two`` true is ``stack`` ``draw-two``; beside another ``stack`` it
        must agree (``draw-two`` or ``progressive``). Afterwards it says whether a Draw Two
        answers a Draw Two, so that old clients read the table right."""
        if self.stack_draw_two:
            if self.stack is Stack.OFF:
                object.__setattr__(self, "stack", Stack.DRAW_TWO)
            elif self.stack is Stack.DRAW_FOUR:
                raise ConfigError("stack_draw_two and stack draw-four disagree; give only stack")
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


_HOUSE_RULE_WORDS = {
    "seven_o": "7-0",
    "jump_in": "jump-in",
    "skip_any": "Skip names anyone",
    "draw_until_playable": "draw until playable",
    "force_play": "force play",
}


def house_rules(options: Mapping[str, Any]) -> tuple[str, ...]:
    """The house rules a table's options (plain data) turn on, as codes: each of
    ``seven_o``, ``jump_in``, ``skip_any``, ``draw_until_playable``, ``force_play`` that is
    on, and ``stack:<kind>`` unless stacking is off (``table-list`` sends these)."""
    codes = [name for name in _HOUSE_RULE_WORDS if options.get(name) is True]
    stack = options.get("stack") or (
        Stack.DRAW_TWO.value if options.get("stack_draw_two") else None
    )
    if stack and stack != Stack.OFF.value:
        codes.insert(0, f"stack:{stack}")
    return tuple(codes)


def house_rule_words(codes: tuple[str, ...] | list[str]) -> str:
    """``house_rules`` codes in words for people ("stacking progressive, 7-0, jump-in"); an
    unknown code (a newer server's) is shown as it is."""
    words = []
    for code in codes:
        kind, _, value = code.partition(":")
        words.append(f"stacking {value}" if kind == "stack" else _HOUSE_RULE_WORDS.get(code, code))
    return ", ".join(words) if words else "none (the official rules)"
