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
(so the connection's state machine sees messages in the order the server meant them).
``hold`` encodes too, but keeps the frames for the next ``send``: a table holds a move's
events for a seat until that seat's view is ready, and both leave in one write.
When nothing waits ahead of the frame, it is written to the socket there and then, if the
kernel takes it without waiting (on POSIX, for a TCP stream): a move reaches its sender in
the table's own step, with no task switch. Otherwise the frame joins a bounded outbox,
which ONE writer task drains to the socket. A full outbox means the client cannot keep
up; the session closes itself with ``too-slow`` rather than make a table wait.

The writer also writes the last words (an error, or ``closing`` on shutdown), so a frame
is never cut in half by another frame: ending the session closes the outbox, the writer
skips what is queued (or drains it, on a graceful shutdown), writes the last words and
stops. A deadline bounds that last write, for a client that reads nothing at all.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import math
import os
from collections import deque
from dataclasses import dataclass
from typing import Protocol

import trio

from protocol.connection import ConnectionState, ServerConnection
from protocol.errors import ErrorCode, LocalProtocolError, ProtocolError, RemoteProtocolError
from protocol.limits import MAX_MESSAGE_LEN
from protocol.messages import Bye, Closing, Error, Hello, Message, Ping, Pong, Welcome
from protocol.version import Version, parse_version
from server.limits import MessageAllowance, SessionLimits
from server.peer import Peer

__all__ = ["LobbyPort", "ServerIdentity", "Session", "refuse_connection"]

log = logging.getLogger("uno.server.session")

# Bytes asked of the stream per read. A frame is at most 64 KiB plus its header; reading
# in chunks of this size keeps what the connection buffers bounded.
_READ_SIZE = 16 * 1024

# Bytes of queued frames the writer joins into one write (a batch may end one frame past it).
_WRITE_BATCH = 64 * 1024


class LobbyPort(Protocol):
    """What a session needs of the lobby (``server.lobby.Lobby`` provides it)."""

    async def handle(self, peer: Peer, message: Message) -> None:
        """Act on one message from ``peer``; replies go back through ``peer.send``."""

    def disconnected(self, peer: Peer) -> None:
        """``peer``'s connection is gone."""

    def resume(self, peer: Peer, token: str, last_seq: int) -> bool:
        """Give ``peer`` the seat a hello's resume token opens (no reply); False if none."""


@dataclass(frozen=True, slots=True)
class ServerIdentity:
    """Who the server says it is in every welcome."""

    name: str
    """Display name, at most 32 characters."""
    server_id: str
    """Random id of this server process."""
    version: str
    """The package version."""
    features: tuple[str, ...] = ()
    """Optional abilities, by name."""


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
        self._stream = stream
        self._lobby = lobby
        self._identity = identity
        self._limits = limits
        self._conn = ServerConnection()
        self._negotiated: Version | None = None
        self._outbox: deque[bytes] = deque()
        self._held: list[bytes] = []  # frames that leave with the next send (``hold``)
        self._outbox_closed = False
        self._writer_waits = trio.lowlevel.ParkingLot()  # the writer, while the outbox is empty
        self._writer_busy = False  # the writer holds frames taken from the outbox
        self._fd = _direct_fd(stream)
        self._reader_scope = trio.CancelScope()
        self._writer_scope = trio.CancelScope()
        self._welcomed = False
        self._closing = False
        self._skip_queued = False
        self._last_words: bytes | None = None
        self._why = "the connection ended"
        self._done = trio.Event()
        self._written = trio.Event()  # set by the writer after each write

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
        frames = self._encode(messages)
        if self._held:
            frames[:0] = self._held
            self._held = []
        if frames and not self._outbox and not self._writer_busy and self._fd is not None:
            rest = self._write_now(self._fd, frames[0] if len(frames) == 1 else b"".join(frames))
            frames = [rest] if rest else []
        for frame in frames:
            if len(self._outbox) >= self._limits.outbox_size:
                self.close(
                    ErrorCode.TOO_SLOW,
                    f"you did not read {self._limits.outbox_size} messages in time; "
                    "reconnect and resume your seat",
                )
                return
            self._outbox.append(frame)
        if frames:
            self._writer_waits.unpark()

    def hold(self, *messages: Message) -> None:
        """Encode ``messages`` now, in order, and write them with the next ``send``."""
        if self._closing or self._conn.state is ConnectionState.CLOSED:
            return
        self._held.extend(self._encode(messages))

    def _encode(self, messages: tuple[Message, ...]) -> list[bytes]:
        """The frames of ``messages``, leaving out what the client's version lacks."""
        frames: list[bytes] = []
        for message in messages:
            if not self._speaks(message):
                continue  # a message newer than the client's version: optional, not sent
            try:
                frames.append(self._conn.send(message))
            except LocalProtocolError as error:
                # The server tried to say something the protocol forbids: a bug on our
                # side. Dropping the message keeps the table that sent it alive.
                log.error("%r: not sent, the server broke the protocol: %s", self, error)
        return frames

    def _write_now(self, fd: int, frame: bytes) -> bytes:
        """Write what the socket takes of ``frame`` without waiting; return the rest.

        Only called with nothing queued and the writer idle, so nothing can overtake an
        earlier frame. A full socket buffer or a broken connection writes nothing: the
        frame goes to the writer, which waits for room or finds the connection lost.
        """
        try:
            written = os.write(fd, frame)
        except OSError:
            return frame
        return frame[written:]

    def _speaks(self, message: Message) -> bool:
        """Whether the negotiated version has ``message`` (every message added by a minor
        version is optional, such as ``left`` in 1.1)."""
        negotiated = self._negotiated
        if negotiated is None:
            version = self._conn.version
            if version is None:
                return True
            # Parsed once: this runs for every frame the server sends.
            negotiated = self._negotiated = parse_version(version)
            if negotiated is None:
                return True
        return negotiated >= message.SINCE

    def close(self, code: ErrorCode, reason: str) -> None:
        """Send an ``error`` with ``code`` and ``reason`` as the last message, then close."""
        self._finish(Error(code=code.value, message=reason[:MAX_MESSAGE_LEN]), reason, code)

    # --- for the server ------------------------------------------------------------------

    @property
    def welcomed(self) -> bool:
        """Whether the handshake completed."""
        return self._welcomed

    @property
    def done(self) -> trio.Event:
        """Set once the session has ended and its socket is closed."""
        return self._done

    def shut_down(self, reason: str, deadline: float = math.inf) -> None:
        """The server is stopping: flush what is queued, then ``closing``, then close.

        Nothing is written after ``deadline`` (trio time; default ``last_write_seconds``
        from now); a connection that has not drained by then is cut.
        """
        if deadline == math.inf:
            deadline = trio.current_time() + self._limits.last_write_seconds
        self._writer_scope.deadline = min(self._writer_scope.deadline, deadline)
        if self._closing:
            return
        last = self._encode_last_words(Closing(reason=reason[:MAX_MESSAGE_LEN]))
        self._end(last, f"the server is shutting down ({reason})", skip_queued=False)

    async def run(self) -> None:
        """Serve the connection until it ends. Never raises for anything the client does."""
        log.info("connection from %s (#%d)", self.address, self.peer_id)
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._write_outbox)
                with self._reader_scope:
                    await self._read_messages()
                # The reader is done. Unless the session was closed (the writer then has
                # last words to say), the client is gone and there is nothing to say.
                self._end(None, self._why)
        except Exception:
            log.exception("%r: session failed", self)
            self._why = "the server failed (internal-error; see the log above)"
        finally:
            # Before the socket closes: its descriptor number may soon belong to another.
            self._closing = True
            self._fd = None
            with trio.CancelScope(shield=True):
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
        """Read no further while half the outbox still waits to be written.

        A client that sends many requests in one go (pings, say) would otherwise have every
        reply queued before the writer runs once, and be cut off as too slow although it
        reads. Pausing the reader pushes back on the sender through TCP instead. A client
        that stops reading altogether is still cut off: by the fan-out of its table filling
        the outbox, or here, when nothing is written for the idle timeout.
        """
        half = self._limits.outbox_size // 2
        while len(self._outbox) > half:
            self._written = trio.Event()
            with trio.move_on_after(self._limits.idle_timeout_seconds):
                await self._written.wait()
                continue
            self.close(ErrorCode.TOO_SLOW, "its replies were not read")
            return

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
        session with ``idle-timeout`` if nothing at all arrives for too long.
        """
        while True:
            message = self._conn.next_message()
            if message is not None:
                return message
            if self._conn.state is ConnectionState.CLOSED:
                return None
            with trio.move_on_after(self._limits.idle_timeout_seconds) as idle:
                data = await self._stream.receive_some(_READ_SIZE)
            if idle.cancelled_caught:
                self.close(
                    ErrorCode.IDLE_TIMEOUT,
                    f"nothing received for {self._limits.idle_timeout_seconds:g} s",
                )
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
        version = self._conn.version
        assert version is not None, "the connection negotiates the version on hello"
        # The welcome must go out before anything a resumed seat's table sends. The lobby
        # only queues the resume in the table's inbox, and nothing here awaits between
        # the two, so the table cannot act before the welcome is queued.
        resumed = False
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

    async def _write_outbox(self) -> None:
        """The one writer: frames from the outbox to the socket in order, then last words."""
        with self._writer_scope:
            try:
                while True:
                    while not self._outbox and not self._outbox_closed:
                        await self._writer_waits.park()
                    if not self._outbox or self._skip_queued:
                        break
                    self._writer_busy = True
                    await self._stream.send_all(self._take_batch())
                    self._writer_busy = False
                    self._written.set()
                if self._last_words is not None:
                    await self._stream.send_all(self._last_words)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                if not self._closing:
                    self._why = "the connection was lost"
        # Written out, cut off by the deadline, or the socket broke: the session is over.
        self._closing = True
        self._reader_scope.cancel()

    def _take_batch(self) -> bytes:
        """The queued frames, oldest first, up to ``_WRITE_BATCH`` bytes, as one write.

        A client that was slow to read has several frames waiting; writing them in one call
        saves a system call and a wake-up of its reader per frame.
        """
        outbox = self._outbox
        batch = [outbox.popleft()]
        size = len(batch[0])
        while outbox and size < _WRITE_BATCH:
            batch.append(outbox.popleft())
            size += len(batch[-1])
        return batch[0] if len(batch) == 1 else b"".join(batch)

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

    def _end(self, frame: bytes | None, why: str, *, skip_queued: bool = True) -> None:
        """Stop reading, and have the writer say ``frame`` last: at once, skipping what is
        queued or held, within ``last_write_seconds``; or after flushing the queue and
        what is held (a shutdown, whose deadline ``shut_down`` has set)."""
        if self._closing:
            return
        self._closing = True
        self._skip_queued = skip_queued
        if not skip_queued:
            self._outbox.extend(self._held)
        self._held = []
        self._last_words = frame
        self._why = why
        if skip_queued:
            self._writer_scope.deadline = min(
                self._writer_scope.deadline,
                trio.current_time() + self._limits.last_write_seconds,
            )
        self._outbox_closed = True
        self._writer_waits.unpark_all()
        self._reader_scope.cancel()

    def _encode_last_words(self, message: Message) -> bytes | None:
        try:
            return self._conn.send(message)
        except LocalProtocolError:
            # Already closed from the protocol's point of view (the client said bye).
            return None


def _direct_fd(stream: trio.abc.Stream) -> int | None:
    """The socket's descriptor, if frames may be written to it directly (a TCP stream, on
    POSIX, where ``os.write`` on a socket is ``send``); None sends everything through the
    writer task (in-memory streams, Windows)."""
    if os.name != "posix" or not isinstance(stream, trio.SocketStream):
        return None
    return stream.socket.fileno()


async def refuse_connection(
    stream: trio.abc.Stream, code: ErrorCode, reason: str, timeout: float
) -> None:
    """Tell a connection it is not served (``code``, ``reason``), then close it."""
    frame = ServerConnection().send(Error(code=code.value, message=reason[:MAX_MESSAGE_LEN]))
    with trio.move_on_after(timeout):
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
            await stream.send_all(frame)
    await trio.aclose_forcefully(stream)
