"""The real ``uno-client --solo`` in a real terminal: tmux at 100x30, keys in, screen out.

tmux offers no event for "the screen changed", so the test polls ``capture-pane`` (every
0.1 s, bounded by a deadline) until the text it waits for appears; it never sleeps for a
fixed time hoping something happened.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

WIDTH, HEIGHT = 100, 30
DEADLINE = 60.0
POLL = 0.1
TOKEN = re.compile(r"\[?[^\s\[\]]+\]?")


class Terminal:
    """One tmux session on a private tmux server (its own socket)."""

    def __init__(self, socket: str, session: str) -> None:
        self.socket = socket
        self.session = session

    def tmux(self, *args: str) -> str:
        command = ["tmux", "-L", self.socket, *args]
        done = subprocess.run(command, capture_output=True, text=True, timeout=10, check=True)
        return done.stdout

    def screen(self) -> list[str]:
        return self.tmux("capture-pane", "-p", "-t", self.session).split("\n")

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", self.session, *keys)

    def wait_for(self, condition: Callable[[list[str]], object], what: str) -> list[str]:
        deadline = time.monotonic() + DEADLINE
        while True:
            lines = self.screen()
            if condition(lines):
                return lines
            if time.monotonic() > deadline:
                pytest.fail(f"gave up waiting for {what}; the screen:\n" + "\n".join(lines))
            time.sleep(POLL)


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    socket = f"uno-client-test-{os.getpid()}"
    session = "play"
    env = {
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
    }
    command = [
        sys.executable,
        "-m",
        "client",
        "--solo",
        "--bots",
        "1",
        "--name",
        "Tester",
        "--server-arg=--seed=5",
        "--server-arg=--bot-think-ms=2500",
    ]
    term = Terminal(socket, session)
    args = ["new-session", "-d", "-s", session, "-x", str(WIDTH), "-y", str(HEIGHT)]
    for key, value in env.items():
        args += ["-e", f"{key}={value}"]
    term.tmux(*args, " ".join(command))
    try:
        yield term
    finally:
        subprocess.run(
            ["tmux", "-L", socket, "kill-server"], capture_output=True, timeout=10, check=False
        )


def hand_tokens(lines: list[str]) -> list[tuple[str, str]]:
    """(label as shown, mark under it) for every card in the first hand row."""
    row = next(i for i, line in enumerate(lines) if line.startswith(" Your hand ("))
    cards, marks = lines[row + 1], lines[row + 2]
    tokens = []
    for match in TOKEN.finditer(cards):
        under = marks[match.start() : match.end()].strip()
        tokens.append((match.group(), under))
    return tokens


def my_turn(lines: list[str]) -> bool:
    return any("▶ YOUR TURN" in line for line in lines)


def test_solo_game_played_by_keystrokes(terminal: Terminal) -> None:
    lines = terminal.wait_for(lambda s: any("Your hand (7)" in x for x in s), "the dealt hand")
    assert any("Tester (you)" in line for line in lines)
    assert any("Bot" in line for line in lines)
    for _ in range(12):
        lines = terminal.wait_for(my_turn, "my turn")
        assert any(line.startswith(" ▶ Tester (you)") for line in lines), "the turn marker"
        tokens = hand_tokens(lines)
        playable = [i for i, (_, mark) in enumerate(tokens) if mark in ("•", "▲")]
        if not playable:
            terminal.keys("d")
            terminal.wait_for(lambda s: any("you drew" in x for x in s), "my draw")
            continue
        selected = next(i for i, (label, _) in enumerate(tokens) if label.startswith("["))
        target = playable[0]
        label = tokens[target][0].strip("[]")
        moves = target - selected
        terminal.keys(*(["Right"] * moves if moves >= 0 else ["Left"] * -moves))
        terminal.keys("Enter")
        if label.startswith("W"):
            terminal.wait_for(lambda s: any("Choose the colour" in x for x in s), "the picker")
            terminal.keys("r")
        lines = terminal.wait_for(
            lambda s, label=label: any(x.startswith(f" Discard:  {label} ") for x in s),
            f"{label} on the discard pile",
        )
        assert any(line.startswith(" you played") for line in lines)
        break
    else:
        pytest.fail("no card could be played in twelve turns")
    terminal.keys("q")
    terminal.wait_for(lambda s: any("Quit the game?" in x for x in s), "the confirmation")
    terminal.keys("y")
