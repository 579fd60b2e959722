"""Deadlines on every stage of reading: a frame sent a byte at a time, or bytes that never
make a message, cannot hold a connection open."""

from __future__ import annotations

import contextlib

import trio
import trio.testing
from test_session import served

from protocol.codec import encode_body
from protocol.errors import ErrorCode
from protocol.framing import encode_frame
from protocol.messages import Pong
from server.limits import ConnectionGate, SessionLimits

SLOW_READER_LIMITS = SessionLimits(
    ping_interval_seconds=5, idle_timeout_seconds=16, frame_seconds=10, handshake_seconds=10
)


async def test_a_frame_trickled_a_byte_at_a_time_is_cut_off(
    autojump_clock: trio.testing.MockClock,
) -> None:
    async with served(limits=SLOW_READER_LIMITS) as (client, _session, _lobby):
        await client.hello()
        frame = encode_frame(encode_body(Pong(nonce=1).to_data()))
        started = trio.current_time()
        with trio.move_on_after(60), contextlib.suppress(trio.BrokenResourceError):
            for byte in frame[:-1]:  # never the last byte
                await client.send_raw(bytes([byte]))
                await trio.sleep(4)  # well inside the idle timeout each time
        error = await client.expect_error()
        assert error.code == ErrorCode.IDLE_TIMEOUT
        assert "frame" in error.message
        assert trio.current_time() - started < 60  # it did not wait for the trickle to end


async def test_bytes_that_never_make_a_message_do_not_reset_the_idle_timer(
    autojump_clock: trio.testing.MockClock,
) -> None:
    # The frame deadline is longer than the idle timeout here: only the idle timer can end it.
    limits = SessionLimits(ping_interval_seconds=5, idle_timeout_seconds=16, frame_seconds=50)
    async with served(limits=limits) as (client, _session, _lobby):
        await client.hello()
        # Whole pongs keep it open for a minute...
        for nonce in range(12):
            await trio.sleep(5)
            await client.send(Pong(nonce=nonce))
        # ...then a byte every 5 s that never completes a frame.
        frame = encode_frame(encode_body(Pong(nonce=99).to_data()))
        quiet_from = trio.current_time()
        with trio.move_on_after(45), contextlib.suppress(trio.BrokenResourceError):
            for byte in frame[:-1]:
                await client.send_raw(bytes([byte]))
                await trio.sleep(5)
        error = await client.expect_error()
        assert error.code == ErrorCode.IDLE_TIMEOUT and "no message" in error.message
        assert trio.current_time() - quiet_from < 45


def test_the_last_slots_are_kept_for_addresses_not_yet_connected() -> None:
    gate = ConnectionGate(max_connections=16, max_per_address=16)
    assert gate.reserve == 2
    for _ in range(14):
        assert gate.admit("10.0.0.66") is None
    refusal = gate.admit("10.0.0.66")
    assert refusal is not None and "kept" in refusal.reason
    assert gate.admit("10.0.0.2") is None  # a newcomer's first connection
    assert gate.admit("10.0.0.2") is not None  # but not a second one
    assert gate.admit("10.0.0.3") is None
    assert gate.admit("10.0.0.4") is not None  # now the server is full
