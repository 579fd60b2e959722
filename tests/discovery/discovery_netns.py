"""Network namespaces for the discovery tests, and processes run inside them.

mDNS is only ever sent inside namespaces created here (design.md section 8): a namespace
with multicast on its loopback, or two joined by a veth pair with addresses from a private
test range assigned inside them. Names are unique per run; teardown deletes them (and the
veth pair with them). ``skip_reason()`` says why namespaces cannot be made here, if so.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import trio

from protocol.startup import LISTENING

PROBE = str(Path(__file__).with_name("discovery_probe.py"))
WAIT_SECONDS = 30.0
_numbers = itertools.count(1)


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=10)


def _unique(prefix: str) -> str:
    return f"{prefix}{os.getpid() % 100000}x{next(_numbers)}"


def skip_reason() -> str | None:
    """Why network namespaces cannot be created here, or None if they can."""
    if sys.platform != "linux":
        return "network namespaces are Linux only"
    if shutil.which("ip") is None:
        return "the `ip` tool (iproute2) is not installed"
    if os.geteuid() != 0:
        return "creating network namespaces needs root"
    name = _unique("unoprobe")
    try:
        _ip("netns", "add", name)
    except (OSError, subprocess.SubprocessError) as error:
        detail = getattr(error, "stderr", b"") or b""
        return f"cannot create a network namespace: {error} {detail.decode(errors='replace')}"
    _ip("netns", "delete", name)
    return None


def _multicast_on(namespace: str, device: str) -> None:
    _ip("-n", namespace, "link", "set", device, "multicast", "on")
    _ip("-n", namespace, "link", "set", device, "up")
    _ip("-n", namespace, "route", "add", "224.0.0.0/4", "dev", device)


@contextmanager
def loopback_namespace() -> Iterator[str]:
    """A namespace whose loopback is up with multicast routed onto it."""
    name = _unique("unolo")
    _ip("netns", "add", name)
    try:
        _multicast_on(name, "lo")
        yield name
    finally:
        _ip("netns", "delete", name)


@contextmanager
def bare_namespace() -> Iterator[str]:
    """A namespace with loopback up and nothing else (no multicast route)."""
    name = _unique("unobare")
    _ip("netns", "add", name)
    try:
        _ip("-n", name, "link", "set", "lo", "up")
        yield name
    finally:
        _ip("netns", "delete", name)


@contextmanager
def two_hosts(first: str = "10.77.0.1", second: str = "10.77.0.2") -> Iterator[tuple[str, str]]:
    """Two namespaces joined by a veth pair (one LAN), ``first``/24 and ``second``/24.

    The pair is created inside the first namespace with its peer placed straight into the
    second, so it never exists on this machine's own network.
    """
    host_a, host_b = _unique("unoa"), _unique("unob")
    _ip("netns", "add", host_a)
    try:
        _ip("netns", "add", host_b)
        try:
            _ip(
                "-n",
                host_a,
                "link",
                "add",
                "veth0",
                "type",
                "veth",
                "peer",
                "name",
                "veth1",
                "netns",
                host_b,
            )
            for namespace, device, address in ((host_a, "veth0", first), (host_b, "veth1", second)):
                _ip("-n", namespace, "link", "set", "lo", "up")
                _ip("-n", namespace, "addr", "add", f"{address}/24", "dev", device)
                _multicast_on(namespace, device)
            yield host_a, host_b
        finally:
            _ip("netns", "delete", host_b)
    finally:
        _ip("netns", "delete", host_a)


class Lines:
    """A process inside a namespace whose stdout is read line by line."""

    def __init__(self, process: trio.Process) -> None:
        self.process = process
        self._pending = bytearray()
        self.seen: list[str] = []

    async def line(self) -> str:
        assert self.process.stdout is not None
        while b"\n" not in self._pending:
            chunk = await self.process.stdout.receive_some(4096)
            if not chunk:
                raise EOFError(f"the process ended; it said: {self.seen}")
            self._pending += chunk
        raw, _, rest = bytes(self._pending).partition(b"\n")
        self._pending = bytearray(rest)
        text = raw.decode(errors="replace").strip()
        self.seen.append(text)
        return text

    async def json_until(self, wanted: Callable[[Any], bool]) -> Any:
        """The first JSON line ``wanted`` accepts (others are skipped)."""
        with trio.fail_after(WAIT_SECONDS):
            while True:
                text = await self.line()
                try:
                    data = json.loads(text)
                except ValueError:
                    continue
                if wanted(data):
                    return data

    def terminate(self) -> None:
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)


def child_env(data_home: Path) -> dict[str, str]:
    """The environment for child processes, with their data directory under ``data_home``."""
    return {**os.environ, "XDG_DATA_HOME": str(data_home), "PYTHONUNBUFFERED": "1"}


@asynccontextmanager
async def run_in(
    namespace: str, command: list[str], env: dict[str, str], stderr: Path | None
) -> AsyncIterator[Lines]:
    """Run ``command`` inside ``namespace``; SIGTERM, then kill, when the block ends.

    Standard error goes to the file ``stderr``, or (None) into the lines read.
    """
    with stderr.open("ab") if stderr is not None else _no_file() as log:
        process = await trio.lowlevel.open_process(
            ["ip", "netns", "exec", namespace, *command],
            stdout=subprocess.PIPE,
            stderr=log if log is not None else subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=env,
        )
    lines = Lines(process)
    try:
        yield lines
    finally:
        with trio.CancelScope(shield=True):
            lines.terminate()
            with trio.move_on_after(15):
                await process.wait()
            if process.returncode is None:
                process.kill()
                await process.wait()


@contextmanager
def _no_file() -> Iterator[None]:
    yield None


def probe_command(*args: str) -> list[str]:
    return [sys.executable, PROBE, *args]


def server_command(*flags: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "server",
        "--port",
        "0",
        "--bot-think-ms",
        "0",
        "--no-state",
        "--log-level",
        "DEBUG",
        *flags,
    ]


async def listening_port(server: Lines) -> int:
    """The port from the server's ``listening`` line (log lines before it are skipped)."""
    with trio.fail_after(WAIT_SECONDS):
        line = await server.line()
        while not line.startswith(LISTENING):
            line = await server.line()
    return int(line.rsplit(":", 1)[1])


async def stopped(server: Lines) -> int:
    """SIGTERM the server and wait for its exit status."""
    server.terminate()
    with trio.fail_after(WAIT_SECONDS):
        return await server.process.wait()
