"""The fan-out of one table: its numbered events, and the fresh views that follow them.

Every accepted batch of events is numbered (``server.table.history``) and redacted for each
seat by the engine's ``Event.for_seat``. The sender of the command that caused them gets
its copies at once; everyone else's are held (``Peer.hold``) to leave with the fresh view
they are now owed, in one write. Views are never sent on the spot: a part that wants
someone to have a view (a join, a resume) says so with ``owe_view``, and the table's task
pays every debt at once when the change is complete (``take_owed`` then ``send_view``), so
a change sends each member one view however many steps it took.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from protocol.events import Event
from protocol.messages import GameView
from protocol.views import SharedView
from server.engine import Match
from server.limits import MAX_REPLAYED_EVENTS
from server.peer import Peer
from server.table.history import EventHistory, NumberedEvent
from server.table.seating import Seating

__all__ = ["Broadcast"]


class Broadcast:
    """Numbers a table's events and sends them and the views they owe; see the module
    docstring."""

    def __init__(self, seating: Seating, history_limit: int) -> None:
        self.history = EventHistory(history_limit)
        """Every event of the table, numbered; the recent ones kept for resumes."""
        self._seating = seating
        self._everyone_owed = False  # events went out since the last views
        self._owed: dict[int, tuple[Peer, int | None]] = {}  # peer id -> (peer, seat)
        self.seen: dict[int, int] = {}
        """Per seat, the match's event count in the last view sent through its eyes."""

    def restore(self, events: Sequence[Event], first_seq: int) -> list[NumberedEvent]:
        """Number a rebuilt match's events again, the first as ``first_seq``, sending them
        to nobody (nobody is here yet); they are kept for resumes as if just sent."""
        self.history = EventHistory(self.history.limit, first_seq - 1)
        return self.history.extend(events)

    @property
    def last_seq(self) -> int:
        """The number of the table's latest event; 0 before the first."""
        return self.history.last_seq

    def publish(
        self, events: Sequence[Event], cause_peer: int | None = None, cause_id: int | None = None
    ) -> list[NumberedEvent]:
        """Number new events and send them to the command's sender now; every other member
        gets its redacted copies held, to leave with the fresh view it is now owed. Returns
        them numbered."""
        if not events:
            return []
        numbered = self.history.extend(events, cause_peer, cause_id)
        self._everyone_owed = True
        audience = self._seating.audience()
        # The sender's copies first, before anyone else's are built: the answer it waits for.
        for peer, eyes in audience:
            if peer.peer_id == cause_peer:
                peer.send(*(item.message_for(eyes, peer.peer_id) for item in numbered))
        # One public message per event, shared by every seat that sees no more of it than
        # a spectator, so it is encoded once for all of them (``Message.frame``).
        shared = [(item, item.public_message()) for item in numbered]
        for peer, eyes in audience:
            if peer.peer_id != cause_peer:
                held = (item.message_for(eyes, peer.peer_id, public) for item, public in shared)
                peer.hold(*held)
        return numbered

    def replay(self, peer: Peer, seat: int, last_seq: int, seated_at: int = 0) -> None:
        """Send a returning connection the events after ``last_seq``; its view is owed.

        Only a short, complete stretch is replayed. When more than ``MAX_REPLAYED_EVENTS``
        are missing, the history no longer holds the first of them, or ``last_seq`` is
        older than ``seated_at`` (the seat's current owner sat down after that event, and
        what came before belonged to someone else), the view goes alone: its seq is the
        client's new base, and nothing is sent with a hole before it.
        """
        missing = self.history.last_seq - last_seq
        if 0 < missing <= MAX_REPLAYED_EVENTS and last_seq >= seated_at:
            replayed = list(self.history.after(last_seq))
            if replayed and replayed[0].seq == last_seq + 1:
                peer.send(*(numbered.message_for(seat, None) for numbered in replayed))
        self.owe_view(peer, seat)

    def owe_view(self, peer: Peer, seat: int | None) -> None:
        """``peer`` gets a fresh view through ``seat``'s eyes when the change is complete."""
        self._owed[peer.peer_id] = (peer, seat)

    def take_owed(self) -> list[tuple[Peer, int | None]]:
        """Who is owed a fresh view: everyone following the match if events went out, and
        anyone owed one by name. The debt is then the caller's to pay with ``send_view``."""
        owed = self._owed
        self._owed = {}
        for key in self._seating.catching_up.intersection(owed):
            del owed[key]  # its view comes when its catch-up ends (server.table.catch_up)
        if self._everyone_owed:
            self._everyone_owed = False
            for peer, seat in self._seating.audience():
                owed[peer.peer_id] = (peer, seat)
        return list(owed.values())

    def shared_view(self, match: Match, now_ms: int) -> SharedView:
        """The match's ``shared_view`` of this moment, numbered as the table numbers events
        (``last_seq`` counts the events of earlier matches too)."""
        shared = match.shared_view(now_ms)
        last = self.history.last_seq
        return shared if shared.last_seq == last else replace(shared, last_seq=last)

    def send_view(
        self,
        peer: Peer,
        seat: int | None,
        match: Match | None,
        shared: SharedView | None,
        *,
        hold: bool = False,
    ) -> None:
        """``peer``'s view of ``match`` through ``seat``'s eyes, with anything held for it;
        ``shared`` is this moment's ``shared_view``. ``hold`` keeps it for the
        next send (a reply that follows at once)."""
        if match is None or shared is None:
            if not hold:
                peer.send()  # no match, no view; but what was held for it goes
            return
        if seat is not None:
            self.seen[seat] = match.event_count()  # ruling 37: what a jump-in could see
        view = GameView.trusted(seq=shared.last_seq, body=match.seat_view(shared, seat))
        if hold:
            peer.hold(view)
        else:
            peer.send(view)
