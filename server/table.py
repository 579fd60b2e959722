"""One table: a Trio task that owns the seats and the engine's Match, and talks to its peers.

Everything that changes a table happens inside its own task, one request at a time, so the
match never sees two commands at once and never waits for a socket:

- Requests arrive through a bounded inbox (``submit``; a full inbox is the lobby's "busy").
- The task stamps each with the server clock (``now_ms``, Trio's clock in milliseconds)
  and hands game commands to ``Match.apply``.
- Time is data: the task sleeps on the inbox until the earliest of the match's deadline,
  the server bots' next move and the empty-table timer, then applies ``Timeout()`` (or lets
  a bot act, or closes the table). Tests run this on Trio's ``autojump_clock``.
- Every accepted batch of events is numbered (server/history.py) and sent to every seat
  redacted by the engine's ``Event.for_seat``, followed by that seat's fresh view (it
  carries the legal commands and the clocks as milliseconds left); then the sender gets
  its one reply. Everything a command causes reaches its sender before the reply.
- A lost connection only leaves a note (``peer_gone``); the task marks the seat away and a
  server bot plays it until its owner resumes with the token.

The host is the table's creator, passed on to the next person in seat order when the host
leaves, is kicked or loses the connection. A table whose last person leaves is removed at
once; one where nobody is connected any more is removed after ``empty_table_seconds``.
"""

from __future__ import annotations

import hmac
import logging
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

import trio

from protocol.commands import NextRound, Pause, Resume, SeatCommand, SetAway, TableCommand, Timeout
from protocol.errors import ErrorCode, LobbyRejectCode
from protocol.events import Event, EventKind
from protocol.limits import MAX_CHAT_LEN, clean_text
from protocol.messages import (
    AddBot,
    Chat,
    ChatMessage,
    CreateTable,
    Game,
    GameView,
    Join,
    Joined,
    Kick,
    Leave,
    Ok,
    PauseTable,
    Ready,
    Rejected,
    Rematch,
    RemoveBot,
    Request,
    ResumeSeat,
    ResumeTable,
    SeatInfo,
    Spectate,
    Start,
    TableState,
    TableStatus,
    TableSummary,
    TakeBotSeat,
)
from protocol.options import ConfigError, TableConfig
from protocol.rejections import RejectCode
from server.autoplay import Pilot, known_strategy
from server.engine import Accepted, Match, Phase
from server.history import EventHistory
from server.peer import Peer
from server.seats import Seat, SeatMap
from server.settings import LobbySettings

__all__ = ["RequestRefused", "Table", "TableHooks", "TableRequest"]

log = logging.getLogger("uno.server.table")

ENTRY_REQUESTS = (CreateTable, Join, Spectate, TakeBotSeat, ResumeSeat)
"""Requests from a peer not (yet) at the table; the lobby marks it as arriving."""


class RequestRefused(Exception):
    """A client asked for something it may not do now; it gets a rejection, nothing changed."""

    def __init__(self, code: LobbyRejectCode | RejectCode, message: str) -> None:
        super().__init__(f"{code.value}: {message}")
        self.code = code
        self.message = message


class TableHooks(Protocol):
    """What a table needs of the lobby: where each peer is, and news of arrivals."""

    def location(self, peer: Peer) -> Table | None:
        """The table the lobby believes ``peer`` is at (or arriving at)."""

    def departed(self, peer: Peer, table: Table) -> None:
        """``peer`` is no longer at ``table`` (it left, was kicked, or was refused)."""

    def closed(self, table: Table) -> None:
        """``table`` has stopped; forget it."""


@dataclass(frozen=True, slots=True)
class TableRequest:
    """One message for the table, and whether it gets a reply (a resume at hello does not:
    the client sent no command id)."""

    peer: Peer
    message: Request
    reply: bool = True


