"""A budget per address for what the server does on someone's behalf beyond game moves.

Chat lines, entering and leaving tables, table lists and history reads each make the
server work for others or read the journal, and nothing in the game limits how often a
guest asks. Each address has one bucket of units:

- a chat line costs one delivery per listener (at least one);
- every other lobby action costs a fixed price (``ACTION_COSTS``): entering a table
  (create, join, spectate, take a bot's seat, resume) 5, a history page 5, a table list 1;
  leaving is free (entering paid for it);

the bucket refills at ``rate`` units a second up to ``burst``, and an action it cannot pay
for is refused (``slow-down``) and does nothing. Ten people chatting, joining and browsing
the history stay far below it. The server's own machine (``OwnAddresses``) is the host's
and pays nothing.

A connection that keeps being refused is cut: each refusal spends one of
``REFUSALS_BEFORE_CUT`` refusals a connection may have, which come back at one a second;
the refusal that finds none left closes the connection with ``too-many-refusals``. A
table's full inbox (``slow-down`` "the table is busy") is not the budget and never counts:
honest bots meet it at a busy table.
"""

from __future__ import annotations

from enum import Enum

from protocol.errors import ErrorCode
from protocol.messages import (
    CreateTable,
    GetReplay,
    GetStandings,
    Join,
    ListMatches,
    ListTables,
    Rename,
    Request,
    ResumeSeat,
    Spectate,
    TakeBotSeat,
)
from server.limits import MessageAllowance
from server.own_addresses import OwnAddresses
from server.peer import Peer

__all__ = ["ACTION_COSTS", "REFUSALS_BEFORE_CUT", "LobbyBudget", "Spent", "cut_for_refusals"]

ENTRY_COST = 5
"""Entering a table: a table state to everyone there. Leaving is free (its cost is paid
on entering): a guest out of budget must still be able to go, as a disconnection does."""

ACTION_COSTS: dict[type[Request], int] = {
    CreateTable: ENTRY_COST,
    Join: ENTRY_COST,
    Spectate: ENTRY_COST,
    TakeBotSeat: ENTRY_COST,
    ResumeSeat: ENTRY_COST,
    GetStandings: 5,
    ListMatches: 5,
    GetReplay: 5,
    ListTables: 1,
    Rename: 5,
}
"""What each lobby action other than chat costs, in units of the address's bucket."""

REFUSALS_BEFORE_CUT = 20
"""Refusals a connection may have at once before the next one cuts it."""

REFUSALS_FORGIVEN_PER_SECOND = 1.0
"""How fast a connection's refusals are forgotten."""

_KEEP_ADDRESSES = 64
"""Buckets kept before the full ones (addresses that have been quiet) are forgotten, so
an evening of many guests leaves no bucket behind for long."""


class Spent(Enum):
    """What ``LobbyBudget.spend`` decided."""

    PAID = "paid"
    """Go ahead."""
    REFUSED = "refused"
    """Refuse the action with ``slow-down``; nothing was spent."""
    CUT = "cut"
    """Refused once too often: close the connection with ``too-many-refusals``."""


class LobbyBudget:
    """Units each address may spend, and refusals each connection may meet; see the
    module docstring."""

    def __init__(
        self,
        rate: float = 100.0,
        burst: float = 400.0,
        *,
        own: OwnAddresses | None = None,
        refusals: int = REFUSALS_BEFORE_CUT,
    ) -> None:
        if rate <= 0 or burst < 1 or refusals < 1:
            raise ValueError(
                f"a lobby budget needs rate > 0, burst >= 1 and refusals >= 1, "
                f"not {rate}/{burst}/{refusals}"
            )
        self.rate = rate
        self.burst = burst
        self.refusals = refusals
        self._own = own if own is not None else OwnAddresses(())
        self._buckets: dict[str, MessageAllowance] = {}
        self._refused: dict[int, MessageAllowance] = {}

    def spend(self, peer_id: int, address: str, cost: int, now: float) -> Spent:
        """Pay ``cost`` units (at least one) for connection ``peer_id`` from ``address``
        at ``now`` (seconds)."""
        if address in self._own:
            return Spent.PAID
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) >= _KEEP_ADDRESSES:
                self._forget_quiet(now)
            bucket = self._buckets[address] = MessageAllowance(self.rate, self.burst, now)
        if bucket.take(now, cost=max(1, cost)):
            return Spent.PAID
        tally = self._refused.get(peer_id)
        if tally is None:
            tally = self._refused[peer_id] = MessageAllowance(
                REFUSALS_FORGIVEN_PER_SECOND, self.refusals, now
            )
        return Spent.REFUSED if tally.take(now) else Spent.CUT

    def forget_connection(self, peer_id: int) -> None:
        """Connection ``peer_id`` has ended: its refusals go with it."""
        self._refused.pop(peer_id, None)

    @property
    def tracked(self) -> tuple[int, int]:
        """(addresses, connections) the budget holds something for (for tests and logs)."""
        return len(self._buckets), len(self._refused)

    def _forget_quiet(self, now: float) -> None:
        """Drop the buckets that would be full by now: forgetting them changes nothing."""
        for address in [a for a, bucket in self._buckets.items() if bucket.full_by(now)]:
            del self._buckets[address]


def cut_for_refusals(peer: Peer) -> None:
    """Close ``peer``'s connection: the budget refused it once too often (``Spent.CUT``)."""
    peer.close(
        ErrorCode.TOO_MANY_REFUSALS,
        f"refused more than {REFUSALS_BEFORE_CUT} times for going too fast; slow down",
    )
