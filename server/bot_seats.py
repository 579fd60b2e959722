"""Which seats a table's server bots play, and how those bots come and go.

A seat wants a server bot while it is a bot seat (the host added it, or its owner left or
was kicked mid-match), or while its owner is away in a running match. After every change
the table compares what each seat wants with what it has (``_reconcile_stand_ins``):

- a seat that wants a bot and has none orders one: a fresh stand-in token goes into a
  ``BotOrder`` and ``server.autoplay.BotLauncher`` starts a protocol client that presents
  it in its hello. The lobby routes that resume here like any other, and
  ``_attach_stand_in`` seats the bot as the seat's stand-in (the owner's token, seat and
  connection are untouched);
- a seat that no longer wants one (the owner resumed or played again, the seat was taken
  over or emptied) lets its bot go.

A bot that stops on its own (its connection failed) is replaced, at most
``MAX_BOT_FAILURES`` times in a table's life, so a bot that cannot work never spins; the
seat's turn clock still moves the game on.
"""

from __future__ import annotations

import logging
from typing import Any

from protocol.messages import Joined
from server.autoplay import BotOrder, StandIn
from server.limits import MAX_REPLAYED_EVENTS
from server.peer import Peer
from server.seats import Seat, new_token
from server.table_core import TableCore

__all__ = ["MAX_BOT_FAILURES", "TableStandIns"]

log = logging.getLogger("uno.server.table")

MAX_BOT_FAILURES = 8
"""Server bots a table replaces after they stopped by themselves, before it gives up."""


class TableStandIns(TableCore):
    """The table's server bots (mixed into ``server.table.Table``)."""

    def _wants_stand_in(self, seat: Seat) -> bool:
        if seat.is_bot:
            return True
        match = self._match
        return match is not None and not match.is_over and match.away[seat.index]

    def _reconcile_stand_ins(self) -> None:
        """Give each seat a server bot exactly when it wants one."""
        while self._bots_ended:
            self._stand_in_ended(self._bots_ended.pop(0))
        for seat in self.seats:
            wanted = self._wants_stand_in(seat)
            if wanted and seat.stand_in is None:
                self._order_stand_in(seat)
            elif not wanted and seat.stand_in is not None:
                log.debug("table %s: seat %d needs its bot no more", self._label(), seat.index)
                self._let_go(seat)

    def _order_stand_in(self, seat: Seat) -> None:
        nursery = self._bot_nursery
        if nursery is None or self._closing or self._bot_failures >= MAX_BOT_FAILURES:
            return
        order = BotOrder(
            token=new_token(),
            name=seat.name if seat.is_bot else f"stand-in {seat.index}",
            strategy=seat.strategy or self._settings.bot_strategy,
            think_seconds=self._settings.bot_think_ms / 1000,
            seed=self._bot_seeds.getrandbits(64),
            last_seq=self._history.last_seq,
        )
        seat.stand_in = self._bots.launch(nursery, order, self._bot_stopped)
        log.debug("table %s: a server bot comes to play seat %d", self._label(), seat.index)

    def _bot_stopped(self, stand_in: StandIn) -> None:
        """A bot's task has ended (called from that task); the table's task looks next."""
        self._bots_ended.append(stand_in)
        self._wake()

    def _stand_in_ended(self, stand_in: StandIn) -> None:
        """A bot ended; if it had not been let go, it failed, and the seat may order
        another."""
        for seat in self.seats:
            if seat.stand_in is stand_in:
                seat.stand_in = None
                if stand_in.peer is not None:
                    self._hooks.departed(stand_in.peer, self)
                self._bot_failures += 1
                log.warning(
                    "table %s: the server bot for seat %d stopped (%d of %d allowed)",
                    self._label(),
                    seat.index,
                    self._bot_failures,
                    MAX_BOT_FAILURES,
                )

    def _attach_stand_in(self, peer: Peer, seat: Seat, last_seq: int) -> dict[str, Any]:
        """Seat ``peer`` as the server bot standing in for ``seat``, as a resume would:
        joined, the table state, the events after ``last_seq``, the view."""
        stand_in = seat.stand_in
        assert stand_in is not None
        stand_in.peer = peer
        log.debug("table %s: a server bot plays seat %d", self._label(), seat.index)
        peer.send(Joined(table_id=self.table_id, seat=seat.index, resume_token=stand_in.token))
        self._tell_state(peer)
        self._catch_up(peer, seat.index, last_seq)
        return {"seat": seat.index}

    def _catch_up(self, peer: Peer, seat: int, last_seq: int, seated_at: int = 0) -> None:
        """Send a returning connection the events after ``last_seq``, then ``seat``'s view.

        Only a short, complete stretch is replayed. When more than ``MAX_REPLAYED_EVENTS``
        are missing, the history no longer holds the first of them, or ``last_seq`` is
        older than ``seated_at`` (the seat's current owner sat down after that event, and
        what came before belonged to someone else), the view goes alone: its seq is the
        client's new base, and nothing is sent with a hole before it.
        """
        missing = self._history.last_seq - last_seq
        if 0 < missing <= MAX_REPLAYED_EVENTS and last_seq >= seated_at:
            replay = list(self._history.after(last_seq))
            if replay and replay[0].seq == last_seq + 1:
                for numbered in replay:
                    peer.send(numbered.message_for(seat, None))
        self._send_view(peer, seat)

    def _note_seated(self, seat: Seat) -> None:
        """Remember that ``seat``'s token sat down now: a resume never reaches back before."""
        held = {taken.token for taken in self.seats if taken.token is not None}
        self._seated_at = {token: seq for token, seq in self._seated_at.items() if token in held}
        if seat.token is not None:
            self._seated_at[seat.token] = self._history.last_seq

    def _stand_in_seat(self, peer: Peer) -> Seat | None:
        """The seat ``peer`` may play as a server bot now, if any."""
        seat = self.seats.of_stand_in(peer)
        return seat if seat is not None and self._wants_stand_in(seat) else None
