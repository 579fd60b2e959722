"""A table's public state (``TableState``): built when it changes, told once to each member.

The state is asked for after every change, and most changes (game moves) change none of
it, so the last one is kept with the few plain values it is made of and reused while they
are the same. Those values are read afresh each time rather than invalidated where they
change: the engine changes the status and who is away by itself.
"""

from __future__ import annotations

from client.bots.hosted import level_of
from protocol.messages import SeatInfo, TableState
from protocol.options import TableOptions
from server.peer import Peer
from server.table.game import TableGame
from server.table.seating import Seating

__all__ = ["PublicState"]

_Shown = tuple[str, str | None, bool, bool] | None  # a chair: name, level, away, ready; or empty


class PublicState:
    """The table state every member sees, and which state each was last told."""

    def __init__(
        self,
        table_id: str,
        name: str,
        seating: Seating,
        game: TableGame,
        bot_think_ms: int,
    ) -> None:
        self._table_id = table_id
        self._bot_think_ms = bot_think_ms
        self._name = name
        self._seating = seating
        self._game = game
        self._cache: tuple[tuple[object, ...], TableState] | None = None
        self._told: dict[int, TableState] = {}
        self._removal: tuple[int, bool] | None = None
        """The seat the host just removed and whether it was a ban: named in the states
        built until everyone has been told (``note_removal``)."""

    def note_removal(self, seat: int, banned: bool) -> None:
        """The host kicked (or banned) the person in ``seat``: the next state says so."""
        self._removal = (seat, banned)

    def current(self) -> TableState:
        """The public state as it is now (the same object while nothing in it changed)."""
        game = self._game
        status, match, config = game.status(), game.match, game.config
        away = match.away if match is not None else None
        seating = self._seating
        shown: list[_Shown] = []
        for index in range(seating.size):
            seat = seating[index]
            if seat is None:
                shown.append(None)
                continue
            engine_away = away is not None and away[index]
            seat_away = not seat.is_bot and (not seat.is_connected or engine_away)
            level = level_of(seat.strategy) if seat.strategy is not None else None
            shown.append((seat.name, level, seat_away, seat.ready))
        host = (seating.host, seating.owner, seating.host_reason)
        asked = game.rematch_due is not None
        key = (status, tuple(shown), host, len(seating.spectators), config, self._removal, asked)
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        state = TableState(
            table_id=self._table_id,
            name=self._name,
            state=status,
            seats=tuple(
                SeatInfo(seat=index)
                if one is None
                else SeatInfo(
                    seat=index,
                    name=one[0],
                    bot=one[1] is not None,
                    away=one[2],
                    ready=one[3],
                    level=one[1],
                )
                for index, one in enumerate(shown)
            ),
            options=TableOptions.of(config),
            host_seat=seating.host,
            owner_seat=seating.owner,
            host_reason=seating.host_reason if seating.host is not None else None,
            spectators=len(seating.spectators),
            bot_think_ms=self._bot_think_ms,
            removed_seat=None if self._removal is None else self._removal[0],
            removed_banned=self._removal is not None and self._removal[1],
            rematch_asked=asked,
        )
        self._cache = (key, state)
        return state

    def tell(self, peer: Peer, state: TableState | None = None, *, hold: bool = False) -> None:
        """Send the state to ``peer`` unless it already has exactly this one; ``hold``
        keeps it for the next send (the sender's reply)."""
        state = state or self.current()
        told = self._told.get(peer.peer_id)
        if told is not state and told != state:
            self._told[peer.peer_id] = state
            if hold:
                peer.hold(state)
            else:
                peer.send(state)

    def tell_all(self, members: list[Peer], sender: Peer | None) -> None:
        """Tell every one of ``members`` the current state (held for ``sender``), and
        forget what was told to anyone no longer among them."""
        state = self.current()
        for peer in members:
            self.tell(peer, state, hold=peer is sender)
        self._removal = None  # told: later states name no removal
        present = {peer.peer_id for peer in members}
        for gone in [peer_id for peer_id in self._told if peer_id not in present]:
            del self._told[gone]
