"""Every message of protocol v1, as a typed value.

Each message is a frozen, slotted dataclass that validates itself on construction (see
``protocol.schema``). On the wire it is one msgpack map whose ``type`` key names it
(``{"type": "hello", ...}``) and whose other keys are its fields, in snake_case.

Client commands (``Request``) carry an ``id`` chosen by the client; the server answers
each with exactly one ``Ok`` or ``Rejected`` naming that id. ``ClientMessage`` and
``ServerMessage`` list what each side may send; ``message_from_data`` decodes a map sent
by one side, dispatching on the classes themselves.

Why this module is long: it is the protocol's vocabulary, one short documented record per
message type; splitting it would scatter what docs/protocol.md section 6 and 7 list in one
place.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, TypeAlias, TypeVar

from protocol.cards import Card
from protocol.codec import encode_body, encode_trusted_body
from protocol.commands import SeatCommand
from protocol.errors import ErrorCode, LobbyRejectCode, RemoteProtocolError
from protocol.events import SeenEvent
from protocol.framing import encode_frame
from protocol.limits import (
    MAX_BOT_THINK_MS,
    MAX_CHAT_LEN,
    MAX_CODE_LEN,
    MAX_ID,
    MAX_MESSAGE_LEN,
    MAX_NAME_LEN,
    MAX_PASSWORD_LEN,
    MAX_TABLE_NAME_LEN,
    MAX_TOKEN_LEN,
    MAX_VERSIONS,
)
from protocol.options import MAX_SEATS, ConfigError, TableConfig, TableOptions, UnusableOptions
from protocol.plain import check_plain
from protocol.schema import (
    Record,
    fields_into,
    items,
    number,
    record_from_data,
    text,
    trusted_record,
    wire,
)
from protocol.version import Version, parse_version
from protocol.views import View

__all__ = [
    "MAX_BOT_THINK_MS",
    "MAX_MATCHES_PER_PAGE",
    "MAX_REPLAY_LINES_PER_PAGE",
    "MAX_REPLAY_PAGE_BYTES",
    "MAX_STANDINGS_PER_PAGE",
    "MAX_TABLES_PER_PAGE",
    "AddBot",
    "Bye",
    "Chat",
    "ChatMessage",
    "ClientMessage",
    "CloseTable",
    "Closing",
    "CreateTable",
    "Error",
    "Game",
    "GameEvent",
    "GameView",
    "GetReplay",
    "GetStandings",
    "Hello",
    "HostReason",
    "Join",
    "Joined",
    "Kick",
    "Leave",
    "Left",
    "LeftCause",
    "LeftReason",
    "ListMatches",
    "ListTables",
    "MatchList",
    "MatchNote",
    "MatchPlayer",
    "MatchRecord",
    "Message",
    "Ok",
    "OkResult",
    "PauseTable",
    "Ping",
    "Pong",
    "Ready",
    "Rejected",
    "Rematch",
    "RemoveBot",
    "Rename",
    "ReplayPage",
    "Request",
    "ResumeSeat",
    "ResumeTable",
    "SeatInfo",
    "Sender",
    "ServerMessage",
    "Spectate",
    "Standing",
    "Standings",
    "StandingsPeriod",
    "Start",
    "TableList",
    "TableState",
    "TableStatus",
    "TableSummary",
    "TakeBotSeat",
    "Welcome",
    "message_from_data",
]

MAX_TABLES_PER_PAGE = 100
"""Most tables one table-list page holds (and the largest ``limit`` a client may ask)."""
MAX_STANDINGS_PER_PAGE = 100
"""Most players one standings page holds."""
MAX_MATCHES_PER_PAGE = 50
"""Most finished matches one match-list page holds."""
MAX_REPLAY_LINES_PER_PAGE = 1000
"""Most lines of a replay file one replay-page holds."""
MAX_REPLAY_PAGE_BYTES = 48_000
"""Most bytes (UTF-8) of lines one replay-page holds, all lines together (a frame holds
64 KiB)."""

_SEAT = number(0, MAX_SEATS - 1)
_SEQ = number(0, 2**63 - 1)
_COUNT = number(0, 1_000_000)
_TALLY = number(0, 2**53)
_TOKEN = text(MAX_TOKEN_LEN)
_CODE = text(MAX_CODE_LEN)
_SENTENCE = text(MAX_MESSAGE_LEN, min_len=0, clean=True)
_PASSWORD = text(MAX_PASSWORD_LEN)
_NAME = text(MAX_NAME_LEN, clean=True)
_TABLE_NAME = text(MAX_TABLE_NAME_LEN, clean=True)
_CHAT = text(MAX_CHAT_LEN, clean=True)
_BOT_THINK_MS = number(0, MAX_BOT_THINK_MS)


class Sender(StrEnum):
    """Which side of a connection sends a message."""

    CLIENT = "client"
    SERVER = "server"


class TableStatus(StrEnum):
    """Where a table is in its life."""

    LOBBY = "lobby"
    PLAYING = "playing"
    PAUSED = "paused"
    BETWEEN_ROUNDS = "between-rounds"
    OVER = "over"


class LeftReason(StrEnum):
    """Why a client is no longer at its table (the ``left`` message)."""

    LEFT = "left"
    """The client asked to leave."""
    KICKED = "kicked"
    """The host removed the client from its seat (a bot plays it from now on)."""
    TABLE_CLOSED = "table-closed"
    """The table closed (its last player left, nobody came back, or the server stops)."""


class LeftCause(StrEnum):
    """(1.3) What happened, more closely than ``LeftReason`` (``left.cause``), so a client
    can say it in its own words."""

    LEFT = "left"
    """The client asked to leave."""
    ASKED_TO_LEAVE = "asked-to-leave"
    """The host removed the client from the lobby of a table."""
    SEAT_TO_BOT = "seat-to-bot"
    """The host gave the client's seat to a bot during a match."""
    TABLE_CLOSED = "table-closed"
    """The table closed: its last player left, nobody came back, or the server stops."""
    MADE_ROOM = "made-room"
    """The table closed to make room for a new one: nobody had moved at it."""


