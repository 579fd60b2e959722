"""Error codes of the protocol and the exceptions that carry them.

Two kinds of failure, named by who is at fault (as in h11):

- ``RemoteProtocolError``: the peer sent something this side cannot accept. Its ``code``
  is what to answer with in an ``error`` message before closing the connection.
- ``LocalProtocolError``: this program tried to build or send something the protocol does
  not allow. It is a bug on our side; nothing has been sent.

``ErrorCode`` values end a connection. ``LobbyRejectCode`` values answer one lobby command
in a ``rejected`` reply and the connection stays open; game rejections use
``protocol.rejections.RejectCode``, owned by the engine.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "ErrorCode",
    "LobbyRejectCode",
    "LocalProtocolError",
    "ProtocolError",
    "RemoteProtocolError",
]


class ErrorCode(StrEnum):
    """Why a connection is being closed; sent in an ``error`` message, then the close."""

    MALFORMED_FRAME = "malformed-frame"
    """A frame's body is not one msgpack map of plain values (ints, strings, bools, nil,
    arrays, maps with string keys), or nests too deep, or uses an extension type."""
    FRAME_TOO_LARGE = "frame-too-large"
    """A frame header announced a body of 0 bytes or more than 65,536."""
    BAD_MESSAGE = "bad-message"
    """A message whose fields do not match its schema (missing, wrong type, out of range)."""
    UNKNOWN_MESSAGE = "unknown-message"
    """A message type that the negotiated version does not have for this direction."""
    UNSUPPORTED_VERSION = "unsupported-version"
    """No version offered in the hello is one the server speaks; ``versions`` lists its own."""
    HELLO_REQUIRED = "hello-required"
    """The client's first message was not a hello."""
    DUPLICATE_HELLO = "duplicate-hello"
    """A second hello on the same connection."""
    UNEXPECTED_MESSAGE = "unexpected-message"
    """A known message sent at a moment the connection's state does not allow it."""
    DUPLICATE_ID = "duplicate-id"
    """A command reused the id of a command that has not been answered yet."""
    UNKNOWN_ID = "unknown-id"
    """A reply named a command id that is not waiting for one."""
    RATE_LIMITED = "rate-limited"
    """The client sent more than its allowance (too many messages or unanswered commands)."""
    HANDSHAKE_TIMEOUT = "handshake-timeout"
    """No hello arrived in time."""
    IDLE_TIMEOUT = "idle-timeout"
    """Nothing arrived for too long, not even a pong."""
    TOO_SLOW = "too-slow"
    """The client did not read fast enough and its outbox filled up; it may resume."""
    SERVER_FULL = "server-full"
    """The server takes no more connections now."""
    SERVER_SHUTDOWN = "server-shutdown"
    """The server is stopping."""
    INTERNAL_ERROR = "internal-error"
    """The server failed; a bug on its side, not the client's."""
    REPLACED = "replaced"
    """Another connection resumed this connection's seat with its token; the seat is
    theirs now, so resuming it from here again would only take it back."""
    TOO_MANY_REFUSALS = "too-many-refusals"
    """(1.3) The client kept asking for what its address's budget refused (``slow-down``:
    chat, entering and leaving tables, history) and was cut; a peer of 1.0 to 1.2 is sent
    ``rate-limited`` instead."""


class LobbyRejectCode(StrEnum):
    """Why a lobby or table command was refused; the connection stays open."""

    TABLE_NOT_FOUND = "table-not-found"
    TABLE_FULL = "table-full"
    WRONG_PASSWORD = "wrong-password"
    NOT_HOST = "not-host"
    BAD_TOKEN = "bad-token"
    NAME_TAKEN = "name-taken"
    BAD_OPTIONS = "bad-options"
    BAD_SEAT = "bad-seat"
    SEAT_TAKEN = "seat-taken"
    NOT_A_BOT = "not-a-bot"
    UNKNOWN_STRATEGY = "unknown-strategy"
    NOT_AT_TABLE = "not-at-table"
    ALREADY_AT_TABLE = "already-at-table"
    NOT_SEATED = "not-seated"
    NOT_ENOUGH_PLAYERS = "not-enough-players"
    WRONG_TABLE_STATE = "wrong-table-state"
    BAD_CURSOR = "bad-cursor"
    TOO_MANY_TABLES = "too-many-tables"
    SLOW_DOWN = "slow-down"
    BANNED = "banned"
    """(1.2) The host has banned this address or name from the table."""
    NO_HISTORY = "no-history"
    """(1.2) The server keeps no history (it runs with ``--no-state``)."""
    NO_REPLAY = "no-replay"
    """(1.3) ``get-replay`` of a match the server keeps no record of (no such match, not
    finished, or past the record's keeping). A peer of 1.0 to 1.2 never asks."""
    JOURNAL_UNAVAILABLE = "journal-unavailable"
    """(1.3) ``create-table`` while the server cannot write its journal (a full disk): no
    table is made; the tables already open play on. A peer of 1.0 to 1.2 gets
    ``internal-error`` instead (``protocol.compat``)."""
    WATCHED_HANDS = "watched-hands"
    """(1.3) ``take-bot-seat`` from someone who watched this match at a
    ``spectators_see_hands`` table: they saw every hand. A peer of 1.0 to 1.2 gets
    ``wrong-table-state`` instead (``protocol.compat``)."""
    INTERNAL_ERROR = "internal-error"
    """The server failed on this command (its bug, not the client's); the connection
    stays open and the client is not at the table it tried to enter."""


class ProtocolError(Exception):
    """A breach of the protocol. ``code`` names it; ``versions`` is set only for
    ``unsupported-version`` (the versions this side speaks)."""

    def __init__(self, code: ErrorCode, message: str, *, versions: tuple[str, ...] = ()) -> None:
        super().__init__(f"{code.value}: {message}")
        self.code = code
        self.message = message
        self.versions = versions


class RemoteProtocolError(ProtocolError):
    """The peer broke the protocol; answer with an ``error`` carrying ``code``, then close."""


class LocalProtocolError(ProtocolError):
    """This side tried to build or send something the protocol forbids; nothing was sent.

    ``field`` names the record's field whose value was refused, when one was (so that a
    caller can say which without reading the English ``message``)."""

    def __init__(self, code: ErrorCode, message: str, *, field: str | None = None) -> None:
        super().__init__(code, message)
        self.field = field