class Table:
    """One table's seats, spectators and match, run by its own Trio task (``run``)."""

    def __init__(
        self,
        *,
        table_id: str,
        name: str,
        config: TableConfig,
        password: str | None,
        settings: LobbySettings,
        hooks: TableHooks,
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
        self._pilot = Pilot(
            random.Random(settings.bot_seed(table_id)), settings.bot_think_ms / 1000
        )
        self._inbox, self._requests = trio.open_memory_channel[TableRequest](settings.inbox_size)
        self._gone: list[Peer] = []
        self._waiting: trio.CancelScope | None = None
        self._closing = False
        self._empty_deadline: float | None = None
        self._last_ms = 0
        self._told: dict[int, TableState] = {}  # the last table state each member got
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

    def submit(self, peer: Peer, message: Request, *, reply: bool = True) -> bool:
        """Queue a request for the table's task; False when the inbox is full or closed."""
        try:
            self._inbox.send_nowait(TableRequest(peer, message, reply))
        except (trio.WouldBlock, trio.ClosedResourceError, trio.BrokenResourceError):
            return False
        return True

    def peer_gone(self, peer: Peer) -> None:
        """``peer``'s connection is gone; the table's task deals with it next."""
        self._gone.append(peer)
        self._wake()

    def stop(self) -> None:
        """Ask the table's task to finish (the server is shutting down)."""
        self._closing = True
        self._wake()

    def holds_token(self, token: str) -> bool:
        """Whether a resume token opens one of this table's seats."""
        return self.seats.of_token(token) is not None

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

    # ------------------------------------------------------------------ the task

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Serve the table until it is empty or stopped."""
        task_status.started()
        try:
            while True:
                self._tick()
                if self._closing:
                    break
                request: TableRequest | None = None
                with trio.CancelScope(deadline=self._next_wake()) as waiting:
                    self._waiting = waiting
                    request = await self._requests.receive()
                self._waiting = None
                if request is not None:
                    self._dispatch(request)
        finally:
            self._closing = True
            self._waiting = None
            self._finish()

    def _wake(self) -> None:
        if self._waiting is not None:
            self._waiting.cancel()

    def _next_wake(self) -> float:
        times = [self._pilot.wake_at(), self._empty_deadline]
        deadline = self._match.deadline_ms() if self._match is not None else None
        if deadline is not None and deadline != self._refused_deadline:
            times.append(deadline / 1000)
        return min((t for t in times if t is not None), default=math.inf)

    def _now_ms(self, at_least: int = 0) -> int:
        """The server clock in ms for stamping a command; never runs backwards."""
        self._last_ms = max(self._last_ms, int(trio.current_time() * 1000), at_least)
        return self._last_ms

    def _tick(self) -> None:
        """Everything that is due: lost connections, clocks, bots, the empty-table timer."""
        try:
            while self._gone:
                self._lost(self._gone.pop(0))
            now = trio.current_time()
            match = self._match
            deadline = match.deadline_ms() if match is not None else None
            due_now = deadline is not None and now >= deadline / 1000
            if due_now and deadline != self._refused_deadline:
                assert deadline is not None
                if not self._apply_table(Timeout(), at_ms=deadline):
                    self._refused_deadline = deadline  # never spin on a refused deadline
            due = self._pilot.wake_at()
            if due is not None and now >= due:
                self._play_bots()
            if self._empty_deadline is not None and now >= self._empty_deadline:
                log.info("table %s: nobody came back; removing it", self._label())
                self._closing = True
            self._settle()
        except Exception:
            log.exception("table %s failed and is removed", self._label())
            self._closing = True

    def _finish(self) -> None:
        """The task ends: refuse what is still queued, send everyone off, tell the lobby."""
        self._inbox.close()
        while True:
            try:
                request = self._requests.receive_nowait()
            except (trio.WouldBlock, trio.EndOfChannel):
                break
            if request.reply:
                request.peer.send(
                    _rejected(request.message, LobbyRejectCode.TABLE_NOT_FOUND, "the table closed")
                )
            self._hooks.departed(request.peer, self)
        for peer in self._members():
            self._hooks.departed(peer, self)
        self._requests.close()
        self._hooks.closed(self)
        log.info("table %s closed", self._label())

    # ------------------------------------------------------------------ requests

    def _dispatch(self, request: TableRequest) -> None:
        peer, message = request.peer, request.message
        entering = isinstance(message, ENTRY_REQUESTS)
        if entering and self._hooks.location(peer) is not self:
            return  # the peer disconnected while its request waited in the inbox
        self._opened = True
        try:
            result = self._handle(peer, message)
        except RequestRefused as refusal:
            log.debug(
                "table %s refused %s from %s: %s", self._label(), message.TYPE, peer.name, refusal
            )
            if entering and not self._is_member(peer):
                self._hooks.departed(peer, self)
            if request.reply:
                peer.send(_rejected(message, refusal.code, refusal.message))
            return
        except Exception:
            log.exception("table %s failed on %s from %s", self._label(), message.TYPE, peer.name)
            if request.reply:
                peer.send(
                    Rejected(
                        id=message.id,
                        code=ErrorCode.INTERNAL_ERROR.value,
                        message="the server failed on this command",
                    )
                )
            return
        self._settle()
        if request.reply:
            peer.send(Ok(id=message.id, result=result))

    def _handle(self, peer: Peer, message: Request) -> dict[str, Any] | None:
        """Carry out one request; raises RequestRefused. Returns the Ok's result."""
        match message:
            case Game():
                self._on_game(peer, message)
            case Ready():
                self._on_ready(peer, message)
            case Chat():
                self._on_chat(peer, message)
            case CreateTable():
                return self._on_create(peer)
            case Join():
                return self._on_join(peer, message)
            case Spectate():
                self._on_spectate(peer, message)
            case TakeBotSeat():
                return self._on_take_bot_seat(peer, message)
            case ResumeSeat():
                return self._on_resume(peer, message)
            case Leave():
                self._on_leave(peer)
            case Start():
                self._on_start(peer, message)
            case Rematch():
                self._on_rematch(peer, message)
            case AddBot():
                return self._on_add_bot(peer, message)
            case RemoveBot():
                self._on_remove_bot(peer, message)
            case Kick():
                self._on_kick(peer, message)
            case PauseTable():
                self._on_pause_or_resume(peer, Pause())
            case ResumeTable():
                self._on_pause_or_resume(peer, Resume())
            case _:
                raise RequestRefused(LobbyRejectCode.WRONG_TABLE_STATE, "not a table request")
        return None

    def _on_create(self, peer: Peer) -> dict[str, Any]:
        seat = self.seats.seat_person(0, peer.name, peer)
        self._host_seat = seat.index
        log.info(
            "%s created table %s (%s deck, %d seats)",
            peer.name,
            self._label(),
            self.config.deck,
            self.seats.size,
        )
        self._send_joined(seat)
        return {"table_id": self.table_id, "seat": seat.index}

    def _on_join(self, peer: Peer, message: Join) -> dict[str, Any]:
        self._check_password(message.password)
        self._check_not_seated(peer)
        if self._match is not None:
            raise RequestRefused(
                LobbyRejectCode.WRONG_TABLE_STATE,
                "the match has started: spectate, or take a bot's seat between rounds",
            )
        if message.seat is not None:
            if not self.seats.valid(message.seat):
                raise RequestRefused(
                    LobbyRejectCode.BAD_SEAT, f"this table has no seat {message.seat}"
                )
            if self.seats[message.seat] is not None:
                raise RequestRefused(LobbyRejectCode.SEAT_TAKEN, f"seat {message.seat} is taken")
            index = message.seat
        else:
            free = self.seats.first_free()
            if free is None:
                raise RequestRefused(LobbyRejectCode.TABLE_FULL, "every seat is taken")
            index = free
        self._check_name(peer.name)
        self._spectators.pop(peer.peer_id, None)
        seat = self.seats.seat_person(index, peer.name, peer)
        log.info(
            "%s (%s) joined table %s in seat %d", peer.name, peer.address, self._label(), index
        )
        self._send_joined(seat)
        return {"seat": index}

    def _on_spectate(self, peer: Peer, message: Spectate) -> None:
        self._check_password(message.password)
        self._check_not_seated(peer)
        if peer.peer_id not in self._spectators:
            if len(self._spectators) >= self._settings.max_spectators:
                raise RequestRefused(LobbyRejectCode.TABLE_FULL, "no room for more spectators")
            self._spectators[peer.peer_id] = peer
            log.info("%s watches table %s", peer.name, self._label())
        peer.send(Joined(table_id=self.table_id, seat=None, resume_token=None))
        self._tell_state(peer)
        self._send_view(peer, None)

    def _on_take_bot_seat(self, peer: Peer, message: TakeBotSeat) -> dict[str, Any]:
        self._check_password(message.password)
        self._check_not_seated(peer)
        if self.status() not in (TableStatus.LOBBY, TableStatus.BETWEEN_ROUNDS, TableStatus.OVER):
            raise RequestRefused(
                LobbyRejectCode.WRONG_TABLE_STATE, "a bot's seat can be taken only between rounds"
            )
        seat = self.seats[message.seat] if self.seats.valid(message.seat) else None
        if seat is None or not seat.is_bot:
            raise RequestRefused(LobbyRejectCode.NOT_A_BOT, f"no bot sits in seat {message.seat}")
        self._check_name(peer.name)
        self._spectators.pop(peer.peer_id, None)
        self.seats.vacate(seat.index)
        taken = self.seats.seat_person(seat.index, peer.name, peer)
        log.info("%s took over the bot's seat %d at table %s", peer.name, seat.index, self._label())
        self._send_joined(taken)
        return {"seat": taken.index}

    def _on_resume(self, peer: Peer, message: ResumeSeat) -> dict[str, Any]:
        seat = self.seats.of_token(message.token)
        if seat is None:
            raise RequestRefused(LobbyRejectCode.BAD_TOKEN, "that token opens no seat here")
        held = self.seats.of_peer(peer)
        if held is not None and held is not seat:
            raise RequestRefused(LobbyRejectCode.ALREADY_AT_TABLE, "you already have a seat here")
        previous = seat.peer
        if previous is not None and previous.peer_id != peer.peer_id:
            # The old connection has not noticed it is dead; the seat follows its token.
            log.info(
                "table %s: seat %d moves to %s's new connection",
                self._label(),
                seat.index,
                seat.name,
            )
            self._hooks.departed(previous, self)
        self._spectators.pop(peer.peer_id, None)
        seat.peer = None
        match = self._match
        if match is not None and match.away[seat.index] and not match.is_over:
            self._apply_table(SetAway(seat.index, False))  # numbered before the replay below
        seat.peer = peer
        log.info("%s resumed seat %d at table %s", peer.name, seat.index, self._label())
        peer.send(Joined(table_id=self.table_id, seat=seat.index, resume_token=seat.token))
        self._tell_state(peer)
        for numbered in self._history.after(message.last_seq):
            peer.send(numbered.message_for(seat.index, None))
        self._send_view(peer, seat.index)
        return {"seat": seat.index}

    def _on_leave(self, peer: Peer) -> None:
        if self._spectators.pop(peer.peer_id, None) is not None:
            self._hooks.departed(peer, self)
            return
        seat = self._seat_of(peer)
        self._remove_person(seat, "left")
        self._hooks.departed(peer, self)

    def _on_ready(self, peer: Peer, message: Ready) -> None:
        seat = self._seat_of(peer)
        seat.ready = message.ready
        self._maybe_next_round()

    def _on_start(self, peer: Peer, message: Start) -> None:
        self._require_host(peer)
        if self._match is not None:
            raise RequestRefused(LobbyRejectCode.WRONG_TABLE_STATE, "the match has already started")
        occupied = list(self.seats)
        if len(occupied) < 2:
            raise RequestRefused(
                LobbyRejectCode.NOT_ENOUGH_PLAYERS, "a match needs at least two seats filled"
            )
        try:
            self.config = replace(self.config, seats=len(occupied))
        except ConfigError as error:
            raise RequestRefused(LobbyRejectCode.NOT_ENOUGH_PLAYERS, str(error)) from None
        moves = self.seats.close_gaps()
        if self._host_seat is not None:
            self._host_seat = moves.get(self._host_seat, self._host_seat)
        for seat in self.seats:
            if seat.index in moves.values() and seat.peer is not None:
                seat.peer.send(
                    Joined(table_id=self.table_id, seat=seat.index, resume_token=seat.token)
                )
        self._new_match(peer, message)
        names = ", ".join(seat.name for seat in self.seats)
        log.info("table %s started: %s", self._label(), names)

    def _on_rematch(self, peer: Peer, message: Rematch) -> None:
        self._require_host(peer)
        if self.status() is not TableStatus.OVER:
            raise RequestRefused(
                LobbyRejectCode.WRONG_TABLE_STATE, "a rematch follows a finished match"
            )
        self._new_match(peer, message)
        log.info("table %s started a rematch", self._label())

    def _on_add_bot(self, peer: Peer, message: AddBot) -> dict[str, Any]:
        self._require_host(peer)
        self._require_lobby("bots are added before the match")
        if not known_strategy(message.strategy):
            raise RequestRefused(
                LobbyRejectCode.UNKNOWN_STRATEGY, f"no bot strategy {message.strategy!r}"
            )
        index = self.seats.first_free()
        if index is None:
            raise RequestRefused(LobbyRejectCode.TABLE_FULL, "every seat is taken")
        self.seats.seat_bot(index, self.seats.bot_name(), message.strategy)
        return {"seat": index}

    def _on_remove_bot(self, peer: Peer, message: RemoveBot) -> None:
        self._require_host(peer)
        self._require_lobby("bots are removed before the match")
        seat = self.seats[message.seat] if self.seats.valid(message.seat) else None
        if seat is None or not seat.is_bot:
            raise RequestRefused(LobbyRejectCode.NOT_A_BOT, f"no bot sits in seat {message.seat}")
        self.seats.vacate(seat.index)

    def _on_kick(self, peer: Peer, message: Kick) -> None:
        host = self._require_host(peer)
        seat = self.seats[message.seat] if self.seats.valid(message.seat) else None
        if seat is None or seat.is_bot:
            raise RequestRefused(LobbyRejectCode.BAD_SEAT, f"no person sits in seat {message.seat}")
        if seat.index == host.index:
            raise RequestRefused(
                LobbyRejectCode.BAD_SEAT, "the host cannot kick themselves; leave instead"
            )
        kicked = seat.peer
        self._remove_person(seat, f"kicked by {host.name}")
        if kicked is not None:
            self._hooks.departed(kicked, self)
            kicked.send(self._state())

    def _on_pause_or_resume(self, peer: Peer, command: Pause | Resume) -> None:
        self._require_host(peer)
        self._game_table_command(command)

    def _on_chat(self, peer: Peer, message: Chat) -> None:
        text = clean_text(message.text)[:MAX_CHAT_LEN]
        seat = self.seats.of_peer(peer)
        if seat is None and peer.peer_id not in self._spectators:
            raise RequestRefused(LobbyRejectCode.NOT_AT_TABLE, "you are not at this table")
        if not text:
            return
        line = ChatMessage(sender=peer.name, text=text, seat=None if seat is None else seat.index)
        for member in self._members():
            member.send(line)

    def _on_game(self, peer: Peer, message: Game) -> None:
        seat = self._seat_of(peer)
        match = self._match
        if match is None:
            raise RequestRefused(LobbyRejectCode.WRONG_TABLE_STATE, "the match has not started")
        command = message.command
        if not isinstance(command, SeatCommand):
            raise RequestRefused(RejectCode.TABLE_ONLY, "only the table may send this command")
        if match.away[seat.index] and not match.is_over and not match.paused:
            # The owner is back at the controls (the engine had marked them away).
            self._apply_table(SetAway(seat.index, False))
        outcome = match.apply(seat.index, command, self._now_ms())
        if not isinstance(outcome, Accepted):
            raise RequestRefused(outcome.code, outcome.message)
        self._publish(outcome.events, peer.peer_id, message.id)

    # ------------------------------------------------------------------ the match

    def _new_match(self, peer: Peer, message: Request) -> None:
        self._matches_played += 1
        seed = self._settings.match_seed(self.table_id, self._matches_played)
        match = Match(self.config, seed, self._now_ms())
        self._match = match
        self._pilot.cancel()
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

    def _play_bots(self) -> None:
        match = self._match
        if match is None:
            self._pilot.cancel()
            return
        choices = self._pilot.choices(
            match, self._bot_seats(), self._now_ms(), self._history.last_seq
        )
        for choice in choices:
            outcome = match.apply(choice.seat, choice.command, self._now_ms())
            if isinstance(outcome, Accepted):
                self._publish(outcome.events)
                return
            log.debug(
                "table %s: the bot for seat %d was refused: %s",
                self._label(),
                choice.seat,
                outcome.message,
            )
        if choices:
            self._pilot.gave_up(self._history.last_seq)

    def _bot_seats(self) -> list[tuple[int, str]]:
        """Seats the server plays now, with the strategy for each."""
        match = self._match
        played: list[tuple[int, str]] = []
        for seat in self.seats:
            if seat.strategy is not None:
                played.append((seat.index, seat.strategy))
            elif match is not None and match.away[seat.index]:
                played.append((seat.index, self._settings.bot_strategy))
        return played

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
        """Number new events and send each member its redacted copy, then its fresh view."""
        if not events:
            return
        numbered = self._history.extend(events, cause_peer, cause_id)
        if any(event.kind is EventKind.ROUND_STARTED for event in events):
            for seat in self.seats:
                seat.ready = False
        for seat in self.seats:
            peer = seat.peer
            if peer is not None:
                for item in numbered:
                    peer.send(item.message_for(seat.index, peer.peer_id))
                self._send_view(peer, seat.index)
        for peer in self._spectators.values():
            for item in numbered:
                peer.send(item.message_for(None, peer.peer_id))
            self._send_view(peer, None)

    def _send_view(self, peer: Peer, seat: int | None) -> None:
        match = self._match
        if match is None:
            return
        body = match.view(seat, self._now_ms())
        last = self._history.last_seq
        body["last_seq"] = last
        peer.send(GameView(seq=last, body=body))

    # ------------------------------------------------------------------ people

    def _lost(self, peer: Peer) -> None:
        """A connection is gone: its seat goes away (a bot plays it) or it stops watching."""
        if self._spectators.pop(peer.peer_id, None) is not None:
            return
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
            self.seats.vacate(seat.index)
        else:
            seat.make_bot(self._settings.bot_strategy, self.seats.bot_name())
            if match.away[seat.index] and not match.is_over:
                self._apply_table(SetAway(seat.index, False))
        self._pass_host()
        self._maybe_next_round()

    def _pass_host(self) -> None:
        """Keep the host on a connected person: the next one in seat order takes over."""
        successor = self.seats.next_host(self._host_seat)
        if successor != self._host_seat and successor is not None:
            seat = self.seats[successor]
            log.info("table %s: %s is now the host", self._label(), seat.name if seat else "?")
        self._host_seat = successor

    def _settle(self) -> None:
        """After any change: the empty-table rules, the bots' plans, the public state."""
        if not self._closing:
            if self._opened and not self.seats.people():
                log.info("table %s: no player is left", self._label())
                self._closing = True
            elif self.seats.connected():
                self._empty_deadline = None
            elif self._empty_deadline is None:
                self._empty_deadline = trio.current_time() + self._settings.empty_table_seconds
        if self._closing:
            self._pilot.cancel()
            return
        self._pilot.changed(
            self._match,
            [seat for seat, _ in self._bot_seats()],
            self._history.last_seq,
            trio.current_time(),
        )
        state = self._state()
        members = self._members()
        for peer in members:
            self._tell_state(peer, state)
        present = {peer.peer_id for peer in members}
        for gone in [peer_id for peer_id in self._told if peer_id not in present]:
            del self._told[gone]

    # ------------------------------------------------------------------ small helpers

    def _state(self) -> TableState:
        match = self._match
        seats: list[SeatInfo] = []
        for index in range(self.seats.size):
            seat = self.seats[index]
            if seat is None:
                seats.append(SeatInfo(seat=index))
                continue
            engine_away = match is not None and match.away[index]
            away = not seat.is_bot and (not seat.is_connected or engine_away)
            seats.append(
                SeatInfo(seat=index, name=seat.name, bot=seat.is_bot, away=away, ready=seat.ready)
            )
        return TableState(
            table_id=self.table_id,
            name=self.name,
            state=self.status(),
            seats=tuple(seats),
            options=self.config.to_data(),
            host_seat=self._host_seat,
            spectators=len(self._spectators),
        )

    def _tell_state(self, peer: Peer, state: TableState | None = None) -> None:
        """Send the table state to ``peer`` unless it already has exactly this one."""
        state = state or self._state()
        if self._told.get(peer.peer_id) != state:
            self._told[peer.peer_id] = state
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


def _rejected(message: Request, code: LobbyRejectCode | RejectCode, text: str) -> Rejected:
    return Rejected(id=message.id, code=code.value, message=text)