class MatchNote(StrEnum):
    """(1.3) Why a match of the history is unusual (``match-list``'s ``note_code``): each
    names a way a match ends without a winner."""

    HOST_CLOSED_AFTER_RESTART = "host-closed-after-restart"
    """Its host closed the table during the grace after a server restart."""
    CLOSED_FOR_NEW_TABLE = "closed-for-new-table"
    """The table closed to make room for a new one: nobody had moved for a while."""
    JOURNAL_UNWRITTEN = "journal-unwritten"
    """The server could not write its journal; the scores are those it last wrote."""
    SERVER_UPGRADED = "server-upgraded"
    """The server was upgraded to an engine that cannot replay the match."""


class HostReason(StrEnum):
    """(1.3) Why the host role is where it is (``table-state.host_reason``)."""

    OWNER = "owner"
    """The host is the table's owner: its creator, or the person it was handed to."""
    OWNER_AWAY = "owner-away"
    """The owner is away; the role is lent to the host until the owner is back."""
    OWNER_LEFT = "owner-left"
    """The owner left the table; the role was handed to the host for good (the host is
    now the owner)."""


class StandingsPeriod(StrEnum):
    """Which finished matches the standings count."""

    WEEK = "week"
    """Those of the last seven days."""
    ALL = "all"
    """Every match the server remembers (since its host last reset the standings)."""


_M = TypeVar("_M", bound="Message")


@dataclass(frozen=True)
class Message(Record):
    """Base of every message. ``TYPE`` is its wire name, ``SINCE`` the version that
    introduced it."""

    TYPE: ClassVar[str] = ""
    SINCE: ClassVar[Version] = (1, 0)

    # Not fields: the frame once encoded (see ``frame``), and whether the message was built
    # by ``trusted``. Declared by hand, as a dataclass with ``slots=True`` would only make
    # slots for fields.
    __slots__ = ("_frame", "_trusted")

    @classmethod
    def trusted(cls: type[_M], **values: Any) -> _M:
        """As ``Record.trusted``; the frame is encoded without the plain-data walk too
        (``protocol.codec.encode_trusted_body``)."""
        message = trusted_record(cls, values)
        object.__setattr__(message, "_trusted", True)
        return message

    def to_data(self) -> dict[str, Any]:
        """The plain map sent on the wire, ``type`` first."""
        return fields_into({"type": self.TYPE}, self)

    def frame(self) -> bytes:
        """The frame that carries this message (header and msgpack body); raises
        LocalProtocolError if it cannot be encoded.

        Encoded on first use and kept, so a message sent to many connections (an event
        every seat sees alike) is encoded once. A message is immutable; the maps inside
        one (an event's body) must not change once it has been sent.
        """
        frame: bytes | None = getattr(self, "_frame", None)
        if frame is None:
            encode = encode_trusted_body if getattr(self, "_trusted", False) else encode_body
            frame = encode_frame(encode(self.to_data()))
            object.__setattr__(self, "_frame", frame)
        return frame


@dataclass(frozen=True, slots=True)
class Request(Message):
    """A client command; the server answers it with exactly one Ok or Rejected."""

    id: int = field(metadata=number(0, MAX_ID))
    """Chosen by the client, unique among its commands still waiting for a reply."""


# --- both directions ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Ping(Message):
    """Keepalive; the receiver answers with a Pong carrying the same nonce."""

    TYPE: ClassVar[str] = "ping"
    nonce: int = field(default=0, metadata=number(0, MAX_ID))
    """Any number; echoed in the Pong."""


@dataclass(frozen=True, slots=True)
class Pong(Message):
    """Answer to a Ping."""

    TYPE: ClassVar[str] = "pong"
    nonce: int = field(default=0, metadata=number(0, MAX_ID))
    """The nonce of the Ping answered."""


