"""Commands: everything a seat or the table can ask of a match.

Each command is a ``Record`` (``protocol.schema``): a frozen, slotted value whose fields
describe and check themselves. ``to_data`` / ``command_from_data`` convert to and from the
plain maps used on the wire and in command logs, where the ``type`` key names the command
(``COMMAND_TYPES``). Whether a command is legal *now* is the engine's business, not this
module's: here a command only has to be well formed, so a seat number is any integer (a
seat out of range is the engine's rejection, not a malformed message).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any, ClassVar, TypeVar

from protocol.cards import Card, Color
from protocol.errors import ErrorCode, RemoteProtocolError
from protocol.schema import Record, fields_into, items, record_from_data, text, wire

__all__ = [
    "COMMAND_TYPES",
    "DANCES",
    "MAX_DANCE_STEPS",
    "Accept",
    "Arrow",
    "CallUno",
    "Catch",
    "Challenge",
    "ChooseColor",
    "Command",
    "Dance",
    "Draw",
    "InvalidCommandError",
    "NextRound",
    "Pass",
    "Pause",
    "Play",
    "RefuseDance",
    "Resume",
    "SeatCommand",
    "SetAway",
    "TableCommand",
    "Timeout",
    "command_from_data",
]

# The named dances a Dancing Wild may call for (UNO BTS); the server draws the steps.
DANCES: tuple[str, ...] = ("dynamite", "butter", "idol", "fire", "dope", "permission")
MAX_DANCE_STEPS = 16
_C = TypeVar("_C", bound="Command")


class InvalidCommandError(ValueError):
    """Plain data that does not describe a well-formed command."""


class Arrow(StrEnum):
    """One dance step."""

    UP = "up"
    DOWN = "down"
    LEFT = "left"
    RIGHT = "right"


@dataclass(frozen=True, slots=True)
class Command(Record):
    """Base of every command. ``TYPE`` is its name on the wire."""

    TYPE: ClassVar[str] = ""

    def to_data(self) -> dict[str, Any]:
        """The plain wire form (the map inside ``game.command``): ``type``, then the
        command's fields; optional fields that are unset are left out.
        ``command_from_data`` reads it back."""
        return fields_into({"type": self.TYPE}, self)

    @classmethod
    def from_data(cls: type[_C], data: Mapping[str, Any]) -> _C:
        """The command of this class (a subclass: any of its commands) that ``data``
        describes, by its ``type``; raises RemoteProtocolError(bad-message)."""
        wire_type = data.get("type")
        command_type = COMMAND_TYPES.get(wire_type) if isinstance(wire_type, str) else None
        if command_type is None:
            shown = repr(wire_type)[:64]
            raise RemoteProtocolError(ErrorCode.BAD_MESSAGE, f"unknown command type {shown}")
        if not issubclass(command_type, cls):
            raise RemoteProtocolError(
                ErrorCode.BAD_MESSAGE, f"{wire_type!r} is not a {_KIND_WORDS.get(cls, cls.TYPE)}"
            )
        return record_from_data(command_type, data)


class SeatCommand(Command):
    """A command a seated player sends."""

    __slots__ = ()


class TableCommand(Command):
    """A command only the table itself (the server) may issue."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Play(SeatCommand):
    """Play one card from hand.

    ``color`` is required for a wild, ``target`` for Swap Hands and for a Skip under
    ``skip_any``; ``dance`` names the dance for a Dancing Wild; ``uno`` declares UNO with
    the play.
    """

    TYPE: ClassVar[str] = "play"
    card: Card
    """The card played."""
    color: Color | None = None
    """The colour named for a wild."""
    target: int | None = None
    """The seat named (Swap Hands, a 7 under ``seven_o``, a Skip under ``skip_any``)."""
    dance: str | None = field(default=None, metadata=text(64, choices=DANCES))
    """The dance a Dancing Wild calls for, one of ``DANCES``."""
    uno: bool = field(default=False, metadata=wire(sparse=True))
    """UNO declared with the play; sent only when true."""


