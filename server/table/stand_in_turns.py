"""How many of each person's turns a stand-in played in one match, read from its events.

A seat is away from its ``away`` event to its ``back``; meanwhile a server bot plays it.
A turn of the seat (a ``turn`` event whose phase is ``turn``) that begins while it is away
is the stand-in's, and so is the turn it is in when it goes away. Each turn counts once.
Counting from the events alone gives the same figure live and after a restart, where the
match is replayed from the journal and its events come back in one batch.
"""

from __future__ import annotations

from collections.abc import Iterable

from protocol.events import Away, Back, Event, Turn
from protocol.phase import Phase

__all__ = ["StandInTurns"]


class StandInTurns:
    """The stand-ins' share of each seat's turns in one match (``counts``, by seat)."""

    def __init__(self, seats: int) -> None:
        self.counts = [0] * seats
        """Turns of each seat a stand-in played."""
        self._away = [False] * seats
        self._turn_of: int | None = None  # the seat whose turn it is, if it is a turn
        self._counted = False  # that turn is counted already

    def feed(self, events: Iterable[Event]) -> None:
        """Take the next events of the match, in order."""
        for event in events:
            match event.body:
                case Turn(seat=seat, phase=phase):
                    self._turn_of = seat if phase is Phase.TURN else None
                    self._counted = False
                    self._count_if_away()
                case Away(seat=seat):
                    self._away[seat] = True
                    self._count_if_away()
                case Back(seat=seat):
                    self._away[seat] = False
                case _:
                    pass

    def _count_if_away(self) -> None:
        seat = self._turn_of
        if seat is not None and self._away[seat] and not self._counted:
            self.counts[seat] += 1
            self._counted = True
