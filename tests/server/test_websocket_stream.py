"""The WebSocket as a byte stream, on a real socket pair: direct writes whole and cut, and
the same bytes on the wire through the direct write as through the writer task, over TCP
and WebSocket alike."""

from __future__ import annotations

import socket

import pytest
import trio
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.server import ServerProtocol
from websockets.uri import parse_uri

from server.socket_writer import SocketWriter
from server.websocket import WebSocketStream
from server.writer import DirectWrite, FrameWriter


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
    # The socket took part of the frame; the caller is told none of it left.
    assert stream.write(data) == 0
    # Until the rest is out, nothing more goes straight to the socket.
    assert stream.write(b"later") == 0
    async with trio.open_nursery() as nursery:
        # As the session's writer task does: the bytes not taken, then what came after.
        nursery.start_soon(stream.send_all, data + b"next")
        received = await payload_of(peer, client, len(data) + 4)
    assert received == data + b"next"


FRAMES = [bytes([n]) * size for n, size in enumerate([6, 300, 70_000, 12, 200_000, 125, 126])]
"""Frames of each header size, two far beyond what the small socket buffer takes."""


def on_the_wire(transport: str, frame: bytes) -> bytes:
    """What one frame should be on the wire: itself over TCP; over WebSocket one unmasked
    binary message as the ``websockets`` library itself serializes it."""
    if transport == "tcp":
        return frame
    return Frame(Opcode.BINARY, frame).serialize(mask=False)


async def wire_bytes(transport: str, *, direct: bool) -> tuple[bytes, bool]:
    """Send ``FRAMES`` through a session's ``FrameWriter`` on a real socket pair with a
    small send buffer, one at a time, with or without the direct write; return the bytes
    that arrived and whether a send left part of its frame to the writer task."""
    ours, theirs = trio.socket.socketpair()
    ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    theirs.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    tcp = trio.SocketStream(ours)
    stream: trio.abc.Stream
    writes: DirectWrite | None
    if transport == "tcp":
        stream = tcp
        writes = SocketWriter.for_stream(tcp)
    else:
        stream = WebSocketStream(tcp, ServerProtocol(state=State.OPEN))
        writes = stream.direct_writer()
    assert writes is not None
    writer = FrameWriter(
        stream,
        writes if direct else None,
        max_messages=64,
        max_bytes=1 << 22,
        last_write_seconds=5,
    )
    peer = trio.SocketStream(theirs)
    received = bytearray()
    expected = 0
    left_to_task = False
    async with trio.open_nursery() as nursery:
        nursery.start_soon(writer.run)
        with trio.fail_after(10):
            for frame in FRAMES:
                writer.send([frame])
                left_to_task = left_to_task or writer.queued > 0
                # One message on the wire per send on both paths: the next send waits
                # until this one has arrived whole.
                expected += len(on_the_wire(transport, frame))
                while len(received) < expected:
                    received += await peer.receive_some(65536)
        nursery.cancel_scope.cancel()
    return bytes(received), left_to_task


@pytest.mark.parametrize("transport", ["tcp", "websocket"])
async def test_the_direct_write_and_the_writer_task_put_the_same_bytes_on_the_wire(
    transport: str,
) -> None:
    direct, cut = await wire_bytes(transport, direct=True)
    through_task, _ = await wire_bytes(transport, direct=False)
    assert cut, "no send was cut short by the socket: the test missed the partial write"
    expected = b"".join(on_the_wire(transport, frame) for frame in FRAMES)
    assert direct == expected
    assert through_task == expected
