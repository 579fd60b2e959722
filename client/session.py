"""The client's network session: one greeted connection to a server, over any Trio stream.

The session speaks protocol v1 through the sans-IO ``ClientConnection``; this module adds
the I/O. One background task reads: it answers pings, keeps the latest table state and
view, records the numbered event stream (noticing gaps) and hands each ``ok`` or
``rejected`` to the command waiting for it; a ``listener`` (the client's screen) hears
each message it takes in, in order. Any task may send a command and await its one reply
while events keep flowing::

    async with connect("127.0.0.1", 7531, "Ada") as session:
        await session.request(CreateTable(id=session.next_id(), name="Friday"))
        await session.wait_for(lambda s: s.seat is not None)
        reply = await session.play({"type": "draw"})

After a lost connection, ``connect(..., resume=old.resume_state())`` takes the seat back
with the resume token and asks for every event after the last one seen.

Why this module is long: the reader task, the request and reply bookkeeping, the
numbered event stream with its gaps and the resume are one state around one connection.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import AsyncIterator, Callable, Collection, Mapping
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from typing import Any

import trio

from protocol.commands import InvalidCommandError, SeatCommand, command_from_data
from protocol.connection import ClientConnection, ConnectionState
from protocol.errors import RemoteProtocolError
from protocol.messages import (
    Bye,
    ChatMessage,
    Closing,
    Error,
    Game,
    GameEvent,
    GameView,
    Hello,
    Joined,
    Left,
    LeftReason,
    MatchList,
    Message,
    Ok,
    OkResult,
    Ping,
    Pong,
    Rejected,
    ReplayPage,
    Request,
    ResumeSeat,
    ServerMessage,
    Standings,
    TableList,
    TableState,
    Welcome,
)
from protocol.rejections import RejectCode
from protocol.version import SUPPORTED_VERSIONS
from protocol.views import View

__all__ = [
    "ClientSession",
    "ConnectionLostError",
    "InvalidLocalCommandError",
    "Reply",
    "ResumeState",
    "ServerClosedError",
    "ServerProtocolError",
    "SessionError",
    "connect",
    "open_session",
    "percentile",
    "rejection_case",
]

READ_CHUNK = 65_536
MAX_KEPT_EVENTS = 20_000
"""Event bodies kept (the most recent) by a session that keeps its history."""
MAX_KEPT_LATENCIES = 10_000
"""Reply latencies kept (the most recent): enough for a p99, bounded for a bot that plays
for days inside the server."""
MAX_KEPT_GAPS = 1_000
"""Gap ranges kept (the most recent); ``gap_count`` counts them all."""


class SessionError(Exception):
    """Base of every failure of a client session."""


class ConnectionLostError(SessionError):
    """The transport ended (or was closed) while something still waited on the server."""


class ServerClosedError(SessionError):
    """The server ended the conversation on purpose: a protocol ``error`` or ``closing``.

    ``code`` is the error code (``closing`` for a shutdown notice); the server found fault
    with us when it is a protocol error such as ``bad-message``.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.message = message


class ServerProtocolError(SessionError):
    """The server sent something protocol v1 does not allow (its fault, not ours)."""

    def __init__(self, error: RemoteProtocolError) -> None:
        super().__init__(str(error))
        self.code = error.code


class InvalidLocalCommandError(SessionError):
    """The caller asked to send a command map that describes no command (our fault)."""


def rejection_case(message: Rejected) -> dict[str, str | int]:
    """The per-case fields ``message`` carries (1.3), by name, as ``Reply.case`` holds
    them: ``option``, ``limit`` and ``card`` as its code, those the server gave."""
    card = message.card.code if message.card is not None else None
    case = {"option": message.option, "limit": message.limit, "card": card}
    return {name: value for name, value in case.items() if value is not None}


