"""The server's id (``welcome.server_id``) is kept in its journal: a real ``uno-server``
started again on the same journal, on another port and with mDNS (on loopback) where it
had none, says the same id; a ``--no-state`` server says a fresh one each run."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path

import pytest
import trio

from client.session import connect
from protocol.startup import LISTENING
from server.journal import Journal

pytestmark = pytest.mark.e2e

START_SECONDS = 30.0


def _id_of_a_run(flags: Sequence[str]) -> str:
    """Start ``uno-server`` on 127.0.0.1 with ``flags``, read its welcome's server id, stop
    it with SIGTERM."""
    command = [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", "0"]
    command += ["--log-level", "WARNING", *flags]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    watchdog = threading.Timer(START_SECONDS, process.kill)
    watchdog.start()
    try:
        assert process.stdout is not None
        line = process.stdout.readline().strip()
        watchdog.cancel()
        assert line.startswith(LISTENING), f"the server said {line!r}"
        port = int(line.rpartition(":")[2])

        async def welcome_id() -> str:
            with trio.fail_after(20):
                async with connect("127.0.0.1", port, "Probe") as session:
                    assert session.welcome is not None
                    return session.welcome.server_id

        return trio.run(welcome_id)
    finally:
        watchdog.cancel()
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()


def test_the_id_survives_restarts_ports_and_mdns_settings(tmp_path: Path) -> None:
    state = ["--state", str(tmp_path / "server.sqlite3")]
    first = _id_of_a_run([*state, "--no-mdns"])
    again = _id_of_a_run([*state, "--no-mdns"])
    advertised = _id_of_a_run([*state, "--mdns-interface", "127.0.0.1"])
    assert len(first) == 16 and int(first, 16) >= 0
    assert again == first
    assert advertised == first


def test_a_server_without_a_journal_has_a_fresh_id_each_run() -> None:
    assert _id_of_a_run(["--no-state", "--no-mdns"]) != _id_of_a_run(["--no-state", "--no-mdns"])


def test_the_journal_makes_the_id_once_and_keeps_it(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    journal = Journal.open(path)
    made = journal.server_id()
    assert journal.server_id() == made
    journal.close()
    journal = Journal.open(path)
    try:
        assert journal.server_id() == made
    finally:
        journal.close()
    assert Journal.in_memory().server_id() != made
