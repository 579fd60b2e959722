"""The small value types the engine answers with: phases, outcomes and log entries."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from protocol.commands import Command
from protocol.events import Event
from protocol.rejections import RejectCode

__all__ = ["Accepted", "LogEntry", "Outcome", "Phase", "Rejected"]


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


@dataclass(frozen=True, slots=True)
class Accepted:
    """The command was applied; ``events`` are the events it produced, in order."""

    events: tuple[Event, ...]


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
