"""A session over a real TCP socket on 127.0.0.1: the path where frames are written straight
to the socket, and what happens when the socket cannot take them all."""

from __future__ import annotations

import dataclasses
import os
import socket

import pytest
import trio
import trio.testing
from test_session import IDENTITY, LIMITS
from test_session_wire import EchoLobby, WireClient

from protocol.messages import Closing, GameView, Ping
from server.limits import SessionLimits
from server.session import Session

SMALL_BUFFER = 16 * 1024


def session_on(stream: trio.SocketStream, limits: SessionLimits = LIMITS) -> Session:
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

            session.hold(GameView.trusted(seq=1, body={"last_seq": 1}))
            session.hold(GameView.trusted(seq=2, body={"last_seq": 2}))
            # Loopback hands written bytes to the peer inside the write, and the client's
            # socket does not block (Trio's never do): nothing has arrived.
            client_fd = client_stream.socket.fileno()
            with pytest.raises(BlockingIOError):
                os.read(client_fd, 1)
            session.send(GameView.trusted(seq=3, body={"last_seq": 3}))
            # All three arrived with that send, the held ones first.
            client.conn.receive_data(os.read(client_fd, 1 << 16))
            seqs = []
            while (message := client.conn.next_message()) is not None:
                assert isinstance(message, GameView)
                seqs.append(message.seq)
            assert seqs == [1, 2, 3]

            # A shutdown still delivers what is held, before its last words.
            session.hold(GameView.trusted(seq=4, body={"last_seq": 4}))
            session.shut_down("maintenance")
            last = await client.receive_all()
            assert [type(message) for message in last] == [GameView, Closing]
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

            pad = "x" * 3_000
            count = 60  # about 180 KB, several times what both buffers hold
            for seq in range(count):
                session.send(GameView.trusted(seq=seq, body={"last_seq": seq, "pad": pad}))
            # The socket took a part at once; the rest, a partly written frame's tail
            # first, waits in the outbox for the writer task.
            assert session.queued_bytes, "every frame fitted: the test exercised nothing"

            seen: list[int] = []
            while len(seen) < count:
                message = await client.receive()
                assert message is not None, "the server closed the connection"
                if isinstance(message, Ping):
                    continue
                assert isinstance(message, GameView), message
                assert message.body == {"last_seq": message.seq, "pad": pad}
                seen.append(message.seq)
            assert seen == list(range(count))
            assert session.queued_bytes == 0
            nursery.cancel_scope.cancel()
    for listener in listeners:
        await listener.aclose()
