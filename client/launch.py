"""Start ``uno-server`` as a child process and stop it again: for solo play, LAN hosting
from the client, and ``uno-bot --spawn-server``.

The child runs with this program's Python (``python -m server``). Its first line on
standard output is ``uno-server listening on HOST:PORT``, which tells us the port it bound
(port 0 asks the system for a free one). When the block ends the child gets SIGTERM, and
is killed if it has not stopped within ``STOP_SECONDS``::

    async with running_server(extra=["--seed", "1"]) as (host, port):
        ...  # connect to host:port

``WatchedServer`` (``uno-client --serve``) keeps watching the child while the client
plays: a child that dies is reaped at once, the client hears why in words, and
``restart()`` starts it again on the same port with the same command (so the same journal).

The client never imports the server's code; it only starts the program.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import IO

import trio

from protocol.startup import LISTENING

__all__ = [
    "ServerStartError",
    "WatchedServer",
    "parse_address",
    "running_server",
    "server_command",
]

START_SECONDS = 30.0
"""How long the child may take to say it is listening."""
STOP_SECONDS = 5.0
"""How long the child may take to stop after SIGTERM before it is killed."""
LOOPBACK = "127.0.0.1"


class ServerStartError(RuntimeError):
    """The child server exited, or said something unexpected, before it listened."""


def parse_address(text: str) -> tuple[str, int]:
    """``host:port`` (``[v6]:port`` for IPv6) -> (host, port)."""
    host, sep, port = text.rpartition(":")
    if not sep or not (port.isascii() and port.isdigit()):
        raise ValueError(f"expected HOST:PORT, not {text!r}")
    return host.strip("[]") or LOOPBACK, int(port)


def server_command(
    *,
    host: str | None = LOOPBACK,
    port: int = 0,
    advertise: bool = False,
    interfaces: Sequence[str] = (),
    extra: Sequence[str] = (),
) -> list[str]:
    """The command line that starts the server.

    ``host`` None listens on every interface. ``advertise`` announces the server with mDNS
    (on ``interfaces``, every IPv4 one when empty); otherwise it runs with ``--no-mdns``.
    ``extra`` arguments come last, so they override the ones before.
    """
    command = [sys.executable, "-m", "server"]
    if host is not None:
        command += ["--host", host]
    command += ["--port", str(port)]
    if advertise:
        for interface in interfaces:
            command += ["--mdns-interface", interface]
    else:
        command.append("--no-mdns")
    command += ["--log-level", "WARNING", *extra]
    return command


@asynccontextmanager
async def running_server(
    *,
    host: str | None = LOOPBACK,
    port: int = 0,
    advertise: bool = False,
    interfaces: Sequence[str] = (),
    extra: Sequence[str] = (),
) -> AsyncIterator[tuple[str, int]]:
    """Run the server (see ``server_command``) for the block; yield where to connect.

    A server on every interface (``host`` None) is reached over loopback; otherwise the
    address is the one it says it listens on. Raises ``ServerStartError`` if it never
    listens, and ``trio.TooSlowError`` if it takes longer than ``START_SECONDS``.
    """
    command = server_command(
        host=host, port=port, advertise=advertise, interfaces=interfaces, extra=extra
    )
    # The child's standard error goes to a file of its own, so that a start that fails
    # can say why; it is copied to ours (the client's log) when the child has stopped.
    with tempfile.TemporaryFile() as errors:
        process = await trio.lowlevel.open_process(command, stdout=subprocess.PIPE, stderr=errors)
        try:
            yield await _listening(process, errors, host)
        finally:
            with trio.CancelScope(shield=True):
                await _stop(process)
                _copy_to_stderr(errors)


async def _listening(
    process: trio.Process, errors: IO[bytes], host: str | None, rest: bytearray | None = None
) -> tuple[str, int]:
    """Where to connect to the child once it says it listens (see ``running_server``);
    what it printed after that line goes into ``rest``."""
    assert process.stdout is not None
    with trio.fail_after(START_SECONDS):
        try:
            line = await _first_line(process.stdout, bytearray() if rest is None else rest)
        except ServerStartError:
            await process.wait()
            raise ServerStartError(_why_not_started(errors)) from None
    if not line.startswith(LISTENING):
        raise ServerStartError(f"uno-server said {line!r} instead of listening")
    listening_host, bound_port = parse_address(line[len(LISTENING) :])
    return (LOOPBACK if host is None else listening_host), bound_port


class WatchedServer:
    """A server child that is watched while the client plays (``uno-client --serve``).

    ``run`` starts it and hands ``task_status`` where to connect; when the child ends
    while it should run (killed, crashed), it is reaped at once and ``on_change`` hears
    why in words; ``restart`` then starts it again with the same command on the port it
    had, so its journal gives every table back and every client resumes its seat.
    ``on_change(None)`` says it runs again. ``command(port)`` builds the command line.
    """

    def __init__(
        self,
        command: Callable[[int], list[str]],
        host: str | None,
        on_change: Callable[[str | None], None],
    ) -> None:
        self.command = command
        self.host = host
        self.on_change = on_change
        self.address: tuple[str, int] | None = None
        """Where to connect, once it has listened."""
        self.starts = 0
        """How many times the child was started."""
        self.process: trio.Process | None = None
        """The child of the latest start."""
        self._restart = trio.Event()
        self.said: list[str] = []
        """What the latest child printed after its listening line: where others reach it
        (``reachable at: ...``), its browser page (``browser page: ...``)."""
        self.on_said: Callable[[], None] = lambda: None
        """Called after each such line."""
        self.port_note: str | None = None
        """Why it listens on another port than the one asked for, in words, if it does."""

    def restart(self) -> None:
        """Start the child again if it is not running (call from the Trio thread)."""
        self._restart.set()

    async def run(
        self,
        port: int = 0,
        *,
        task_status: trio.TaskStatus[tuple[str, int]] = trio.TASK_STATUS_IGNORED,
    ) -> None:
        """Start, watch and on request restart the child until cancelled. The first start
        raises like ``running_server``; a failed restart is reported instead."""
        while True:
            self._restart = trio.Event()
            with tempfile.TemporaryFile() as errors:
                why = await self._run_once(port, errors, task_status)
            if self.address is not None:
                port = self.address[1]
            self.on_change(why)
            await self._restart.wait()

    async def _run_once(
        self, port: int, errors: IO[bytes], task_status: trio.TaskStatus[tuple[str, int]]
    ) -> str:
        """One life of the child; the words for how it ended."""
        self.starts += 1
        process = await trio.lowlevel.open_process(
            self.command(port), stdout=subprocess.PIPE, stderr=errors
        )
        self.process = process
        self.said = []
        rest = bytearray()
        try:
            try:
                self.address = await _listening(process, errors, self.host, rest)
            except (ServerStartError, trio.TooSlowError) as error:
                if self.starts == 1:
                    raise
                return f"the server could not start again ({error})"
            if self.starts == 1:
                task_status.started(self.address)
            else:
                self.on_change(None)
            assert process.stdout is not None
            async with trio.open_nursery() as nursery:
                nursery.start_soon(_later_lines, process.stdout, rest, self._heard)
                status = await process.wait()  # reaps it: no zombie is left behind
                nursery.cancel_scope.cancel()
            return f"the server stopped ({_exit_words(status)})"
        finally:
            with trio.CancelScope(shield=True):
                await _stop(process)
                if process.stdout is not None:
                    await process.stdout.aclose()
                _copy_to_stderr(errors)

    def _heard(self, line: str) -> None:
        self.said.append(line)
        self.on_said()


def _exit_words(status: int) -> str:
    """A child's exit status in words: ``killed by SIGKILL``, ``exit status 1``."""
    if status < 0:
        with contextlib.suppress(ValueError):
            return f"killed by {signal.Signals(-status).name}"
        return f"killed by signal {-status}"
    return f"exit status {status}"


