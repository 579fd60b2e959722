"""Who watched a teaching table's match with every hand showing (``spectators_see_hands``).

Such a spectator may not take a seat in that match, now or after it stopped watching. The
mark follows the person, not the name they go by: it holds the address they watched from,
and every name that reads like theirs (``server.table.names.seating_keys``), as a ban does
(``server.table.bans``). So leaving, renaming (or saying another name in a new hello) and
coming back does not open a seat. The server's own machine is marked by name only, as a
ban spares it: everyone at the computer that runs the server shares its address, and one
pupil there must not keep the host's family out.

The marks are for one match: when the next begins, the last one's hands are gone and so
are its marks (those who watched before a table's first match count for that match).
"""

from __future__ import annotations

from server.engine import Match
from server.own_addresses import OwnAddresses
from server.peer import Peer
from server.table.names import seating_keys

__all__ = ["HandWatchers"]


class HandWatchers:
    """The marks of one table's current match; see the module docstring."""

    def __init__(self, own_addresses: OwnAddresses) -> None:
        self._own = own_addresses
        self._addresses: set[str] = set()
        self._names: set[tuple[int, str]] = set()  # seating keys
        self._of: Match | None = None  # the match they watched (None: before one)

    def note(self, peer: Peer, match: Match | None) -> None:
        """``peer`` watches ``match`` (None: the table's first, still to come)."""
        self._follow(match)
        self._names |= seating_keys(peer.name)
        if peer.address not in self._own:
            self._addresses.add(peer.address)

    def saw(self, peer: Peer, match: Match | None) -> bool:
        """Whether ``peer`` (by its address or its name) watched ``match``."""
        self._follow(match)
        by_name = not seating_keys(peer.name).isdisjoint(self._names)
        return by_name or peer.address in self._addresses

    def _follow(self, match: Match | None) -> None:
        if match is not None and match is not self._of:
            if self._of is not None:  # a new match: the old one's hands are gone
                self._addresses.clear()
                self._names.clear()
            self._of = match
