"""The network side sends the person's intents one at a time, in the order of the keys.

A scripted server at the end of an in-memory stream records the game commands it receives
and answers each only when the test allows it. Two keys pressed together (draw, then pass)
must reach it as draw, then pass, the pass only once the draw has its reply: never raced
against it by another task.
"""

from __future__ import annotations

import pytest
import trio
import trio.testing
from client_builders import event, hand_view, table_state
from client_server import Watched

from client.ui.intents import GameIntent, Quit
from client.ui.model import Mode, Model, Picker
from client.ui.network import Network
from protocol.commands import Draw, Pass
from protocol.connection import ServerConnection
from protocol.errors import ErrorCode
from protocol.messages import (
    Error,
    Game,
    GameEvent,
    GameView,
    Joined,
    ListTables,
    Message,
    Ok,
    TableList,
    Welcome,
)


class HoldingServer:
    """Greets, answers table lists at once, records every game command as it arrives and
    answers each only when allowed (``allow_in``)."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        self.conn = ServerConnection()
        self.commands: list[str] = []
        self.allow_in, self._allowed = trio.open_memory_channel[None](100)
        self._held_in, self._held = trio.open_memory_channel[int](100)
        self._writing = trio.Lock()

    async def _send(self, *messages: Message) -> None:
        async with self._writing:
            for message in messages:
                await self.stream.send_all(self.conn.send(message))

    async def serve(self) -> None:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._answer_when_allowed)
            while data := await self.stream.receive_some(65_536):
                self.conn.receive_data(bytes(data))
                while (message := self.conn.next_message()) is not None:
                    if message.TYPE == "hello":
                        welcome = Welcome(
                            version=self.conn.version or "1.0",
                            server_name="order",
                            server_id="s1",
                            server_version="0",
                        )
                        await self._send(welcome)
                    elif isinstance(message, ListTables):
                        await self._send(TableList(tables=()), Ok(id=message.id))
                    elif isinstance(message, Game):
                        self.commands.append(message.command.TYPE)
                        self._held_in.send_nowait(message.id)
            nursery.cancel_scope.cancel()

    async def _answer_when_allowed(self) -> None:
        async for request_id in self._held:
            await self._allowed.receive()
            await self._send(Ok(id=request_id))


async def test_two_quick_keys_reach_the_server_in_order_one_at_a_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    client_end, server_end = trio.testing.memory_stream_pair()
    server = HoldingServer(server_end)

    async def open_stream(host: str, port: int) -> trio.abc.Stream:
        return client_end

    monkeypatch.setattr(trio, "open_tcp_stream", open_stream)
    model = Model(name="Keys")
    redraws = Watched()
    network = Network(model, redraws.redraw, trio.current_time, address=("127.0.0.1", 1))
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(server.serve)
            nursery.start_soon(network.run)
            await redraws.until(lambda: model.connected)

            network.submit(GameIntent(Draw()))
            network.submit(GameIntent(Pass()))
            await trio.testing.wait_all_tasks_blocked()
            assert server.commands == ["draw"]  # the pass waits for the draw's reply

            server.allow_in.send_nowait(None)
            await trio.testing.wait_all_tasks_blocked()
            assert server.commands == ["draw", "pass"]
            server.allow_in.send_nowait(None)
            network.submit(Quit())
            await trio.testing.wait_all_tasks_blocked()
            nursery.cancel_scope.cancel()


async def test_a_seat_resumed_elsewhere_is_not_taken_back_from_here(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    opened: list[trio.abc.Stream] = []

    async def open_stream(host: str, port: int) -> trio.abc.Stream:
        client_end, server_end = trio.testing.memory_stream_pair()
        opened.append(server_end)
        return client_end

    monkeypatch.setattr(trio, "open_tcp_stream", open_stream)
    model = Model(name="Keys")
    redraws = Watched()
    network = Network(model, redraws.redraw, trio.current_time, address=("127.0.0.1", 1))
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(network.run)
            await trio.testing.wait_all_tasks_blocked()
            server = HoldingServer(opened[0])
            nursery.start_soon(server.serve)
            await redraws.until(lambda: model.connected)
            await server._send(Error(code=ErrorCode.REPLACED.value, message="moved"))
            await redraws.until(lambda: "taken over" in model.message)
            await trio.testing.wait_all_tasks_blocked()
            assert network.address is None and len(opened) == 1 and not model.connected
            network.submit(Quit())


async def test_a_view_that_catches_up_with_the_events_keeps_the_colour_picker_open(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An event arrives (the view is behind it), then the view that covers it: its legal
    moves count at once, so the picker open on a wild card stays open."""
    client_end, server_end = trio.testing.memory_stream_pair()
    server = HoldingServer(server_end)

    async def open_stream(host: str, port: int) -> trio.abc.Stream:
        return client_end

    monkeypatch.setattr(trio, "open_tcp_stream", open_stream)
    model = Model(name="Ann")
    redraws = Watched()
    network = Network(model, redraws.redraw, trio.current_time, address=("127.0.0.1", 1))
    plays = [{"type": "play", "card": "W", "color": color} for color in "RYGB"]
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(server.serve)
            nursery.start_soon(network.run)
            await redraws.until(lambda: model.connected)
            first = hand_view(["B2", "W"], plays, last_seq=1)
            await server._send(
                Joined(table_id="t1", seat=0, resume_token="tok"),
                table_state(),
                GameView(seq=1, body=first),
            )
            await redraws.until(lambda: model.view == first)
            model.mode = Mode.PICK
            model.draft = list(model.legal_of("play"))
            model.picker = Picker("Choose the colour", "color", [("R", "red")])
            later = hand_view(["B2", "W"], plays, last_seq=2)
            await server._send(
                GameEvent(seq=2, body=event({"seq": 2, "kind": "exposed", "seat": 1})),
                GameView(seq=2, body=later),
            )
            await redraws.until(lambda: model.view == later)
            assert model.mode is Mode.PICK and model.draft
            assert not model.view_behind
            network.submit(Quit())
            await trio.testing.wait_all_tasks_blocked()
            nursery.cancel_scope.cancel()
