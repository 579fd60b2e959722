"""A table rebuilt from the journal after a restart, and the grace its people get to return.

``rebuild`` puts back the seats (people's seats keep only their token's hash, so their
owners resume with the token they hold) and the bans, and replays the latest match. The match then
waits, paused: nobody is connected yet, and it would be unfair to let the clocks or the
server bots play for people who are reconnecting. ``RestartGrace`` ends the pause when
every person's seat is back, or after the grace; only then is a seat still empty handled
as a lost connection (marked away, a server bot plays it).

``TableRecorder`` is the other direction: it writes the seats to the journal whenever they
change, and each new ban, so that there is something to rebuild.
"""

from __future__ import annotations

import logging

from protocol.commands import Pause, Resume
from server.journal import SavedBan, SavedSeat, SavedTable, TableJournal
from server.table.bans import Ban
from server.table.game import TableGame
from server.table.seating import Seat, Seating

__all__ = ["RestartGrace", "TableRecorder", "rebuild"]

log = logging.getLogger("uno.server.table")


def rebuild(seating: Seating, game: TableGame, saved: SavedTable) -> None:
    """Put ``saved``'s seats and latest match back into a fresh table's parts."""
    for chair in saved.seats:
        seating.restore_seat(
            Seat(
                index=chair.seat,
                name=chair.name,
                strategy=chair.strategy,
                token_hash=chair.token_hash,
                address=chair.address,
            )
        )
    for ban in saved.bans:
        seating.bans.restore(Ban(ban.name, ban.address))
    seating.owner = seating.host = saved.host  # the journal keeps the owner: see TableRecorder
    game.config = saved.config
    game.matches_played = saved.matches_played
    if saved.match is not None:
        game.restore(saved.match)


class RestartGrace:
    """The pause of a rebuilt match until its people are back (or the grace is over).

    During the grace nobody is lent the host role: an owner not back yet is still host.
    """

    def __init__(self, seating: Seating, game: TableGame, until: float) -> None:
        self._seating = seating
        self._game = game
        self.until = until
        """When (Trio time) the grace ends whoever is back."""
        seating.lending = False  # the owner stays host until the grace is over
        match = game.running()
        self._paused = match is not None and not match.paused and game.apply_table(Pause())

    def over(self, now: float) -> bool:
        """Whether the grace has ended; at its end the match goes on and every person not
        back is away."""
        people = self._seating.people()
        if now < self.until and not all(seat.peer is not None for seat in people):
            return False
        self._seating.lending = True
        if self._paused:
            self._game.apply_table(Resume())
        for seat in people:
            if seat.peer is None:
                self._game.set_away(seat.index, True)
        log.info("table %s: back after the restart", self._game.table_id)
        return True


class TableRecorder:
    """Writes a table's seats, owner and options to the journal when they change.

    The journal's ``host`` is the owner's seat: a role lent while the owner is away is
    not kept, since a rebuilt table gives it to the owner (and lends it only after the
    grace)."""

    def __init__(self, journal: TableJournal, seating: Seating, game: TableGame) -> None:
        self._journal = journal
        self._seating = seating
        self._game = game
        self._written: object = None
        self._bans_written = len(seating.bans.given)  # a rebuilt table's are in the journal

    def seats_changed(self) -> None:
        """Write the seats if they are not what was last written, and the bans given
        since the last call."""
        seats = [
            SavedSeat(seat.index, seat.name, seat.strategy, seat.token_hash, seat.address)
            for seat in self._seating
        ]
        now = (seats, self._seating.owner, self._game.config)
        if now != self._written:
            self._journal.seats(seats, self._seating.owner, self._game.config)
            self._written = now
        for ban in self._seating.bans.given[self._bans_written :]:
            self._journal.banned(SavedBan(ban.name, ban.address))
            self._bans_written += 1