# --- client to server --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hello(Message):
    """The client's first message, and only its first."""

    TYPE: ClassVar[str] = "hello"
    versions: tuple[str, ...] = field(metadata=items(MAX_VERSIONS, min_items=1, item=_CODE))
    """Every protocol version the client speaks, like ``"1.0"``."""
    name: str = field(metadata=_NAME)
    """The player's name, cleaned of control characters, 1 to 24 characters."""
    resume_token: str | None = field(default=None, metadata=_TOKEN)
    """A token from an earlier ``joined``: take that seat back straight away."""
    last_seq: int | None = field(default=None, metadata=_SEQ)
    """With ``resume_token``: the last event seq the client saw (it gets what follows)."""
    bot: bool = field(default=False, metadata=wire(sparse=True))
    """(1.3) The connection is a program playing by itself (``uno-bot``, a server bot):
    the server records its seat as a bot's in the match result."""


@dataclass(frozen=True, slots=True)
class ListTables(Request):
    """Ask for one page of the server's tables."""

    TYPE: ClassVar[str] = "list-tables"
    cursor: str | None = field(default=None, metadata=_TOKEN)
    """``next_cursor`` of the previous page; None for the first page."""
    limit: int = field(default=20, metadata=number(1, MAX_TABLES_PER_PAGE))
    """Most tables wanted on this page."""


@dataclass(frozen=True, slots=True)
class CreateTable(Request):
    """Create a table; the creator is its host, in seat 0.

    The server answers ``joined`` (with the resume token), then ``table-state`` and, once
    a match exists, ``view``; the ``ok`` (whose result names ``table_id`` and ``seat``)
    comes last, like every reply after what its command caused.
    """

    TYPE: ClassVar[str] = "create-table"
    name: str = field(metadata=_TABLE_NAME)
    """The table's name, cleaned, 1 to 32 characters."""
    options: TableOptions = field(default_factory=TableOptions)
    """The options asked for; those not given take the server's defaults."""
    password: str | None = field(default=None, metadata=_PASSWORD)
    """Needed by anyone else to join or spectate; None for an open table."""
    bot_think_ms: int | None = field(default=None, metadata=_BOT_THINK_MS)
    """(1.2) How long the table's server bots think before each move, 0 to
    ``MAX_BOT_THINK_MS`` milliseconds; None for the server's ``--bot-think-ms``."""

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> CreateTable:
        """As for every message, but ``options`` are read by ``TableOptions.parse``: options
        no table can have still make a create-table, holding ``UnusableOptions``, which the
        lobby refuses with ``bad-options`` in its turn (not a protocol error)."""
        raw = data.get("options")
        request = record_from_data(cls, {key: data[key] for key in data if key != "options"})
        if raw is None:
            return request
        if not isinstance(raw, dict):
            raise RemoteProtocolError(ErrorCode.BAD_MESSAGE, f"{cls.TYPE}.options must be a map")
        try:
            check_plain(raw, depth=2)
        except ValueError as error:
            raise RemoteProtocolError(
                ErrorCode.BAD_MESSAGE, f"{cls.TYPE}.options {error}"
            ) from None
        options: TableOptions
        try:
            options = TableOptions.parse(raw)
        except ConfigError as error:
            options = UnusableOptions(why=str(error), why_option=error.option)
        return dataclasses.replace(request, options=options)

    def config(self, defaults: TableConfig | None = None) -> TableConfig:
        """The options over ``defaults`` (a new TableConfig's by default) as a TableConfig;
        raises ConfigError (answer: ``bad-options``)."""
        return self.options.over(TableConfig() if defaults is None else defaults)


@dataclass(frozen=True, slots=True)
class Join(Request):
    """Take a seat at a table in its lobby."""

    TYPE: ClassVar[str] = "join"
    table_id: str = field(metadata=_TOKEN)
    """The table, as named in table-list."""
    seat: int | None = field(default=None, metadata=_SEAT)
    """The seat wanted; None for any free seat."""
    password: str | None = field(default=None, metadata=_PASSWORD)
    """The table's password, if it has one."""


@dataclass(frozen=True, slots=True)
class Spectate(Request):
    """Watch a table without a seat (sees nothing secret)."""

    TYPE: ClassVar[str] = "spectate"
    table_id: str = field(metadata=_TOKEN)
    """The table to watch."""
    password: str | None = field(default=None, metadata=_PASSWORD)
    """The table's password, if it has one."""


@dataclass(frozen=True, slots=True)
class Leave(Request):
    """Leave the current table (a seat in a running match goes to a bot)."""

    TYPE: ClassVar[str] = "leave"


@dataclass(frozen=True, slots=True)
class Ready(Request):
    """Say whether this seat is ready to start (lobby) or to go on (between rounds)."""

    TYPE: ClassVar[str] = "ready"
    ready: bool = True
    """True for ready, False to take it back."""


@dataclass(frozen=True, slots=True)
class Start(Request):
    """Host only: start the match."""

    TYPE: ClassVar[str] = "start"


@dataclass(frozen=True, slots=True)
class AddBot(Request):
    """Host only: seat a server bot in the first free seat."""

    TYPE: ClassVar[str] = "add-bot"
    strategy: str = field(metadata=_CODE)
    """Name of the bot strategy."""


