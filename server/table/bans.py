"""Who the host of one table has kept out, by name and by address, for the table's life.

A ban covers the banned person's name, every name that reads alike at a table
(``server.table.names.seating_keys``: "rnallory" and "mallory." are "mallory"), and the
address their seat last came from, whether or not they were still connected. The server's
own machine (``server.own_addresses``) is never banned by address, only by name: everyone
playing at the computer that runs the server would be kept out with the guest.

The journal keeps each ban until the table closes (``server.table.restore``), so a
restart changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from protocol.errors import LobbyRejectCode
from server.own_addresses import OwnAddresses
from server.table.names import seating_keys
from server.table.refusals import RequestRefused

if TYPE_CHECKING:
    from server.peer import Peer

__all__ = ["Ban", "Bans"]


@dataclass(frozen=True, slots=True)
class Ban:
    """One ban: the banned person's name as it was, and the address kept out with it
    (None: the name alone, as for a guest on the server's own machine)."""

    name: str
    address: str | None


class Bans:
    """The bans of one table, in the order the host gave them."""

    def __init__(self, own_addresses: OwnAddresses | None = None) -> None:
        """``own_addresses``: the server machine's, never banned (read here if not given)."""
        self._own = own_addresses if own_addresses is not None else OwnAddresses()
        self.given: list[Ban] = []
        """Every ban, the oldest first."""
        self._addresses: set[str] = set()
        self._names: set[tuple[int, str]] = set()  # seating keys

    @property
    def own_addresses(self) -> OwnAddresses:
        """The server machine's addresses, which a ban never covers."""
        return self._own

    def ban(self, name: str, address: str | None) -> Ban:
        """Keep ``name`` (and every name that reads alike) and ``address``, where the seat
        last came from, out from now on; the address only if it is not the server's own."""
        kept_out = Ban(name, None if address is None or address in self._own else address)
        self.restore(kept_out)
        return kept_out

    def restore(self, ban: Ban) -> None:
        """Hold ``ban`` again (the journal kept it)."""
        self.given.append(ban)
        self._names |= seating_keys(ban.name)
        if ban.address is not None:
            self._addresses.add(ban.address)

    def bars(self, peer: Peer) -> bool:
        """Whether ``peer``'s address or name is banned here."""
        by_name = not seating_keys(peer.name).isdisjoint(self._names)
        return by_name or peer.address in self._addresses

    def check(self, peer: Peer) -> None:
        """Refuse ``peer`` with ``banned`` if its address or its name is banned."""
        if self.bars(peer):
            raise RequestRefused(LobbyRejectCode.BANNED, "the host has banned you from this table")
