"""Test rig for the lobby and the tables: a fake Peer that records what it is sent.

The tables never touch a socket, so the unit tests of this layer talk to the real ``Lobby``
through ``FakePeer``: it keeps every message, wakes waiting tests on each one, and knows
the table's event stream it has seen. ``call`` sends a command and waits for its one
reply; ``rigged`` puts a table's match in a chosen position (hands, top card, whose turn)
through the engine's snapshot seam, keeping the deck whole.

Nothing here sleeps: tests wait on what peers receive, with Trio's autojump clock moving
time only when every task is blocked.
"""

from __future__ import annotations

import itertools
import weakref
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import trio
import trio.testing

from protocol.cards import Card
from protocol.commands import SeatCommand
from protocol.compat import CURRENT
from protocol.errors import ErrorCode
from protocol.messages import (
    CreateTable,
    Game,
    GameEvent,
    GameView,
    Join,
    Joined,
    Message,
    Ok,
    Rejected,
    Request,
    Start,
    TableState,
)
from protocol.options import TableOptions
from protocol.version import Version
from server.engine import Match, build_deck
from server.journal import Journal
from server.lobby import Lobby
from server.settings import LobbySettings
from server.table import Table

_M = TypeVar("_M", bound=Message)
_peer_ids = itertools.count(1)
_live_peers: weakref.WeakSet[FakePeer] = weakref.WeakSet()


@dataclass(eq=False)
class FakePeer:
    """A connection as a table sees it, recording every message."""

    name: str
    address: str = "127.0.0.1"
    bot: bool = False
    version: Version = CURRENT
    peer_id: int = field(default_factory=lambda: next(_peer_ids))
    received: list[Message] = field(default_factory=list)
    writes: list[list[Message]] = field(default_factory=list)
    """What each ``send`` wrote at once, held messages first (a session's one write)."""
    held: list[Message] = field(default_factory=list)
    closed: tuple[ErrorCode, str] | None = None
    auto_drain: bool = True
    """Whether everything sent counts as written at once (``when_drained`` calls back
    then); without, the callbacks wait in ``undrained`` for ``drain``."""
    undrained: list[Callable[[], None]] = field(default_factory=list)
    _ids: Iterable[int] = field(default_factory=lambda: itertools.count(1))
    _changed: trio.Event = field(default_factory=trio.Event)

    def __post_init__(self) -> None:
        _live_peers.add(self)

    def send(self, *messages: Message) -> None:
        written = [*self.held, *messages]
        self.held.clear()
        if written:
            self.writes.append(written)
        self.received.extend(written)
        self._changed.set()

    def hold(self, *messages: Message) -> None:
        if self.closed is None:  # as a session: nothing more for a closed connection
            self.held.extend(messages)

    def close(self, code: ErrorCode, reason: str) -> None:
        self.closed = (code, reason)

    def when_drained(self, callback: Callable[[], None]) -> None:
        if self.closed is not None:
            return
        if self.auto_drain:
            callback()
        else:
            self.undrained.append(callback)

    def drain(self) -> None:
        """The client has read everything: the waiting ``when_drained`` callbacks run."""
        callbacks, self.undrained = self.undrained, []
        for callback in callbacks:
            callback()

    def next_id(self) -> int:
        return next(iter(self._ids))

    async def wait_for(self, ready: Callable[[], bool]) -> None:
        """Wait until ``ready()`` holds, checking after every message received."""
        while not ready():
            self._changed = trio.Event()
            await self._changed.wait()

    def of(self, kind: type[_M]) -> list[_M]:
        return [message for message in self.received if isinstance(message, kind)]

    def last(self, kind: type[_M]) -> _M:
        found = self.of(kind)
        assert found, f"{self.name} received no {kind.__name__}"
        return found[-1]

    def reply(self, request_id: int) -> Ok | Rejected | None:
        for message in self.received:
            if isinstance(message, Ok | Rejected) and message.id == request_id:
                return message
        return None

    @property
    def events(self) -> list[GameEvent]:
        return self.of(GameEvent)

    @property
    def view(self) -> dict[str, Any]:
        return self.last(GameView).body.to_data()

    @property
    def seat(self) -> int | None:
        return self.last(Joined).seat

    @property
    def token(self) -> str | None:
        return self.last(Joined).resume_token

    @property
    def state(self) -> TableState:
        return self.last(TableState)

    def event_kinds(self) -> list[str]:
        return [str(event.body.kind) for event in self.events]


async def call(lobby: Lobby, peer: FakePeer, make: Callable[[int], Request]) -> Ok | Rejected:
    """Send the request ``make(id)`` and wait for its reply."""
    request = make(peer.next_id())
    await lobby.handle(peer, request)
    await peer.wait_for(lambda: peer.reply(request.id) is not None)
    reply = peer.reply(request.id)
    assert reply is not None
    return reply