@dataclass(frozen=True, slots=True)
class RemoveBot(Request):
    """Host only: remove the bot in a seat (in the lobby)."""

    TYPE: ClassVar[str] = "remove-bot"
    seat: int = field(metadata=_SEAT)
    """The bot's seat."""


@dataclass(frozen=True, slots=True)
class Chat(Request):
    """Say something to everyone at the table (or in the lobby)."""

    TYPE: ClassVar[str] = "chat"
    text: str = field(metadata=_CHAT)
    """The line, cleaned, 1 to 200 characters."""


@dataclass(frozen=True, slots=True)
class Kick(Request):
    """Host only: remove a person from a seat."""

    TYPE: ClassVar[str] = "kick"
    seat: int = field(metadata=_SEAT)
    """The seat to empty."""
    ban: bool = False
    """(1.2) Also keep them out of this table for the rest of its life: their address and
    their name (as names are compared) may not join, watch or take a seat again."""


@dataclass(frozen=True, slots=True)
class PauseTable(Request):
    """Host only: pause the match; every clock stops."""

    TYPE: ClassVar[str] = "pause"


@dataclass(frozen=True, slots=True)
class ResumeTable(Request):
    """Host only: resume a paused match."""

    TYPE: ClassVar[str] = "unpause"


@dataclass(frozen=True, slots=True)
class Rematch(Request):
    """Host only, after the match: play again with the same seats."""

    TYPE: ClassVar[str] = "rematch"


@dataclass(frozen=True, slots=True)
class TakeBotSeat(Request):
    """Replace a bot with yourself, at any time (in a running match you go on with the
    seat's hand and score from where the bot left them)."""

    TYPE: ClassVar[str] = "take-bot-seat"
    table_id: str = field(metadata=_TOKEN)
    """The table."""
    seat: int = field(metadata=_SEAT)
    """The bot's seat."""
    password: str | None = field(default=None, metadata=_PASSWORD)
    """The table's password, if it has one."""


@dataclass(frozen=True, slots=True)
class ResumeSeat(Request):
    """Take back a seat after a lost connection."""

    TYPE: ClassVar[str] = "resume"
    token: str = field(metadata=_TOKEN)
    """The ``resume_token`` from ``joined``."""
    last_seq: int = field(default=0, metadata=_SEQ)
    """The last event seq seen; the server sends the view and every event after it."""


@dataclass(frozen=True, slots=True)
class Game(Request):
    """A move in the match: wraps one seat command of ``protocol.commands``."""

    TYPE: ClassVar[str] = "game"
    command: SeatCommand
    """The move, as ``command.to_data()`` on the wire."""


@dataclass(frozen=True, slots=True)
class Rename(Request):
    """(1.3) In the lobby (at no table): from now on the server calls this connection
    ``name``, cleaned as a hello's name is. At a table it is refused with
    ``already-at-table``; a table checks the new name when it is joined (``name-taken``,
    ``banned``), as it checks a hello's."""

    TYPE: ClassVar[str] = "rename"
    SINCE: ClassVar[Version] = (1, 3)
    name: str = field(metadata=_NAME)
    """The new name, 1 to 24 characters once cleaned."""


@dataclass(frozen=True, slots=True)
class CloseTable(Request):
    """(1.2) Host only, at a table rebuilt after a server restart, until its restart grace
    is over: close it for good instead of playing on. Its unfinished match goes into the
    history with the scores after its last finished round; everyone at the table gets
    ``left`` (``table-closed``) after the host's ``ok``."""

    TYPE: ClassVar[str] = "close-table"
    SINCE: ClassVar[Version] = (1, 2)


@dataclass(frozen=True, slots=True)
class GetStandings(Request):
    """(1.2) Ask for one page of the standings: wins, matches and points by player."""

    TYPE: ClassVar[str] = "get-standings"
    SINCE: ClassVar[Version] = (1, 2)
    period: StandingsPeriod = StandingsPeriod.ALL
    """``week`` or ``all``."""
    cursor: str | None = field(default=None, metadata=_TOKEN)
    """``next_cursor`` of the previous page; None for the first page."""
    limit: int = field(default=20, metadata=number(1, MAX_STANDINGS_PER_PAGE))
    """Most players wanted on this page."""


@dataclass(frozen=True, slots=True)
class ListMatches(Request):
    """(1.2) Ask for one page of the finished matches, the latest first."""

    TYPE: ClassVar[str] = "list-matches"
    SINCE: ClassVar[Version] = (1, 2)
    cursor: str | None = field(default=None, metadata=_TOKEN)
    """``next_cursor`` of the previous page; None for the latest matches."""
    limit: int = field(default=10, metadata=number(1, MAX_MATCHES_PER_PAGE))
    """Most matches wanted on this page."""