@dataclass(frozen=True, slots=True)
class ChooseColor(SeatCommand):
    """Name the colour (and for Swap Hands the seat) when a wild is the first card turned up."""

    TYPE: ClassVar[str] = "choose-color"
    color: Color
    """The colour named."""
    target: int | None = None
    """The seat named for a Swap Hands first card."""


@dataclass(frozen=True, slots=True)
class Draw(SeatCommand):
    """Draw one card instead of playing."""

    TYPE: ClassVar[str] = "draw"


@dataclass(frozen=True, slots=True)
class Pass(SeatCommand):
    """End the turn after drawing (or when nothing can be played or drawn)."""

    TYPE: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class CallUno(SeatCommand):
    """Declare UNO, before a play (holding two on your turn) or after it."""

    TYPE: ClassVar[str] = "call-uno"


@dataclass(frozen=True, slots=True)
class Catch(SeatCommand):
    """Catch a seat that did not declare UNO."""

    TYPE: ClassVar[str] = "catch"
    target: int
    """The seat caught."""


@dataclass(frozen=True, slots=True)
class Accept(SeatCommand):
    """Take the Wild Draw Four without a challenge."""

    TYPE: ClassVar[str] = "accept"


@dataclass(frozen=True, slots=True)
class Challenge(SeatCommand):
    """Challenge the Wild Draw Four just played on you."""

    TYPE: ClassVar[str] = "challenge"


@dataclass(frozen=True, slots=True)
class Dance(SeatCommand):
    """Answer a Dancing Wild: the whole step sequence (empty under ``dance_check`` honour)."""

    TYPE: ClassVar[str] = "dance"
    steps: tuple[Arrow, ...] = field(default=(), metadata=items(MAX_DANCE_STEPS))
    """The steps, in order; always sent, empty too."""


@dataclass(frozen=True, slots=True)
class RefuseDance(SeatCommand):
    """Decline the dance and draw three."""

    TYPE: ClassVar[str] = "refuse-dance"


@dataclass(frozen=True, slots=True)
class Timeout(TableCommand):
    """The pending deadline has passed: the table acts for whoever was waited on."""

    TYPE: ClassVar[str] = "timeout"


@dataclass(frozen=True, slots=True)
class NextRound(TableCommand):
    """Start the next round (the only legal command between rounds)."""

    TYPE: ClassVar[str] = "next-round"


@dataclass(frozen=True, slots=True)
class Pause(TableCommand):
    """The host pauses the table: every clock stops until Resume."""

    TYPE: ClassVar[str] = "pause"


@dataclass(frozen=True, slots=True)
class Resume(TableCommand):
    """The host resumes a paused table; pending deadlines move on by the time paused."""

    TYPE: ClassVar[str] = "resume"


@dataclass(frozen=True, slots=True)
class SetAway(TableCommand):
    """Mark a seat away (lost connection) or back (its owner returned)."""

    TYPE: ClassVar[str] = "set-away"
    seat: int
    """The seat."""
    away: bool
    """True: away, a bot plays it; false: back."""


COMMAND_TYPES: Mapping[str, type[Command]] = MappingProxyType(
    {
        cls.TYPE: cls
        for cls in (
            Play,
            ChooseColor,
            Draw,
            Pass,
            CallUno,
            Catch,
            Accept,
            Challenge,
            Dance,
            RefuseDance,
            Timeout,
            NextRound,
            Pause,
            Resume,
            SetAway,
        )
    }
)
"""Every command by its wire ``type``."""

_KIND_WORDS: Mapping[type[Command], str] = MappingProxyType(
    {Command: "command", SeatCommand: "seat command", TableCommand: "table command"}
)


def command_from_data(data: Mapping[str, Any]) -> Command:
    """Parse a plain map into a command; raises InvalidCommandError when it is malformed.

    Unknown keys are ignored, as the protocol's versioning rules allow.
    """
    if not isinstance(data, Mapping):
        raise InvalidCommandError("a command must be a map")
    try:
        return Command.from_data(data)
    except RemoteProtocolError as error:
        raise InvalidCommandError(error.message) from None
