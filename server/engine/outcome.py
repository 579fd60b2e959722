"""The small value types the engine answers with: outcomes and log entries."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from protocol.cards import Card
from protocol.commands import Command
from protocol.events import Event
from protocol.rejections import RejectCode

__all__ = ["Accepted", "LogEntry", "Outcome", "Rejected"]


@dataclass(frozen=True, slots=True)
class Accepted:
    """The command was applied; ``events`` are the events it produced, in order (none
    in a quiet match, which keeps no events)."""

    events: tuple[Event, ...] = ()


@dataclass(frozen=True, slots=True)
class Rejected:
    """The command is illegal now; nothing in the match changed (not even the RNG)."""

    code: RejectCode
    message: str
    card: Card | None = None
    """The card a refused play named, for the codes about it (``card-not-in-hand``,
    ``card-does-not-match``, ``only-drawn-card``): the client's sentence names it."""


Outcome = Accepted | Rejected


class LogEntry(NamedTuple):
    """One accepted command: who sent it (None for the table), what, and when (server ms)."""

    actor: int | None
    command: Command
    now_ms: int
