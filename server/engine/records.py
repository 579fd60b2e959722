"""Events as the engine records them while a command runs, and as they are read.

A command appends one record per event to the match's record list; the records become
``Event`` objects, in place, only when somebody reads the events (most are read once, by
the server; a benchmark or a simulating bot reads none). A record is either
``(body, private)`` (a typed body and its secrets) or, for the events of almost every
command, a flat tuple led by a small int code, so that a command leaves few objects
behind:

- ``(TURN_RECORD, seat, direction)``: a ``turn`` event of the ``turn`` phase;
- ``(PLAYED_RECORD, seat, card, colour, cards left, uno, target, dance)``: every play;
- ``(DREW_RECORD, seat, cards, reason)``: the cards go privately to the drawer;
- ``(PASSED_RECORD, seat, stuck)``;
- ``(SKIPPED_RECORD, seat)`` and ``(UNO_CALLED_RECORD, seat, early)``, the commonest of
  the rest (one play in three skips someone in a two-player round).

``build_event`` is the one place each of these events is made (a play is recorded only by
``effects.play``).

Why the trick stays: the plain typed path (every event built at once through its checked
constructor, no records) ran ``tests/bench/engine.py --json --seconds 3`` at 362 rounds a
second against 1,224 for this scheme, 48 us a command against 14 (interleaved with the
untyped engine at 1,371 rounds and 13 us, load 5 on two shared cores). A searching bot
plays thousands of simulated commands per move and reads no events: a third of its speed
is a weaker or slower hard bot, which players do feel. ``skipped`` and ``uno-called``
joined the four when the checked bodies of the rest had left the head-to-head ratio 9 %
under the untyped engine's; with them it is 3 % under (docs/performance.md).
``tests/engine/test_event_codec.py`` holds the built events equal to their checked records.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from protocol.events import (
    Drew,
    Event,
    EventBody,
    EventSecret,
    Passed,
    Played,
    SecretCards,
    Skipped,
    Turn,
    UnoCalled,
)
from protocol.phase import Phase

__all__ = [
    "DREW_RECORD",
    "NO_SECRETS",
    "PASSED_RECORD",
    "PLAYED_RECORD",
    "SKIPPED_RECORD",
    "TURN_RECORD",
    "UNO_CALLED_RECORD",
    "Record",
    "build_event",
]

Record = tuple[Any, ...]
"""An event not yet built (see the module docstring)."""

TURN_RECORD, PLAYED_RECORD, DREW_RECORD, PASSED_RECORD = 0, 1, 2, 3
SKIPPED_RECORD, UNO_CALLED_RECORD = 4, 5

NO_SECRETS: Mapping[int, EventSecret] = MappingProxyType({})
"""The ``private`` part of an event that has no secret (shared: it is read-only)."""

_Private = Mapping[int, EventSecret]
_Built = tuple[EventBody, _Private]
_TURN = Phase.TURN

# The records below are made with ``trusted``: their values come from the engine's own
# state (seats in range, cards from the deck), and ``tests/engine/test_event_codec.py``
# decodes every event of whole matches strictly.


def _turn_event(record: Record) -> _Built:
    _, seat, direction = record
    return Turn.trusted(seat=seat, direction=direction, phase=_TURN), NO_SECRETS


def _played_event(record: Record) -> _Built:
    _, seat, card, color, count, uno, target, dance = record
    body = Played.trusted(
        seat=seat, card=card, color=color, count=count, target=target, dance=dance, uno=uno
    )
    return body, NO_SECRETS


def _drew_event(record: Record) -> _Built:
    _, seat, cards, reason = record
    body = Drew.trusted(seat=seat, count=len(cards), reason=reason)
    return body, {seat: SecretCards.trusted(cards=tuple(cards))}


def _passed_event(record: Record) -> _Built:
    _, seat, stuck = record
    return Passed.trusted(seat=seat, stuck=stuck), NO_SECRETS


def _skipped_event(record: Record) -> _Built:
    return Skipped.trusted(seat=record[1]), NO_SECRETS


def _uno_called_event(record: Record) -> _Built:
    _, seat, early = record
    return UnoCalled.trusted(seat=seat, early=early), NO_SECRETS


_BUILDERS: tuple[Callable[[Record], _Built], ...] = (
    _turn_event,
    _played_event,
    _drew_event,
    _passed_event,
    _skipped_event,
    _uno_called_event,
)


def build_event(seq: int, record: Record) -> Event:
    """The event ``seq`` (counting from 1) of the match, from its record."""
    head = record[0]
    if head.__class__ is int:
        body, private = _BUILDERS[head](record)
    else:
        body, private = record
    return Event(seq, body, private)
