"""The small value types the engine answers with: outcomes and log entries."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from protocol.commands import Command
from protocol.events import Event
from protocol.rejections import RejectCode

__all__ = ["Accepted", "LogEntry", "Outcome", "Rejected"]


class _EventSource(Protocol):
    def events_between(self, start: int, stop: int) -> list[Event]: ...


class Accepted:
    """The command was applied; ``events`` are the events it produced, in order.

    An immutable value. ``Accepted.deferred`` (what ``Match.apply`` returns) builds its
    events from the match the first time ``events`` is read: a simulation that never
    reads them never pays for them.
    """

    __slots__ = ("_events",)

    def __init__(self, events: Iterable[Event]) -> None:
        self._events: tuple[Event, ...] = tuple(events)

    @staticmethod
    def deferred(source: _EventSource, start: int, stop: int) -> Accepted:
        """The events numbered ``start + 1`` to ``stop`` of ``source``, built when first read."""
        return _DeferredAccepted(source, start, stop)

    @property
    def events(self) -> tuple[Event, ...]:
        return self._events

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Accepted):
            return NotImplemented
        return self.events == other.events

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Accepted(events={self.events!r})"


class _DeferredAccepted(Accepted):
    __slots__ = ("_span",)

    def __init__(self, source: _EventSource, start: int, stop: int) -> None:
        # ``_events`` stays unset until the first read.
        self._span: tuple[_EventSource, int, int] | None = (source, start, stop)

    @property
    def events(self) -> tuple[Event, ...]:
        span = self._span
        if span is not None:
            source, start, stop = span
            self._events = tuple(source.events_between(start, stop))
            self._span = None
        return self._events


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