@dataclass(frozen=True, slots=True)
class Reply:
    """The one answer to a command: ``ok`` (with ``result``) or a rejection (``code``)."""

    id: int
    ok: bool
    code: str | None = None
    message: str = ""
    result: OkResult | None = None
    latency_ms: float = 0.0
    case: dict[str, str | int] = field(default_factory=dict)
    """(1.3) A rejection's per-case fields that the server gave, by name (``option``,
    ``card`` as its code, ``limit``): what the client's sentence for ``code`` names."""

    @property
    def lost_race(self) -> bool:
        """True for a rejection only because another player's command arrived first."""
        return self.code == RejectCode.LOST_RACE


@dataclass(frozen=True, slots=True)
class ResumeState:
    """What a new connection needs to take a seat back after a lost one."""

    token: str
    last_seq: int


@dataclass(slots=True)
class _Waiter:
    sent_at: float
    done: trio.Event
    reply: Reply | None = None


class ClientSession:
    """One greeted connection. Build it with :func:`open_session` or :func:`connect`.

    Read-only state kept up to date by the receive loop: ``welcome``, ``table`` (the last
    table-state), ``table_list``, ``standings`` and ``match_list`` (the latest pages of
    the history, protocol 1.2), ``seat``, ``table_id``, ``resume_token``, ``view`` and
    ``view_seq``, ``events`` (the latest ``event`` messages, oldest first: ``seq``, the
    typed ``body``, this client's ``cause``),
    ``last_seq``, ``gaps`` (the latest missing event ranges; ``gap_count`` counts every
    one), ``chat``, ``latencies_ms`` (the latest reply latencies), ``closed``,
    ``left`` (the last ``left`` message: protocol 1.1 says why we are no longer at a
    table) and ``left_count``.

    ``listener``, when set, is called with every message the session takes in, in order,
    once the session's own state has changed (an event already seen, which a resume may
    repeat, is not passed on): the client's screen reduces them into its model.

    ``events_kept`` and ``latencies_kept`` bound the event bodies and reply latencies kept
    (``event_count`` and ``reply_count`` count them all): a server bot keeps no latencies
    and at most the few events its round memory reads between two views, so a table of
    bots plays for hours inside the server.
    """

    def __init__(
        self,
        stream: trio.abc.Stream,
        name: str,
        *,
        events_kept: int = MAX_KEPT_EVENTS,
        latencies_kept: int = MAX_KEPT_LATENCIES,
        listener: Callable[[ServerMessage], None] | None = None,
    ) -> None:
        self.name = name
        self.listener = listener
        self._stream = stream
        self._conn = ClientConnection()
        self._send_lock = trio.StrictFIFOLock()
        self._waiters: dict[int, _Waiter] = {}
        self._changed = trio.Event()
        self.welcome: Welcome | None = None
        self.table: TableState | None = None
        self.table_list: TableList | None = None
        self.standings: Standings | None = None
        self.match_list: MatchList | None = None
        self.replay_page: ReplayPage | None = None
        """The latest page of a replay file (``client.replay_fetch`` asks for them)."""
        self.table_id: str | None = None
        self.seat: int | None = None
        self.resume_token: str | None = None
        self.view: View | None = None
        self.view_seq = 0
        self.events: deque[GameEvent] = deque(maxlen=events_kept)
        self.event_count = 0
        self.last_seq = 0
        self.gaps: deque[tuple[int, int]] = deque(maxlen=MAX_KEPT_GAPS)
        self.gap_count = 0
        self.chat: list[ChatMessage] = []
        self.latencies_ms: deque[float] = deque(maxlen=latencies_kept)
        self.reply_count = 0
        """How many replies (``ok`` or ``rejected``) to our commands arrived."""
        self.left: Left | None = None
        self._closed_seat: tuple[str, str] | None = None
        """The table and token of a seat a ``left`` (table-closed) took away."""
        self.left_count = 0
        """How many ``left`` messages arrived; a new one means the table is gone."""
        self.closed = False
        self.close_reason: SessionError | None = None
        self.changes = 0
        """Counts every change of state; a bot acts once per change it has not seen."""

    # -- sending -------------------------------------------------------------------------

    def next_id(self) -> int:
        """A fresh command id, unique among the commands still waiting."""
        return self._conn.next_request_id()

    async def send(self, message: Message) -> None:
        """Send any message without waiting for an answer."""
        async with self._send_lock:
            # Checked once the lock is held: the reader may close the connection while
            # this send waits for another one.
            self._raise_if_closed()
            if self._conn.state is ConnectionState.CLOSED:
                # The server's closing or error has been read but not yet handled.
                raise ConnectionLostError(
                    f"cannot send {message.TYPE}: the server ended the connection"
                )
            data = self._conn.send(message)
            try:
                await self._stream.send_all(data)
            except (trio.BrokenResourceError, trio.ClosedResourceError) as error:
                lost = ConnectionLostError(f"cannot send {message.TYPE}: {error}")
                raise self._lost(lost) from error

    async def request(self, message: Request) -> Reply:
        """Send a command and wait for the one ``ok`` or ``rejected`` naming its id."""
        waiter = _Waiter(trio.current_time(), trio.Event())
        self._waiters[message.id] = waiter
        try:
            await self.send(message)
            await waiter.done.wait()
        finally:
            self._waiters.pop(message.id, None)
        if waiter.reply is None:
            raise self.close_reason or ConnectionLostError("the connection closed")
        return waiter.reply

    async def play(self, command: SeatCommand | Mapping[str, Any]) -> Reply:
        """Send one game command (a command object or its plain map) and await its reply."""
        if not isinstance(command, SeatCommand):
            try:
                parsed = command_from_data(command)
            except InvalidCommandError as error:
                raise InvalidLocalCommandError(str(error)) from None
            if not isinstance(parsed, SeatCommand):
                raise InvalidLocalCommandError(f"{parsed.TYPE} is not a seat command")
            command = parsed
        return await self.request(Game(id=self.next_id(), command=command))

    async def resume_seat(self, state: ResumeState) -> Reply:
        """Ask for a seat back on this (already greeted) connection."""
        self.last_seq = max(self.last_seq, state.last_seq)
        self.resume_token = state.token
        return await self.request(
            ResumeSeat(id=self.next_id(), token=state.token, last_seq=state.last_seq)
        )

    @property
    def resumed(self) -> bool:
        """True when the hello's resume token gave the seat back (``welcome.resumed``)."""
        return self.welcome is not None and self.welcome.resumed

    def resume_state(self) -> ResumeState | None:
        """The token and event number to resume this seat elsewhere; None if not seated."""
        if self.resume_token is None:
            return None
        return ResumeState(self.resume_token, self.last_seq)

    # -- waiting -------------------------------------------------------------------------

    async def wait_for(self, condition: Callable[[ClientSession], object]) -> None:
        """Return as soon as ``condition(self)`` is true; checked after every change.

        Raises the reason the session closed if it closes first. Bound it with a cancel
        scope (``trio.fail_after``) where waiting forever would be a bug.
        """
        while not condition(self):
            self._raise_if_closed()
            await self._changed.wait()

    async def wait_changed(self, seen: int) -> int:
        """Wait until ``changes`` moves past ``seen``; return the new count."""
        while self.changes == seen:
            self._raise_if_closed()
            await self._changed.wait()
        return self.changes

    def latest_event(self, kind: str) -> GameEvent | None:
        """The most recent kept event of ``kind`` (an ``EventKind`` or its name), or None."""
        return next((event for event in reversed(self.events) if event.body.kind == kind), None)

    # -- the receive loop ----------------------------------------------------------------

    async def handshake(self, hello: Hello) -> Welcome:
        """Send the hello and read until the welcome (run before :meth:`receive_loop`)."""
        await self.send(hello)
        while self.welcome is None:
            self._raise_if_closed()
            await self._read_once()
        return self.welcome

    async def receive_loop(self) -> None:
        """Read until the connection ends; never raises for a normal or lost connection."""
        try:
            while not self.closed:
                await self._read_once()
        except SessionError:
            pass

    async def _read_once(self) -> None:
        try:
            data = await self._stream.receive_some(READ_CHUNK)
        except (trio.BrokenResourceError, trio.ClosedResourceError) as error:
            raise self._lost(ConnectionLostError(f"connection lost: {error}")) from error
        if not data:
            raise self._lost(ConnectionLostError("the server closed the connection"))
        self._conn.receive_data(bytes(data))
        while True:
            try:
                message = self._conn.next_message()
            except RemoteProtocolError as error:
                reason = self._lost(ServerProtocolError(error))
                await self._stream.aclose()
                raise reason from error
            if message is None:
                break
            await self._dispatch(message)
        self._notify()

    async def _dispatch(self, message: Message) -> None:
        taken = await self._take(message)
        if taken and self.listener is not None and isinstance(message, ServerMessage):
            self.listener(message)

    async def _take(self, message: Message) -> bool:  # noqa: C901 (one branch per message type)
        """Update the session's state from one message; False for an event seen before."""
        if isinstance(message, GameEvent):
            return self._on_event(message)
        elif isinstance(message, GameView):
            self.view = message.body
            self.view_seq = message.seq
            # The server sends a view after the events it covers, so one numbered beyond
            # our last event is a fresh base: the first view at a table, or a resume after
            # so long that the server sent the view instead of a replay.
            self.last_seq = max(self.last_seq, message.seq)
        elif isinstance(message, Ok | Rejected):
            self._on_reply(message)
        elif isinstance(message, Ping):
            await self.send(Pong(nonce=message.nonce))
        elif isinstance(message, TableState):
            self.table = message
        elif isinstance(message, TableList):
            self.table_list = message
        elif isinstance(message, Standings):
            self.standings = message
        elif isinstance(message, MatchList):
            self.match_list = message
        elif isinstance(message, ReplayPage):
            self.replay_page = message
        elif isinstance(message, Joined):
            self.table_id = message.table_id
            self.seat = message.seat
            self.resume_token = message.resume_token or self.resume_token
        elif isinstance(message, Left):
            self._on_left(message)
        elif isinstance(message, Welcome):
            self.welcome = message
        elif isinstance(message, ChatMessage):
            self.chat.append(message)
            del self.chat[:-200]
        elif isinstance(message, Error):
            self._lost(ServerClosedError(message.code, message.message))
        elif isinstance(message, Closing):
            self._on_closing()
            self._lost(ServerClosedError(Closing.TYPE, message.reason))
        return True

    def _on_event(self, message: GameEvent) -> bool:
        seq = message.seq
        if seq <= self.last_seq:
            return False  # already seen (a resume may repeat what the view covered)
        if seq > self.last_seq + 1 and seq > self.view_seq + 1:
            self.gaps.append((self.last_seq + 1, seq - 1))
            self.gap_count += 1
        self.last_seq = seq
        self.event_count += 1
        if self.events.maxlen != 0:  # a server bot keeps none (see the class docstring)
            self.events.append(message)
        return True

    def _on_left(self, message: Left) -> None:
        """We are back in the lobby: forget the table, the seat and its numbered stream.

        A ``left`` for another table than ours (a stale one) changes nothing but the record.
        The next table numbers its events from 1 again, hence the reset of ``last_seq``.
        """
        self.left = message
        self.left_count += 1
        if self.table_id is not None and message.table_id != self.table_id:
            return
        if message.reason is LeftReason.TABLE_CLOSED and self.resume_token is not None:
            self._closed_seat = (message.table_id, self.resume_token)
        self.table = None
        self.table_id = None
        self.seat = None
        self.resume_token = None
        self.view = None
        self.view_seq = 0
        self.last_seq = 0

    def _on_closing(self) -> None:
        """The server stops. One that keeps no journal, or speaks 1.2, first said our table
        closed; yet a server that stops may rebuild it when it starts again, so the seat's
        token is taken back: the next connection offers it (the server answers
        ``resumed: false`` if it kept nothing), as after a crash."""
        if self.resume_token is None and self._closed_seat is not None:
            self.table_id, self.resume_token = self._closed_seat

    def _on_reply(self, message: Ok | Rejected) -> None:
        waiter = self._waiters.get(message.id)
        if waiter is None:
            return
        latency = (trio.current_time() - waiter.sent_at) * 1000.0
        self.reply_count += 1
        self.latencies_ms.append(latency)
        if isinstance(message, Ok):
            waiter.reply = Reply(message.id, True, result=message.result, latency_ms=latency)
        else:
            waiter.reply = Reply(
                message.id,
                False,
                code=message.code,
                message=message.message,
                latency_ms=latency,
                case=rejection_case(message),
            )
        waiter.done.set()

    # -- closing -------------------------------------------------------------------------

    def _notify(self) -> None:
        self.changes += 1
        self._changed.set()
        self._changed = trio.Event()

    def _lost(self, reason: SessionError) -> SessionError:
        """Mark the session closed for ``reason`` (the first reason wins); return it."""
        if self.closed and self.close_reason is not None:
            return self.close_reason
        self.closed = True
        self.close_reason = reason
        self._conn.close()
        for waiter in self._waiters.values():
            waiter.done.set()
        self._notify()
        return reason

    def _raise_if_closed(self) -> None:
        if self.closed:
            raise self.close_reason or ConnectionLostError("the session is closed")

    async def aclose(self, reason: str | None = None) -> None:
        """Say bye (if the connection still works) and close the transport."""
        if not self.closed:
            with trio.move_on_after(1) as scope:
                scope.shield = True
                with suppress(SessionError):
                    await self.send(Bye(reason=reason))
            self._lost(ConnectionLostError("closed by this client"))
        with trio.CancelScope(shield=True):
            await self._stream.aclose()

    async def abort(self) -> None:
        """Drop the transport without a bye, as a crash or a pulled cable would."""
        self._lost(ConnectionLostError("aborted by this client"))
        await trio.aclose_forcefully(self._stream)


