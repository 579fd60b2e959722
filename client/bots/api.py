"""A small async API for writing a bot or a scripted scenario in a few lines.

A ``Bot`` is one player on one connection. It speaks only the protocol: it learns what it
may do from the view the server sends (``bot.view``, a typed ``protocol.views.View``;
``bot.legal``, its ``protocol.commands`` records) and never imports the engine::

    async with connect_bot("127.0.0.1", 7531, "Ada") as ada:
        table = await ada.create_table("Friday", {"deck": "bts"})
        ...                                   # others join with bot.join(table)
        await ada.start()
        view = await ada.wait_turn()          # a protocol.views.View
        if Draw() in view.legal:
            await ada.send(Draw())

Lobby methods raise :class:`RefusedError` when the server rejects them; ``send`` returns
the :class:`~client.session.Reply` of a game command so a test can check a rejection code.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Any

import trio

from client.session import ClientSession, Reply, ResumeState, connect, open_session
from protocol.cards import Card
from protocol.commands import SeatCommand
from protocol.events import SeenEvent
from protocol.messages import (
    AddBot,
    CreateTable,
    Join,
    Leave,
    ListTables,
    Ready,
    Rematch,
    Request,
    Start,
    TakeBotSeat,
)
from protocol.options import TableOptions
from protocol.views import View

__all__ = ["Bot", "RefusedError", "TableNotFoundError", "connect_bot", "open_bot"]

ViewCondition = Callable[[View], object]


class RefusedError(Exception):
    """The server rejected a lobby or table command; ``reply`` says with which code."""

    def __init__(self, what: str, reply: Reply) -> None:
        super().__init__(f"{what} refused: {reply.code}: {reply.message}")
        self.reply = reply
        self.code = reply.code


class TableNotFoundError(LookupError):
    """No table of that name is listed on the server."""


class Bot:
    """One player on one greeted connection; see the module docstring."""

    def __init__(self, session: ClientSession) -> None:
        self.session = session

    # -- what the bot knows --------------------------------------------------------------

    @property
    def name(self) -> str:
        return self.session.name

    @property
    def seat(self) -> int | None:
        """This bot's seat at its table; None before joining or when spectating."""
        return self.session.seat

    @property
    def table_id(self) -> str | None:
        return self.session.table_id

    @property
    def view(self) -> View | None:
        """The latest view the server sent (None before the match starts): ``seat``,
        ``hand``, ``drawn``, ``legal`` and ``shared``, what every seat sees (``phase``,
        ``to_act``, ``top``, ``color``, ``counts``...)."""
        return self.session.view

    @property
    def legal(self) -> list[SeatCommand]:
        """The commands this seat may send now, according to the latest view."""
        view = self.session.view
        return list(view.legal) if view is not None else []

    @property
    def hand(self) -> list[Card]:
        """This seat's cards."""
        view = self.session.view
        return list(view.hand or ()) if view is not None else []

    @property
    def events(self) -> list[SeenEvent]:
        """The events received, oldest first."""
        return [message.body for message in self.session.events]

    @property
    def fresh(self) -> bool:
        """True when the view includes every event received (it is not stale)."""
        return self.session.view is not None and self.session.view_seq >= self.session.last_seq

    def events_of(self, kind: str, after: int = 0) -> list[SeenEvent]:
        """The received events of ``kind`` (an ``EventKind`` or its name) numbered above
        ``after``."""
        return [
            message.body
            for message in self.session.events
            if message.body.kind == kind and message.seq > after
        ]

    # -- waiting -------------------------------------------------------------------------

    async def wait_for(self, condition: ViewCondition) -> View:
        """Wait until a fresh view satisfies ``condition``; return that view."""

        def met(session: ClientSession) -> bool:
            view = session.view
            return view is not None and self.fresh and bool(condition(view))

        await self.session.wait_for(met)
        assert self.session.view is not None
        return self.session.view

    async def wait_event(self, kind: str, after: int = 0) -> SeenEvent:
        """Wait for an event of ``kind`` numbered above ``after``; return the first."""
        await self.session.wait_for(lambda _: self.events_of(kind, after))
        return self.events_of(kind, after)[0]

    async def wait_turn(self) -> View:
        """Wait until the match waits on this seat; return the view."""
        return await self.wait_for(lambda view: view.shared.to_act == self.seat)

    # -- game commands -------------------------------------------------------------------

    async def send(self, command: SeatCommand) -> Reply:
        """Send one game command (a ``protocol.commands`` record such as ``Play(card)``
        or ``Draw()``) and return the server's reply."""
        return await self.session.play(command)

    # -- lobby and table commands --------------------------------------------------------

    async def _ask(self, message: Request) -> Reply:
        reply = await self.session.request(message)
        if not reply.ok:
            raise RefusedError(message.TYPE, reply)
        return reply

    def _id(self) -> int:
        return self.session.next_id()

    async def create_table(
        self,
        name: str,
        options: TableOptions | Mapping[str, Any] | None = None,
        password: str | None = None,
    ) -> str:
        """Create a table (this bot is its host, in seat 0); return the table id. Options
        given as plain data are read as the server reads them: a ConfigError here for
        what it would refuse with ``bad-options``."""
        asked = options if isinstance(options, TableOptions) else TableOptions.parse(options or {})
        await self._ask(CreateTable(id=self._id(), name=name, options=asked, password=password))
        await self.session.wait_for(lambda s: s.table_id is not None)
        assert self.session.table_id is not None
        return self.session.table_id

    async def find_table(self, name: str) -> str:
        """The id of the first listed table called ``name``."""
        cursor: str | None = None
        while True:
            self.session.table_list = None
            await self._ask(ListTables(id=self._id(), cursor=cursor, limit=100))
            page = self.session.table_list
            if page is None:
                break
            for table in page.tables:
                if table.name == name:
                    return table.table_id
            cursor = page.next_cursor
            if cursor is None:
                break
        raise TableNotFoundError(f"no table called {name!r} on this server")

    async def join(
        self, table_id: str, seat: int | None = None, password: str | None = None
    ) -> int:
        """Take a seat (any free one by default); return the seat number."""
        await self._ask(Join(id=self._id(), table_id=table_id, seat=seat, password=password))
        await self.session.wait_for(lambda s: s.seat is not None)
        assert self.session.seat is not None
        return self.session.seat

    async def take_bot_seat(self, table_id: str, seat: int, password: str | None = None) -> None:
        """Replace a server bot, at any time (mid-match: with its hand and score)."""
        await self._ask(TakeBotSeat(id=self._id(), table_id=table_id, seat=seat, password=password))

    async def add_bot(self, strategy: str = "basic") -> int:
        """Host only: seat a server bot; return its seat."""
        reply = await self._ask(AddBot(id=self._id(), strategy=strategy))
        seat = reply.result.seat if reply.result is not None else None
        return -1 if seat is None else seat

    async def wait_seated(self, count: int) -> None:
        """Wait until the table state shows ``count`` seats taken."""

        def filled(session: ClientSession) -> bool:
            table = session.table
            return table is not None and sum(s.name is not None for s in table.seats) >= count

        await self.session.wait_for(filled)

    async def start(self) -> None:
        """Host only: start the match."""
        await self._ask(Start(id=self._id()))

    async def ready(self, ready: bool = True) -> None:
        """Say this seat is ready for the next round."""
        await self._ask(Ready(id=self._id(), ready=ready))

    async def rematch(self) -> None:
        """Host only: play again after the match."""
        await self._ask(Rematch(id=self._id()))

    async def leave(self) -> None:
        """Leave the table."""
        await self._ask(Leave(id=self._id()))

    async def resume(self, state: ResumeState) -> None:
        """Take a seat back on this connection with a token from an earlier one."""
        reply = await self.session.resume_seat(state)
        if not reply.ok:
            raise RefusedError("resume", reply)

    async def drop(self) -> None:
        """Lose the connection abruptly (no bye), as a crash would."""
        await self.session.abort()


@asynccontextmanager
async def connect_bot(
    host: str, port: int, name: str, *, resume: ResumeState | None = None
) -> AsyncIterator[Bot]:
    """Connect to a server as ``name`` and yield a Bot; closes with a bye on exit. Its
    hello says it is a bot (1.3 ``hello.bot``)."""
    async with connect(host, port, name, resume=resume, bot=True) as session:
        yield Bot(session)


@asynccontextmanager
async def open_bot(
    stream: trio.abc.Stream, name: str, *, resume: ResumeState | None = None
) -> AsyncIterator[Bot]:
    """A Bot over an already open stream (a memory stream in tests, or a server's own)."""
    async with open_session(stream, name, resume=resume, bot=True) as session:
        yield Bot(session)