@dataclass(frozen=True, slots=True)
class GetReplay(Request):
    """(1.3) Ask for one page of a finished match's replay file (docs/replays.md): its
    lines in order, the header first. The match is ``match_id``, or the latest finished
    at ``table_id`` (the match a table has just played). The server answers with a
    ``replay-page`` and an ``ok``, or ``no-replay`` (no record kept of that match, or
    neither or both of the two named), ``bad-cursor``."""

    TYPE: ClassVar[str] = "get-replay"
    SINCE: ClassVar[Version] = (1, 3)
    match_id: int | None = field(default=None, metadata=_SEQ)
    """The match's id (``match-list``'s ``match_id``, or a first page's)."""
    table_id: str | None = field(default=None, metadata=_TOKEN)
    """Instead of ``match_id``: the table whose latest finished match is wanted."""
    cursor: str | None = field(default=None, metadata=_TOKEN)
    """``next_cursor`` of the previous page (with that page's ``match_id``); None for the
    first page."""
    limit: int = field(
        default=MAX_REPLAY_LINES_PER_PAGE, metadata=number(1, MAX_REPLAY_LINES_PER_PAGE)
    )
    """Most lines wanted on this page (a page also stops before 48,000 bytes of lines)."""


@dataclass(frozen=True, slots=True)
class Bye(Message):
    """The client is leaving; the server closes the connection (a seat goes away)."""

    TYPE: ClassVar[str] = "bye"
    reason: str | None = field(default=None, metadata=_SENTENCE)
    """Why, for the log."""


# --- server to client --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Welcome(Message):
    """The answer to a hello that names a version both sides speak."""

    TYPE: ClassVar[str] = "welcome"
    version: str = field(metadata=_CODE)
    """The version chosen; both sides speak it from now on."""
    server_name: str = field(metadata=_TABLE_NAME)
    """The server's name, as advertised."""
    server_id: str = field(metadata=_TOKEN)
    """Stable id of this server (tells two servers of the same name apart)."""
    server_version: str = field(metadata=_CODE)
    """The server's package version."""
    features: tuple[str, ...] = field(default=(), metadata=items(64, item=_CODE))
    """Optional abilities of this server, by name."""
    resumed: bool = False
    """True when the hello's resume token gave a seat back (joined and view follow)."""
    web_port: int | None = field(default=None, metadata=number(1, 65535))
    """(1.3) The port of the server's browser page (``http://<this server>:<port>/``);
    None when it serves none."""
    table_defaults: TableOptions | None = None
    """(1.3) What the server gives a new table for each option its ``create-table`` leaves
    out, every option given (``TableOptions.of``); None when it does not say."""


@dataclass(frozen=True, slots=True)
class Error(Message):
    """A protocol error; the server closes the connection after it."""

    TYPE: ClassVar[str] = "error"
    code: str = field(metadata=_CODE)
    """An ErrorCode value."""
    message: str = field(default="", metadata=_SENTENCE)
    """What went wrong, for people."""
    versions: tuple[str, ...] = field(default=(), metadata=items(MAX_VERSIONS, item=_CODE))
    """With ``unsupported-version``: every version the server speaks."""

    @property
    def error_code(self) -> ErrorCode | None:
        """``code`` as an ErrorCode, or None for a code this release does not know."""
        return ErrorCode(self.code) if self.code in ErrorCode._value2member_map_ else None


@dataclass(frozen=True, slots=True)
class OkResult(Record):
    """What an ``ok`` returns (docs/protocol.md section 6 says which command returns what)."""

    table_id: str | None = field(default=None, metadata=_TOKEN)
    """The table made, in answer to ``create-table``."""
    seat: int | None = field(default=None, metadata=_SEAT)
    """The sender's seat (``create-table``, ``join``, ``take-bot-seat``, ``resume``), or
    the bot's (``add-bot``)."""


@dataclass(frozen=True, slots=True)
class Ok(Message):
    """A command succeeded."""

    TYPE: ClassVar[str] = "ok"
    id: int = field(metadata=number(0, MAX_ID))
    """The command's id."""
    result: OkResult | None = None
    """What the command returns, if anything (for instance the new table's id)."""


@dataclass(frozen=True, slots=True)
class Rejected(Message):
    """A command was refused; nothing changed and the connection stays open."""

    TYPE: ClassVar[str] = "rejected"
    id: int = field(metadata=number(0, MAX_ID))
    """The command's id."""
    code: str = field(metadata=_CODE)
    """A LobbyRejectCode or a game RejectCode value."""
    message: str = field(default="", metadata=_SENTENCE)
    """Why, for people (English: a client says it from ``code`` and the fields below)."""
    option: str | None = field(default=None, metadata=_CODE)
    """(1.3) ``bad-options``: the table option at fault (``seats``), when one is."""
    card: Card | None = None
    """(1.3) ``card-not-in-hand``, ``card-does-not-match``, ``only-drawn-card``: the card
    the play named."""
    limit: int | None = field(default=None, metadata=_COUNT)
    """(1.3) ``too-many-tables`` for one address: how many tables it may hold open."""

    @property
    def lobby_code(self) -> LobbyRejectCode | None:
        """``code`` as a LobbyRejectCode, or None if it is another kind of code."""
        known = LobbyRejectCode._value2member_map_
        return LobbyRejectCode(self.code) if self.code in known else None