def _why_not_started(errors: IO[bytes]) -> str:
    """One sentence from the last thing a child that never listened wrote on stderr."""
    errors.seek(0)
    lines = [line.strip() for line in errors.read().decode(errors="replace").splitlines()]
    last = next((line for line in reversed(lines) if line), "")
    last = _ERRNO.sub("", last).strip()
    if last.startswith("uno-server: "):
        last = last[len("uno-server: ") :]
    if not last:
        return "uno-server stopped before listening, without saying why"
    return f"uno-server could not start: {last}"


_ERRNO = re.compile(r"\[Errno -?\d+\]\s*")
"""``[Errno 98] `` in an OSError's text: the words after it say the same to a person."""


def _copy_to_stderr(errors: IO[bytes]) -> None:
    errors.seek(0)
    data = errors.read()
    if data:
        sys.stderr.flush()
        os.write(sys.stderr.fileno(), data)


async def _first_line(stdout: trio.abc.ReceiveStream, pending: bytearray) -> str:
    """The first line the child prints; what came after it stays in ``pending``."""
    while b"\n" not in pending:
        chunk = await stdout.receive_some(4096)
        if not chunk:
            raise ServerStartError("uno-server stopped before listening")
        pending += chunk
    line, _, rest = bytes(pending).partition(b"\n")
    pending[:] = rest
    return line.decode(errors="replace").strip()


async def _later_lines(
    stdout: trio.abc.ReceiveStream, pending: bytearray, heard: Callable[[str], None]
) -> None:
    """Each line the child prints after its first, to ``heard``, until it closes stdout."""
    while True:
        while b"\n" in pending:
            line, _, rest = bytes(pending).partition(b"\n")
            pending[:] = rest
            heard(line.decode(errors="replace").strip())
        chunk = await stdout.receive_some(4096)
        if not chunk:
            return
        pending += chunk


async def _stop(process: trio.Process) -> None:
    """SIGTERM, a little patience, then SIGKILL; always reaped."""
    if process.returncode is None:
        process.terminate()
        with trio.move_on_after(STOP_SECONDS):
            await process.wait()
    if process.returncode is None:
        process.kill()
        await process.wait()
