"""The session's outbox, bounded in messages and in bytes, and how a session uses it: a
too-slow close by either bound, held frames dropped on a forced close, last words that a
cancellation around the session does not cut short."""

from __future__ import annotations

import dataclasses

import pytest
import trio
import trio.testing
from test_session import IDENTITY, LIMITS, served
from test_session_wire import EchoLobby, WireClient, padded_event

from protocol.errors import ErrorCode
from protocol.messages import Chat, Error, Message, Ping
from server.limits import MAX_FRAME, LimitsError, SessionLimits
from server.outbox import Outbox, OutboxFull
from server.peer import Peer
from server.session import Session

# --- the Outbox alone ------------------------------------------------------------------


def test_a_frame_past_the_message_bound_is_refused_and_not_queued() -> None:
    outbox = Outbox(max_messages=2, max_bytes=1_000)
    outbox.put(b"a")
    outbox.put(b"b")
    with pytest.raises(OutboxFull) as full:
        outbox.put(b"c")
    assert full.value.what == "2 messages"
    assert (len(outbox), outbox.nbytes) == (2, 2)


def test_a_frame_past_the_byte_bound_is_refused_though_few_messages_wait() -> None:
    outbox = Outbox(max_messages=100, max_bytes=10)
    outbox.put(b"x" * 6)
    with pytest.raises(OutboxFull) as full:
        outbox.put(b"y" * 5)
    assert full.value.what == "10 bytes"
    assert (len(outbox), outbox.nbytes) == (1, 6)
    outbox.put(b"z" * 4)  # exactly up to the bound fits
    assert outbox.nbytes == 10


def test_take_keeps_the_order_and_joins_up_to_the_batch_size() -> None:
    outbox = Outbox(max_messages=10, max_bytes=100)
    for frame in (b"aaa", b"bb", b"cccc", b"d"):
        outbox.put(frame)
    assert outbox.take(4) == b"aaabb"  # one frame past 4 bytes, never a cut frame
    assert (len(outbox), outbox.nbytes) == (2, 5)
    assert outbox.take(1) == b"cccc"  # at least one frame, whatever the size
    assert outbox.take(100) == b"d"
    assert (len(outbox), outbox.nbytes, bool(outbox)) == (0, 0, False)


def test_put_all_leaves_out_what_the_socket_took_and_marks_a_begun_frame() -> None:
    outbox = Outbox(max_messages=10, max_bytes=100)
    outbox.put_all([b"aaaa", b"bbbb", b"cccc"], skip=6)  # all of a, half of b written
    assert outbox.begun
    assert (len(outbox), outbox.nbytes) == (2, 6)
    assert outbox.take(100) == b"bbcccc"
    assert not outbox.begun


def test_put_all_on_a_frame_boundary_begins_nothing() -> None:
    outbox = Outbox(max_messages=10, max_bytes=100)
    outbox.put_all([b"aaaa", b"bbbb"], skip=4)
    assert not outbox.begun
    outbox.drop_unbegun()
    assert (len(outbox), outbox.nbytes) == (0, 0)


def test_dropping_keeps_the_rest_of_a_begun_frame_only() -> None:
    outbox = Outbox(max_messages=10, max_bytes=100)
    outbox.put_all([b"aaaa", b"bbbb"], skip=1)
    outbox.put(b"later")
    outbox.drop_unbegun()
    assert (len(outbox), outbox.nbytes) == (1, 3)
    assert outbox.take(100) == b"aaa"


def test_put_all_stops_at_the_first_frame_that_does_not_fit() -> None:
    outbox = Outbox(max_messages=2, max_bytes=100)
    with pytest.raises(OutboxFull):
        outbox.put_all([b"1", b"2", b"3", b"4"])
    assert outbox.take(100) == b"12"


def test_over_half_by_either_bound() -> None:
    by_count = Outbox(max_messages=4, max_bytes=1_000)
    by_count.put_all([b"a", b"b"])
    assert not by_count.over_half
    by_count.put(b"c")
    assert by_count.over_half
    by_bytes = Outbox(max_messages=100, max_bytes=10)
    by_bytes.put(b"x" * 5)
    assert not by_bytes.over_half
    by_bytes.put(b"x")
    assert by_bytes.over_half


def test_session_limits_want_room_for_the_largest_frame() -> None:
    with pytest.raises(LimitsError, match="outbox_bytes"):
        SessionLimits(outbox_bytes=MAX_FRAME - 1)
    assert SessionLimits(outbox_bytes=MAX_FRAME).outbox_bytes == MAX_FRAME
    assert SessionLimits().outbox_bytes >= MAX_FRAME


# --- the outbox in a session -------------------------------------------------------------

BIG = 30_000  # a frame of about 30 KB: three of them pass one largest frame


async def test_a_few_big_frames_past_the_byte_bound_close_with_too_slow() -> None:
    limits = dataclasses.replace(LIMITS, outbox_bytes=MAX_FRAME)
    lobby = EchoLobby()

    def flood(peer: Peer, message: Message) -> None:
        for seq in range(3):  # far fewer than outbox_size messages
            peer.send(padded_event(seq, BIG))

    lobby.on_message = flood
    async with served(lobby, limits) as (client, session, _):
        await client.hello()
        await client.send(Chat(id=1, text="go"))
        error = await client.expect_error()
        assert error.code == ErrorCode.TOO_SLOW
        assert f"{MAX_FRAME:,} bytes" in error.message
        await session.done.wait()


async def test_the_message_bound_still_names_messages() -> None:
    lobby = EchoLobby()

    def flood(peer: Peer, message: Message) -> None:
        for nonce in range(LIMITS.outbox_size + 1):
            peer.send(Ping(nonce=nonce))

    lobby.on_message = flood
    async with served(lobby) as (client, _, _):
        await client.hello()
        await client.send(Chat(id=1, text="go"))
        error = await client.expect_error()
        assert error.code == ErrorCode.TOO_SLOW
        assert f"{LIMITS.outbox_size} messages" in error.message


async def test_held_frames_are_dropped_when_the_session_is_closed() -> None:
    async with served() as (client, session, _):
        await client.hello()
        session.hold(padded_event(1))
        session.close(ErrorCode.SERVER_FULL, "go away")
        session.send(Ping(nonce=1))  # after the close: dropped too
        messages = await client.receive_all()
        assert [type(message) for message in messages] == [Error]


async def test_the_last_words_survive_a_cancellation_around_the_session() -> None:
    client_stream, server_stream = trio.testing.memory_stream_pair()
    session = Session(
        server_stream,
        peer_id=9,
        address="192.0.2.9",
        lobby=EchoLobby(),
        identity=IDENTITY,
        limits=LIMITS,
    )
    client = WireClient(client_stream)
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(session.run)
            await client.hello()
            session.close(ErrorCode.SERVER_SHUTDOWN, "stopping now")
            # Cancelled before the writer task has run: its last write is shielded.
            nursery.cancel_scope.cancel()
        error = await client.expect_error()
        assert (error.code, error.message) == (ErrorCode.SERVER_SHUTDOWN, "stopping now")
        assert session.done.is_set()
