"""One session over an in-memory stream: handshake, limits, protocol errors, every ending.

The lobby here is a fake that answers ok (the session's unit test); the real lobby is
exercised over real sockets in tests/e2e. Every clock runs on ``autojump_clock``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
import trio
import trio.testing
from test_session_wire import EchoLobby, WireClient, raw_frame

from protocol.errors import ErrorCode
from protocol.framing import encode_frame
from protocol.messages import (
    Bye,
    Chat,
    Closing,
    Error,
    Hello,
    ListTables,
    Message,
    Ok,
    Ping,
    Pong,
    Request,
    Welcome,
)
from protocol.version import SUPPORTED_VERSIONS
from server.identity import ServerIdentity
from server.limits import SessionLimits
from server.peer import Peer
from server.session import Session

IDENTITY = ServerIdentity(name="kitchen", server_id="srv-1", version="0.1.0", features=("x",))
LIMITS = SessionLimits(
    handshake_seconds=10,
    ping_interval_seconds=5,
    idle_timeout_seconds=16,
    outbox_size=16,
    allowance_rate=5,
    allowance_burst=10,
    last_write_seconds=1,
)


@asynccontextmanager
async def served(
    lobby: EchoLobby | None = None, limits: SessionLimits = LIMITS
) -> AsyncIterator[tuple[WireClient, Session, EchoLobby]]:
    """A session on one end of an in-memory stream and a client on the other."""
    lobby = lobby or EchoLobby()
    client_stream, server_stream = trio.testing.memory_stream_pair()
    session = Session(
        server_stream,
        peer_id=7,
        address="192.0.2.7",
        lobby=lobby,
        identity=IDENTITY,
        limits=limits,
    )
    with trio.fail_after(600):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(session.run)
            yield WireClient(client_stream), session, lobby
            nursery.cancel_scope.cancel()


async def test_hello_gets_welcome_and_requests_reach_the_lobby() -> None:
    async with served() as (client, session, lobby):
        welcome = await client.hello(name="ann")
        assert welcome == Welcome(
            version="1.0",
            server_name="kitchen",
            server_id="srv-1",
            server_version="0.1.0",
            features=("x",),
        )
        reply = await client.request(lambda id_: ListTables(id=id_))
        assert isinstance(reply, Ok)
        assert [type(message) for _, message in lobby.handled] == [ListTables]
        assert lobby.handled[0][0] is session
        assert session.name == "ann"


async def test_a_hello_with_a_good_token_is_welcomed_as_resumed() -> None:
    async with served() as (client, session, lobby):
        await client.send(
            Hello(versions=("1.0",), name="ann", resume_token="good-token", last_seq=9)
        )
        welcome = await client.receive()
        assert isinstance(welcome, Welcome)
        assert welcome.resumed
        assert lobby.resumes == [(session, "good-token", 9)]


async def test_a_hello_with_a_wrong_token_is_welcomed_to_the_lobby_only() -> None:
    async with served() as (client, _, lobby):
        await client.send(Hello(versions=("1.0",), name="ann", resume_token="forged"))
        welcome = await client.receive()
        assert isinstance(welcome, Welcome)
        assert not welcome.resumed
        assert isinstance(await client.request(lambda id_: ListTables(id=id_)), Ok)
        assert [type(message) for _, message in lobby.handled] == [ListTables]


async def test_names_are_cleaned_before_anyone_sees_them() -> None:
    async with served() as (client, session, _):
        await client.hello(name="\x1b[31mmallory\x07\x1b]0;pwned\x07")
        assert session.name == "mallory"


async def test_no_hello_in_time_is_a_handshake_timeout(autojump_clock: trio.abc.Clock) -> None:
    async with served() as (client, session, lobby):
        start = trio.current_time()
        error = await client.expect_error()
        assert error.code == ErrorCode.HANDSHAKE_TIMEOUT
        assert trio.current_time() - start >= LIMITS.handshake_seconds
        await session.done.wait()
        assert lobby.gone == []


async def test_a_slow_hello_that_arrives_in_time_is_welcomed(
    autojump_clock: trio.abc.Clock,
) -> None:
    async with served() as (client, _, _):
        frame = client.conn.send(Hello(versions=("1.0",), name="bob"))
        await client.send_raw(frame[:3])
        await trio.sleep(LIMITS.handshake_seconds - 1)
        await client.send_raw(frame[3:])
        assert isinstance(await client.receive(), Welcome)


async def test_wrong_version_gets_unsupported_version_listing_ours() -> None:
    async with served() as (client, session, lobby):
        await client.send(Hello(versions=("2.0", "3.1"), name="ann"))
        error = await client.expect_error()
        assert error.code == ErrorCode.UNSUPPORTED_VERSION
        assert error.versions == SUPPORTED_VERSIONS
        await session.done.wait()
        assert lobby.handled == []


async def test_a_message_before_hello_is_hello_required() -> None:
    async with served() as (client, _, lobby):
        await client.send_raw(raw_frame({"type": "list-tables", "id": 1}))
        assert (await client.expect_error()).code == ErrorCode.HELLO_REQUIRED
        assert lobby.handled == []


async def test_second_hello_is_duplicate_hello() -> None:
    async with served() as (client, session, lobby):
        await client.hello()
        await client.send_raw(raw_frame({"type": "hello", "versions": ["1.0"], "name": "x"}))
        assert (await client.expect_error()).code == ErrorCode.DUPLICATE_HELLO
        await session.done.wait()
        assert lobby.gone == [session]


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"\x00\x00\x00\x05\xc1\xc1\xc1\xc1\xc1", ErrorCode.MALFORMED_FRAME),
        (b"\x00\x00\x00\x00", ErrorCode.FRAME_TOO_LARGE),
        ((65_537).to_bytes(4, "big"), ErrorCode.FRAME_TOO_LARGE),
        (b"\xff\xff\xff\xff" + b"x" * 100, ErrorCode.FRAME_TOO_LARGE),
        (encode_frame(b"\xd6\xff\x00\x00\x00\x01"), ErrorCode.MALFORMED_FRAME),
        (raw_frame({"type": "chat", "id": 1}), ErrorCode.BAD_MESSAGE),
        (raw_frame({"type": "shout", "id": 1}), ErrorCode.UNKNOWN_MESSAGE),
        # A header announcing 20 bytes, 5 of them sent, then a whole frame: the body
        # swallows the next frame's start and is not one msgpack map.
        (
            b"\x00\x00\x00\x14\x81\xa4type" + raw_frame({"type": "list-tables", "id": 2}),
            ErrorCode.MALFORMED_FRAME,
        ),
    ],
    ids=[
        "garbage",
        "zero-length",
        "oversized",
        "huge-header",
        "timestamp",
        "schema",
        "unknown",
        "truncated",
    ],
)
async def test_bad_frames_get_the_typed_error_and_a_close(data: bytes, code: ErrorCode) -> None:
    async with served() as (client, session, lobby):
        await client.hello()
        await client.send_raw(data)
        assert (await client.expect_error()).code == code
        await session.done.wait()
        assert lobby.handled == []
        assert lobby.gone == [session]


async def test_bytes_one_at_a_time_still_make_messages() -> None:
    async with served() as (client, _, lobby):
        # The client's own state machine would wait for the welcome; send the chat raw.
        frames = client.conn.send(Hello(versions=("1.0",), name="ann")) + raw_frame(
            {"type": "chat", "id": 3, "text": "hi"}
        )
        for index in range(len(frames)):
            await client.send_raw(frames[index : index + 1])
        assert isinstance(await client.receive(), Welcome)
        client.conn._pending.add(3)  # the chat bypassed the client's bookkeeping
        assert await client.receive() == Ok(id=3)
        assert [message for _, message in lobby.handled] == [Chat(id=3, text="hi")]


async def test_pings_are_answered_and_not_passed_on() -> None:
    async with served() as (client, _, lobby):
        await client.hello()
        await client.send(Ping(nonce=41))
        assert await client.receive() == Pong(nonce=41)
        assert lobby.handled == []


async def test_a_silent_client_is_pinged_then_dropped_for_idling(
    autojump_clock: trio.abc.Clock,
) -> None:
    async with served() as (client, session, lobby):
        await client.hello()
        start = trio.current_time()
        messages = await client.receive_all()
        assert isinstance(messages[-1], Error)
        assert messages[-1].code == ErrorCode.IDLE_TIMEOUT
        assert all(isinstance(message, Ping) for message in messages[:-1])
        assert len(messages) - 1 == int(LIMITS.idle_timeout_seconds // LIMITS.ping_interval_seconds)
        assert trio.current_time() - start >= LIMITS.idle_timeout_seconds
        await session.done.wait()
        assert lobby.gone == [session]


async def test_a_client_answering_pings_stays_connected(autojump_clock: trio.abc.Clock) -> None:
    async with served() as (client, _, _):
        await client.hello()
        pings = 0
        with trio.move_on_after(LIMITS.idle_timeout_seconds * 4):
            while (message := await client.receive()) is not None:
                assert isinstance(message, Ping)
                pings += 1
                await client.send(Pong(nonce=message.nonce))
        assert not client.closed
        assert pings >= 4 * LIMITS.idle_timeout_seconds // LIMITS.ping_interval_seconds - 1
        assert isinstance(await client.request(lambda id_: ListTables(id=id_)), Ok)


async def test_over_the_allowance_is_rate_limited(autojump_clock: trio.abc.Clock) -> None:
    async with served() as (client, _, lobby):
        await client.hello()
        burst = int(LIMITS.allowance_burst)
        await client.send_raw(b"".join(client.conn.send(Ping(nonce=n)) for n in range(burst + 1)))
        messages = await client.receive_all()
        # Pongs still queued when the limit strikes are dropped: the error comes last.
        assert isinstance(messages[-1], Error)
        assert messages[-1].code == ErrorCode.RATE_LIMITED
        assert messages[:-1] == [Pong(nonce=n) for n in range(len(messages) - 1)]
        assert len(messages) <= burst + 1
        assert lobby.handled == []


async def test_a_steady_client_within_the_allowance_is_served(
    autojump_clock: trio.abc.Clock,
) -> None:
    async with served() as (client, _, _):
        await client.hello()
        for nonce in range(int(LIMITS.allowance_burst) * 3):
            await client.send(Ping(nonce=nonce))
            reply = await client.receive()
            while isinstance(reply, Ping):  # the server's own keepalive
                reply = await client.receive()
            assert reply == Pong(nonce=nonce)
            await trio.sleep(1 / LIMITS.allowance_rate)


async def test_a_full_outbox_closes_with_too_slow_and_the_sender_never_waits() -> None:
    lobby = EchoLobby()
    sent = []

    def flood(peer: Peer, message: Message) -> None:
        # Synchronous, as a table is: nothing is written between these sends.
        for nonce in range(LIMITS.outbox_size + 5):
            peer.send(Ping(nonce=nonce))
            sent.append(nonce)

    lobby.on_message = flood
    async with served(lobby) as (client, session, _):
        await client.hello()
        await client.send(Chat(id=1, text="go"))
        error = await client.expect_error()
        assert error.code == ErrorCode.TOO_SLOW
        assert len(sent) == LIMITS.outbox_size + 5
        await session.done.wait()
        assert lobby.gone == [session]


async def test_close_from_the_lobby_sends_the_error_last() -> None:
    lobby = EchoLobby()
    lobby.on_message = lambda peer, _: peer.close(ErrorCode.SERVER_FULL, "go away")
    async with served(lobby) as (client, session, _):
        await client.hello()
        await client.send(Chat(id=1, text="hi"))
        error = await client.expect_error()
        assert (error.code, error.message) == (ErrorCode.SERVER_FULL, "go away")
        # Whatever the lobby sends after closing is dropped, not an exception.
        session.send(Ping(nonce=1))


async def test_a_lobby_failure_closes_only_this_client_with_internal_error() -> None:
    lobby = EchoLobby()

    def explode(peer: Peer, message: Message) -> None:
        raise RuntimeError("bug behind the lobby")

    lobby.on_message = explode
    async with served(lobby) as (client, session, _):
        await client.hello()
        await client.send(Chat(id=1, text="boom"))
        assert (await client.expect_error()).code == ErrorCode.INTERNAL_ERROR
        await session.done.wait()


async def test_bye_ends_the_session_quietly() -> None:
    async with served() as (client, session, lobby):
        await client.hello()
        await client.send(Bye(reason="dinner"))
        assert await client.receive_all() == []
        await session.done.wait()
        assert lobby.gone == [session]


async def test_the_client_hanging_up_tells_the_lobby_once() -> None:
    async with served() as (client, session, lobby):
        await client.hello()
        await client.stream.aclose()
        await session.done.wait()
        assert lobby.gone == [session]


async def test_a_client_hanging_up_before_hello_is_not_the_lobbys_business() -> None:
    async with served() as (client, session, lobby):
        await client.stream.aclose()
        await session.done.wait()
        assert lobby.gone == []


async def test_shut_down_flushes_the_outbox_then_says_closing() -> None:
    async with served() as (client, session, _):
        await client.hello()
        for nonce in range(3):
            session.send(Ping(nonce=nonce))
        session.shut_down("maintenance")
        session.send(Ping(nonce=99))
        messages = await client.receive_all()
        assert messages == [
            Ping(nonce=0),
            Ping(nonce=1),
            Ping(nonce=2),
            Closing(reason="maintenance"),
        ]
        await session.done.wait()


async def test_replies_the_protocol_forbids_are_dropped_not_raised() -> None:
    lobby = EchoLobby()
    lobby.on_message = lambda peer, _: peer.send(Ok(id=999))
    async with served(lobby) as (client, _, _):
        await client.hello()
        reply = await client.request(lambda id_: Chat(id=id_, text="x"))
        assert isinstance(reply, Ok)
        assert reply.id != 999


async def test_every_request_gets_to_the_lobby_in_order() -> None:
    async with served() as (client, _, lobby):
        await client.hello()
        requests: list[Request] = [Chat(id=n, text=f"line {n}") for n in range(6)]
        await client.send_raw(b"".join(client.conn.send(request) for request in requests))
        replies = [await client.receive() for _ in requests]
        assert replies == [Ok(id=n) for n in range(6)]
        assert [message for _, message in lobby.handled] == requests
        assert not any(isinstance(message, Error) for message in replies)


@asynccontextmanager
async def served_to_a_reader_that_never_reads(
    lobby: EchoLobby,
) -> AsyncIterator[tuple[trio.abc.Stream, Session]]:
    """A session whose every write blocks until the client reads (and it never does)."""
    client_stream, server_stream = trio.testing.lockstep_stream_pair()
    session = Session(
        server_stream,
        peer_id=8,
        address="192.0.2.8",
        lobby=lobby,
        identity=IDENTITY,
        limits=LIMITS,
    )
    with trio.fail_after(600):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(session.run)
            yield client_stream, session
            nursery.cancel_scope.cancel()


async def test_shut_down_cuts_off_a_client_that_reads_nothing_at_the_deadline(
    autojump_clock: trio.abc.Clock,
) -> None:
    lobby = EchoLobby()
    async with served_to_a_reader_that_never_reads(lobby) as (client_stream, session):
        hello = WireClient(client_stream).conn.send(Hello(versions=("1.0",), name="zed"))
        await client_stream.send_all(hello)
        # The welcome is stuck in the writer: this client never reads.
        deadline = trio.current_time() + 3
        session.shut_down("stopping", deadline)
        await session.done.wait()
        assert trio.current_time() >= deadline
        assert lobby.gone == [session]


async def test_too_slow_with_a_stuck_writer_ends_within_the_last_write_deadline(
    autojump_clock: trio.abc.Clock,
) -> None:
    lobby = EchoLobby()
    async with served_to_a_reader_that_never_reads(lobby) as (client_stream, session):
        hello = WireClient(client_stream).conn.send(Hello(versions=("1.0",), name="zed"))
        await client_stream.send_all(hello)
        start = trio.current_time()
        for nonce in range(LIMITS.outbox_size + 2):
            session.send(Ping(nonce=nonce))
        await session.done.wait()
        assert trio.current_time() - start >= LIMITS.last_write_seconds
        assert lobby.gone == [session]
