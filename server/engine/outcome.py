"""The small value types the engine answers with: phases, outcomes and log entries."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple, Protocol

from protocol.commands import Command
from protocol.events import Event
from protocol.rejections import RejectCode

__all__ = ["Accepted", "LogEntry", "Outcome", "Phase", "Rejected", "deferred_accepted"]


class Phase(StrEnum):
    """What the match is waiting for.

    ``TURN``: the seat to act plays a card, draws or passes. ``CHOOSE_COLOR``: a wild was
    turned up as the first card and the first player names the colour (and for Swap Hands
    the seat to swap with). ``CHALLENGE``: the victim of a Wild Draw Four accepts or
    challenges. ``DANCE``: the victim of a Dancing Wild dances or refuses. ``STACK``: with
    ``stack_draw_two`` the victim of a Draw Two answers with a Draw Two or draws the total.
    ``ROUND_OVER``: scores are shown until the table's NextRound (or its Timeout).
    ``MATCH_OVER``: final. ``PAUSED``: the host stopped every clock; only Resume and
    SetAway are legal.
    """

    TURN = "turn"
    CHOOSE_COLOR = "choose-color"
    CHALLENGE = "challenge"
    DANCE = "dance"
    STACK = "stack"
    ROUND_OVER = "round-over"
    MATCH_OVER = "match-over"
    PAUSED = "paused"


class _EventSource(Protocol):
    @property
    def events(self) -> list[Event]: ...


class Accepted:
    """The command was applied; ``events`` are the events it produced, in order.

    An immutable value. The engine hands out a deferred one (``deferred_accepted``) that
    builds its events from the match the first time ``events`` is read.
    """

    __slots__ = ("_events", "_span")

    def __init__(self, events: Iterable[Event]) -> None:
        self._events: tuple[Event, ...] = tuple(events)
        self._span: tuple[_EventSource, int, int] | None = None

    @classmethod
    def deferred(cls, source: _EventSource, start: int, stop: int) -> Accepted:
        """The events ``start:stop`` (0-based) of ``source``, built when first read."""
        return deferred_accepted(source, start, stop)

    @property
    def events(self) -> tuple[Event, ...]:
        try:
            return self._events
        except AttributeError:  # deferred and not read yet
            assert self._span is not None
            source, start, stop = self._span
            events = self._events = tuple(source.events[start:stop])
            self._span = None
            return events

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Accepted):
            return NotImplemented
        return self.events == other.events

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Accepted(events={self.events!r})"


_new_object = object.__new__
_set_span = vars(Accepted)["_span"].__set__


def deferred_accepted(source: _EventSource, start: int, stop: int) -> Accepted:
    """An ``Accepted`` for the events ``start:stop`` of ``source``, built when first read.

    The command path calls this once per accepted command: one allocation and one slot
    store, with ``_events`` left unset until someone reads it.
    """
    accepted = _new_object(Accepted)
    _set_span(accepted, (source, start, stop))
    return accepted


@dataclass(frozen=True, slots=True)
class Rejected:
    """The command is illegal now; nothing in the match changed (not even the RNG)."""

    code: RejectCode
    message: str


Outcome = Accepted | Rejected


class LogEntry(NamedTuple):
    """One accepted command: who sent it (None for the table), what, and when (server ms)."""

    actor: int | None
    command: Command
    now_ms: int
