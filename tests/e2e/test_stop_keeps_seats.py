"""A real ``uno-server`` stopped with SIGTERM: a table its journal keeps is not closed, so a
seated player hears only ``closing`` (and resumes the seat once the server is back); a
server without a journal closes its tables, and says so with ``left`` first."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest
import trio
from e2e_server import ServerProcess

from client.session import ClientSession, ServerClosedError, connect
from protocol.messages import Closing, CreateTable, LeftReason

pytestmark = pytest.mark.e2e


async def _seated_then_stopped(server: ServerProcess) -> ClientSession:
    """Create a table, then SIGTERM the server; the session once it has closed."""
    with trio.fail_after(30):
        async with connect("127.0.0.1", server.port, "Ann") as session:
            reply = await session.request(CreateTable(id=session.next_id(), name="Friday"))
            assert reply.ok
            await session.wait_for(lambda s: s.seat is not None)
            server.process.send_signal(signal.SIGTERM)
            with pytest.raises(ServerClosedError):
                await session.wait_for(lambda s: False)
    return session


async def test_a_journaled_table_keeps_its_seats_through_a_stop(tmp_path: Path) -> None:
    server = ServerProcess.start(tmp_path)
    try:
        session = await _seated_then_stopped(server)
    finally:
        server.stop()
    assert isinstance(session.close_reason, ServerClosedError)
    assert session.close_reason.code == Closing.TYPE
    assert session.left is None  # the table is not closed: it comes back with the server
    assert session.resume_state() is not None
    again = ServerProcess.start(tmp_path, state=server.state)
    try:
        with trio.fail_after(30):
            async with connect(
                "127.0.0.1", again.port, "Ann", resume=session.resume_state()
            ) as back:
                assert back.resumed
                await back.wait_for(lambda s: s.seat == session.seat)
    finally:
        again.stop()


async def test_a_server_without_a_journal_says_its_tables_closed(tmp_path: Path) -> None:
    server = ServerProcess.start(tmp_path, "--no-state")
    try:
        session = await _seated_then_stopped(server)
    finally:
        server.stop()
    assert session.left is not None and session.left.reason is LeftReason.TABLE_CLOSED
