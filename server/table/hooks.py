"""What a table needs of the lobby that hosts it (``server.lobby.Lobby`` provides it)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from server.peer import Peer
    from server.table.table import Table

__all__ = ["TableHooks"]


class TableHooks(Protocol):
    """What a table needs of the lobby: where each peer is, and news of departures."""

    def location(self, peer: Peer) -> Table | None:
        """The table the lobby believes ``peer`` is at (or arriving at)."""

    def departed(self, peer: Peer, table: Table) -> None:
        """``peer`` is no longer at ``table`` (it left, was kicked, or was refused)."""

    def closed(self, table: Table) -> None:
        """``table`` has stopped; forget it."""
