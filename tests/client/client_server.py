"""A real uno-server child process for the client's end-to-end tests."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import trio

from protocol.startup import LISTENING

START_SECONDS = 30.0


@contextmanager
def running_server(extra: Sequence[str] = ()) -> Iterator[tuple[str, int]]:
    """Start ``python -m server`` on 127.0.0.1 port 0 (no mDNS); yield (host, port)."""
    server = ServerChild(["--no-state", *extra])
    try:
        yield server.start()
    finally:
        server.stop()


class ServerChild:
    """One ``python -m server`` on 127.0.0.1 (no mDNS) that can be killed with SIGKILL and
    started again: a restart listens on the port of the first start, with the same flags
    (and so the same ``--state`` journal, or ``--no-state``)."""

    def __init__(self, flags: Sequence[str]) -> None:
        self.flags = list(flags)
        self.port = 0
        self.process: subprocess.Popen[str] | None = None

    def start(self, flags: Sequence[str] | None = None) -> tuple[str, int]:
        """Start it (``flags`` replace the first start's); return (host, port)."""
        assert self.process is None or self.process.poll() is not None
        command = [sys.executable, "-m", "server", "--host", "127.0.0.1", "--no-mdns"]
        command += ["--port", str(self.port), "--log-level", "WARNING"]
        command += self.flags if flags is None else flags
        process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        self.process = process
        watchdog = threading.Timer(START_SECONDS, process.kill)
        watchdog.start()
        try:
            assert process.stdout is not None
            line = process.stdout.readline().strip()
        finally:
            watchdog.cancel()
        assert line.startswith(LISTENING), f"the server said {line!r}"
        host, _, port = line[len(LISTENING) :].rpartition(":")
        self.port = int(port)
        return host, self.port

    def kill(self) -> None:
        """SIGKILL, as a pulled plug would end it: nothing is flushed or said."""
        assert self.process is not None
        self.process.kill()
        self.process.wait()
        self._close()

    def _close(self) -> None:
        if self.process is not None and self.process.stdout is not None:
            self.process.stdout.close()

    def stop(self) -> None:
        """SIGTERM (then SIGKILL) whatever state it is in."""
        process = self.process
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self._close()


class Watched:
    """Redraw callback that wakes waiters: the network calls it after every change."""

    def __init__(self) -> None:
        self._event = trio.Event()

    def redraw(self) -> None:
        self._event.set()

    async def until(self, condition: Callable[[], object]) -> None:
        while not condition():
            self._event = trio.Event()
            await self._event.wait()
