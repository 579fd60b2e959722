"""``--help`` answers at once: the three commands' help loads none of the heavy libraries
(issue 26 item 9); each command imports what it needs once its arguments are read."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("trio", "prompt_toolkit", "zeroconf", "msgpack", "sqlite3", "websockets", "segno")

# Runs the command's entry point as its console script does, then reports sys.modules.
PROBE = """
import contextlib, io, json, sys
from importlib import import_module
module, function = sys.argv[1].split(":")
watched = json.loads(sys.argv[2])
sys.argv = [module, "--help"]
out = io.StringIO()
with contextlib.redirect_stdout(out):
    try:
        getattr(import_module(module), function)()
    except SystemExit:
        pass
heavy = sorted(name for name in watched if name in sys.modules)
print(json.dumps({"heavy": heavy, "help": out.getvalue()}))
"""


@pytest.mark.parametrize("entry", ["client.cli:main", "server.cli:main", "client.bots.cli:main"])
def test_help_imports_no_heavy_library(entry: str) -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE, entry, json.dumps(HEAVY)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    report = json.loads(result.stdout)
    assert report["help"].startswith("usage: ")
    assert report["heavy"] == []


def test_server_help_mentions_history() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "server", "--help"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert "uno-server history" in result.stdout
