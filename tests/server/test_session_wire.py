"""Test helpers for the network shell: a protocol-only client and a lobby that echoes ok.

Not tests themselves; the file name keeps it beside the session tests that import it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import trio

from protocol.cards import Card
from protocol.codec import encode_body
from protocol.connection import ClientConnection
from protocol.events import DealerChosen, DealerDraw, SeenEvent
from protocol.framing import encode_frame
from protocol.messages import Error, GameEvent, Hello, Message, Ok, Request, Welcome
from server.peer import Peer


def raw_frame(data: dict[str, Any]) -> bytes:
    """A frame carrying ``data`` as is, without the client's state machine checking it."""
    return encode_frame(encode_body(data))


class WireClient:
    """A client built from ``protocol`` only, over any trio stream."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        self.conn = ClientConnection()
        self.closed = False

    async def send(self, message: Message) -> None:
        await self.stream.send_all(self.conn.send(message))

    async def send_raw(self, data: bytes) -> None:
        await self.stream.send_all(data)

    async def receive(self) -> Message | None:
        """The next message, or None once the server has closed the connection."""
        while True:
            message = self.conn.next_message()
            if message is not None:
                return message
            try:
                data = await self.stream.receive_some(65536)
            except trio.BrokenResourceError:
                data = b""
            if not data:
                self.closed = True
                return None
            self.conn.receive_data(bytes(data))

    async def receive_all(self) -> list[Message]:
        """Every message until the server closes the connection."""
        messages: list[Message] = []
        while (message := await self.receive()) is not None:
            messages.append(message)
        return messages

    async def hello(self, name: str = "ann", versions: tuple[str, ...] = ("1.0",)) -> Welcome:
        await self.send(Hello(versions=versions, name=name))
        welcome = await self.receive()
        assert isinstance(welcome, Welcome), welcome
        return welcome

    async def request(self, make: Callable[[int], Request]) -> Message | None:
        """Send the request ``make(id)`` and return the first message that answers it."""
        request = make(self.conn.next_request_id())
        await self.send(request)
        while True:
            message = await self.receive()
            if message is None or getattr(message, "id", None) == request.id:
                return message

    async def expect_error(self) -> Error:
        """Skip what comes until the error; then the server must close the connection."""
        while True:
            message = await self.receive()
            assert message is not None, "the server closed without an error"
            if isinstance(message, Error):
                assert await self.receive() is None, "the server kept talking after an error"
                assert self.closed
                return message


class EchoLobby:
    """A lobby that answers every request ok and remembers what it saw."""

    def __init__(self) -> None:
        self.handled: list[tuple[Peer, Message]] = []
        self.gone: list[Peer] = []
        self.arrivals: list[Peer] = []
        self.resumes: list[tuple[Peer, str, int]] = []
        self.on_message: Callable[[Peer, Message], None] | None = None

    def arrived(self, peer: Peer) -> None:
        self.arrivals.append(peer)

    async def handle(self, peer: Peer, message: Message) -> None:
        self.handled.append((peer, message))
        if self.on_message is not None:
            self.on_message(peer, message)
        if isinstance(message, Request):
            peer.send(Ok(id=message.id))

    def disconnected(self, peer: Peer) -> None:
        self.gone.append(peer)

    def resume(self, peer: Peer, token: str, last_seq: int) -> bool:
        self.resumes.append((peer, token, last_seq))
        # The real lobby only queues the resume for the table; nothing is sent here.
        return token == "good-token"


def padded_event(seq: int, pad_bytes: int = 0) -> GameEvent:
    """An event numbered ``seq`` whose frame is about ``pad_bytes`` long (at least a few):
    a dealer chosen after many tied draws, each round 51 bytes on the wire."""
    draws = ((DealerDraw(0, Card.parse("R1")),) * 10,) * (pad_bytes // 51)
    body = SeenEvent(max(seq, 1), DealerChosen(dealer=0, draws=draws))  # a body counts from 1
    return GameEvent.trusted(seq=seq, body=body)
