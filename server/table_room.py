"""Room for one more table: who may take the last of the server's tables.

The per-address quota (``max_tables_per_address``) keeps one guest from taking many
tables; this keeps many guests from taking all of them, the way ``ConnectionGate`` keeps
the last connection slots:

- the last ``table_reserve`` tables (an eighth of ``max_tables``) wait for addresses that
  hold no table yet (the server's own machine may always use them);
- at the cap, the table with no person's move for longest gives way to such a newcomer,
  if that move is at least ``idle_table_seconds`` old, whether or not its people are
  connected; a table rebuilt after a restart never gives way within its restart grace.
"""

from __future__ import annotations

from server.own_addresses import OwnAddresses
from server.settings import LobbySettings
from server.table import Table

__all__ = ["TableRoom"]


class TableRoom:
    """Decides whether a table from an address fits; see the module docstring."""

    def __init__(self, settings: LobbySettings, own: OwnAddresses) -> None:
        self._settings = settings
        self._own = own

    def refusal(
        self, tables: dict[str, Table], address: str, *, holds_one: bool, now: float
    ) -> str | None:
        """Why a table from ``address`` cannot be made now, or None; changes nothing (at
        the cap, ``make_room`` then takes the idlest table out once the new one is sure)."""
        settings = self._settings
        if address in self._own or not holds_one:
            if len(tables) < settings.max_tables or self._idlest(tables, now) is not None:
                return None
            return "the server has no room for another table"
        if len(tables) < settings.max_tables - settings.table_reserve:
            return None
        return (
            f"the server's last {settings.table_reserve} tables are kept for people who "
            "have none yet; play at the table you made"
        )

    def make_room(self, tables: dict[str, Table], now: float) -> None:
        """At the cap, take the idlest table out of ``tables`` and tell it to give way (call
        after ``refusal`` said None, just before the new table is made)."""
        if len(tables) < self._settings.max_tables:
            return
        oldest = self._idlest(tables, now)
        assert oldest is not None, "refusal found a table to give way"
        del tables[oldest.table_id]  # its task closes it; the count has room now
        oldest.give_way()

    def _idlest(self, tables: dict[str, Table], now: float) -> Table | None:
        idle = [
            t for t in tables.values() if t.may_give_way(now, self._settings.idle_table_seconds)
        ]
        return min(idle, key=lambda table: table.last_move) if idle else None
