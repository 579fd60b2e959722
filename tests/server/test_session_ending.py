"""How a session ends when the client hangs up mid-frame, and what it never sends a client
that speaks an older minor version."""

from __future__ import annotations

import logging

import pytest
import trio
import trio.testing
from test_session import served

from protocol.codec import encode_body
from protocol.errors import ErrorCode
from protocol.framing import encode_frame
from protocol.messages import Error, Left, LeftReason, ListTables, Ok, TableList


async def hang_up(stream: trio.abc.Stream) -> None:
    """Close the client's sending side only; it can still read the server's last words."""
    assert isinstance(stream, trio.StapledStream)
    await stream.send_stream.aclose()


async def test_a_frame_cut_off_by_the_hang_up_is_answered_with_malformed_frame(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="uno.server.session")
    async with served() as (client, session, lobby):
        await client.hello()
        whole = encode_frame(encode_body({"type": "list-tables", "id": 1}))
        await client.send_raw(whole[:-3])
        await hang_up(client.stream)
        error = await client.expect_error()
        assert error.code == ErrorCode.MALFORMED_FRAME
        assert "middle of a frame" in error.message
        await session.done.wait()
        assert lobby.handled == [] and lobby.gone == [session]
    assert any("malformed-frame" in record.getMessage() for record in caplog.records)


async def test_a_hang_up_between_frames_ends_quietly() -> None:
    async with served() as (client, session, lobby):
        await client.hello()
        await client.send(ListTables(id=1))
        await hang_up(client.stream)
        rest = await client.receive_all()
        await session.done.wait()
        assert not [message for message in rest if isinstance(message, Error)]
        assert [type(message) for message in rest] == [Ok]
        assert lobby.gone == [session]


async def test_a_header_alone_then_the_hang_up_is_malformed_too() -> None:
    async with served() as (client, session, _lobby):
        await client.hello()
        await client.send_raw((10).to_bytes(4, "big"))
        await hang_up(client.stream)
        assert (await client.expect_error()).code == ErrorCode.MALFORMED_FRAME
        await session.done.wait()


async def test_a_message_newer_than_the_negotiated_version_is_not_sent() -> None:
    async with served() as (client, session, _lobby):
        welcome = await client.hello(versions=("1.0",))
        assert welcome.version == "1.0"
        session.send(Left(table_id="1", reason=LeftReason.KICKED))  # since 1.1
        session.send(TableList(tables=()))
        # The next message the client sees is the table list: the 1.1 message was dropped
        # (had it been sent, this 1.0 client would have failed on it).
        assert isinstance(await client.receive(), TableList)
