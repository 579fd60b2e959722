"""Who is at one table: the chairs, the people and bots in them, the spectators, the host.

A table has ``config.seats`` chairs. A chair is empty, held by a person (who may be
connected or not), or held by a server bot. A person's seat carries a random resume token;
whoever presents it gets the seat back, so tokens are compared in constant time and never
logged. Spectators watch without a seat. The host is a person's seat: the owner's (the
creator's, or whom they handed it to for good), lent to another person while the owner is
away. The host's bans are a part of their own (``server.table.bans``), held here as
``bans``.

This module is plain bookkeeping, no Trio and no engine: the table decides what the
changes mean for the match.

Why this module is long: the host role is defined over the chairs (who sits where, who
is connected, who is a bot, seat order), so its rules live beside them; the bans, which
need only names and addresses, are a part of their own.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from protocol.errors import LobbyRejectCode
from protocol.messages import HostReason
from server.journal import token_hash
from server.own_addresses import OwnAddresses
from server.table.bans import Bans
from server.table.names import SERVERS_NAME_REFUSAL, is_servers_name, seating_keys
from server.table.refusals import RequestRefused

if TYPE_CHECKING:
    from server.autoplay import StandIn
    from server.peer import Peer

__all__ = ["Seat", "Seating", "new_token", "tokens_match"]

TOKEN_BYTES = 18
"""Random bytes in a resume token (24 URL-safe characters)."""


def new_token() -> str:
    """A fresh resume token from the OS's secure random source."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def tokens_match(given: str, held_hash: str) -> bool:
    """Whether a presented token is the one whose hash is held, in time that does not
    depend on where they differ (so a guesser learns nothing from how long a refusal
    takes)."""
    return hmac.compare_digest(token_hash(given).encode("ascii"), held_hash.encode("ascii"))


@dataclass(slots=True)
class Seat:
    """One occupied chair.

    A person's seat has a ``token_hash`` and, while they are connected, a ``peer``; the
    token itself (``token``, sent back in ``joined``) is known while its holder is here,
    not after a restart until they present it again. A bot seat has a ``strategy`` and
    none of these. ``ready`` is the owner's "start / next round" flag.
    ``stand_in`` is the server bot that plays the seat (always for a bot seat, while away
    for a person's); it holds its own token, never the owner's. ``address`` is where the
    person last came from, kept while they are away and across a restart (for a ban).
    ``bot_client``: a connection that said it is a bot (``hello.bot``, 1.3) has held the
    person's seat, so the match result counts the seat as a bot's.
    """

    index: int
    name: str
    token: str | None = None
    token_hash: str | None = None
    peer: Peer | None = None
    strategy: str | None = None
    ready: bool = False
    stand_in: StandIn | None = None
    address: str | None = None
    bot_client: bool = False

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
        self.token_hash = None
        self.peer = None
        self.address = None
        self.ready = False
        self.bot_client = False


