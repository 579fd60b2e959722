"""A session over a real TCP socket on 127.0.0.1: the path where frames are written straight
to the socket, and what happens when the socket cannot take them all."""

from __future__ import annotations

import dataclasses
import os
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
import trio
import trio.testing
from test_session import IDENTITY, LIMITS
from test_session_wire import EchoLobby, WireClient, padded_event

from protocol.errors import ErrorCode
from protocol.messages import Closing, Error, GameEvent, Ping
from server.limits import SessionLimits
from server.session import Session

SMALL_BUFFER = 16 * 1024


def session_on(stream: trio.abc.Stream, limits: SessionLimits = LIMITS) -> Session:
    """A session on the server's end of a real connection, with test_session's settings."""
    return Session(
        stream,
        peer_id=1,
        address="127.0.0.1",
        lobby=EchoLobby(),
        identity=IDENTITY,
        limits=limits,
    )


async def test_held_frames_wait_for_the_next_send_and_leave_first_in_its_write() -> None:
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            client_stream = await trio.testing.open_stream_to_socket_listener(listeners[0])
            server_stream = await listeners[0].accept()
            session = session_on(server_stream)
            nursery.start_soon(session.run)
            client = WireClient(client_stream)
            await client.hello()

            session.hold(padded_event(1))
            session.hold(padded_event(2))
            # Loopback hands written bytes to the peer inside the write, and the client's
            # socket does not block (Trio's never do): nothing has arrived.
            client_fd = client_stream.socket.fileno()
            with pytest.raises(BlockingIOError):
                os.read(client_fd, 1)
            session.send(padded_event(3))
            # All three arrived with that send, the held ones first.
            client.conn.receive_data(os.read(client_fd, 1 << 16))
            seqs = []
            while (message := client.conn.next_message()) is not None:
                assert isinstance(message, GameEvent)
                seqs.append(message.seq)
            assert seqs == [1, 2, 3]

            # A shutdown still delivers what is held, before its last words.
            session.hold(padded_event(4))
            session.shut_down("maintenance")
            last = await client.receive_all()
            assert [type(message) for message in last] == [GameEvent, Closing]
            nursery.cancel_scope.cancel()
    for listener in listeners:
        await listener.aclose()


async def test_a_client_that_stops_reading_later_gets_every_frame_whole_and_in_order() -> None:
    limits = dataclasses.replace(LIMITS, outbox_size=1_000)
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            client_stream = await trio.testing.open_stream_to_socket_listener(listeners[0])
            server_stream = await listeners[0].accept()
            # Small buffers on both ends, so that the kernel soon stops taking frames.
            server_stream.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SMALL_BUFFER)
            client_stream.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, SMALL_BUFFER)
            session = session_on(server_stream, limits)
            nursery.start_soon(session.run)
            client = WireClient(client_stream)
            await client.hello()

            pad = 3_000
            count = 60  # about 180 KB, several times what both buffers hold
            for seq in range(count):
                session.send(padded_event(seq, pad))
            # The socket took a part at once; the rest, a partly written frame's tail
            # first, waits in the outbox for the writer task.
            assert session.queued_bytes, "every frame fitted: the test exercised nothing"

            seen: list[int] = []
            while len(seen) < count:
                message = await client.receive()
                assert message is not None, "the server closed the connection"
                if isinstance(message, Ping):
                    continue
                assert isinstance(message, GameEvent), message
                assert message.body == padded_event(message.seq, pad).body
                seen.append(message.seq)
            assert seen == list(range(count))
            assert session.queued_bytes == 0
            nursery.cancel_scope.cancel()
    for listener in listeners:
        await listener.aclose()


@asynccontextmanager
async def served_over_tcp(
    limits: SessionLimits = LIMITS, *, small_buffers: bool = True
) -> AsyncIterator[tuple[WireClient, Session]]:
    """A session on a loopback connection (with small buffers, soon full: the client reads
    nothing until the test makes it)."""
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            client_stream = await trio.testing.open_stream_to_socket_listener(listeners[0])
            server_stream = await listeners[0].accept()
            assert isinstance(server_stream, trio.SocketStream)
            if small_buffers:
                server_stream.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SMALL_BUFFER)
                client_stream.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, SMALL_BUFFER)
            session = session_on(server_stream, limits)
            nursery.start_soon(session.run)
            client = WireClient(client_stream)
            await client.hello()
            yield client, session
            nursery.cancel_scope.cancel()
    for listener in listeners:
        await listener.aclose()


async def test_a_close_after_a_partial_write_finishes_the_cut_frame_before_the_error() -> None:
    limits = dataclasses.replace(LIMITS, outbox_bytes=1 << 20)
    async with served_over_tcp(limits) as (client, session):
        # One send of four large frames: the socket takes a part, most likely cutting a frame.
        pad = 60_000
        session.send(*(padded_event(n, pad) for n in range(4)))
        assert session.queued_bytes, "every frame fitted: the test exercised nothing"
        session.close(ErrorCode.TOO_SLOW, "test")
        # Every byte the client gets parses: the cut frame is finished, the frames not yet
        # begun are dropped, then the error.
        messages = await client.receive_all()
        assert isinstance(messages[-1], Error)
        assert messages[-1].code == ErrorCode.TOO_SLOW
        seqs = [message.seq for message in messages[:-1] if isinstance(message, GameEvent)]
        assert seqs == list(range(len(messages) - 1))
        assert len(seqs) < 4


async def test_the_direct_write_sends_the_bytes_the_writer_task_would() -> None:
    messages = [
        *(padded_event(n, 51 * n) for n in range(20)),
        Ping(nonce=7),
    ]

    async def wire_bytes(client: WireClient, session: Session) -> bytes:
        session.hold(messages[0])
        session.send(*messages[1:10])
        for message in messages[10:]:
            session.send(message)
        session.shut_down("done")
        data = bytearray()
        while chunk := await client.stream.receive_some(1 << 16):
            data += chunk
        return bytes(data)

    limits = dataclasses.replace(LIMITS, outbox_size=1_000)  # all may queue on the plain path
    async with served_over_tcp(limits, small_buffers=False) as (client, session):
        direct = await wire_bytes(client, session)
    client_stream, server_stream = trio.testing.memory_stream_pair()
    plain_session = session_on(server_stream, limits)  # a memory stream: the writer task only
    async with trio.open_nursery() as nursery:
        nursery.start_soon(plain_session.run)
        plain_client = WireClient(client_stream)
        await plain_client.hello()
        plain = await wire_bytes(plain_client, plain_session)
    assert direct == plain
