"""A real uno-server child process for the client's end-to-end tests."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import trio

LISTENING = "uno-server listening on "
START_SECONDS = 30.0


@contextmanager
def running_server(extra: Sequence[str] = ()) -> Iterator[tuple[str, int]]:
    """Start ``python -m server`` on 127.0.0.1 port 0 (no mDNS); yield (host, port)."""
    command = [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", "0"]
    command += ["--no-mdns", "--no-state", "--log-level", "WARNING", *extra]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    watchdog = threading.Timer(START_SECONDS, process.kill)
    watchdog.start()
    try:
        assert process.stdout is not None
        line = process.stdout.readline().strip()
        watchdog.cancel()
        assert line.startswith(LISTENING), f"the server said {line!r}"
        host, _, port = line[len(LISTENING) :].rpartition(":")
        yield host, int(port)
    finally:
        watchdog.cancel()
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


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