class Seating:
    """The chairs of one table, indexed 0..size-1 clockwise, its spectators and its host."""

    def __init__(
        self,
        size: int,
        max_spectators: int,
        password_hash: str | None = None,
        own_addresses: OwnAddresses | None = None,
    ) -> None:
        """``own_addresses``: the server machine's, which a ban never covers."""
        self.password_hash = password_hash
        """The stored hash of the table's password (``server.passwords``); None when the
        table is open to all. The lobby checks a password against it, off the loop."""
        self._chairs: list[Seat | None] = [None] * size
        self._bots_named = 0
        self._max_spectators = max_spectators
        self.spectators: dict[int, Peer] = {}
        """Who watches, by peer id."""
        self.catching_up: set[int] = set()
        """Spectators (by peer id) being sent the round so far (``server.table.catch_up``):
        out of the audience until then."""
        self.host: int | None = None
        """The host's seat index."""
        self.owner: int | None = None
        """The owner's seat index: the creator, or whom they handed the role to for good."""
        self.host_reason = HostReason.OWNER
        """Why the host holds the role (the owner, or lent it while the owner is away)."""
        self.lending = True
        """Whether an away owner's role may be lent (not during a restart's grace)."""
        self._seated_at: dict[str, int] = {}  # token hash -> last seq before its owner sat
        self.bans = Bans(own_addresses)
        """Who the host has kept out."""

    # ------------------------------------------------------------------ chairs

    @property
    def size(self) -> int:
        return len(self._chairs)

    def __getitem__(self, index: int) -> Seat | None:
        return self._chairs[index]

    def __iter__(self) -> Iterator[Seat]:
        """The occupied seats, in seat order."""
        return (seat for seat in self._chairs if seat is not None)

    def valid(self, index: int) -> bool:
        return 0 <= index < len(self._chairs)

    def first_free(self) -> int | None:
        """The lowest empty chair, or None when the table is full."""
        for index, seat in enumerate(self._chairs):
            if seat is None:
                return index
        return None

    def chair_for(self, wanted: int | None) -> int:
        """The chair a newcomer asked for, or the first free one; refused if none."""
        if wanted is None:
            free = self.first_free()
            if free is None:
                raise RequestRefused(LobbyRejectCode.TABLE_FULL, "every seat is taken")
            return free
        if not self.valid(wanted):
            raise RequestRefused(LobbyRejectCode.BAD_SEAT, f"this table has no seat {wanted}")
        if self._chairs[wanted] is not None:
            raise RequestRefused(LobbyRejectCode.SEAT_TAKEN, f"seat {wanted} is taken")
        return wanted

    def free_count(self) -> int:
        return sum(1 for seat in self._chairs if seat is None)

    def seat_person(self, index: int, name: str, peer: Peer) -> Seat:
        """Put a connected person in an empty chair with a fresh token (no longer a
        spectator, if they were one)."""
        if self._chairs[index] is not None:
            raise ValueError(f"seat {index} is taken")
        self.spectators.pop(peer.peer_id, None)
        self.catching_up.discard(peer.peer_id)
        token = new_token()
        seat = Seat(
            index=index,
            name=name,
            token=token,
            token_hash=token_hash(token),
            peer=peer,
            address=peer.address,
            bot_client=peer.bot,
        )
        self._chairs[index] = seat
        return seat

    def seat_bot(self, index: int, strategy: str) -> Seat:
        """Put a new server bot, with a name nobody at the table has, in an empty chair."""
        if self._chairs[index] is not None:
            raise ValueError(f"seat {index} is taken")
        seat = Seat(index=index, name=self.bot_name(), strategy=strategy)
        self._chairs[index] = seat
        return seat

    def restore_seat(self, seat: Seat) -> None:
        """Put back a seat the journal kept (its owner not connected yet)."""
        self._chairs[seat.index] = seat

    def vacate(self, index: int) -> Seat | None:
        """Empty a chair; returns whoever sat there."""
        seat = self._chairs[index]
        self._chairs[index] = None
        return seat

    def close_gaps(self) -> dict[int, int]:
        """Move everyone down into chairs 0..n-1, keeping their order, and drop the empty
        chairs; returns each moved seat's old index mapped to its new one. The host and the
        owner move with their seats."""
        occupied = list(self)
        moves: dict[int, int] = {}
        for index, seat in enumerate(occupied):
            if seat.index != index:
                moves[seat.index] = index
                seat.index = index
        self._chairs = list(occupied)
        if self.host is not None:
            self.host = moves.get(self.host, self.host)
        if self.owner is not None:
            self.owner = moves.get(self.owner, self.owner)
        return moves

    # ------------------------------------------------------------------ finding people

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
            if seat.token_hash is not None and tokens_match(token, seat.token_hash):
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
            stand_in = seat.stand_in
            if stand_in is not None and tokens_match(token, token_hash(stand_in.token)):
                found = seat
        return found

    def holds_token(self, token: str) -> bool:
        """Whether a resume token opens one of these seats (a person's or a stand-in's)."""
        return self.of_token(token) is not None or self.of_stand_in_token(token) is not None

    def people(self) -> list[Seat]:
        """Seats held by people, connected or not."""
        return [seat for seat in self if not seat.is_bot]

    def connected(self) -> list[Seat]:
        """Seats whose owner is connected right now."""
        return [seat for seat in self if seat.peer is not None]

    def members(self) -> list[Peer]:
        """Every connected person at the table: seated people, then spectators."""
        seated = [seat.peer for seat in self if seat.peer is not None]
        return seated + list(self.spectators.values())

    def is_member(self, peer: Peer) -> bool:
        return peer.peer_id in self.spectators or self.of_peer(peer) is not None

    def stand_in_peers(self) -> list[Peer]:
        """The connections of the server bots seated as stand-ins."""
        return [
            seat.stand_in.peer
            for seat in self
            if seat.stand_in is not None and seat.stand_in.peer is not None
        ]

    def audience(self) -> list[tuple[Peer, int | None]]:
        """Everyone who follows the match, with the seat whose eyes they see it through:
        seated people, server bots standing in for seats, then spectators (no seat) other
        than those still catching up."""
        audience: list[tuple[Peer, int | None]] = []
        for seat in self:
            if seat.peer is not None:
                audience.append((seat.peer, seat.index))
            if seat.stand_in is not None and seat.stand_in.peer is not None:
                audience.append((seat.stand_in.peer, seat.index))
        catching_up = self.catching_up
        audience.extend(
            (peer, None) for key, peer in self.spectators.items() if key not in catching_up
        )
        return audience

    # ------------------------------------------------------------------ names

    def name_taken(self, name: str) -> bool:
        """Whether someone at the table already goes by ``name``, or one that reads alike
        (``server.table.names.seating_keys``); the server's own name is always taken."""
        wanted = seating_keys(name)
        return is_servers_name(name) or any(
            not wanted.isdisjoint(seating_keys(seat.name)) for seat in self
        )

    def bot_name(self) -> str:
        """A name for a new server bot that nobody at the table has."""
        while True:
            self._bots_named += 1
            name = f"Bot {self._bots_named}"
            if not self.name_taken(name):
                return name

    # ------------------------------------------------------------------ rules of entry

    def seat_of(self, peer: Peer) -> Seat:
        """``peer``'s seat; refused if it has none."""
        seat = self.of_peer(peer)
        if seat is None:
            raise RequestRefused(LobbyRejectCode.NOT_SEATED, "you have no seat at this table")
        return seat

    def require_host(self, peer: Peer) -> Seat:
        """``peer``'s seat, which must be the host's."""
        seat = self.seat_of(peer)
        if seat.index != self.host:
            raise RequestRefused(LobbyRejectCode.NOT_HOST, "only the host may do that")
        return seat

    def check_not_seated(self, peer: Peer) -> None:
        if self.of_peer(peer) is not None:
            raise RequestRefused(LobbyRejectCode.ALREADY_AT_TABLE, "you already have a seat here")

    @property
    def locked(self) -> bool:
        """Whether joining or watching needs the password."""
        return self.password_hash is not None

    def check_admitted(self, admitted: bool) -> None:
        """Refuse an entry the lobby did not admit with the right password, if one is
        needed."""
        if self.password_hash is not None and not admitted:
            raise RequestRefused(
                LobbyRejectCode.WRONG_PASSWORD, "this table needs the right password"
            )

    def host_peer(self) -> Peer | None:
        """The host's connection, if the host is connected."""
        seat = self._chairs[self.host] if self.host is not None else None
        return seat.peer if seat is not None else None

    def check_not_banned(self, peer: Peer) -> None:
        self.bans.check(peer)

    def bot_seat(self, index: int) -> Seat:
        """The bot's seat a newcomer asked to take (at any time, a match running or not);
        refused when no bot sits there."""
        seat = self._chairs[index] if self.valid(index) else None
        if seat is None or not seat.is_bot:
            raise RequestRefused(LobbyRejectCode.NOT_A_BOT, f"no bot sits in seat {index}")
        return seat

    def bot_count(self) -> int:
        """Bot seats a newcomer could take."""
        return sum(1 for seat in self if seat.is_bot)

    def check_name(self, name: str) -> None:
        if is_servers_name(name):
            raise RequestRefused(LobbyRejectCode.NAME_TAKEN, SERVERS_NAME_REFUSAL)
        if self.name_taken(name):
            raise RequestRefused(LobbyRejectCode.NAME_TAKEN, f"someone called {name} sits here")

    def add_spectator(self, peer: Peer) -> bool:
        """Let ``peer`` watch; False if it already did. Refused when there is no room."""
        if peer.peer_id in self.spectators:
            return False
        if len(self.spectators) >= self._max_spectators:
            raise RequestRefused(LobbyRejectCode.TABLE_FULL, "no room for more spectators")
        self.spectators[peer.peer_id] = peer
        return True

    # ------------------------------------------------------------------ host and tokens

    def claim_host(self, index: int) -> None:
        """The person in ``index`` created the table: its owner and host."""
        self.owner = self.host = index
        self.host_reason = HostReason.OWNER

    def settle_host(self) -> bool:
        """Put the host role where the rules say (docs/protocol.md section 7, *the host*);
        True when the host, the owner or the reason changed.

        The owner holds the role while connected. An owner who is away (not connected)
        lends it to the next connected person in seat order after the owner's seat, unless
        the one it is lent to is still connected; nobody is lent it while ``lending`` is
        off (a restart's grace) or nobody is connected. An owner whose seat is no longer
        theirs (they left, or their seat is a bot's) hands it on for good, by the same
        order, to a connected person if there is one; that person is the owner from then on.
        """
        before = (self.host, self.owner, self.host_reason)
        owner = self._chairs[self.owner] if self.owner is not None else None
        if owner is None or owner.is_bot:
            heir = self._next_person(self.owner if self.owner is not None else self.host)
            self.owner = self.host = heir.index if heir is not None else None
            self.host_reason = HostReason.OWNER_LEFT
        elif owner.is_connected or not self.lending:
            self._give_back(owner)
        else:
            held = self._chairs[self.host] if self.host is not None else None
            keeps = held is not None and held is not owner and self._can_borrow(held)
            borrower = held if keeps else self._next_person(owner.index, connected=True)
            if borrower is None:
                self._give_back(owner)
            else:
                self.host, self.host_reason = borrower.index, HostReason.OWNER_AWAY
        return (self.host, self.owner, self.host_reason) != before

    def _give_back(self, owner: Seat) -> None:
        """The owner holds the role (a reason already given for them stays)."""
        if self.host != owner.index or self.host_reason is HostReason.OWNER_AWAY:
            self.host, self.host_reason = owner.index, HostReason.OWNER

    @staticmethod
    def _can_borrow(seat: Seat) -> bool:
        return not seat.is_bot and seat.is_connected

    def _next_person(self, after: int | None, *, connected: bool = False) -> Seat | None:
        """The first person after seat ``after`` in seat order, going round (a connected
        one first; only connected ones with ``connected``); never a bot."""
        start = after if after is not None else -1
        size = len(self._chairs)
        order = [self._chairs[(start + step) % size] for step in range(1, size + 1)]
        people = [seat for seat in order if seat is not None and not seat.is_bot]
        here = [seat for seat in people if seat.is_connected]
        found = here or ([] if connected else people)
        return found[0] if found else None

    def is_owner(self, seat: Seat) -> bool:
        """Whether ``seat`` is the owner's (who holds the host role for good)."""
        return seat.index == self.owner

    def require_owner_or_not_theirs(self, host: Seat, target: Seat, what: str) -> None:
        """A host lent the role may not ``what`` the owner's seat."""
        if self.is_owner(target) and not self.is_owner(host):
            raise RequestRefused(
                LobbyRejectCode.NOT_HOST,
                f"you hold the host role only while {target.name} is away: you may not {what}"
                " their seat",
            )

    def require_owner(self, peer: Peer, what: str) -> Seat:
        """``peer``'s seat, which must be the owner's (not a host lent the role)."""
        seat = self.require_host(peer)
        if not self.is_owner(seat):
            raise RequestRefused(
                LobbyRejectCode.NOT_HOST, f"only the table's owner may {what}, not a host lent it"
            )
        return seat

    def note_seated(self, seat: Seat, last_seq: int) -> None:
        """Remember that ``seat``'s token sat down after event ``last_seq``: a resume with
        it never reaches back before (what came earlier belonged to someone else)."""
        held = {taken.token_hash for taken in self if taken.token_hash is not None}
        self._seated_at = {key: seq for key, seq in self._seated_at.items() if key in held}
        if seat.token_hash is not None:
            self._seated_at[seat.token_hash] = last_seq

    def seated_at(self, seat: Seat) -> int:
        """The last event before ``seat``'s current owner sat down (0: from the start)."""
        return self._seated_at.get(seat.token_hash, 0) if seat.token_hash is not None else 0
