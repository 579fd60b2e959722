"""docs/protocol.md section 9: who is in the lobby and hears its chat, on a real server."""

from __future__ import annotations

import trio
from e2e_client import Hub, Player
from e2e_server import ServerProcess

from protocol.messages import Chat, ChatMessage, CreateTable, Leave
from protocol.options import TableOptions


def _lines(player: Player) -> list[str]:
    return [frame.text for frame in player.frames if isinstance(frame, ChatMessage)]


async def test_a_client_that_only_said_hello_hears_lobby_chat(uno_server: ServerProcess) -> None:
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            hub = Hub()
            quiet = await Player.connect(uno_server.port, "quiet", hub)
            talker = await Player.connect(uno_server.port, "talker", hub)
            for player in (quiet, talker):
                nursery.start_soon(player.read_forever)
            await talker.ok(lambda id_: Chat(id=id_, text="anyone for a game?"))
            await hub.until(lambda: bool(_lines(quiet)))
            assert _lines(quiet) == ["anyone for a game?"]
            line = next(frame for frame in quiet.frames if isinstance(frame, ChatMessage))
            assert line.sender == "talker" and line.seat is None
            nursery.cancel_scope.cancel()


async def test_a_client_at_a_table_hears_no_lobby_chat_until_it_leaves(
    uno_server: ServerProcess,
) -> None:
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            hub = Hub()
            seated = await Player.connect(uno_server.port, "seated", hub)
            talker = await Player.connect(uno_server.port, "talker", hub)
            for player in (seated, talker):
                nursery.start_soon(player.read_forever)
            await seated.ok(lambda id_: CreateTable(id=id_, name="T", options=TableOptions()))
            await talker.ok(lambda id_: Chat(id=id_, text="first"))
            await seated.ok(lambda id_: Leave(id=id_))
            await talker.ok(lambda id_: Chat(id=id_, text="second"))
            await hub.until(lambda: bool(_lines(seated)))
            assert _lines(seated) == ["second"]
            nursery.cancel_scope.cancel()