@dataclass(frozen=True, slots=True)
class TableSummary(Record):
    """One line of the table list."""

    table_id: str = field(metadata=_TOKEN)
    """The id to join or spectate with."""
    name: str = field(metadata=_TABLE_NAME)
    """The table's name."""
    state: TableStatus
    """Where the table is in its life."""
    seats: int = field(metadata=number(2, MAX_SEATS))
    """How many seats it has."""
    taken: int = field(metadata=number(0, MAX_SEATS))
    """How many seats are taken (people and bots)."""
    spectators: int = field(default=0, metadata=_COUNT)
    """How many people watch."""
    locked: bool = False
    """True when a password is needed."""
    host: str | None = field(default=None, metadata=_NAME)
    """The host's name."""
    bot_seats: int = field(default=0, metadata=number(0, MAX_SEATS))
    """(1.2) How many seats bots hold: a newcomer may take any of them with
    ``take-bot-seat``, at any time, a match running or not."""
    house_rules: tuple[str, ...] = field(default=(), metadata=items(16, item=_CODE))
    """1.2: the house rules it plays (``protocol.options.house_rules``: ``seven_o``,
    ``jump_in``, ``stack:progressive``...); empty for the official rules."""
    banned: bool = False
    """(1.3) The host banned the connection that asked (its address or its name): the
    table would refuse it a seat or a place to watch (``banned``)."""
    spectators_see_hands: bool = False
    """(1.3) A teaching table: its spectators see every hand, and may not take a seat."""


@dataclass(frozen=True, slots=True)
class TableList(Message):
    """One page of tables, in answer to list-tables (sent before its Ok)."""

    TYPE: ClassVar[str] = "table-list"
    tables: tuple[TableSummary, ...] = field(metadata=items(MAX_TABLES_PER_PAGE))
    """The tables on this page."""
    next_cursor: str | None = field(default=None, metadata=_TOKEN)
    """Pass it to list-tables for the next page; None on the last page."""


@dataclass(frozen=True, slots=True)
class SeatInfo(Record):
    """One seat as everyone at the table sees it."""

    seat: int = field(metadata=_SEAT)
    """The seat number, 0 upwards in turn order."""
    name: str | None = field(default=None, metadata=_NAME)
    """Who sits there; None for an empty seat."""
    bot: bool = False
    """True for a server bot."""
    away: bool = False
    """True while its owner is disconnected or timed out (a bot plays for them)."""
    ready: bool = False
    """True once ready to start or to go on."""
    level: str | None = field(default=None, metadata=_CODE)
    """(1.2) A bot seat's level (``easy``, ``normal``, ``hard``, ``random``); None for a
    person's seat."""


@dataclass(frozen=True, slots=True)
class TableState(Message):
    """The public state of the client's table; sent on joining and on every change."""

    TYPE: ClassVar[str] = "table-state"
    table_id: str = field(metadata=_TOKEN)
    """The table."""
    name: str = field(metadata=_TABLE_NAME)
    """Its name."""
    state: TableStatus
    """Where it is in its life."""
    seats: tuple[SeatInfo, ...] = field(metadata=items(MAX_SEATS))
    """Every seat, in seat order."""
    options: TableOptions = field(default_factory=TableOptions)
    """The table's options, every one given (``TableOptions.of``), or those of the
    connection's version (protocol/compat.py)."""
    host_seat: int | None = field(default=None, metadata=_SEAT)
    """The host's seat; None if the host left."""
    spectators: int = field(default=0, metadata=_COUNT)
    """How many people watch."""
    bot_think_ms: int | None = field(default=None, metadata=_BOT_THINK_MS)
    """(1.2) How long the table's server bots think before each move, in milliseconds
    (the host's choice, or the server's default); None from older servers."""
    owner_seat: int | None = field(default=None, metadata=_SEAT)
    """(1.3) The owner's seat: whose role the host holds; None from older servers."""
    host_reason: HostReason | None = None
    """(1.3) Why the host holds the role (``HostReason``); None from older servers."""
    removed_seat: int | None = field(default=None, metadata=_SEAT)
    """(1.3) In the state that follows a host's kick or ban: the seat whose person the host
    removed (its name is in the state before); None in every other state."""
    removed_banned: bool = False
    """(1.3) With ``removed_seat``: the person was banned from the table, not only kicked."""
    rematch_asked: bool = False
    """(1.3) After a match: the host asked for a rematch, which starts when every connected
    person says ``ready`` or when the round break (``round_pause_seconds``) runs out."""


@dataclass(frozen=True, slots=True)
class Joined(Message):
    """The client is now at a table (after create-table, join, spectate, take-bot-seat or
    resume)."""

    TYPE: ClassVar[str] = "joined"
    table_id: str = field(metadata=_TOKEN)
    """The table."""
    seat: int | None = field(default=None, metadata=_SEAT)
    """The client's seat; None when spectating."""
    resume_token: str | None = field(default=None, metadata=_TOKEN)
    """Keep it secret: it gives the seat back after a lost connection."""


