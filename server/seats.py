"""Who sits where at one table: people with their resume tokens, and bot seats.

A table has ``config.seats`` chairs. A chair is empty, held by a person (who may be
connected or not), or held by a server bot. A person's seat carries a random resume token;
whoever presents it gets the seat back, so tokens are compared in constant time and never
logged.

This module is plain bookkeeping, no Trio and no engine: the table decides what the
changes mean for the match.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from server.autoplay import StandIn
    from server.peer import Peer

__all__ = ["Seat", "SeatMap", "new_token", "tokens_match"]

TOKEN_BYTES = 18
"""Random bytes in a resume token (24 URL-safe characters)."""


def new_token() -> str:
    """A fresh resume token from the OS's secure random source."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def tokens_match(given: str, held: str) -> bool:
    """Whether a presented token is the one held, in time that does not depend on where
    they differ (so a guesser learns nothing from how long a refusal takes)."""
    return hmac.compare_digest(given.encode("utf-8"), held.encode("utf-8"))


@dataclass(slots=True)
class Seat:
    """One occupied chair.

    A person's seat has a ``token`` and, while they are connected, a ``peer``. A bot seat
    has a ``strategy`` and neither. ``ready`` is the owner's "start / next round" flag.
    ``stand_in`` is the server bot that plays the seat (always for a bot seat, while away
    for a person's); it holds its own token, never the owner's.
    """

    index: int
    name: str
    token: str | None = None
    peer: Peer | None = None
    strategy: str | None = None
    ready: bool = False
    stand_in: StandIn | None = None

    @property
    def is_bot(self) -> bool:
        return self.strategy is not None

    @property
    def is_connected(self) -> bool:
        return self.peer is not None

    def make_bot(self, strategy: str, name: str) -> None:
        """Turn the seat over to a server bot for good (its owner left or was kicked)."""
        self.strategy = strategy
        self.name = name
        self.token = None
        self.peer = None
        self.ready = False


class SeatMap:
    """The chairs of one table, indexed 0..size-1 clockwise."""

    def __init__(self, size: int) -> None:
        self._chairs: list[Seat | None] = [None] * size
        self._bots_named = 0

    @property
    def size(self) -> int:
        return len(self._chairs)

    def __getitem__(self, index: int) -> Seat | None:
        return self._chairs[index]

    def __iter__(self) -> Iterator[Seat]:
        """The occupied seats, in seat order."""
        return (seat for seat in self._chairs if seat is not None)

    def close_gaps(self) -> dict[int, int]:
        """Move everyone down into chairs 0..n-1, keeping their order, and drop the empty
        chairs; returns each moved seat's old index mapped to its new one."""
        occupied = list(self)
        moves: dict[int, int] = {}
        for index, seat in enumerate(occupied):
            if seat.index != index:
                moves[seat.index] = index
                seat.index = index
        self._chairs = list(occupied)
        return moves

    def valid(self, index: int) -> bool:
        return 0 <= index < len(self._chairs)

    def first_free(self) -> int | None:
        """The lowest empty chair, or None when the table is full."""
        for index, seat in enumerate(self._chairs):
            if seat is None:
                return index
        return None

    def free_count(self) -> int:
        return sum(1 for seat in self._chairs if seat is None)

    def is_full(self) -> bool:
        return all(seat is not None for seat in self._chairs)

    def seat_person(self, index: int, name: str, peer: Peer) -> Seat:
        """Put a connected person in an empty chair with a fresh token."""
        if self._chairs[index] is not None:
            raise ValueError(f"seat {index} is taken")
        seat = Seat(index=index, name=name, token=new_token(), peer=peer)
        self._chairs[index] = seat
        return seat

    def seat_bot(self, index: int, name: str, strategy: str) -> Seat:
        """Put a server bot in an empty chair."""
        if self._chairs[index] is not None:
            raise ValueError(f"seat {index} is taken")
        seat = Seat(index=index, name=name, strategy=strategy)
        self._chairs[index] = seat
        return seat

    def vacate(self, index: int) -> Seat | None:
        """Empty a chair; returns whoever sat there."""
        seat = self._chairs[index]
        self._chairs[index] = None
        return seat

    def of_peer(self, peer: Peer) -> Seat | None:
        """The seat a connection holds, if any."""
        for seat in self:
            if seat.peer is not None and seat.peer.peer_id == peer.peer_id:
                return seat
        return None

    def of_token(self, token: str) -> Seat | None:
        """The person's seat a resume token opens, if any.

        Every held token is compared, so the time taken does not tell which seat matched.
        """
        found: Seat | None = None
        for seat in self:
            if seat.token is not None and tokens_match(token, seat.token):
                found = seat
        return found

    def of_stand_in(self, peer: Peer) -> Seat | None:
        """The seat a server bot's connection stands in for, if any."""
        for seat in self:
            bot = seat.stand_in.peer if seat.stand_in is not None else None
            if bot is not None and bot.peer_id == peer.peer_id:
                return seat
        return None

    def of_stand_in_token(self, token: str) -> Seat | None:
        """The seat a server bot's stand-in token opens, if any (compared like
        ``of_token``)."""
        found: Seat | None = None
        for seat in self:
            if seat.stand_in is not None and tokens_match(token, seat.stand_in.token):
                found = seat
        return found

    def people(self) -> list[Seat]:
        """Seats held by people, connected or not."""
        return [seat for seat in self if not seat.is_bot]

    def connected(self) -> list[Seat]:
        """Seats whose owner is connected right now."""
        return [seat for seat in self if seat.peer is not None]

    def bots(self) -> list[Seat]:
        return [seat for seat in self if seat.is_bot]

    def name_taken(self, name: str) -> bool:
        """Whether someone at the table already goes by ``name`` (ignoring case)."""
        wanted = name.casefold()
        return any(seat.name.casefold() == wanted for seat in self)

    def bot_name(self) -> str:
        """A name for a new server bot that nobody at the table has."""
        while True:
            self._bots_named += 1
            name = f"Bot {self._bots_named}"
            if not self.name_taken(name):
                return name

    def next_host(self, host: int | None) -> int | None:
        """Who should host after seat ``host``: the host itself while it is a connected
        person, else the next connected person in seat order, else the next person at
        all (away), else nobody."""
        if host is not None:
            current = self._chairs[host]
            if current is not None and not current.is_bot and current.is_connected:
                return host
        start = host if host is not None else -1
        size = len(self._chairs)
        order = [self._chairs[(start + step) % size] for step in range(1, size + 1)]
        people = [seat for seat in order if seat is not None and not seat.is_bot]
        connected = [seat for seat in people if seat.is_connected]
        candidates = connected or people
        return candidates[0].index if candidates else None
