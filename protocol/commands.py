"""Commands: everything a seat or the table can ask of a match.

Each command is a frozen, slotted value. ``to_data`` / ``command_from_data`` convert to and
from the plain maps used on the wire and in command logs; the ``type`` key names the
command. Whether a command is legal *now* is the engine's business, not this module's:
here a command only has to be well formed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, TypeVar

from protocol.cards import Card, Color, InvalidCardError

__all__ = [
    "DANCES",
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


class InvalidCommandError(ValueError):
    """Plain data that does not describe a well-formed command."""


class Arrow(StrEnum):
    """One dance step."""

    UP = "up"
    DOWN = "down"
    LEFT = "left"
    RIGHT = "right"


@dataclass(frozen=True, slots=True)
class Command:
    """Base of every command. ``TYPE`` is its name on the wire."""

    TYPE: ClassVar[str] = ""

    def to_data(self) -> dict[str, Any]:
        """The plain wire form (the map inside ``game.command``): ``type``, then the
        command's fields; optional fields that are unset are left out.
        ``command_from_data`` reads it back."""
        return {"type": self.TYPE}


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
    color: Color | None = None
    target: int | None = None
    dance: str | None = None
    uno: bool = False

    def to_data(self) -> dict[str, Any]:
        """``type`` and ``card``; ``color``, ``target``, ``dance`` when set; ``uno`` when true."""
        data: dict[str, Any] = {"type": self.TYPE, "card": self.card.code}
        if self.color is not None:
            data["color"] = self.color.value
        if self.target is not None:
            data["target"] = self.target
        if self.dance is not None:
            data["dance"] = self.dance
        if self.uno:
            data["uno"] = True
        return data


@dataclass(frozen=True, slots=True)
class ChooseColor(SeatCommand):
    """Name the colour (and for Swap Hands the seat) when a wild is the first card turned up."""

    TYPE: ClassVar[str] = "choose-color"
    color: Color
    target: int | None = None

    def to_data(self) -> dict[str, Any]:
        """``type`` and ``color``; ``target`` when set."""
        data: dict[str, Any] = {"type": self.TYPE, "color": self.color.value}
        if self.target is not None:
            data["target"] = self.target
        return data


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

    def to_data(self) -> dict[str, Any]:
        """``type`` and ``target``."""
        return {"type": self.TYPE, "target": self.target}


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
    steps: tuple[Arrow, ...] = ()

    def to_data(self) -> dict[str, Any]:
        """``type`` and ``steps`` (arrow names, possibly none)."""
        return {"type": self.TYPE, "steps": [step.value for step in self.steps]}


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
    away: bool

    def to_data(self) -> dict[str, Any]:
        """``type``, ``seat`` and ``away``."""
        return {"type": self.TYPE, "seat": self.seat, "away": self.away}


_SIMPLE: dict[str, type[Command]] = {
    cls.TYPE: cls
    for cls in (
        Draw,
        Pass,
        CallUno,
        Accept,
        Challenge,
        RefuseDance,
        Timeout,
        NextRound,
        Pause,
        Resume,
    )
}
MAX_DANCE_STEPS = 16
_T = TypeVar("_T")


def command_from_data(data: Mapping[str, Any]) -> Command:
    """Parse a plain map into a command; raises InvalidCommandError when it is malformed.

    Unknown keys are ignored, as the protocol's versioning rules allow.
    """
    if not isinstance(data, Mapping):
        raise InvalidCommandError("a command must be a map")
    kind = data.get("type")
    simple = _SIMPLE.get(kind) if isinstance(kind, str) else None
    if simple is not None:
        return simple()
    try:
        if kind == Play.TYPE:
            return Play(
                card=Card.parse(_require(data, "card", str)),
                color=_optional_color(data),
                target=_optional(data, "target", int),
                dance=_optional_dance(data),
                uno=_optional(data, "uno", bool) or False,
            )
        if kind == ChooseColor.TYPE:
            return ChooseColor(
                color=_color(_require(data, "color", str)), target=_optional(data, "target", int)
            )
        if kind == Catch.TYPE:
            return Catch(target=_require(data, "target", int))
        if kind == SetAway.TYPE:
            return SetAway(seat=_require(data, "seat", int), away=_require(data, "away", bool))
        if kind == Dance.TYPE:
            steps = data.get("steps", [])
            if not isinstance(steps, list | tuple) or len(steps) > MAX_DANCE_STEPS:
                raise InvalidCommandError(f"steps must be a list of at most {MAX_DANCE_STEPS}")
            return Dance(steps=tuple(_arrow(step) for step in steps))
    except InvalidCardError as error:
        raise InvalidCommandError(str(error)) from None
    raise InvalidCommandError(f"unknown command type {kind!r}")


def _require(data: Mapping[str, Any], key: str, kind: type[_T]) -> _T:
    value = _optional(data, key, kind)
    if value is None:
        raise InvalidCommandError(f"{data.get('type')} needs {key!r}")
    return value


def _optional(data: Mapping[str, Any], key: str, kind: type[_T]) -> _T | None:
    value = data.get(key)
    if value is None:
        return None
    # bool is an int in Python; a seat number must not be True.
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise InvalidCommandError(f"{key!r} must be of type {kind.__name__}")
    return value


def _optional_color(data: Mapping[str, Any]) -> Color | None:
    code = _optional(data, "color", str)
    return None if code is None else _color(code)


def _color(code: str) -> Color:
    try:
        return Color(code)
    except ValueError:
        raise InvalidCommandError(f"{code!r} is not a colour (R, Y, G or B)") from None


def _optional_dance(data: Mapping[str, Any]) -> str | None:
    dance = _optional(data, "dance", str)
    if dance is not None and dance not in DANCES:
        raise InvalidCommandError(f"{dance!r} is not a dance; choose from {', '.join(DANCES)}")
    return dance


def _arrow(step: object) -> Arrow:
    try:
        return Arrow(str(step)) if isinstance(step, str) else Arrow("")
    except ValueError:
        raise InvalidCommandError(f"{step!r} is not a dance step") from None
