"""The state of one table and what every part of its work shares.

``TableCore`` holds a table's seats, spectators, match and event history, and the
operations on them that both the request handlers (server/table_requests.py) and the
table's task (server/table.py) use: applying the table's own commands to the match,
numbering and sending events and views, the public table state, people lost or removed,
the host passed on. Nothing here waits: every method runs inside the table's task.
"""

from __future__ import annotations

import hmac
import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import trio

from protocol.commands import NextRound, SetAway, TableCommand, Timeout
from protocol.errors import LobbyRejectCode
from protocol.events import Event, EventKind
from protocol.messages import (
    GameView,
    Joined,
    Ok,
    Rejected,
    Request,
    SeatInfo,
    TableState,
    TableStatus,
    TableSummary,
)
from protocol.options import TableConfig
from protocol.rejections import RejectCode
from server.autoplay import BotLauncher, StandIn
from server.engine import Accepted, Match, Phase
from server.history import EventHistory
from server.peer import Peer
from server.seats import Seat, SeatMap
from server.settings import LobbySettings

__all__ = ["Reply", "RequestRefused", "TableCore", "TableHooks", "TableRequest", "rejected"]

log = logging.getLogger("uno.server.table")


class RequestRefused(Exception):
    """A client asked for something it may not do now; it gets a rejection, nothing changed."""

    def __init__(self, code: LobbyRejectCode | RejectCode, message: str) -> None:
        super().__init__(f"{code.value}: {message}")
        self.code = code
        self.message = message


class TableHooks(Protocol):
    """What a table needs of the lobby: where each peer is, and news of arrivals."""

    def location(self, peer: Peer) -> TableCore | None:
        """The table the lobby believes ``peer`` is at (or arriving at)."""

    def departed(self, peer: Peer, table: TableCore) -> None:
        """``peer`` is no longer at ``table`` (it left, was kicked, or was refused)."""

    def closed(self, table: TableCore) -> None:
        """``table`` has stopped; forget it."""


@dataclass(frozen=True, slots=True)
class TableRequest:
    """One message for the table, and whether it gets a reply (a resume at hello does not:
    the client sent no command id)."""

    peer: Peer
    message: Request
    reply: bool = True


@dataclass(frozen=True, slots=True)
class Reply:
    """The answer to one request, sent after the views and table state its change owes."""

    peer: Peer
    message: Ok | Rejected

    @staticmethod
    def to(request: TableRequest, message: Ok | Rejected) -> Reply | None:
        """``message`` for ``request``'s sender, or None when the request wants no reply."""
        return Reply(request.peer, message) if request.reply else None


def rejected(message: Request, code: LobbyRejectCode | RejectCode, text: str) -> Rejected:
    """The rejection of ``message`` with ``code`` and ``text``."""
    return Rejected(id=message.id, code=code.value, message=text)


