"""The match history and standings a real server keeps in its journal, read back with
``uno-server history`` while the server runs (a second server on the file is refused)."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
import trio
from e2e_client import drive, seat_table
from e2e_server import ServerProcess

pytestmark = pytest.mark.e2e


def history(state: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "server", "history", "--state", str(state), *flags]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


async def test_a_finished_match_is_in_the_standings_until_they_are_reset(tmp_path: Path) -> None:
    server = ServerProcess.start(tmp_path)
    state = server.state
    assert state is not None
    try:
        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                players, _ = await seat_table(server.port, nursery, ["ann", "bob"], bots=1)
                await drive(players, lambda: players[0].match_over, random.Random(2))
                nursery.cancel_scope.cancel()
        shown = history(state, "--json")  # while the server runs
        assert shown.returncode == 0, shown.stderr
        copy = tmp_path / "copy.sqlite3"
        assert history(state, "--backup", str(copy)).returncode == 0
        assert (
            json.loads(history(copy, "--json").stdout)["matches"]
            == json.loads(shown.stdout)["matches"]
        )
        assert history(state, "--backup", str(copy)).returncode == 1  # never over a file
        flags = ["--host", "127.0.0.1", "--port", "0", "--no-mdns", "--state", str(state)]
        second = subprocess.run(
            [sys.executable, "-m", "server", *flags],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert second.returncode != 0 and "another uno-server is using" in second.stderr
        # No reset beside the running server: its moves would wait on it, then fail.
        refused = history(state, "--reset")
        assert refused.returncode == 1 and "stop it first" in refused.stderr
        assert json.loads(history(state, "--json").stdout)["matches"] != []
    finally:
        server.stop()
    report = json.loads(shown.stdout)
    (match,) = report["matches"]
    names = {player["name"] for player in match["players"]}
    assert {"ann", "bob"} <= names and len(match["winners"]) == 1
    people = {s["name"]: s for s in report["standings"] if not s["bot"]}
    assert people["ann"]["matches"] == people["bob"]["matches"] == 1
    assert sum(s["wins"] for s in report["standings"]) == 1
    assert [s["bot"] for s in report["standings"]] == sorted(s["bot"] for s in report["standings"])

    # The plain form lists the match under the standings, by its id.
    plain = history(state).stdout
    assert re.search(rf"^\s+{match['match_id']}\s+\d{{4}}-\d\d-\d\d ", plain, re.M), plain

    size = state.stat().st_size
    assert history(state, "--reset").returncode == 0
    emptied = json.loads(history(state, "--json").stdout)
    assert emptied == {"standings": [], "matches": []}
    assert state.stat().st_size <= size