@asynccontextmanager
async def open_session(
    stream: trio.abc.Stream,
    name: str,
    *,
    resume: ResumeState | None = None,
    versions: tuple[str, ...] = SUPPORTED_VERSIONS,
    greet_seconds: float = math.inf,
    events_kept: int = MAX_KEPT_EVENTS,
    latencies_kept: int = MAX_KEPT_LATENCIES,
    listener: Callable[[ServerMessage], None] | None = None,
    bot: bool = False,
) -> AsyncIterator[ClientSession]:
    """Greet the server over ``stream`` and keep reading in the background while in use.

    With ``resume``, the hello carries the token and the last event seen, so the server
    gives the seat back at once (``welcome.resumed``), then the view and the missed events.
    A server that has not answered the hello within ``greet_seconds`` raises
    ``trio.TooSlowError``. ``events_kept``, ``latencies_kept``, ``listener`` (which hears
    the welcome too): see ``ClientSession``. ``bot``: the hello says a program plays
    (1.3 ``hello.bot``; bots pass it, people's clients do not).
    """
    session = ClientSession(
        stream, name, events_kept=events_kept, latencies_kept=latencies_kept, listener=listener
    )
    hello = Hello(versions=versions, name=name, bot=bot)
    if resume is not None:
        hello = Hello(
            versions=versions,
            name=name,
            resume_token=resume.token,
            last_seq=resume.last_seq,
            bot=bot,
        )
        session.resume_token = resume.token
        session.last_seq = resume.last_seq
    try:
        with trio.fail_after(greet_seconds):
            welcome = await session.handshake(hello)
        if resume is not None and not welcome.resumed:
            # The server has no seat for that token: we are in its lobby, not at a table.
            session.resume_token = None
            session.last_seq = 0
        async with trio.open_nursery() as nursery:
            nursery.start_soon(session.receive_loop)
            try:
                yield session
            finally:
                await session.aclose()
    finally:
        if not session.closed:
            await session.aclose()


@asynccontextmanager
async def connect(
    host: str,
    port: int,
    name: str,
    *,
    resume: ResumeState | None = None,
    versions: tuple[str, ...] = SUPPORTED_VERSIONS,
    bot: bool = False,
) -> AsyncIterator[ClientSession]:
    """Open a TCP connection to ``host:port`` and a session over it (see open_session)."""
    stream = await trio.open_tcp_stream(host, port)
    async with open_session(stream, name, resume=resume, versions=versions, bot=bot) as session:
        yield session


def percentile(values: Collection[float], fraction: float) -> float:
    """The nearest-rank percentile of ``values`` (0 for none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]
