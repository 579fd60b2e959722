"""The protocol as a sans-IO state machine, one object per connection (like h11).

Bytes in, typed messages out; typed messages in, bytes out. The object never touches a
socket or a clock: the server's and the client's Trio code feed it what they read and
write what it returns::

    conn = ServerConnection()
    conn.receive_data(chunk)                 # whatever the stream gave
    while (message := conn.next_message()) is not None:
        ...                                  # may raise RemoteProtocolError
    await stream.send_all(conn.send(reply))  # may raise LocalProtocolError

When ``next_message`` raises RemoteProtocolError, send ``conn.send_error(error)`` and
close; every later call raises the same error. When the transport ends, call
``end_of_stream()``: it raises the same way if the peer hung up in the middle of a
frame. Read in bounded chunks and drain ``next_message`` before reading more: the
connection buffers whatever it is given.

The state machine
-----------------

Both ends track one shared state, because the conversation has exactly one handshake::

    AWAIT_HELLO --client: hello--> AWAIT_WELCOME --server: welcome--> READY
         |                              |                               |
         +-- server: error/closing -----+-- server: error/closing ------+--> CLOSED
         +-- client: bye ---------------+-- client: bye ----------------+

- AWAIT_HELLO: the client must speak first, and only with hello. Anything else from it is
  ``hello-required``; the server may only refuse the connection (error or closing).
- AWAIT_WELCOME: the server answers with welcome (the version both speak) or with an
  error (``unsupported-version`` lists its versions). The client waits.
- READY: the lobby, a table and the game all live here; which of those the client is in
  is the server's business, not the protocol's. A second hello is ``duplicate-hello``, a
  second welcome ``unexpected-message``.
- CLOSED: after error, closing or bye, in either direction, or ``close()``. Nothing is
  sent any more, and bytes that arrive are dropped (they were in flight).

``_TRANSITIONS`` below is that diagram as data: for a state and a sender, the state each
message leads to. ``Message`` is the row's default for every type not named in it; None
means "not allowed here".

Besides the states, the connection checks the command-reply rule: every ``Request`` id is
unique among those still waiting, at most ``MAX_PENDING_REQUESTS`` wait at once, and each
gets exactly one ``Ok`` or ``Rejected``.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum

from protocol.codec import decode_body
from protocol.errors import ErrorCode, LocalProtocolError, ProtocolError, RemoteProtocolError
from protocol.framing import FrameDecoder
from protocol.limits import MAX_ID, MAX_MESSAGE_LEN, MAX_PENDING_REQUESTS
from protocol.messages import (
    Bye,
    Closing,
    Error,
    Hello,
    Message,
    Ok,
    Rejected,
    Request,
    Sender,
    Welcome,
    message_class,
    message_from_data,
)
from protocol.version import SUPPORTED_VERSIONS, Version, choose_version, parse_version

__all__ = ["ClientConnection", "Connection", "ConnectionState", "ServerConnection"]


class ConnectionState(Enum):
    """Where a connection is in its life; see the module docstring."""

    AWAIT_HELLO = "await-hello"
    AWAIT_WELCOME = "await-welcome"
    READY = "ready"
    CLOSED = "closed"


_S = ConnectionState
_CLIENT, _SERVER = Sender.CLIENT, Sender.SERVER
_Row = dict[type[Message], ConnectionState | None]

_TRANSITIONS: dict[tuple[ConnectionState, Sender], _Row] = {
    (_S.AWAIT_HELLO, _CLIENT): {Hello: _S.AWAIT_WELCOME, Bye: _S.CLOSED, Message: None},
    (_S.AWAIT_HELLO, _SERVER): {Error: _S.CLOSED, Closing: _S.CLOSED, Message: None},
    (_S.AWAIT_WELCOME, _CLIENT): {Bye: _S.CLOSED, Message: None},
    (_S.AWAIT_WELCOME, _SERVER): {
        Welcome: _S.READY,
        Error: _S.CLOSED,
        Closing: _S.CLOSED,
        Message: None,
    },
    (_S.READY, _CLIENT): {Hello: None, Bye: _S.CLOSED, Message: _S.READY},
    (_S.READY, _SERVER): {Welcome: None, Error: _S.CLOSED, Closing: _S.CLOSED, Message: _S.READY},
}


def _refusal_code(state: ConnectionState, sender: Sender, message: Message) -> ErrorCode:
    """The error code for ``sender`` sending ``message`` in ``state``, which the table
    does not allow."""
    if isinstance(message, Hello):
        return ErrorCode.DUPLICATE_HELLO
    if state is ConnectionState.AWAIT_HELLO and sender is Sender.CLIENT:
        return ErrorCode.HELLO_REQUIRED
    return ErrorCode.UNEXPECTED_MESSAGE


class Connection:
    """One end of a connection. Use ServerConnection or ClientConnection."""

    our_role: Sender
    their_role: Sender

    def __init__(self) -> None:
        self._state = ConnectionState.AWAIT_HELLO
        self._frames = FrameDecoder()
        self._version: str | None = None
        self._parsed_version: Version | None = None
        self._pending: set[int] = set()
        self._failure: RemoteProtocolError | None = None

    @property
    def state(self) -> ConnectionState:
        """Where the connection is; see the module docstring."""
        return self._state

    @property
    def version(self) -> str | None:
        """The negotiated version; None until the hello (server) or welcome (client)."""
        return self._version

    @property
    def pending_requests(self) -> frozenset[int]:
        """Ids of the commands sent and not yet answered."""
        return frozenset(self._pending)

    def receive_data(self, data: bytes) -> None:
        """Hand over bytes read from the transport (any amount, any split)."""
        if self._state is not ConnectionState.CLOSED:
            self._frames.feed(data)

    @property
    def partial_frame(self) -> int:
        """Bytes received that do not make a whole frame yet (0 between frames)."""
        return self._frames.buffered

    def end_of_stream(self) -> None:
        """The peer closed its end of the transport; call it once ``next_message`` has
        handed out every whole message.

        A stream that ends in the middle of a frame raises RemoteProtocolError
        (``malformed-frame``): the connection is still open, so ``send_error`` can answer
        it (best effort: the peer may not read any more). A stream that ends between
        frames raises nothing. Either way, ``close()`` follows.
        """
        if self._failure is not None or self._state is ConnectionState.CLOSED:
            return
        cut = self._frames.buffered
        if cut:
            self._failure = RemoteProtocolError(
                ErrorCode.MALFORMED_FRAME,
                f"the stream ended in the middle of a frame ({cut} bytes of it arrived)",
            )
            raise self._failure

    def next_message(self) -> Message | None:
        """The next complete message, or None until more bytes arrive (always None once
        closed). Raises RemoteProtocolError, whose ``code`` is the answer to send."""
        if self._failure is not None:
            raise self._failure
        if self._state is ConnectionState.CLOSED:
            return None
        try:
            body = self._frames.next_frame()
            if body is None:
                return None
            message = message_from_data(decode_body(body), self.their_role, self._version)
            self._advance(message, self.their_role, RemoteProtocolError)
            self._on_received(message)
        except RemoteProtocolError as error:
            self._failure = error
            raise
        return message

    def send(self, message: Message) -> bytes:
        """The bytes to write for ``message``; raises LocalProtocolError (and changes
        nothing) if this side may not send it now."""
        if self._state is ConnectionState.CLOSED:
            raise LocalProtocolError(
                ErrorCode.UNEXPECTED_MESSAGE, f"cannot send {message.TYPE}: connection closed"
            )
        if message_class(self.our_role, message.TYPE) is not type(message):
            raise LocalProtocolError(
                ErrorCode.UNKNOWN_MESSAGE, f"a {self.our_role.value} never sends {message.TYPE}"
            )
        negotiated = self._negotiated()
        if negotiated is not None and negotiated < message.SINCE:
            raise LocalProtocolError(
                ErrorCode.UNKNOWN_MESSAGE, f"{message.TYPE} is not in version {self._version}"
            )
        self._check_send(message)
        data = message.frame()
        self._advance(message, self.our_role, LocalProtocolError)
        self._on_sent(message)
        return data

    def close(self) -> None:
        """Mark the connection closed (the transport ended); nothing more is sent."""
        self._state = ConnectionState.CLOSED
        self._pending.clear()

    # --- shared machinery ----------------------------------------------------------------

    def _negotiated(self) -> Version | None:
        """The negotiated version parsed (once: this runs for every frame sent)."""
        if self._parsed_version is None and self._version is not None:
            self._parsed_version = parse_version(self._version)
        return self._parsed_version

    def _advance(self, message: Message, sender: Sender, error: type[ProtocolError]) -> None:
        row = _TRANSITIONS.get((self._state, sender), {})
        following = row.get(type(message), row.get(Message))
        if following is None:
            raise error(
                _refusal_code(self._state, sender, message),
                f"{sender.value} may not send {message.TYPE} in state {self._state.value}",
            )
        self._state = following
        if following is ConnectionState.CLOSED:
            self._pending.clear()

    def _check_send(self, message: Message) -> None:
        """Raise LocalProtocolError if ``message`` breaks a rule beyond the state table."""

    def _on_sent(self, message: Message) -> None:
        """Bookkeeping after ``message`` was sent."""

    def _on_received(self, message: Message) -> None:
        """Bookkeeping after ``message`` arrived; may raise RemoteProtocolError."""


class ServerConnection(Connection):
    """The server's end: decodes client messages, negotiates the version on hello."""

    our_role = Sender.SERVER
    their_role = Sender.CLIENT

    def __init__(self, supported_versions: Iterable[str] = SUPPORTED_VERSIONS) -> None:
        super().__init__()
        self.supported_versions: tuple[str, ...] = tuple(supported_versions)
        """The versions this server speaks, as listed in unsupported-version errors."""

    def send_error(self, error: ProtocolError) -> bytes:
        """The bytes of the ``error`` message answering ``error``; the connection closes."""
        return self.send(
            Error(
                code=error.code,
                message=error.message[:MAX_MESSAGE_LEN],
                versions=error.versions,
            )
        )

    def _on_received(self, message: Message) -> None:
        if isinstance(message, Hello):
            chosen = choose_version(message.versions, self.supported_versions)
            if chosen is None:
                raise RemoteProtocolError(
                    ErrorCode.UNSUPPORTED_VERSION,
                    f"this server speaks {', '.join(self.supported_versions)}",
                    versions=self.supported_versions,
                )
            self._version = chosen
        elif isinstance(message, Request):
            if message.id in self._pending:
                raise RemoteProtocolError(
                    ErrorCode.DUPLICATE_ID, f"command id {message.id} is still waiting"
                )
            if len(self._pending) >= MAX_PENDING_REQUESTS:
                raise RemoteProtocolError(
                    ErrorCode.RATE_LIMITED,
                    f"more than {MAX_PENDING_REQUESTS} commands waiting for a reply",
                )
            self._pending.add(message.id)

    def _check_send(self, message: Message) -> None:
        if isinstance(message, Welcome) and message.version != self._version:
            raise LocalProtocolError(
                ErrorCode.BAD_MESSAGE,
                f"welcome must name the negotiated version {self._version}",
            )
        if isinstance(message, Ok | Rejected) and message.id not in self._pending:
            raise LocalProtocolError(
                ErrorCode.UNKNOWN_ID, f"no command {message.id} is waiting for a reply"
            )

    def _on_sent(self, message: Message) -> None:
        if isinstance(message, Ok | Rejected):
            self._pending.discard(message.id)


