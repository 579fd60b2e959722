"""What arrives in a table's inbox: one typed item for each thing that may change a table.

Only the table's task reads the inbox, so everything that changes a table happens there, in
arrival order. Requests are bounded (a full inbox is the lobby's "busy"); the table's own
items always fit, and there are never more of them than the table has connections.
"""

from __future__ import annotations

from dataclasses import dataclass

from protocol.messages import (
    AddBot,
    CreateTable,
    Game,
    Join,
    Ok,
    Ready,
    Rejected,
    Rematch,
    RemoveBot,
    Request,
    ResumeSeat,
    Spectate,
    Start,
    TakeBotSeat,
)
from server.autoplay import StandIn
from server.engine import Match
from server.peer import Peer

__all__ = [
    "ENTRY_REQUESTS",
    "PERSONS_MOVES",
    "BotEnded",
    "CatchUpDrained",
    "ConnectionLost",
    "Delivery",
    "GiveWay",
    "InboxItem",
    "JournalFailed",
    "NewPosition",
    "Reply",
    "Stop",
    "TableRequest",
]

ENTRY_REQUESTS = (CreateTable, Join, Spectate, TakeBotSeat, ResumeSeat)
"""Requests from a peer not (yet) at the table; the lobby marks it as arriving."""

PERSONS_MOVES = (CreateTable, Join, TakeBotSeat, Ready, Start, Rematch, Game, AddBot, RemoveBot)
"""Requests that show a person is playing here: accepted from someone seated, they wind
the empty-table clock back to its full time (a resume, chat or watching does not)."""


@dataclass(frozen=True, slots=True)
class TableRequest:
    """One message for the table, and whether it gets a reply (a resume at hello does not:
    the client sent no command id)."""

    peer: Peer
    message: Request
    reply: bool = True
    seen: int | None = None
    """For a game command: the match's event count in the last view sent through the
    sender's seat when the command arrived (ruling 37 judges a late jump-in by it)."""
    admitted: bool = False
    """For a join, spectate or take-bot-seat: the lobby found the table's password right
    (it checks the hash off the event loop, before the request is queued)."""


@dataclass(frozen=True, slots=True)
class ConnectionLost:
    """``peer``'s connection is gone."""

    peer: Peer


@dataclass(frozen=True, slots=True)
class BotEnded:
    """A server bot's task has ended, dismissed or not."""

    stand_in: StandIn


@dataclass(frozen=True, slots=True)
class CatchUpDrained:
    """``peer``'s writer has written the last batch of its catch-up ``token``
    (``server.table.catch_up``): the next one may go."""

    peer: Peer
    token: object


@dataclass(frozen=True, slots=True)
class NewPosition:
    """Replace the running match (``Table.set_position``: tests and tools rig positions)."""

    match: Match


@dataclass(frozen=True, slots=True)
class JournalFailed:
    """A write of the journal failed: the table plays on, no longer rebuildable, and its
    host is to be told."""


@dataclass(frozen=True, slots=True)
class Stop:
    """The server is shutting down: the table finishes."""


@dataclass(frozen=True, slots=True)
class GiveWay:
    """The server is full and this table has had no move for longest: it closes to make
    room for a new one (the lobby has forgotten it already)."""


InboxItem = (
    TableRequest
    | ConnectionLost
    | BotEnded
    | CatchUpDrained
    | NewPosition
    | JournalFailed
    | Stop
    | GiveWay
)


@dataclass(frozen=True, slots=True)
class Delivery:
    """A request ``_handle_now`` carried out: the task delivers what it owes."""

    reply: Reply | None


@dataclass(frozen=True, slots=True)
class Reply:
    """The answer to one request, sent after the views and table state its change owes."""

    peer: Peer
    message: Ok | Rejected
