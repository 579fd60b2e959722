"""``uno-client --replay`` in a real terminal: a real server plays a seeded party match
(house rules: 7-0 swaps, stacking, challenges, jump-ins), the real ``uno-server replay``
exports it, and the real client replays it in tmux at 80x24 to its final scores, stepping
back and forward by event, turn and round, to a jump-in, with the draw pile's count the
spectator was shown; the committed version-1 fixture (no deck size: no count) opens too,
at 60x20.

As in tests/client/test_client_tmux.py the screen is polled (bounded by a deadline), never
waited for with a fixed sleep.
"""

from __future__ import annotations

import re
import secrets
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import trio
from e2e_server import ServerProcess
from test_replays import history, play_watched_match, replay_command

from client.ui.replay_state import model_at
from protocol.replay_file import Replay, read_replay

ROOT = Path(__file__).parents[2]
"""The checkout: the client runs from it, as ``python -m client``."""
FIXTURE = ROOT / "tests" / "fixtures" / "replay-v1.jsonl"
DEADLINE = 30.0
POLL = 0.1
STATUS = re.compile(r"round (\d+) of (\d+) · event (\d+) of (\d+) · (playing|paused)")


class ReplayTerminal:
    """``uno-client --replay FILE`` in a tmux session on a private tmux server."""

    def __init__(self, socket: str, file: Path, width: int, height: int) -> None:
        self.socket = socket
        command = shlex.join([sys.executable, "-m", "client", "--replay", str(file)])
        size = ["-x", str(width), "-y", str(height)]
        self.tmux("new-session", "-d", "-s", "replay", "-c", str(ROOT), *size, command)

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        )
        return done.stdout

    def screen(self) -> list[str]:
        return self.tmux("capture-pane", "-p", "-t", "replay").split("\n")

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "replay", *keys)

    def wait_for(self, condition: Callable[[list[str]], object], what: str) -> list[str]:
        deadline = time.monotonic() + DEADLINE
        while True:
            lines = self.screen()
            if condition(lines):
                return lines
            if time.monotonic() > deadline:
                pytest.fail(f"gave up waiting for {what}; the screen:\n" + "\n".join(lines))
            time.sleep(POLL)

    def status(self) -> tuple[int, int, int, int, str]:
        """The status line's round, rounds, event, events and play state."""
        found = self.wait_for(lambda lines: _status(lines) is not None, "the status line")
        status = _status(found)
        assert status is not None
        return status

    def after(self, key: str, condition: Callable[[tuple[int, int, int, int, str]], bool]) -> None:
        """Press ``key``, then wait until the status line says what ``condition`` wants."""
        self.keys(key)

        def reached(lines: list[str]) -> bool:
            status = _status(lines)
            return status is not None and condition(status)

        self.wait_for(reached, f"the status after {key}")

    def wait_closed(self) -> None:
        """Wait for the viewer to end (its tmux session goes with it)."""
        deadline = time.monotonic() + DEADLINE
        while True:
            done = subprocess.run(
                ["tmux", "-L", self.socket, "has-session", "-t", "replay"],
                capture_output=True,
                timeout=10,
                check=False,
            )
            if done.returncode != 0:
                return
            if time.monotonic() > deadline:
                pytest.fail("the viewer did not quit; the screen:\n" + "\n".join(self.screen()))
            time.sleep(POLL)


def _status(lines: list[str]) -> tuple[int, int, int, int, str] | None:
    for line in lines:
        found = STATUS.search(line)
        if found:
            r, rs, e, es, state = found.groups()
            return int(r), int(rs), int(e), int(es), state
    return None


@pytest.fixture
def terminal() -> Iterator[Callable[[Path, int, int], ReplayTerminal]]:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    socket = f"uno-replay-test-{secrets.token_hex(4)}"

    def start(file: Path, width: int, height: int) -> ReplayTerminal:
        return ReplayTerminal(socket, file, width, height)

    try:
        yield start
    finally:
        subprocess.run(
            ["tmux", "-L", socket, "kill-server"], capture_output=True, timeout=10, check=False
        )


def _final_scores_show(replay: Replay) -> Callable[[list[str]], bool]:
    """Every seat's line shows its final score, and the match's winners are named."""

    def shown(lines: list[str]) -> bool:
        text = "\n".join(lines)
        seats = all(
            re.search(rf"{re.escape(p.name)}\s+\d+ cards?\s+{p.score} pts", text)
            for p in replay.players
        )
        return seats and "won the match!" in text

    return shown


