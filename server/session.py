"""One client connection: the handshake, the reader, the one writer, and every way it ends.

A ``Session`` owns a byte stream and a sans-IO ``ServerConnection``. Its life:

1. The handshake: the client has ``handshake_seconds`` to send its hello. The connection
   negotiates the version; the session answers ``welcome`` (or the typed error).
2. The conversation: the reader decodes what arrives and hands every message except
   ping/pong/bye to the lobby, in order, spending one unit of the client's message
   allowance each. A keepalive task pings; silence for ``idle_timeout_seconds`` ends it.
3. The end: by the client (bye, or the socket closing), by a protocol error, by a limit,
   or by the server shutting down. The lobby hears ``disconnected`` exactly once.

Everything the server says goes through ``send``, which never blocks: it encodes at once
(so the connection's state machine sees messages in the order the server meant them) and
hands the frames to the session's ``FrameWriter`` (server/writer.py): straight to the
socket when nothing waits ahead of them, else into a bounded outbox that one writer task
drains. ``hold`` encodes too, but keeps the frames for the next ``send``: a table holds a
move's events for a seat until that seat's view is ready, and both leave in one write. An
outbox full in messages or in bytes means the client cannot keep up; the session closes
itself with ``too-slow`` rather than make a table wait.

Ending the session hands the writer its last words (an error, or ``closing`` on
shutdown): it drops what is queued (or flushes it, on a graceful shutdown), writes them
under a deadline and stops, and the session closes the socket: politely for a refusal at
the door (an error before any welcome, server/polite_close.py), so the client reads it.

Why this module is long: the handshake, the reader, the writer and the ways a connection
ends share one state (what has been said, what is queued, which ending applies), so they
stay in the one object that owns it.
"""

from __future__ import annotations

import itertools
import logging
import math
from collections.abc import Callable

import trio

from protocol.compat import CURRENT, for_version
from protocol.connection import ConnectionState, ServerConnection
from protocol.errors import ErrorCode, LocalProtocolError, ProtocolError, RemoteProtocolError
from protocol.limits import MAX_MESSAGE_LEN
from protocol.messages import Bye, Closing, Error, Hello, Message, Ping, Pong, Welcome
from protocol.version import Version, parse_version
from server.identity import ServerIdentity
from server.limits import MessageAllowance, SessionLimits
from server.outbox import OutboxFull
from server.peer import LobbyPort
from server.polite_close import close_politely
from server.socket_writer import SocketWriter
from server.writer import FrameWriter, OffersDirectWrite

__all__ = ["Session"]

log = logging.getLogger("uno.server.session")

# Bytes asked of the stream per read. A frame is at most 64 KiB plus its header; reading
# in chunks of this size keeps what the connection buffers bounded.
_READ_SIZE = 16 * 1024