@dataclass(frozen=True, slots=True)
class GameEvent(Message):
    """One event of the match, as this seat may see it."""

    TYPE: ClassVar[str] = "event"
    seq: int = field(metadata=_SEQ)
    """The event's number, gap-free per table, starting at 1."""
    body: SeenEvent
    """The event as this seat sees it (``protocol.events``): on the wire one flat map."""
    cause: int | None = field(default=None, metadata=number(0, MAX_ID))
    """The id of this client's command that caused it; None otherwise."""


@dataclass(frozen=True, slots=True)
class GameView(Message):
    """Everything this seat may see of the match, on joining or resuming."""

    TYPE: ClassVar[str] = "view"
    seq: int = field(metadata=_SEQ)
    """The last event the view includes; the events that follow have larger numbers."""
    body: View
    """The view itself (``protocol.views``): on the wire one flat map."""


@dataclass(frozen=True, slots=True)
class ChatMessage(Message):
    """A chat line someone said."""

    TYPE: ClassVar[str] = "chat"
    sender: str = field(metadata=_NAME)
    """The speaker's name."""
    text: str = field(metadata=_CHAT)
    """What they said, cleaned."""
    seat: int | None = field(default=None, metadata=_SEAT)
    """The speaker's seat; None for a spectator or someone in the lobby."""


@dataclass(frozen=True, slots=True)
class Closing(Message):
    """The server is shutting down and closes the connection after this."""

    TYPE: ClassVar[str] = "closing"
    reason: str = field(default="", metadata=_SENTENCE)
    """Why, for people."""


@dataclass(frozen=True, slots=True)
class Left(Message):
    """Since 1.1: the client is no longer at its table, and why. Sent to a kicked player, to
    everyone still at a table that closes (spectators too), and before the ``ok`` of a
    ``leave``. After it the client is in the lobby; nothing more of that table arrives."""

    TYPE: ClassVar[str] = "left"
    SINCE: ClassVar[Version] = (1, 1)
    table_id: str = field(metadata=_TOKEN)
    """The table the client is no longer at."""
    reason: LeftReason
    """``left``, ``kicked`` or ``table-closed``."""
    message: str = field(default="", metadata=_SENTENCE)
    """The same in words, for people (who kicked, why the table closed): the fallback of
    a client that does not know ``cause``."""
    cause: str | None = field(default=None, metadata=_CODE)
    """(1.3) What happened, as a LeftCause value (a string, so that a newer server's cause
    reaches an older client, which then shows ``message``); nil from an older server."""
    by: str | None = field(default=None, metadata=_NAME)
    """(1.3) With ``kicked``: the name of the host who removed the client."""
    banned: bool = field(default=False, metadata=wire(sparse=True))
    """(1.3) With ``kicked``: the host also banned the client from the table."""


@dataclass(frozen=True, slots=True)
class Standing(Record):
    """One player's line of the standings."""

    name: str = field(metadata=_NAME)
    """The name as last played (people whose names read alike are one player)."""
    bot: bool = False
    """True for a bot: bots are counted apart from people, by name as written."""
    matches: int = field(default=0, metadata=_TALLY)
    """Finished matches played."""
    wins: int = field(default=0, metadata=_TALLY)
    """Matches won."""
    points: int = field(default=0, metadata=_TALLY)
    """Final scores added up."""


@dataclass(frozen=True, slots=True)
class Standings(Message):
    """(1.2) One page of the standings, in answer to get-standings (sent before its Ok).
    People come first, then bots; each by wins, then points, then name."""

    TYPE: ClassVar[str] = "standings"
    SINCE: ClassVar[Version] = (1, 2)
    period: StandingsPeriod
    """The period asked for."""
    players: tuple[Standing, ...] = field(metadata=items(MAX_STANDINGS_PER_PAGE))
    """The players on this page."""
    next_cursor: str | None = field(default=None, metadata=_TOKEN)
    """Pass it to get-standings for the next page; None on the last page."""


@dataclass(frozen=True, slots=True)
class MatchPlayer(Record):
    """One seat of a finished match."""

    name: str = field(metadata=_NAME)
    """Who sat there at the end."""
    bot: bool = False
    """True for a bot."""
    score: int = field(default=0, metadata=_TALLY)
    """The seat's final score."""
    stand_in_turns: int = field(default=0, metadata=number(0, 1_000_000, sparse=True))
    """(1.3) A person's turns that a stand-in (a server bot) played while they were away;
    their result is theirs all the same. Left out when 0."""


