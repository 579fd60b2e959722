"""Start a server for this client: ``--solo`` (private) and ``--serve`` (for the LAN).

This is the one client module allowed to start a server (design.md section 2). It starts
``uno-server`` as a child process with the same Python, learns its address from the line
``uno-server listening on HOST:PORT`` and stops it (SIGTERM, then kill) when the block
ends. ``--solo`` reuses the bots' launcher (127.0.0.1, port 0, never advertised).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

import trio

from client.bots.cli import LISTENING, parse_address, spawn_server

__all__ = ["ServerStartError", "lan_server", "solo_server"]

START_SECONDS = 30.0
STOP_SECONDS = 5.0


class ServerStartError(RuntimeError):
    """The child server exited or said something unexpected before it listened."""


@asynccontextmanager
async def solo_server(extra: Sequence[str] = ()) -> AsyncIterator[tuple[str, int]]:
    """A private server on 127.0.0.1 (port 0, not advertised) for the block's duration."""
    async with spawn_server(extra) as address:
        yield address


@asynccontextmanager
async def lan_server(
    port: int = 0, extra: Sequence[str] = (), interfaces: Sequence[str] = ()
) -> AsyncIterator[tuple[str, int]]:
    """A server on every interface, for friends on the network; yields a local address.

    It is started without ``--no-mdns``: it advertises itself with mDNS (``_uno._tcp``) on
    ``interfaces`` (every IPv4 one when empty), so the friends' clients list it on their
    find screen. The client connects over loopback.
    """
    command = [sys.executable, "-m", "server", "--port", str(port), "--log-level", "WARNING"]
    for interface in interfaces:
        command += ["--mdns-interface", interface]
    command += list(extra)
    process = await trio.lowlevel.open_process(command, stdout=subprocess.PIPE)
    try:
        assert process.stdout is not None
        first = await _first_line(process.stdout)
        if not first.startswith(LISTENING):
            raise ServerStartError(f"uno-server said {first!r} instead of listening")
        _, bound_port = parse_address(first[len(LISTENING) :])
        yield "127.0.0.1", bound_port
    finally:
        with trio.CancelScope(shield=True):
            await _stop(process)


async def _first_line(stdout: trio.abc.ReceiveStream) -> str:
    pending = bytearray()
    with trio.fail_after(START_SECONDS):
        while b"\n" not in pending:
            chunk = await stdout.receive_some(1024)
            if not chunk:
                raise ServerStartError(f"uno-server stopped before listening: {bytes(pending)!r}")
            pending += chunk
    return pending.split(b"\n", 1)[0].decode(errors="replace").strip()


async def _stop(process: trio.Process) -> None:
    if process.returncode is None:
        process.terminate()
        with trio.move_on_after(STOP_SECONDS):
            await process.wait()
    if process.returncode is None:
        process.kill()
        await process.wait()