def _exported_match(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """The file ``uno-server replay`` wrote of a seeded party match, and the last view
    the server sent its spectator."""
    server = ServerProcess.start(tmp_path)
    state = server.state
    assert state is not None
    try:
        _, watcher = trio.run(play_watched_match, server)
    finally:
        server.stop()
    (match,) = history(state)["matches"]
    out = tmp_path / "match.jsonl"
    done = replay_command(state, str(match["match_id"]), "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert watcher.view is not None
    return out, watcher.view


def test_an_exported_match_replays_to_its_final_scores_back_and_forth(
    tmp_path: Path, terminal: Callable[[Path, int, int], ReplayTerminal]
) -> None:
    out, spectators_view = _exported_match(tmp_path)
    replay = read_replay(out.read_text(encoding="utf-8").splitlines())
    # The viewer's last view, folded from the file's events, is the server's own last
    # view of the spectator in every public fact the table screen shows.
    folded = model_at(replay, len(replay.events)).view
    assert folded is not None
    shown = (
        *("phase", "round", "dealer", "direction", "top", "color", "counts", "scores"),
        *("eliminated", "discard_count", "round_result", "match_result", "last_seq"),
    )
    mine = folded.to_data()
    assert {key: mine[key] for key in shown} == {key: spectators_view[key] for key in shown}
    assert folded.shared.draw_count == spectators_view["draw_count"]
    kinds = {event.body.kind_name for event in replay.events}
    # The seeded party match swaps hands (7-0), challenges a Wild Draw Four and jumps in.
    assert {"played", "drew", "round-over", "match-over"} <= kinds
    assert {"hands-swapped", "hands-passed", "challenged", "draw-four-accepted"} <= kinds
    assert "jumped-in" in kinds
    rounds, events = len(replay.rounds()), len(replay.events)
    jump = next(i for i, e in enumerate(replay.events) if e.body.kind_name == "jumped-in")
    jump_round = sum(1 for e in replay.events[:jump] if e.body.kind_name == "round-started")

    screen = terminal(out, 80, 24)
    assert screen.status() == (0, rounds, 0, events, "paused")
    screen.after("End", lambda s: s[2] == events)
    end = screen.wait_for(_final_scores_show(replay), "the final scores")
    screen.after("PgUp", lambda s: s[0] == rounds and s[2] < events)
    deal = screen.status()[2]
    screen.after("Left", lambda s: s[2] == deal - 1 and s[0] == rounds - 1)
    screen.after("Right", lambda s: s[2] == deal and s[0] == rounds)
    screen.after(".", lambda s: s[2] > deal)
    turn = screen.status()[2]
    screen.after(".", lambda s: s[2] > turn)
    screen.after(",", lambda s: s[2] == turn)
    screen.after("Home", lambda s: s[2] == 0)
    screen.after("PgDn", lambda s: s[0] == 1 and s[2] > 0)
    screen.keys("2")
    screen.after("Enter", lambda s: s[0] == min(2, rounds))
    screen.after("Space", lambda s: s[4] == "playing")
    at = screen.status()[2]
    screen.wait_for(lambda lines: (_status(lines) or (0, 0, 0, 0, ""))[2] > at + 1, "play")
    screen.after("Space", lambda s: s[4] == "paused")
    screen.after("End", lambda s: s[2] == events)
    assert screen.wait_for(_final_scores_show(replay), "the final scores again") == end
    # The jump-in: to its round's deal, then on event by event to it; the log says it.
    screen.keys(str(jump_round))
    screen.after("Enter", lambda s: s[0] == jump_round)
    deal = screen.status()[2]
    screen.tmux("send-keys", "-t", "replay", "-N", str(jump + 1 - deal), "Right")
    screen.wait_for(lambda lines: (_status(lines) or (0,) * 5)[2] == jump + 1, "the jump-in")
    jumped = screen.wait_for(lambda lines: "jumped in ahead of" in "\n".join(lines), "its line")
    pile = model_at(replay, jump + 1).view
    assert pile is not None
    assert any(f"draw pile {pile.shared.draw_count}" in line for line in jumped)
    screen.keys("?")
    screen.wait_for(lambda lines: any("play / pause" in line for line in lines), "the help")
    screen.keys("Escape")
    screen.keys("q")
    screen.wait_closed()


def test_the_committed_fixture_opens_at_60x20(
    terminal: Callable[[Path, int, int], ReplayTerminal],
) -> None:
    replay = read_replay(FIXTURE.read_text(encoding="utf-8").splitlines())
    screen = terminal(FIXTURE, 60, 20)
    assert screen.status()[:4] == (0, 7, 0, len(replay.events))
    screen.after("End", lambda s: s[2] == len(replay.events))
    end = screen.wait_for(_final_scores_show(replay), "the fixture's final scores")
    assert replay.deck_size is None
    assert not any("draw pile" in line for line in end)  # a version-1 file without it
    screen.keys("q")
    screen.wait_closed()
