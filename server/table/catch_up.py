"""A spectator's catch-up: the round so far, sent a batch at a time (issue 28).

A 1.3 spectator who arrives while a round is played is sent every event of the round from
its ``round-started``, as any spectator got them, before anything live. A round may be far
longer than a connection's outbox holds (``server.limits.OUTBOX_SIZE``), so the events go
``CATCH_UP_BATCH`` at a time: the next batch is sent when the connection's one writer has
written the last one (``Peer.when_drained``, which puts ``CatchUpDrained`` in the table's
inbox). Meanwhile the spectator is left out of the table's audience (``Seating.audience``):
live events join the round's events in the replay log and reach it in the same batches,
in order. When nothing is left to send, it rejoins the audience and is owed its view, whose
``seq`` is the last event it was sent; the live events after it follow as for anyone.

The events come from the replay log's stretch (the round being played, held anyway for the
match's record), or from the broadcast's recent history once a new round or match has
begun. If the next event is in neither (the spectator read slower than the table played
more than the history keeps), the catch-up ends there and the view alone is its new base,
as after a long absence. Each catch-up holds only the next number it owes.

A writer cannot take a callback back, so a peer has at most one waiting (``_Drained``),
from when its writer is given it until the table reads its ``CatchUpDrained``: a spectator
who leaves and watches again meanwhile begins its new catch-up under the same one, and so
never puts more than one ``CatchUpDrained`` in the inbox. Only the writer (then the inbox
item) holds the callback, so when the connection goes it goes too, and is forgotten here.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable

from server.limits import OUTBOX_SIZE
from server.peer import Peer
from server.table.broadcast import Broadcast
from server.table.history import NumberedEvent
from server.table.replay_log import ReplayLog
from server.table.seating import Seating

__all__ = ["CATCH_UP_BATCH", "CatchUps"]

CATCH_UP_BATCH = OUTBOX_SIZE // 4
"""Events sent at once to a spectator catching up: a quarter of its outbox, so the batch,
the table state and its pings fit behind whatever waits there."""


class _CatchUp:
    """One spectator's catch-up in progress: the next event it is owed."""

    __slots__ = ("next_seq", "peer")

    def __init__(self, peer: Peer, next_seq: int) -> None:
        self.peer = peer
        self.next_seq = next_seq


class _Drained:
    """The callback a peer's writer holds for its catch-ups, as the token it calls with."""

    __slots__ = ("__weakref__", "again")

    def __init__(self) -> None:
        self.again = False  # a batch left after the writer may have called it


class CatchUps:
    """The catch-ups of one table's spectators; see the module docstring."""

    def __init__(
        self,
        seating: Seating,
        broadcast: Broadcast,
        replay_log: ReplayLog,
        drained: Callable[[Peer, object], None],
    ) -> None:
        """``replay_log`` is the table's; ``drained(peer, token)`` is called from the
        peer's writer when a batch has left: it puts ``CatchUpDrained`` in the table's
        inbox, for ``fed`` to answer."""
        self._seating = seating
        self._broadcast = broadcast
        self._replay_log = replay_log
        self._drained = drained
        self._running: dict[int, _CatchUp] = {}
        self._waiting: weakref.WeakValueDictionary[int, _Drained] = weakref.WeakValueDictionary()

    def start(self, peer: Peer) -> bool:
        """Begin ``peer``'s catch-up if a round is being played; False if there is none
        (its view is then owed at once, as for an older spectator)."""
        so_far = self._replay_log.round_so_far()
        if not so_far:
            return False
        catch_up = _CatchUp(peer, so_far[0].seq)
        self._running[peer.peer_id] = catch_up
        self._seating.catching_up.add(peer.peer_id)
        self._feed(catch_up)
        return True

    def fed(self, peer: Peer, token: object) -> None:
        """``peer``'s writer has written what it held when it called back with ``token``:
        send the next batch, or end the catch-up."""
        drained = self._waiting.get(peer.peer_id)
        if drained is None or drained is not token:
            return  # never: a peer's writer holds one callback at a time
        del self._waiting[peer.peer_id]
        catch_up = self._running.get(peer.peer_id)
        if catch_up is None:
            return  # over: the peer left or lost its connection
        if drained.again:
            self._wait(peer)  # for the batch that left after the call
        elif peer.peer_id not in self._seating.spectators:
            self.stop(peer)  # it took a seat meanwhile: its seat's events reach it already
        else:
            self._feed(catch_up)

    def stop(self, peer: Peer) -> None:
        """``peer`` no longer watches (it left, or its connection is gone)."""
        self._running.pop(peer.peer_id, None)
        self._seating.catching_up.discard(peer.peer_id)

    def _feed(self, catch_up: _CatchUp) -> None:
        peer = catch_up.peer
        batch = self._events_from(catch_up.next_seq)
        if not batch:
            self.stop(peer)
            self._broadcast.owe_view(peer, None)
            return
        catch_up.next_seq = batch[-1].seq + 1
        peer.send(*(item.public_message() for item in batch))
        drained = self._waiting.get(peer.peer_id)
        if drained is None:
            self._wait(peer)
        else:
            drained.again = True  # a new catch-up under an old one's callback

    def _wait(self, peer: Peer) -> None:
        """Have ``peer``'s writer call back once it has written what it holds."""
        drained = self._waiting[peer.peer_id] = _Drained()
        peer.when_drained(lambda: self._drained(peer, drained))

    def _events_from(self, seq: int) -> list[NumberedEvent]:
        """Up to ``CATCH_UP_BATCH`` events from number ``seq`` on; empty when ``seq`` is
        past the latest, or no longer held."""
        stretch = self._replay_log.stretch
        if stretch and stretch[0].seq <= seq:
            start = seq - stretch[0].seq
            return stretch[start : start + CATCH_UP_BATCH]
        recent: list[NumberedEvent] = []
        for item in self._broadcast.history.after(seq - 1):
            if not recent and item.seq != seq:
                return []
            recent.append(item)
            if len(recent) == CATCH_UP_BATCH:
                break
        return recent
