"""Events as the engine records them while a command runs, and as they are read.

A command appends one record per event to the match's record list; the records become
``Event`` objects, in place, only when somebody reads the events (most are read once, by
the server; a benchmark or a simulating bot reads none). A record is either
``(kind, public, private)`` or, for the four events of almost every command, a flat tuple
led by a small int code, so that a command leaves few objects behind:

- ``(TURN_RECORD, seat, direction)``: a ``turn`` event of the ``turn`` phase;
- ``(PLAYED_RECORD, seat, card, colour, cards left, uno, target, dance)``: every play;
- ``(DREW_RECORD, seat, cards, reason)``: the cards go privately to the drawer;
- ``(PASSED_RECORD, seat, stuck)``.

``build_event`` is the one place each of these events is made (a play is recorded only by
``effects.play``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from protocol.events import Event, EventKind
from server.engine.deck import CODE_BY_ID

__all__ = [
    "DREW_RECORD",
    "NO_SECRETS",
    "PASSED_RECORD",
    "PLAYED_RECORD",
    "TURN_RECORD",
    "Record",
    "build_event",
]

Record = tuple[Any, ...]
"""An event not yet built (see the module docstring)."""

TURN_RECORD, PLAYED_RECORD, DREW_RECORD, PASSED_RECORD = 0, 1, 2, 3

NO_SECRETS: Mapping[int, Mapping[str, Any]] = MappingProxyType({})
"""The ``private`` part of an event that has no secret (shared: it is read-only)."""

_Public = dict[str, Any]
_Private = Mapping[int, Mapping[str, Any]]
_Built = tuple[EventKind, _Public, _Private]


def _turn_event(record: Record) -> _Built:
    _, seat, direction = record
    return EventKind.TURN, {"seat": seat, "direction": direction, "phase": "turn"}, NO_SECRETS


def _played_event(record: Record) -> _Built:
    _, seat, card, color, count, uno, target, dance = record
    public: _Public = {
        "seat": seat,
        "card": CODE_BY_ID.get(id(card)) or card.code,
        "color": None if color is None else color.value,
        "count": count,
    }
    if target is not None:
        public["target"] = target
    if dance is not None:
        public["dance"] = dance
    if uno:
        public["uno"] = True
    return EventKind.PLAYED, public, NO_SECRETS


def _drew_event(record: Record) -> _Built:
    _, seat, cards, reason = record
    by_id = CODE_BY_ID
    return (
        EventKind.DREW,
        {"seat": seat, "count": len(cards), "reason": reason},
        {seat: {"cards": [by_id.get(id(card)) or card.code for card in cards]}},
    )


def _passed_event(record: Record) -> _Built:
    _, seat, stuck = record
    return EventKind.PASSED, {"seat": seat, "stuck": stuck}, NO_SECRETS


_BUILDERS: tuple[Callable[[Record], _Built], ...] = (
    _turn_event,
    _played_event,
    _drew_event,
    _passed_event,
)


def build_event(seq: int, record: Record) -> Event:
    """The event ``seq`` (counting from 1) of the match, from its record."""
    head = record[0]
    if head.__class__ is int:
        kind, public, private = _BUILDERS[head](record)
    else:
        kind, public, private = record
    return Event(seq, kind, public, private)
