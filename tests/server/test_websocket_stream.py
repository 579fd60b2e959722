"""The WebSocket as a byte stream, on a real socket pair: direct writes whole and cut."""

from __future__ import annotations

import socket

import trio
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.server import ServerProtocol
from websockets.uri import parse_uri

from server.websocket import WebSocketStream


async def pair() -> tuple[WebSocketStream, trio.SocketStream, ClientProtocol]:
    ours, theirs = trio.socket.socketpair()
    ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    stream = WebSocketStream(trio.SocketStream(ours), ServerProtocol(state=State.OPEN))
    client = ClientProtocol(parse_uri("ws://localhost/ws"), state=State.OPEN)
    return stream, trio.SocketStream(theirs), client


async def payload_of(peer: trio.SocketStream, client: ClientProtocol, size: int) -> bytes:
    """Read binary messages until ``size`` bytes of payload came; fail on anything else."""
    got = bytearray()
    with trio.fail_after(10):
        while len(got) < size:
            client.receive_data(await peer.receive_some(65536))
            for event in client.events_received():
                assert isinstance(event, Frame) and event.opcode is Opcode.BINARY, event
                got += event.data
    return bytes(got)


async def test_a_direct_write_the_socket_takes_whole_is_one_message() -> None:
    stream, peer, client = await pair()
    writer = stream.direct_writer()
    assert writer is not None
    assert writer.write(b"\x00\x00\x00\x02\x81\xa0") == 6
    assert await payload_of(peer, client, 6) == b"\x00\x00\x00\x02\x81\xa0"


async def test_a_direct_write_cut_short_is_finished_by_the_next_send() -> None:
    stream, peer, client = await pair()
    data = bytes(range(256)) * 2048  # far more than the socket takes at once
    written = stream.write(data)
    assert 0 < written < len(data)
    # Until the rest is out, nothing more goes straight to the socket.
    assert stream.write(b"later") == 0
    async with trio.open_nursery() as nursery:
        # As the session's writer task does: the bytes not taken, then what came after.
        nursery.start_soon(stream.send_all, data[written:] + b"next")
        received = await payload_of(peer, client, len(data) + 4)
    assert received == data + b"next"
