"""A WebSocket client for tests, with no browser: the page's transport, driven from Trio.

``WebSocketClient`` is a ``trio.abc.Stream`` over a TCP connection to the web port, using
the sans-IO ``websockets.client.ClientProtocol``: bytes sent go out as one binary message;
bytes received are those of the binary messages. ``e2e_client.Player`` rides on it as it
does on TCP. ``http_get`` sends one raw request and returns the status and headers.
"""

from __future__ import annotations

from collections.abc import Sequence

import trio
from e2e_client import Hub, Player
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.protocol import State
from websockets.typing import Origin
from websockets.uri import parse_uri

from protocol.messages import Hello, Welcome


class HandshakeRefused(Exception):
    """The server answered the handshake with something other than 101."""

    def __init__(self, status: int) -> None:
        super().__init__(f"handshake refused with {status}")
        self.status = status


class WebSocketClient(trio.abc.Stream):
    """See the module docstring."""

    def __init__(self, tcp: trio.SocketStream, protocol: ClientProtocol) -> None:
        self.tcp = tcp
        self.protocol = protocol
        self._received = bytearray()
        self._ended = False

    @classmethod
    async def open(
        cls, port: int, *, host: str | None = None, origin: str | None = "same"
    ) -> WebSocketClient:
        """Open ``ws://127.0.0.1:port/ws``, saying ``Host: host`` (default the address)
        and ``Origin: origin`` (``"same"``: the page's own, ``http://`` + Host)."""
        host = host or f"127.0.0.1:{port}"
        if origin == "same":
            origin = f"http://{host}"
        protocol = ClientProtocol(
            parse_uri(f"ws://{host}/ws"), origin=None if origin is None else Origin(origin)
        )
        tcp = await trio.open_tcp_stream("127.0.0.1", port)
        request = protocol.connect()
        protocol.send_request(request)
        stream = cls(tcp, protocol)
        await stream._flush()
        while protocol.state is State.CONNECTING:
            data = await tcp.receive_some(65536)
            if not data:
                protocol.receive_eof()
                break
            protocol.receive_data(data)
        events = protocol.events_received()
        response = next((e for e in events if isinstance(e, Response)), None)
        if protocol.state is not State.OPEN:
            await tcp.aclose()
            raise HandshakeRefused(response.status_code if response else 0)
        stream._take(events)
        return stream

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        self.protocol.send_binary(bytes(data))
        await self._flush()

    async def send_text(self, text: str) -> None:
        self.protocol.send_text(text.encode())
        await self._flush()

    async def wait_send_all_might_not_block(self) -> None:
        await self.tcp.wait_send_all_might_not_block()

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        while not self._received and not self._ended:
            data = await self.tcp.receive_some(65536)
            if data:
                self.protocol.receive_data(data)
            else:
                self.protocol.receive_eof()
                self._ended = True
            self._take(self.protocol.events_received())
            await self._flush()
        limit = max_bytes or 65536
        taken = bytes(self._received[:limit])
        del self._received[:limit]
        return taken

    async def aclose(self) -> None:
        await self.tcp.aclose()

    def _take(self, events: Sequence[object]) -> None:
        for event in events:
            if isinstance(event, Frame):
                if event.opcode in (Opcode.BINARY, Opcode.CONT):
                    self._received += event.data
                elif event.opcode is Opcode.CLOSE:
                    self._ended = True

    async def _flush(self) -> None:
        for chunk in self.protocol.data_to_send():
            if chunk:
                await self.tcp.send_all(chunk)


async def connect_player(
    port: int,
    name: str,
    hub: Hub | None = None,
    *,
    versions: tuple[str, ...] = ("1.3",),
    resume_token: str | None = None,
    last_seq: int | None = None,
) -> Player:
    """A ``Player`` over the WebSocket, hello said and welcome read."""
    stream = await WebSocketClient.open(port)
    player = Player(stream, name, hub or Hub())  # type: ignore[arg-type]
    await player.send(
        Hello(versions=versions, name=name, resume_token=resume_token, last_seq=last_seq)
    )
    welcome = await player.receive()
    assert isinstance(welcome, Welcome), welcome
    player.welcome = welcome
    return player


async def http_get(
    port: int, target: str, host: str | None = None, *, extra: str = ""
) -> tuple[int, dict[str, str]]:
    """Send ``GET target`` as it is (no normalising), with any ``extra`` header lines,
    and read the status and headers."""
    host = host or f"127.0.0.1:{port}"
    tcp = await trio.open_tcp_stream("127.0.0.1", port)
    request = f"GET {target} HTTP/1.1\r\nHost: {host}\r\n{extra}\r\n".encode()
    await tcp.send_all(request)
    data = b""
    with trio.fail_after(10):
        while b"\r\n\r\n" not in data:
            chunk = await tcp.receive_some(65536)
            if not chunk:
                break
            data += chunk
    await tcp.aclose()
    head = data.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    status = int(head[0].split(" ")[1])
    headers = {}
    for line in head[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers
