"""``client.launch.WatchedServer``, the server child ``uno-client --serve`` watches: a real
``uno-server`` killed with SIGKILL is reaped at once and said in words; ``restart`` starts
it again on the same port and journal, where the old seat's token still opens it."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
import trio

from client.launch import WatchedServer, server_command
from client.session import connect
from protocol.messages import CreateTable

pytestmark = pytest.mark.e2e


async def test_a_killed_child_is_reaped_said_and_started_again_on_its_port(
    tmp_path: Path,
) -> None:
    journal = ["--state", str(tmp_path / "serve.sqlite3")]
    heard: list[str | None] = []
    changed = trio.Event()

    def on_change(words: str | None) -> None:
        nonlocal changed
        heard.append(words)
        changed.set()
        changed = trio.Event()

    def command(port: int) -> list[str]:
        return server_command(port=port, extra=journal)

    served = WatchedServer(command, "127.0.0.1", on_change)
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            host, port = await nursery.start(served.run)
            async with connect(host, port, "Hostess") as session:
                await session.request(CreateTable(id=session.next_id(), name="Evening"))
                await session.wait_for(lambda s: s.seat is not None)
                resume = session.resume_state()
                process = served.process
                assert process is not None
                os.kill(process.pid, signal.SIGKILL)
                await changed.wait()
            assert heard == ["the server stopped (killed by SIGKILL)"]
            assert process.returncode == -signal.SIGKILL  # waited for: no zombie
            assert not Path(f"/proc/{process.pid}").exists()
            served.restart()
            await changed.wait()
            assert heard[-1] is None and served.address == (host, port)
            async with connect(host, port, "Hostess", resume=resume) as back:
                assert back.resumed
            nursery.cancel_scope.cancel()
    assert served.starts == 2