class TableCore:
    """One table's seats, spectators, match and history; see the module docstring."""

    def __init__(
        self,
        *,
        table_id: str,
        name: str,
        config: TableConfig,
        password: str | None,
        settings: LobbySettings,
        hooks: TableHooks,
        bots: BotLauncher,
    ) -> None:
        self.table_id = table_id
        self.name = name
        self.config = config
        self._password = password
        self._settings = settings
        self._hooks = hooks
        self.seats = SeatMap(config.seats)
        self._spectators: dict[int, Peer] = {}
        self._host_seat: int | None = None
        self._match: Match | None = None
        self._matches_played = 0
        self._history = EventHistory(settings.history_limit)
        self._seated_at: dict[str, int] = {}  # token -> last seq before its owner sat down
        self._bots = bots
        self._bot_seeds = random.Random(settings.bot_seed(table_id))
        self._bot_nursery: trio.Nursery | None = None  # open while the task runs
        self._bots_ended: list[StandIn] = []
        self._bot_failures = 0
        # None only wakes the task: a request handled in ``submit`` owes its delivery.
        self._inbox, self._requests = trio.open_memory_channel[TableRequest | None](
            settings.inbox_size
        )
        self._gone: list[Peer] = []
        self._waiting: trio.CancelScope | None = None
        self._idle = False  # the task waits on an empty inbox (see Table.submit)
        self._handed_over: list[Reply | None] = []  # replies of requests handled in submit
        self._closing = False
        self._empty_deadline: float | None = None
        self._last_ms = 0
        self._told: dict[int, TableState] = {}  # the last table state each member got
        self._views_owed = False  # events went out; the fresh views follow (table._deliver)
        self._state_cache: tuple[tuple[object, ...], TableState] | None = None  # see _state
        self._opened = False
        self._refused_deadline: int | None = None

    # ------------------------------------------------------------------ for the lobby

    @property
    def locked(self) -> bool:
        """Whether joining or watching needs the password."""
        return self._password is not None

    @property
    def closed(self) -> bool:
        return self._closing

    def status(self) -> TableStatus:
        """Where the table is in its life."""
        match = self._match
        if match is None:
            return TableStatus.LOBBY
        if match.is_over:
            return TableStatus.OVER
        if match.paused:
            return TableStatus.PAUSED
        if match.phase is Phase.ROUND_OVER:
            return TableStatus.BETWEEN_ROUNDS
        return TableStatus.PLAYING

    def holds_token(self, token: str) -> bool:
        """Whether a resume token opens one of this table's seats (a person's, or a server
        bot's stand-in token)."""
        return (
            self.seats.of_token(token) is not None
            or self.seats.of_stand_in_token(token) is not None
        )

    def summary(self) -> TableSummary:
        """The table's line in the table list."""
        host = self.seats[self._host_seat] if self._host_seat is not None else None
        return TableSummary(
            table_id=self.table_id,
            name=self.name,
            state=self.status(),
            seats=self.seats.size,
            taken=self.seats.size - self.seats.free_count(),
            spectators=len(self._spectators),
            locked=self.locked,
            host=host.name if host is not None else None,
        )

    def free_seats(self) -> int:
        """Seats a newcomer could take now (only before the match starts)."""
        return self.seats.free_count() if self._match is None else 0

    def _wake(self) -> None:
        self._idle = False
        if self._waiting is not None:
            self._waiting.cancel()

    def _now_ms(self, at_least: int = 0) -> int:
        """The server clock in ms for stamping a command; never runs backwards."""
        self._last_ms = max(self._last_ms, int(trio.current_time() * 1000), at_least)
        return self._last_ms

    # ------------------------------------------------------------------ the match

    def _new_match(self, peer: Peer, message: Request) -> None:
        self._matches_played += 1
        seed = self._settings.match_seed(self.table_id, self._matches_played)
        match = Match(self.config, seed, self._now_ms())
        self._match = match
        for seat in self.seats:
            seat.ready = False
        self._publish(match.events, peer.peer_id, message.id)
        for seat in self.seats.people():
            if seat.peer is None:
                self._apply_table(SetAway(seat.index, True))

    def _game_table_command(self, command: TableCommand) -> None:
        match = self._match
        if match is None:
            raise RequestRefused(LobbyRejectCode.WRONG_TABLE_STATE, "the match has not started")
        outcome = match.apply(None, command, self._now_ms())
        if not isinstance(outcome, Accepted):
            raise RequestRefused(outcome.code, outcome.message)
        self._publish(outcome.events)

    def _apply_table(self, command: TableCommand, at_ms: int = 0) -> bool:
        """Apply the table's own command; True if the engine accepted it."""
        match = self._match
        if match is None:
            return False
        outcome = match.apply(None, command, self._now_ms(at_ms))
        if not isinstance(outcome, Accepted):
            log.debug(
                "table %s: engine refused %s: %s", self._label(), command.TYPE, outcome.message
            )
            return False
        self._publish(outcome.events)
        return True

    def _run_out_clock(self) -> bool:
        """Apply the match's ``Timeout`` if its deadline has passed; True if one was due.

        The task does this when it wakes, and a game command does it first: a move that
        arrives after the clock ran out, before the task woke to it, comes too late.
        """
        match = self._match
        deadline = match.deadline_ms() if match is not None else None
        if deadline is None or deadline == self._refused_deadline:
            return False
        if trio.current_time() < deadline / 1000:
            return False
        if not self._apply_table(Timeout(), at_ms=deadline):
            self._refused_deadline = deadline  # never spin on a refused deadline
        return True

    def _maybe_next_round(self) -> None:
        """Between rounds, go on as soon as every connected person is ready."""
        if self.status() is not TableStatus.BETWEEN_ROUNDS:
            return
        present = self.seats.connected()
        if present and all(seat.ready for seat in present):
            self._apply_table(NextRound())

    def _publish(
        self, events: Sequence[Event], cause_peer: int | None = None, cause_id: int | None = None
    ) -> None:
        """Number new events and send them to the command's sender now; every other member
        gets its redacted copies held, to leave with the fresh view it is now owed."""
        if not events:
            return
        numbered = self._history.extend(events, cause_peer, cause_id)
        self._views_owed = True
        if any(event.kind is EventKind.ROUND_STARTED for event in events):
            for seat in self.seats:
                seat.ready = False
        audience = self._audience()
        # The sender's copies first, before anyone else's are built: the answer it waits for.
        for peer, eyes in audience:
            if peer.peer_id == cause_peer:
                peer.send(*(item.message_for(eyes, peer.peer_id) for item in numbered))
        # One public message per event, shared by every seat that sees no more of it than
        # a spectator, so it is encoded once for all of them (``Message.frame``).
        shared = [(item, item.public_message()) for item in numbered]
        for peer, eyes in audience:
            if peer.peer_id != cause_peer:
                held = (item.message_for(eyes, peer.peer_id, public) for item, public in shared)
                peer.hold(*held)

    def _shared_view(self) -> dict[str, Any] | None:
        """The part of every view of the match, as it is now, that all seats see alike."""
        return self._match.shared_view(self._now_ms()) if self._match is not None else None

    def _take_owed_views(self) -> list[tuple[Peer, int | None]]:
        """Who is owed a fresh view (everyone following the match, if events went out
        since the last views); the debt is then the caller's to pay with ``_send_view``."""
        if not self._views_owed:
            return []
        self._views_owed = False
        return self._audience()

    def _audience(self) -> list[tuple[Peer, int | None]]:
        """Everyone who follows the match, with the seat whose eyes they see it through:
        seated people, server bots standing in for seats, then spectators (no seat)."""
        audience: list[tuple[Peer, int | None]] = []
        for seat in self.seats:
            if seat.peer is not None:
                audience.append((seat.peer, seat.index))
            if seat.stand_in is not None and seat.stand_in.peer is not None:
                audience.append((seat.stand_in.peer, seat.index))
        audience.extend((peer, None) for peer in self._spectators.values())
        return audience

    def _send_view(
        self,
        peer: Peer,
        seat: int | None,
        *,
        hold: bool = False,
        shared: dict[str, Any] | None = None,
    ) -> None:
        """``peer``'s fresh view through ``seat``'s eyes (with anything held for it);
        ``hold`` keeps it for the next send (a reply that follows at once). ``shared`` is
        the match's ``shared_view`` of this moment, when several views are being sent."""
        match = self._match
        if shared is None:
            shared = self._shared_view()
        if match is None or shared is None:
            peer.send()  # no view, but what was held for it goes
            return
        body = match.seat_view(shared, seat)
        last = self._history.last_seq
        body["last_seq"] = last
        view = GameView.trusted(seq=last, body=body)
        if hold:
            peer.hold(view)
        else:
            peer.send(view)

    # ------------------------------------------------------------------ people

    def _lost(self, peer: Peer) -> None:
        """A connection is gone: its seat goes away (a bot plays it) or it stops watching."""
        if self._spectators.pop(peer.peer_id, None) is not None:
            return
        if self.seats.of_stand_in(peer) is not None:
            return  # a server bot's connection: its launcher reports the bot's end
        seat = self.seats.of_peer(peer)
        if seat is None:
            return
        seat.peer = None
        seat.ready = False
        log.info(
            "%s lost the connection to table %s; seat %d waits for them to resume",
            seat.name,
            self._label(),
            seat.index,
        )
        match = self._match
        if match is not None and not match.is_over and not match.away[seat.index]:
            self._apply_table(SetAway(seat.index, True))
        self._pass_host()
        self._maybe_next_round()

    def _remove_person(self, seat: Seat, why: str) -> None:
        """A person gives up their seat: emptied before the match, a bot's from then on."""
        log.info("%s %s table %s (seat %d)", seat.name, why, self._label(), seat.index)
        match = self._match
        if match is None:
            self._vacate(seat.index)
        else:
            seat.make_bot(self._settings.bot_strategy, self.seats.bot_name())
            if match.away[seat.index] and not match.is_over:
                self._apply_table(SetAway(seat.index, False))
        self._pass_host()
        self._maybe_next_round()

    def _vacate(self, index: int) -> None:
        """Empty a chair, sending away the server bot that stood in for it, if any."""
        seat = self.seats.vacate(index)
        if seat is not None:
            self._let_go(seat)

    def _let_go(self, seat: Seat) -> None:
        """Dismiss the server bot standing in for ``seat``, if any."""
        stand_in, seat.stand_in = seat.stand_in, None
        if stand_in is None:
            return
        if stand_in.peer is not None:
            self._hooks.departed(stand_in.peer, self)
        stand_in.dismiss()

    def _stand_in_peers(self) -> list[Peer]:
        """The connections of the server bots seated as stand-ins."""
        return [
            seat.stand_in.peer
            for seat in self.seats
            if seat.stand_in is not None and seat.stand_in.peer is not None
        ]

    def _pass_host(self) -> None:
        """Keep the host on a connected person: the next one in seat order takes over."""
        successor = self.seats.next_host(self._host_seat)
        if successor != self._host_seat and successor is not None:
            seat = self.seats[successor]
            log.info("table %s: %s is now the host", self._label(), seat.name if seat else "?")
        self._host_seat = successor

    # ------------------------------------------------------------------ small helpers

    def _state(self) -> TableState:
        """The public table state, built again only when something it shows has changed.

        It is asked for after every request, and most (game moves) change none of it, so
        the last one is kept with the few plain values it is made of and reused while
        they are the same. Those values are read afresh each time rather than invalidated
        where they change: the engine changes the status and who is away by itself.
        """
        match = self._match
        away = match.away if match is not None else None
        shown: list[tuple[str, bool, bool, bool] | None] = []  # name, bot, away, ready
        for index in range(self.seats.size):
            seat = self.seats[index]
            if seat is None:
                shown.append(None)
                continue
            engine_away = away is not None and away[index]
            seat_away = not seat.is_bot and (not seat.is_connected or engine_away)
            shown.append((seat.name, seat.is_bot, seat_away, seat.ready))
        seats = tuple(shown)
        key = (self.status(), seats, self._host_seat, len(self._spectators), self.config)
        if self._state_cache is not None and self._state_cache[0] == key:
            return self._state_cache[1]
        status, _, host_seat, spectators, config = key
        state = TableState(
            table_id=self.table_id,
            name=self.name,
            state=status,
            seats=tuple(
                SeatInfo(seat=index)
                if one is None
                else SeatInfo(seat=index, name=one[0], bot=one[1], away=one[2], ready=one[3])
                for index, one in enumerate(seats)
            ),
            options=config.to_data(),
            host_seat=host_seat,
            spectators=spectators,
        )
        self._state_cache = (key, state)
        return state

    def _tell_state(
        self, peer: Peer, state: TableState | None = None, *, hold: bool = False
    ) -> None:
        """Send the table state to ``peer`` unless it already has exactly this one;
        ``hold`` keeps it for the next send (the sender's reply)."""
        state = state or self._state()
        told = self._told.get(peer.peer_id)
        if told is not state and told != state:
            self._told[peer.peer_id] = state
            if hold:
                peer.hold(state)
            else:
                peer.send(state)

    def _send_joined(self, seat: Seat) -> None:
        assert seat.peer is not None
        seat.peer.send(Joined(table_id=self.table_id, seat=seat.index, resume_token=seat.token))
        self._tell_state(seat.peer)
        self._send_view(seat.peer, seat.index)

    def _members(self) -> list[Peer]:
        """Every connected peer at the table: seated people, then spectators."""
        seated = [seat.peer for seat in self.seats if seat.peer is not None]
        return seated + list(self._spectators.values())

    def _is_member(self, peer: Peer) -> bool:
        return peer.peer_id in self._spectators or self.seats.of_peer(peer) is not None

    def _seat_of(self, peer: Peer) -> Seat:
        seat = self.seats.of_peer(peer)
        if seat is None:
            raise RequestRefused(LobbyRejectCode.NOT_SEATED, "you have no seat at this table")
        return seat

    def _require_host(self, peer: Peer) -> Seat:
        seat = self._seat_of(peer)
        if seat.index != self._host_seat:
            raise RequestRefused(LobbyRejectCode.NOT_HOST, "only the host may do that")
        return seat

    def _require_lobby(self, why: str) -> None:
        if self._match is not None:
            raise RequestRefused(LobbyRejectCode.WRONG_TABLE_STATE, why)

    def _check_not_seated(self, peer: Peer) -> None:
        if self.seats.of_peer(peer) is not None:
            raise RequestRefused(LobbyRejectCode.ALREADY_AT_TABLE, "you already have a seat here")

    def _check_password(self, given: str | None) -> None:
        if self._password is None:
            return
        if given is None or not hmac.compare_digest(given.encode(), self._password.encode()):
            raise RequestRefused(
                LobbyRejectCode.WRONG_PASSWORD, "this table needs the right password"
            )

    def _check_name(self, name: str) -> None:
        if self.seats.name_taken(name):
            raise RequestRefused(LobbyRejectCode.NAME_TAKEN, f"someone called {name} sits here")

    def _label(self) -> str:
        return f"{self.table_id} ({self.name})"
