"""``SocketWriter``, the one place that writes to a socket past Trio's stream API, over real
TCP connections on 127.0.0.1: what it takes, what it leaves, and a socket that is gone."""

from __future__ import annotations

import os
import socket
import struct
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
import trio
import trio.testing

from server.socket_writer import SocketWriter

pytestmark = pytest.mark.skipif(os.name != "posix", reason="the direct write is POSIX-only")

SMALL_BUFFER = 16 * 1024


@asynccontextmanager
async def tcp_pair() -> AsyncIterator[tuple[trio.SocketStream, trio.SocketStream]]:
    """(client end, server end) of one loopback connection."""
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    try:
        client = await trio.testing.open_stream_to_socket_listener(listeners[0])
        server = await listeners[0].accept()
        assert isinstance(server, trio.SocketStream)
        try:
            yield client, server
        finally:
            await trio.aclose_forcefully(client)
            await trio.aclose_forcefully(server)
    finally:
        for listener in listeners:
            await listener.aclose()


async def read_exactly(stream: trio.abc.ReceiveStream, size: int) -> bytes:
    data = bytearray()
    while len(data) < size:
        chunk = await stream.receive_some(size - len(data))
        assert chunk, "the connection closed early"
        data += chunk
    return bytes(data)


def nothing_waits(stream: trio.SocketStream) -> bool:
    try:
        os.read(stream.socket.fileno(), 1)
    except BlockingIOError:
        return True
    return False


async def test_what_the_socket_takes_arrives_at_once() -> None:
    async with tcp_pair() as (client, server):
        writer = SocketWriter.for_stream(server)
        assert writer is not None and writer.attached
        assert writer.write(b"hello") == 5
        assert await read_exactly(client, 5) == b"hello"


async def test_a_partial_write_leaves_the_rest_for_the_stream_in_order() -> None:
    async with tcp_pair() as (client, server):
        server.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SMALL_BUFFER)
        client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, SMALL_BUFFER)
        writer = SocketWriter.for_stream(server)
        assert writer is not None
        data = bytes(range(256)) * 4096  # 1 MiB, far more than both buffers hold
        written = writer.write(data)
        assert 0 < written < len(data)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(server.send_all, data[written:])
            assert await read_exactly(client, len(data)) == data


async def test_a_connection_reset_by_the_peer_takes_nothing_and_raises_nothing() -> None:
    async with tcp_pair() as (client, server):
        writer = SocketWriter.for_stream(server)
        assert writer is not None
        # Close with a reset (linger 0), so that writes on the server's end fail.
        client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        await client.aclose()
        with trio.fail_after(10):
            while writer.write(b"x" * 1024):
                await trio.sleep(0.001)  # until the kernel has seen the reset
        assert writer.write(b"x") == 0
        with pytest.raises(trio.BrokenResourceError):
            await server.send_all(b"x")  # the writer task finds the connection lost


async def test_after_detach_nothing_reaches_a_socket_that_took_its_number() -> None:
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    listener = listeners[0]
    first_client = await trio.testing.open_stream_to_socket_listener(listener)
    first = await listener.accept()
    assert isinstance(first, trio.SocketStream)
    writer = SocketWriter.for_stream(first)
    assert writer is not None
    writer.detach()
    writer.detach()  # idempotent
    assert not writer.attached
    number = first.socket.fileno()
    await first.aclose()
    # The next socket made takes the lowest free number: the one just closed.
    second_client = await trio.testing.open_stream_to_socket_listener(listener)
    second = await listener.accept()
    assert isinstance(second, trio.SocketStream)
    reused = number in (second_client.socket.fileno(), second.socket.fileno())
    assert writer.write(b"not for you") == 0
    assert nothing_waits(second_client) and nothing_waits(second)
    for stream in (first_client, second_client, second):
        await trio.aclose_forcefully(stream)
    await listener.aclose()
    if not reused:
        pytest.skip("the closed socket's number was not reused; the write was not tested")


async def test_only_an_open_tcp_stream_on_posix_gets_one(monkeypatch: pytest.MonkeyPatch) -> None:
    left, _right = trio.testing.memory_stream_pair()
    assert SocketWriter.for_stream(left) is None
    async with tcp_pair() as (_client, server):
        with monkeypatch.context() as patched:
            patched.setattr(os, "name", "nt")
            assert SocketWriter.for_stream(server) is None
        assert SocketWriter.for_stream(server) is not None
        await server.aclose()
        assert SocketWriter.for_stream(server) is None
