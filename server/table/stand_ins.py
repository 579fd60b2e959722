"""Which seats a table's server bots play, and how those bots come and go.

A seat wants a server bot while it is a bot seat (the host added it, or its owner left or
was kicked mid-match), or while its owner is away in a running match. After every change
the table compares what each seat wants with what it has (``StandIns.reconcile``):

- a seat that wants a bot and has none orders one: a fresh stand-in token goes into a
  ``BotOrder`` and ``server.autoplay.BotLauncher`` starts a protocol client that presents
  it in its hello. The lobby routes that resume to the table like any other, and
  ``attach`` seats the bot as the seat's stand-in (the owner's token, seat and connection
  are untouched);
- a seat that no longer wants one (the owner resumed or played again, the seat was taken
  over or emptied) lets its bot go.

A bot that stops on its own (its connection failed) is replaced, at most
``MAX_BOT_FAILURES`` times in a table's life, so a bot that cannot work never spins; the
seat's turn clock still moves the game on.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable

import trio

from protocol.messages import Joined
from server.autoplay import BotLauncher, BotOrder, StandIn
from server.peer import Peer
from server.settings import LobbySettings
from server.table.broadcast import Broadcast
from server.table.game import TableGame
from server.table.public_state import PublicState
from server.table.seating import Seat, Seating, new_token

__all__ = ["MAX_BOT_FAILURES", "StandIns"]

log = logging.getLogger("uno.server.table")

MAX_BOT_FAILURES = 8
"""Server bots a table replaces after they stopped by themselves, before it gives up."""


class StandIns:
    """The server bots of one table: ordered, seated, dismissed, replaced."""

    def __init__(
        self,
        table_id: str,
        seating: Seating,
        game: TableGame,
        broadcast: Broadcast,
        public: PublicState,
        *,
        launcher: BotLauncher,
        settings: LobbySettings,
        think_ms: int,
        departed: Callable[[Peer], None],
    ) -> None:
        """``think_ms`` is how long each bot waits before it plays (the table's pace);
        ``departed`` tells the lobby that a bot's connection no longer belongs here."""
        self._table_id = table_id
        self._seating = seating
        self._game = game
        self._broadcast = broadcast
        self._public = public
        self._launcher = launcher
        self._settings = settings
        self._think_seconds = think_ms / 1000
        self._departed = departed
        self._seeds = random.Random(settings.bot_seed(table_id))
        self._nursery: trio.Nursery | None = None
        self._on_exit: Callable[[StandIn], None] = lambda stand_in: None
        self.failures = 0
        """Bots that stopped by themselves so far."""

    def open(self, nursery: trio.Nursery, on_exit: Callable[[StandIn], None]) -> None:
        """Start bots in ``nursery`` from now on; ``on_exit`` hears of each one's end."""
        self._nursery = nursery
        self._on_exit = on_exit

    def close(self) -> None:
        """Order no more bots (the nursery is about to close)."""
        self._nursery = None

    def wants_bot(self, seat: Seat) -> bool:
        return seat.is_bot or self._game.is_away(seat.index)

    def reconcile(self) -> None:
        """Give each seat a server bot exactly when it wants one."""
        for seat in self._seating:
            wanted = self.wants_bot(seat)
            if wanted and seat.stand_in is None:
                self._order(seat)
            elif not wanted and seat.stand_in is not None:
                log.debug("table %s: seat %d needs its bot no more", self._table_id, seat.index)
                self.let_go(seat)

    def _order(self, seat: Seat) -> None:
        nursery = self._nursery
        if nursery is None or self.failures >= MAX_BOT_FAILURES:
            return
        order = BotOrder(
            token=new_token(),
            name=seat.name if seat.is_bot else f"stand-in {seat.index}",
            strategy=seat.strategy or self._settings.bot_strategy,
            think_seconds=self._think_seconds,
            jump_in_ms=self._settings.bot_jump_in_ms,
            seed=self._seeds.getrandbits(64),
            last_seq=self._broadcast.last_seq,
        )
        seat.stand_in = self._launcher.launch(nursery, order, self._on_exit)
        log.debug("table %s: a server bot comes to play seat %d", self._table_id, seat.index)

    def let_go(self, seat: Seat) -> None:
        """Dismiss the server bot standing in for ``seat``, if any."""
        stand_in, seat.stand_in = seat.stand_in, None
        if stand_in is None:
            return
        if stand_in.peer is not None:
            self._departed(stand_in.peer)
        stand_in.dismiss()

    def ended(self, stand_in: StandIn) -> None:
        """A bot's task ended; if it had not been let go, it failed, and the seat may
        order another."""
        for seat in self._seating:
            if seat.stand_in is stand_in:
                seat.stand_in = None
                if stand_in.peer is not None:
                    self._departed(stand_in.peer)
                self.failures += 1
                log.warning(
                    "table %s: the server bot for seat %d stopped (%d of %d allowed)",
                    self._table_id,
                    seat.index,
                    self.failures,
                    MAX_BOT_FAILURES,
                )

    def attach(self, peer: Peer, seat: Seat, last_seq: int) -> None:
        """Seat ``peer`` as the server bot standing in for ``seat``, as a resume would:
        joined, the table state, the events after ``last_seq``; its view is owed."""
        stand_in = seat.stand_in
        assert stand_in is not None
        stand_in.peer = peer
        log.debug("table %s: a server bot plays seat %d", self._table_id, seat.index)
        peer.send(Joined(table_id=self._table_id, seat=seat.index, resume_token=stand_in.token))
        self._public.tell(peer)
        self._broadcast.replay(peer, seat.index, last_seq)

    def seat_played_by(self, peer: Peer) -> Seat | None:
        """The seat ``peer`` may play as a server bot now, if any."""
        seat = self._seating.of_stand_in(peer)
        return seat if seat is not None and self.wants_bot(seat) else None