@dataclass(frozen=True, slots=True)
class MatchRecord(Record):
    """One finished match of the history."""

    finished_at: int = field(metadata=_SEQ)
    """When it ended, in seconds since 1970 (UTC), by the server's clock."""
    table_id: str = field(metadata=_TOKEN)
    """The table it was played at."""
    table: str = field(metadata=_TABLE_NAME)
    """That table's name."""
    deck: str = field(metadata=_CODE)
    """The deck played."""
    options: TableOptions
    """The table's options for the match, as its journal kept them."""
    players: tuple[MatchPlayer, ...] = field(metadata=items(MAX_SEATS))
    """Every seat, in seat order, with its final score."""
    winners: tuple[str, ...] = field(default=(), metadata=items(MAX_SEATS, item=_NAME))
    """The winners' names (a team match has several); empty if the match was cut short."""
    note: str = field(default="", metadata=_SENTENCE)
    """Why the match is unusual, for people: empty for one played to its end."""
    note_code: str | None = field(default=None, metadata=_CODE)
    """(1.3) ``note`` as a MatchNote value, for a client to say in its own words; nil for
    a match played to its end, or a note this server has no code for."""
    match_id: int | None = field(default=None, metadata=_SEQ)
    """(1.3) The match's id in the server's journal, for good: no other match gets it,
    and the history shows it (``uno-server history``); nil from an older server."""


@dataclass(frozen=True, slots=True)
class MatchList(Message):
    """(1.2) One page of finished matches, the latest first, in answer to list-matches
    (sent before its Ok)."""

    TYPE: ClassVar[str] = "match-list"
    SINCE: ClassVar[Version] = (1, 2)
    matches: tuple[MatchRecord, ...] = field(metadata=items(MAX_MATCHES_PER_PAGE))
    """The matches on this page."""
    next_cursor: str | None = field(default=None, metadata=_TOKEN)
    """Pass it to list-matches for the next page; None on the last page."""


@dataclass(frozen=True, slots=True)
class ReplayPage(Message):
    """(1.3) One page of a replay file, in answer to get-replay (sent before its Ok). The
    pages' lines, in order and each followed by a newline, are the file ``uno-server
    replay`` writes."""

    TYPE: ClassVar[str] = "replay-page"
    SINCE: ClassVar[Version] = (1, 3)
    match_id: int = field(metadata=_SEQ)
    """The match asked for (the one ``table_id`` named, on its first page)."""
    lines: tuple[str, ...] = field(
        metadata=items(MAX_REPLAY_LINES_PER_PAGE, item=text(MAX_REPLAY_PAGE_BYTES))
    )
    """The file's next lines, without their newlines (the first page starts with the header)."""
    next_cursor: str | None = field(default=None, metadata=_TOKEN)
    """Pass it to get-replay for the next page; None on the last page."""


ClientMessage: TypeAlias = (
    Hello
    | ListTables
    | CreateTable
    | Join
    | Spectate
    | Leave
    | Ready
    | Start
    | AddBot
    | RemoveBot
    | Chat
    | Kick
    | PauseTable
    | ResumeTable
    | Rematch
    | TakeBotSeat
    | ResumeSeat
    | Game
    | GetStandings
    | ListMatches
    | GetReplay
    | CloseTable
    | Rename
    | Ping
    | Pong
    | Bye
)
"""Every message a client may send."""

ServerMessage: TypeAlias = (
    Welcome
    | Error
    | Ok
    | Rejected
    | TableList
    | TableState
    | Joined
    | GameEvent
    | GameView
    | ChatMessage
    | Left
    | Standings
    | MatchList
    | ReplayPage
    | Ping
    | Pong
    | Closing
)
"""Every message a server may send."""


def _registry(union: Any) -> dict[str, type[Message]]:
    classes: tuple[type[Message], ...] = typing.get_args(union)
    registry = {cls.TYPE: cls for cls in classes}
    assert len(registry) == len(classes), "two messages share a wire type"
    return registry


_BY_SENDER: dict[Sender, dict[str, type[Message]]] = {
    Sender.CLIENT: _registry(ClientMessage),
    Sender.SERVER: _registry(ServerMessage),
}


def message_class(sender: Sender, wire_type: str) -> type[Message] | None:
    """The class ``sender`` means by ``wire_type``, or None if it sends no such message."""
    return _BY_SENDER[sender].get(wire_type)


@functools.lru_cache(maxsize=8)
def _parsed_version(version: str) -> Version | None:
    """``parse_version``, once per string: the connection asks for every message."""
    return parse_version(version)


def message_from_data(
    data: Mapping[str, Any], sender: Sender, version: str | None = None
) -> Message:
    """Decode a map that ``sender`` sent; raises RemoteProtocolError.

    ``unknown-message`` if ``sender`` has no message of that type in ``version`` (None:
    every version this release knows); ``bad-message`` if its fields do not fit.
    """
    wire_type = data.get("type")
    if not isinstance(wire_type, str):
        raise RemoteProtocolError(ErrorCode.BAD_MESSAGE, "a message needs a string 'type'")
    cls = message_class(sender, wire_type)
    negotiated = _parsed_version(version) if version is not None else None
    if cls is None or (negotiated is not None and negotiated < cls.SINCE):
        shown = wire_type[:MAX_CODE_LEN]
        raise RemoteProtocolError(
            ErrorCode.UNKNOWN_MESSAGE, f"a {sender.value} sends no message {shown!r}"
        )
    return cls.from_data(data)
