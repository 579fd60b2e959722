"""A real uno-server under a small file-descriptor limit: raised where it may be, and the
connection cap lowered, in one clear line, where it may not."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from e2e_server import ServerProcess

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("prlimit") is None, reason="needs prlimit (util-linux)"),
]


def _soft_limit(server: ServerProcess) -> int:
    for line in Path(f"/proc/{server.process.pid}/limits").read_text().splitlines():
        if line.startswith("Max open files"):
            return int(line.split()[3])
    raise AssertionError("no open-files line in /proc/PID/limits")


def test_the_soft_limit_is_raised_to_hold_every_connection(tmp_path: Path) -> None:
    server = ServerProcess.start(
        tmp_path, "--max-connections", "300", wrapper=["prlimit", "--nofile=100:1000"]
    )
    try:
        assert _soft_limit(server) >= 300
        assert "connections are served instead of" not in server.log_text()
    finally:
        server.stop()


def test_a_hard_limit_too_small_lowers_the_cap_and_says_so_once(tmp_path: Path) -> None:
    server = ServerProcess.start(
        tmp_path, "--max-connections", "300", wrapper=["prlimit", "--nofile=100:200"]
    )
    try:
        lines = [line for line in server.log_text().splitlines() if "served instead of" in line]
        assert lines == [
            "uno-server: the system allows 200 open files, so at most 136 connections are "
            "served instead of 300"
        ]
        assert _soft_limit(server) == 200
    finally:
        server.stop()
