"""The small value types the engine answers with: phases, outcomes and log entries."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from protocol.commands import Command
from protocol.events import Event
from protocol.phase import Phase  # re-exported: the engine's callers import it from here
from protocol.rejections import RejectCode

__all__ = ["Accepted", "LogEntry", "Outcome", "Phase", "Rejected", "deferred_accepted"]


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
