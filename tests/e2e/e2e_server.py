"""Start the real ``uno-server`` as a process on 127.0.0.1 and stop it again.

Only for tests: it reads the start-up line with ``selectors`` (POSIX pipes) and always
kills the process in ``stop``.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from protocol.startup import LISTENING

START_TIMEOUT = 30.0


class ServerProcess:
    """One running ``python -m server``; ``port`` is the port it reported."""

    def __init__(self, process: subprocess.Popen[bytes], port: int, log_path: Path) -> None:
        self.process = process
        self.port = port
        self.log_path = log_path
        self.first_line = ""
        self.other_lines: list[str] = []
        self.state: Path | None = None
        """Its journal file."""

    @classmethod
    def start(
        cls,
        log_dir: Path,
        *flags: str,
        seed: int = 7,
        wrapper: Sequence[str] = (),
        state: Path | None = None,
    ) -> ServerProcess:
        """Start a server with test-friendly defaults and ``flags`` after them, under the
        ``wrapper`` command if one is given (``prlimit ...``). Its journal is ``state``,
        or a fresh file beside its log (a restart passes the same ``state`` again)."""
        log_path = log_dir / f"uno-server-{time.monotonic_ns()}.log"
        state = state or log_path.with_suffix(".sqlite3")
        command = [
            *wrapper,
            sys.executable,
            "-m",
            "server",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--no-mdns",
            "--seed",
            str(seed),
            "--bot-think-ms",
            "0",
            # Test clients on other 127.0.0.x addresses are guests: no floor on their pace.
            "--guest-bot-think-ms",
            "0",
            "--allowance",
            "2000",
            "2000",
            # Every test client connects from 127.0.0.1: one address makes all the tables.
            "--max-tables-per-address",
            "256",
            "--state",
            str(state),
            "--log-level",
            "DEBUG",
            *flags,
        ]
        with log_path.open("wb") as log_file:
            process = subprocess.Popen(
                command, stdout=subprocess.PIPE, stderr=log_file, stdin=subprocess.DEVNULL
            )
        try:
            line = _read_line(process, START_TIMEOUT)
        except BaseException:
            process.kill()
            process.wait()
            raise
        if not line.startswith(LISTENING):
            process.kill()
            process.wait()
            raise RuntimeError(f"unexpected first line {line!r}; log: {log_path.read_text()}")
        port = int(line[len(LISTENING) :].rsplit(":", 1)[1])
        server = cls(process, port, log_path)
        server.state = state
        server.first_line = line
        return server

    def next_line(self, timeout: float = START_TIMEOUT) -> str:
        """The next line the server prints on stdout (after the first)."""
        line = _read_line(self.process, timeout)
        self.other_lines.append(line)
        return line

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace")

    def terminate(self, timeout: float = 15.0) -> int:
        """SIGTERM, then wait; the exit status (killed after ``timeout``)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise

    def rest_of_stdout(self) -> str:
        """What the server printed after its first line (once it has exited)."""
        assert self.process.stdout is not None
        return self.process.stdout.read().decode(errors="replace")

    def stop(self) -> None:
        """Stop it whatever state it is in."""
        if self.process.poll() is None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.terminate(timeout=10)
        if self.process.stdout is not None:
            self.process.stdout.close()


def _read_line(process: subprocess.Popen[bytes], timeout: float) -> str:
    assert process.stdout is not None
    fd = process.stdout.fileno()
    deadline = time.monotonic() + timeout
    data = b""
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        while b"\n" not in data:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not selector.select(remaining):
                raise TimeoutError("uno-server did not say it was listening")
            chunk = os.read(fd, 1)
            if not chunk:
                raise RuntimeError(f"uno-server exited early with {process.wait()}")
            data += chunk
    return data.decode().rstrip("\n")