async def ok(lobby: Lobby, peer: FakePeer, make: Callable[[int], Request]) -> Ok:
    """Send a request that must succeed."""
    reply = await call(lobby, peer, make)
    assert isinstance(reply, Ok), reply
    return reply


async def refused(lobby: Lobby, peer: FakePeer, make: Callable[[int], Request]) -> str:
    """Send a request that must be refused; returns the code."""
    reply = await call(lobby, peer, make)
    assert isinstance(reply, Rejected), reply
    return reply.code


async def play(lobby: Lobby, peer: FakePeer, command: SeatCommand) -> Ok | Rejected:
    """Send one game command and wait for its reply."""
    return await call(lobby, peer, lambda i: Game(id=i, command=command))


async def create(
    lobby: Lobby, host: FakePeer, name: str = "Table", password: str | None = None, **options: Any
) -> Table:
    """Create a table with ``host`` in seat 0; returns the table."""
    reply = await ok(
        lobby,
        host,
        lambda i: CreateTable(
            id=i, name=name, options=TableOptions.parse(options), password=password
        ),
    )
    assert reply.result is not None
    table = lobby.location(host)
    assert table is not None and table.table_id == reply.result.table_id
    return table


async def settle() -> None:
    """Let every task run until all are blocked (no clock time passes).

    Then no table is between a move and its views, so no peer may still hold messages:
    held ones would never reach their client.
    """
    await trio.testing.wait_all_tasks_blocked()
    stuck = [peer.name for peer in _live_peers if peer.held]
    assert not stuck, f"messages held and never sent to {stuck}"


def rigged(
    table: Table,
    *,
    hands: list[list[str]],
    top: str,
    current: int = 0,
    **fields: Any,
) -> Match:
    """Replace ``table``'s running match with one in the given position.

    Every card not placed goes to the draw pile. The turn clock (if the table has one)
    restarts now. The table's event numbers go on from where they were. The new match
    reaches the table through its inbox, so it is in place before any request sent later.
    """
    match = table.game.match
    assert match is not None, "start the match first"
    data = match.snapshot(with_history=False)
    config = match.config
    placed = Counter(Card.parse(code) for hand in hands for code in hand)
    placed[Card.parse(top)] += 1
    remaining = Counter(build_deck(config))
    remaining.subtract(placed)
    assert all(count >= 0 for count in remaining.values()), "more cards than the deck holds"
    top_card = Card.parse(top)
    now_ms = int(trio.current_time() * 1000)
    data.update(
        hands=[list(hand) for hand in hands],
        draw_pile=sorted(card.code for card in remaining.elements()),
        discard=[top],
        color=top_card.color.value if top_card.color else None,
        current=current,
        direction=1,
        phase="turn",
        drawn=None,
        has_drawn=False,
        early_uno=False,
        exposures=[],
        deadline=now_ms + config.turn_seconds * 1000 if config.turn_seconds else None,
    )
    data.update(fields)
    new = Match.restore(data)
    assert new.cards_accounted_for()
    table.set_position(new)  # queued: every request sent after this sees the new match
    return new


async def open_lobby(nursery: trio.Nursery, **settings: Any) -> Lobby:
    """A running lobby with a fixed seed (and any settings given)."""
    _live_peers.clear()  # peers of earlier tests (kept alive by a traceback) are not ours
    lobby = Lobby(LobbySettings(**{"seed": 1, **settings}))
    await nursery.start(lobby.run)
    return lobby


@asynccontextmanager
async def journaled_lobby(path: Path, settings: LobbySettings) -> AsyncIterator[Lobby]:
    """A lobby on the journal at ``path``, running while the block runs; then stopped as
    a clean stop does it (``shutdown``) and the file closed, so that the next block can
    start a server again on the same file."""
    journal = Journal.open(path)
    try:
        async with trio.open_nursery() as nursery:
            lobby = Lobby(settings, journal=journal)
            await nursery.start(lobby.run)
            yield lobby
            await settle()
            await lobby.shutdown()
            nursery.cancel_scope.cancel()
    finally:
        journal.close()


async def two_players(
    nursery: trio.Nursery, *, history_limit: int | None = None, **options: Any
) -> tuple[Lobby, Table, FakePeer, FakePeer]:
    """Ann (host, seat 0) and Bob (seat 1) at a started two-seat table; ``history_limit``
    for the lobby's tables if given."""
    settings = {} if history_limit is None else {"history_limit": history_limit}
    lobby = await open_lobby(nursery, **settings)
    ann, bob = FakePeer("Ann"), FakePeer("Bob")
    table = await create(lobby, ann, seats=2, **options)
    await ok(lobby, bob, lambda i: Join(id=i, table_id=table.table_id))
    await ok(lobby, ann, lambda i: Start(id=i))
    return lobby, table, ann, bob
