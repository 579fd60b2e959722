"""A table's numbered event stream: one sequence across all its matches, kept for resumes.

The engine numbers the events of one match from 1. A table plays several matches
(rematches), so it numbers them again, gap-free for the table's whole life: the table seq
is the match's seq plus the number of events of earlier matches. Every seat receives every
event, redacted for it by the engine's ``Event.seen_by``, under the same number; a client
that lost its connection asks for "everything after N" and gets exactly that.

Only the command's sender sees its own command id as the cause of an event: ids belong to
one connection and mean nothing to anyone else.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from protocol.events import Event
from protocol.messages import GameEvent

__all__ = ["EventHistory", "NumberedEvent"]


@dataclass(frozen=True, slots=True)
class NumberedEvent:
    """One event with its table-wide number and what caused it."""

    seq: int
    """The table's number for the event (1, 2, ... across rematches)."""
    event: Event
    """The engine's event, with its per-match seq and its secrets."""
    cause_peer: int | None
    """The connection whose command caused it; None for the table's own commands."""
    cause_id: int | None
    """That command's id."""

    def message_for(
        self, seat: int | None, peer_id: int | None, public: GameEvent | None = None
    ) -> GameEvent:
        """The event as ``seat`` (None: a spectator) may see it, for connection ``peer_id``.

        ``public``, from ``public_message``, is returned itself when it is exactly what
        this seat and connection get: no secret of the seat's, and not the cause's sender.
        Every such seat then shares one message, which is encoded once.
        """
        cause = self.cause_id if peer_id is not None and peer_id == self.cause_peer else None
        if public is not None and cause is None and not self.has_secret_for(seat):
            return public
        return GameEvent.trusted(seq=self.seq, body=self.event.seen_by(seat, self.seq), cause=cause)

    def public_message(self) -> GameEvent:
        """The event as a spectator sees it, with no cause: what every seat without a secret
        in it gets too (see ``message_for``)."""
        return GameEvent.trusted(seq=self.seq, body=self.event.seen_by(None, self.seq), cause=None)

    def has_secret_for(self, seat: int | None) -> bool:
        """Whether ``seat`` sees more of the event than a spectator (a secret of its own)."""
        return seat is not None and seat in self.event.private


class EventHistory:
    """Every event of a table, numbered, the most recent ``limit`` of them kept."""

    def __init__(self, limit: int, last_seq: int = 0) -> None:
        """``last_seq``: the number of the event before the first one to come (a table
        rebuilt from the journal goes on from where it was)."""
        self._kept: deque[NumberedEvent] = deque(maxlen=limit)
        self._last_seq = last_seq

    @property
    def limit(self) -> int:
        """How many events are kept."""
        return self._kept.maxlen or 0

    @property
    def last_seq(self) -> int:
        """The number of the latest event; 0 before the first."""
        return self._last_seq

    def extend(
        self, events: Iterable[Event], cause_peer: int | None = None, cause_id: int | None = None
    ) -> list[NumberedEvent]:
        """Number new events in order; returns them numbered."""
        added: list[NumberedEvent] = []
        for event in events:
            self._last_seq += 1
            numbered = NumberedEvent(self._last_seq, event, cause_peer, cause_id)
            self._kept.append(numbered)
            added.append(numbered)
        return added

    def after(self, seq: int) -> Iterator[NumberedEvent]:
        """The kept events numbered above ``seq``, oldest first."""
        if seq >= self._last_seq:
            return iter(())
        first_kept = self._kept[0].seq if self._kept else self._last_seq + 1
        skip = max(0, seq + 1 - first_kept)
        return (self._kept[i] for i in range(skip, len(self._kept)))