class Session:
    """One client connection; implements ``server.peer.Peer``."""

    def __init__(
        self,
        stream: trio.abc.Stream,
        *,
        peer_id: int,
        address: str,
        lobby: LobbyPort,
        identity: ServerIdentity,
        limits: SessionLimits,
    ) -> None:
        self.peer_id = peer_id
        self.address = address
        self.name = ""
        self.bot = False
        self._stream = stream
        self._lobby = lobby
        self._identity = identity
        self._limits = limits
        self._conn = ServerConnection()
        self._negotiated: Version | None = None
        self._writer = FrameWriter(
            stream,
            stream.direct_writer()
            if isinstance(stream, OffersDirectWrite)
            else SocketWriter.for_stream(stream),
            max_messages=limits.outbox_size,
            max_bytes=limits.outbox_bytes,
            last_write_seconds=limits.last_write_seconds,
        )
        self._reader_scope = trio.CancelScope()
        self._welcomed = False
        self._refused = False  # ended with last words before any welcome (at the door)
        self._closing = False
        self._why = "the connection ended"
        self._done = trio.Event()

    def __repr__(self) -> str:
        shown = f" {self.name!r}" if self.name else ""
        return f"#{self.peer_id}{shown} from {self.address}"

    # --- the Peer contract ---------------------------------------------------------------

    def send(self, *messages: Message) -> None:
        """Send ``messages`` to the client in order; never blocks (see the module docstring).

        Several messages at once (a move's events) go out in one write when they can, with
        any frames held before them (``hold``) first.
        """
        if self._closing or self._conn.state is ConnectionState.CLOSED:
            return  # the client is gone or going; what it misses, it may resume
        try:
            self._writer.send(self._encode(messages))
        except OutboxFull as full:
            self.close(
                ErrorCode.TOO_SLOW,
                f"you did not read {full.what} in time; reconnect and resume your seat",
            )

    def hold(self, *messages: Message) -> None:
        """Encode ``messages`` now, in order, and write them with the next ``send``."""
        if self._closing or self._conn.state is ConnectionState.CLOSED:
            return
        self._writer.hold(self._encode(messages))

    def when_drained(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` once the outbox is empty (``FrameWriter.when_drained``)."""
        if self._closing or self._conn.state is ConnectionState.CLOSED:
            return
        self._writer.when_drained(callback)

    def _encode(self, messages: tuple[Message, ...]) -> list[bytes]:
        """The frames of ``messages``, leaving out what the client's version lacks."""
        frames: list[bytes] = []
        for message in messages:
            spoken = self._as_spoken(message)
            if spoken is None:
                continue  # newer than the client's version (all such are optional)
            try:
                frames.append(self._conn.send(spoken))
            except LocalProtocolError as error:
                # The server tried to say something the protocol forbids: a bug on our
                # side. Dropping the message keeps the table that sent it alive.
                log.error("%r: not sent, the server broke the protocol: %s", self, error)
        return frames

    def _as_spoken(self, message: Message) -> Message | None:
        """``message`` as the negotiated version has it (protocol/compat.py), or None."""
        negotiated = self._negotiated
        return message if negotiated is None else for_version(message, negotiated)

    def close(self, code: ErrorCode, reason: str) -> None:
        """Send an ``error`` with ``code`` and ``reason`` as the last message, then close."""
        self._finish(Error(code=code.value, message=reason[:MAX_MESSAGE_LEN]), reason, code)

    # --- for the server ------------------------------------------------------------------

    @property
    def version(self) -> Version:
        """The version the hello negotiated (the newest before the hello)."""
        return CURRENT if self._negotiated is None else self._negotiated

    @property
    def welcomed(self) -> bool:
        """Whether the handshake completed."""
        return self._welcomed

    @property
    def done(self) -> trio.Event:
        """Set once the session has ended and its socket is closed."""
        return self._done

    @property
    def queued_bytes(self) -> int:
        """Bytes waiting in the outbox for the writer task (for logs and tests)."""
        return self._writer.queued_bytes

    def shut_down(self, reason: str, deadline: float = math.inf) -> None:
        """The server is stopping: flush what is queued, then ``closing``, then close.

        Nothing is written after ``deadline`` (trio time; default ``last_write_seconds``
        from now); a connection that has not drained by then is cut.
        """
        if deadline == math.inf:
            deadline = trio.current_time() + self._limits.last_write_seconds
        self._writer.limit(deadline)
        if self._closing:
            return
        last = self._encode_last_words(Closing(reason=reason[:MAX_MESSAGE_LEN]))
        self._end(last, f"the server is shutting down ({reason})", flush=True)

    async def run(self) -> None:
        """Serve the connection until it ends. Never raises for anything the client does."""
        log.info("connection from %s (#%d)", self.address, self.peer_id)
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._write)
                with self._reader_scope:
                    await self._read_messages()
                # The reader is done. Unless the session was closed (the writer then has
                # last words to say), the client is gone and there is nothing to say.
                self._end(None, self._why)
        except Exception:
            log.exception("%r: session failed", self)
            self._why = "the server failed (internal-error; see the log above)"
        finally:
            # Before the socket closes: nothing may be written to it after.
            self._closing = True
            self._writer.detach()
            with trio.CancelScope(shield=True):
                if self._refused:
                    # Refused at the door: the client reads why before the end.
                    deadline = trio.current_time() + self._limits.last_write_seconds
                    await close_politely(self._stream, deadline)
                else:
                    await trio.aclose_forcefully(self._stream)
            self._conn.close()
            if self._welcomed:
                try:
                    self._lobby.disconnected(self)
                except Exception:
                    log.exception("%r: the lobby failed to handle the disconnection", self)
            log.info("%r disconnected: %s", self, self._why)
            self._done.set()

    # --- reading -------------------------------------------------------------------------

    async def _read_messages(self) -> None:
        """Read until the client leaves or the session is closed."""
        async with trio.open_nursery() as nursery:
            try:
                await self._converse(nursery)
            except RemoteProtocolError as error:
                self._fail(error)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                if not self._closing:
                    self._why = "the connection was lost"
            nursery.cancel_scope.cancel()  # the keepalive

    async def _converse(self, nursery: trio.Nursery) -> None:
        """The handshake, then every message in turn; keepalive runs in ``nursery``."""
        with trio.move_on_after(self._limits.handshake_seconds) as handshake:
            hello = await self._receive()
        if handshake.cancelled_caught:
            self.close(
                ErrorCode.HANDSHAKE_TIMEOUT,
                f"no hello within {self._limits.handshake_seconds:g} s",
            )
            return
        if hello is None:
            return
        # The connection admits only a hello first (anything else raised above).
        assert isinstance(hello, Hello)
        self._welcome(hello)
        nursery.start_soon(self._keep_alive)
        allowance = MessageAllowance(
            self._limits.allowance_rate, self._limits.allowance_burst, trio.current_time()
        )
        while True:
            await self._wait_for_room()
            message = await self._receive()
            if message is None:
                return
            if not allowance.take(trio.current_time()):
                self.close(
                    ErrorCode.RATE_LIMITED,
                    f"more than {self._limits.allowance_rate:g} messages a second",
                )
                return
            if isinstance(message, Ping):
                self.send(Pong(nonce=message.nonce))
            elif isinstance(message, Pong):
                pass
            elif isinstance(message, Bye):
                self._why = "left" + (f" ({message.reason})" if message.reason else "")
                return
            else:
                await self._hand_to_lobby(message)

    async def _wait_for_room(self) -> None:
        """Read no further while half the outbox (in messages or bytes) waits to be written.

        A client that sends many requests in one go (pings, say) would otherwise have every
        reply queued before the writer runs once, and be cut off as too slow although it
        reads. Pausing the reader pushes back on the sender through TCP instead. A client
        that stops reading altogether is still cut off: by the fan-out of its table filling
        the outbox, or here, when nothing is written for the idle timeout.
        """
        if not await self._writer.wait_for_room(self._limits.idle_timeout_seconds):
            self.close(ErrorCode.TOO_SLOW, "its replies were not read")

    async def _hand_to_lobby(self, message: Message) -> None:
        try:
            await self._lobby.handle(self, message)
        except Exception:
            # A bug behind the lobby must not take the server down; this client is told.
            log.exception("%r: the lobby failed on %s", self, message.TYPE)
            self.close(ErrorCode.INTERNAL_ERROR, f"the server failed on {message.TYPE}")

    async def _receive(self) -> Message | None:
        """The next message, or None once the client has closed its end.

        Raises RemoteProtocolError for anything the protocol refuses, and closes the
        session with ``idle-timeout`` if no whole message arrives for too long, or a frame
        begun is not finished in time (bytes alone never keep a connection open).
        """
        limits = self._limits
        idle_deadline = trio.current_time() + limits.idle_timeout_seconds
        frame_deadline = math.inf
        while True:
            message = self._conn.next_message()
            if message is not None:
                return message
            if self._conn.state is ConnectionState.CLOSED:
                return None
            if not self._conn.partial_frame:
                frame_deadline = math.inf
            elif frame_deadline == math.inf:
                frame_deadline = trio.current_time() + limits.frame_seconds
            with trio.move_on_at(min(idle_deadline, frame_deadline)) as waited:
                data = await self._stream.receive_some(_READ_SIZE)
            if waited.cancelled_caught:
                if frame_deadline < idle_deadline:
                    why = f"a frame was not finished within {limits.frame_seconds:g} s"
                else:
                    why = f"no message received for {limits.idle_timeout_seconds:g} s"
                self.close(ErrorCode.IDLE_TIMEOUT, why)
                return None
            if not data:
                if not self._closing:
                    self._why = "the client closed the connection"
                # A frame cut off by the hang-up is a protocol error: answered (if the
                # client still reads) and logged like any other, by ``_read_messages``.
                self._conn.end_of_stream()
                self._conn.close()
                return None
            self._conn.receive_data(bytes(data))

    def _welcome(self, hello: Hello) -> None:
        self.name = hello.name
        self.bot = hello.bot
        version = self._conn.version
        assert version is not None, "the connection negotiates the version on hello"
        self._negotiated = parse_version(version)  # once: every frame sent is judged by it
        # The welcome must go out before anything a resumed seat's table sends. The lobby
        # only queues the resume in the table's inbox, and nothing here awaits between
        # the two, so the table cannot act before the welcome is queued.
        resumed = False
        self._lobby.arrived(self)
        if hello.resume_token is not None:
            resumed = self._lobby.resume(self, hello.resume_token, hello.last_seq or 0)
        self.send(
            Welcome(
                version=version,
                server_name=self._identity.name,
                server_id=self._identity.server_id,
                server_version=self._identity.version,
                features=self._identity.features,
                resumed=resumed,
                web_port=self._identity.web_port,
                table_defaults=self._identity.table_defaults,
            )
        )
        self._welcomed = True
        log.info(
            "%r said hello (protocol %s)%s",
            self,
            version,
            ", resuming a seat" if resumed else "",
        )

    async def _keep_alive(self) -> None:
        for nonce in itertools.count():
            await trio.sleep(self._limits.ping_interval_seconds)
            self.send(Ping(nonce=nonce % 2**32))

    # --- writing -------------------------------------------------------------------------

    async def _write(self) -> None:
        """The writer task; when it stops (written out, cut off, or the socket broke), the
        session is over."""
        if await self._writer.run() and not self._closing:
            self._why = "the connection was lost"
        self._closing = True
        self._reader_scope.cancel()

    # --- ending --------------------------------------------------------------------------

    def _fail(self, error: ProtocolError) -> None:
        """The client broke the protocol: answer with the typed error, then close."""
        log.info("%r broke the protocol: %s", self, error)
        try:
            frame: bytes | None = self._conn.send_error(error)
        except LocalProtocolError:
            frame = None
        self._end(frame, f"{error.message} ({error.code.value})")

    def _finish(self, last: Message, reason: str, code: ErrorCode) -> None:
        if self._closing:
            return
        self._end(self._encode_last_words(last), f"{reason} ({code.value})")

    def _end(self, frame: bytes | None, why: str, *, flush: bool = False) -> None:
        """Stop reading, and have the writer say ``frame`` last: at once, dropping what is
        queued or held, within ``last_write_seconds``; or, with ``flush``, after what is
        queued and held (a shutdown, whose deadline ``shut_down`` has set)."""
        if self._closing:
            return
        self._closing = True
        self._why = why
        self._refused = frame is not None and not self._welcomed
        self._writer.finish(frame, flush=flush)
        self._reader_scope.cancel()

    def _encode_last_words(self, message: Message) -> bytes | None:
        spoken = self._as_spoken(message)  # an error code newer than the peer's version
        if spoken is None:
            return None
        try:
            return self._conn.send(spoken)
        except LocalProtocolError:
            # Already closed from the protocol's point of view (the client said bye).
            return None
