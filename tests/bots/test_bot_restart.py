"""``uno-bot`` while its server is killed with SIGKILL mid-match: started again on the same
port and journal, the bots take their seats back and finish the match; never started again,
they give up after ``--reconnect-seconds`` with one clear line and status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest
import trio
from e2e_server import ServerProcess

pytestmark = pytest.mark.e2e

PLAYING = b"bots playing at"


async def _start_bots(port: int, *flags: str) -> trio.Process:
    command = [sys.executable, "-m", "client.bots", "--server", f"127.0.0.1:{port}"]
    command += ["--bots", "2", "--games", "1", "--think-ms", "30", "30", "--seed", "3"]
    command += ["--create", "--table", "ride", "--json", *flags]
    return await trio.lowlevel.open_process(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


async def _read_until(stream: trio.abc.ReceiveStream, marker: bytes) -> bytes:
    data = b""
    while marker not in data:
        chunk = await stream.receive_some(4096)
        assert chunk, data
        data += chunk
    return data


async def _finish(process: trio.Process) -> tuple[bytes, bytes]:
    """Everything else the process prints, once it has exited."""
    assert process.stdout is not None and process.stderr is not None
    out, err = [b""], [b""]

    async def drain(stream: trio.abc.ReceiveStream, into: list[bytes]) -> None:
        async for chunk in stream:
            into[0] += chunk

    async with trio.open_nursery() as nursery:
        nursery.start_soon(drain, process.stdout, out)
        nursery.start_soon(drain, process.stderr, err)
    await process.wait()
    return out[0], err[0]


async def _kill(server: ServerProcess) -> None:
    server.process.kill()
    await trio.to_thread.run_sync(server.process.wait)


async def test_the_bots_resume_after_a_restart_and_finish_the_match(tmp_path: Path) -> None:
    server = await trio.to_thread.run_sync(ServerProcess.start, tmp_path)
    again: ServerProcess | None = None
    process = await _start_bots(server.port)
    try:
        assert process.stderr is not None
        with trio.fail_after(120):
            await _read_until(process.stderr, PLAYING)
            await _kill(server)
            start = partial(ServerProcess.start, tmp_path, "--port", str(server.port))
            again = await trio.to_thread.run_sync(partial(start, state=server.state))
            assert again.port == server.port
            out, err = await _finish(process)
    finally:
        process.kill()
        server.stop()
        if again is not None:
            again.stop()
    assert process.returncode == 0, err.decode()
    summary = json.loads(out)
    assert summary["matches"] == 1 and summary["protocol_errors"] == 0 and summary["gaps"] == 0
    assert summary["rejections"] == 0, summary["rejection_codes"]


async def test_the_bots_give_up_when_the_server_stays_away(tmp_path: Path) -> None:
    server = await trio.to_thread.run_sync(ServerProcess.start, tmp_path)
    process = await _start_bots(server.port, "--reconnect-seconds", "2")
    try:
        assert process.stderr is not None
        with trio.fail_after(60):
            await _read_until(process.stderr, PLAYING)
            await _kill(server)
            out, err = await _finish(process)
    finally:
        process.kill()
        server.stop()
    assert process.returncode == 2
    lines = err.decode().strip().splitlines()
    assert lines[-1].startswith("uno-bot: bot")
    assert lines[-1].endswith(f"the server at 127.0.0.1:{server.port} did not come back within 2s")
    assert out == b""