class ClientConnection(Connection):
    """The client's end: decodes server messages, checks the version the server chose."""

    our_role = Sender.CLIENT
    their_role = Sender.SERVER

    def __init__(self) -> None:
        super().__init__()
        self._offered: tuple[str, ...] = ()
        self._last_id = -1

    def next_request_id(self) -> int:
        """A fresh command id: counts up from 0, wraps at 2**32, skips ids still waiting."""
        while True:
            self._last_id = (self._last_id + 1) % (MAX_ID + 1)
            if self._last_id not in self._pending:
                return self._last_id

    def _check_send(self, message: Message) -> None:
        if isinstance(message, Request):
            if message.id in self._pending:
                raise LocalProtocolError(
                    ErrorCode.DUPLICATE_ID, f"command id {message.id} is still waiting"
                )
            if len(self._pending) >= MAX_PENDING_REQUESTS:
                raise LocalProtocolError(
                    ErrorCode.RATE_LIMITED,
                    f"{MAX_PENDING_REQUESTS} commands are already waiting for a reply",
                )

    def _on_sent(self, message: Message) -> None:
        if isinstance(message, Hello):
            self._offered = message.versions
        elif isinstance(message, Request):
            self._pending.add(message.id)

    def _on_received(self, message: Message) -> None:
        if isinstance(message, Welcome):
            if choose_version([message.version], self._offered) != message.version:
                raise RemoteProtocolError(
                    ErrorCode.UNSUPPORTED_VERSION,
                    f"the server chose {message.version!r}, which was not offered",
                    versions=self._offered,
                )
            self._version = message.version
        elif isinstance(message, Ok | Rejected):
            if message.id not in self._pending:
                raise RemoteProtocolError(
                    ErrorCode.UNKNOWN_ID, f"reply to command {message.id}, which is not waiting"
                )
            self._pending.discard(message.id)
