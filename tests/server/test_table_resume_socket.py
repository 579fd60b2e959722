"""Resuming a seat over a real loopback socket: what the returning client is sent, in order.

A real ``Server`` and a real ``Lobby`` on 127.0.0.1; the clients are built from
``protocol`` only. Real sockets mean the real clock, so every wait is bounded by
``fail_after`` and nothing asserts a time.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import trio
from test_session_wire import WireClient

from protocol.messages import (
    CreateTable,
    GameEvent,
    GameView,
    Join,
    Joined,
    Message,
    Ok,
    ResumeSeat,
    Start,
    TableState,
)
from protocol.options import TableOptions
from server.app import Server, ServerSettings
from server.identity import ServerIdentity
from server.lobby import Lobby
from server.settings import LobbySettings

IDENTITY = ServerIdentity(name="test", server_id="srv-test", version="0.1.0")


@asynccontextmanager
async def real_server() -> AsyncIterator[int]:
    """A server with the real lobby on 127.0.0.1; yields its port. Its server bots think
    for a minute, so a seat they stand in for stays as its owner left it."""
    lobby = Lobby(LobbySettings(seed=3, bot_think_ms=60_000))
    server = Server(ServerSettings(hosts=("127.0.0.1",), port=0), lobby, IDENTITY)
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            await nursery.start(lobby.run)
            addresses = await nursery.start(server.run)
            yield addresses[0][1]
            server.stop("test over")
            nursery.cancel_scope.cancel()


async def until_reply(client: WireClient, request_id: int) -> list[Message]:
    """Every message up to and including the reply to ``request_id``."""
    received: list[Message] = []
    while True:
        message = await client.receive()
        assert message is not None, "the server closed the connection"
        received.append(message)
        if isinstance(message, Ok) and message.id == request_id:
            return received


async def test_a_resumed_seat_gets_its_missed_events_then_one_view_then_ok() -> None:
    async with real_server() as port:
        ann = WireClient(await trio.open_tcp_stream("127.0.0.1", port))
        await ann.hello("Ann")
        created = await ann.request(
            lambda i: CreateTable(id=i, name="t", options=TableOptions.parse({"seats": 2}))
        )
        assert isinstance(created, Ok) and created.result is not None
        table_id = created.result.table_id
        assert table_id is not None

        bob = WireClient(await trio.open_tcp_stream("127.0.0.1", port))
        await bob.hello("Bob")
        join = Join(id=bob.conn.next_request_id(), table_id=table_id)
        await bob.send(join)
        joined = [m for m in await until_reply(bob, join.id) if isinstance(m, Joined)]
        token = joined[-1].resume_token
        assert token is not None
        start = Start(id=ann.conn.next_request_id())
        await ann.send(start)
        await until_reply(ann, start.id)
        while True:
            message = await bob.receive()
            assert message is not None
            if isinstance(message, GameView):
                seen = message.seq
                break
        await bob.stream.aclose()

        # Ann hears that Bob is away: his seat's state changes once the table notices.
        while True:
            message = await ann.receive()
            if isinstance(message, TableState) and message.seats[1].away:
                break

        again = WireClient(await trio.open_tcp_stream("127.0.0.1", port))
        await again.hello("Bob")
        resume = ResumeSeat(id=again.conn.next_request_id(), token=token, last_seq=seen)
        await again.send(resume)
        answer = await until_reply(again, resume.id)

    kinds = [type(message) for message in answer]
    assert kinds.count(GameView) == 1, kinds
    assert kinds[0] is Joined and kinds[-2:] == [GameView, Ok]
    events = [m for m in answer if isinstance(m, GameEvent)]
    assert [e.seq for e in events] == list(range(seen + 1, seen + 1 + len(events)))
    assert [e.body.kind for e in events][-1] == "back"
    view = answer[-2]
    assert isinstance(view, GameView) and view.seq == events[-1].seq
