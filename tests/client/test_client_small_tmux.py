"""Issue 26 in a real terminal at the 60x20 minimum: two real ``uno-client`` programs in
tmux against a real ``uno-server`` on 127.0.0.1. The lobby's chat shows in the lobby,
the new-table form masks its password, the keys line shows whole at 60 columns, and a
table left leaves nothing in the log of the next one watched.

As in tests/client/test_client_tmux.py, the screen is polled (bounded by a deadline),
never waited for with a fixed sleep.
"""

from __future__ import annotations

import os
import secrets
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from client_server import ServerChild
from test_client_tmux import Terminal, client_command, need_tmux

pytestmark = [pytest.mark.e2e]

WIDTH, HEIGHT = 60, 20


@pytest.fixture
def small_terminal(tmp_path: Path) -> Iterator[Callable[..., Terminal]]:
    """``uno-client`` with the given arguments in a 60x20 tmux session of its own."""
    need_tmux()
    socket = f"uno-client-small-{os.getpid()}-{secrets.token_hex(4)}"
    count = 0

    def start(*args: str) -> Terminal:
        nonlocal count
        count += 1
        term = Terminal(socket, f"small{count}")
        state = tmp_path / f"client{count}"
        command = ["new-session", "-d", "-s", term.session, "-x", str(WIDTH), "-y", str(HEIGHT)]
        command += ["-e", f"XDG_CONFIG_HOME={state / 'config'}"]
        command += ["-e", f"XDG_STATE_HOME={state / 'state'}"]
        term.tmux(*command, client_command(*args))
        return term

    try:
        yield start
    finally:
        subprocess.run(
            ["tmux", "-L", socket, "kill-server"], capture_output=True, timeout=10, check=False
        )


@pytest.fixture
def server() -> Iterator[str]:
    child = ServerChild(["--no-mdns", "--bot-think-ms", "50"])
    try:
        host, port = child.start()
        yield f"{host}:{port}"
    finally:
        child.stop()


def shows(text: str) -> Callable[[list[str]], bool]:
    return lambda lines: any(text in line for line in lines)


def test_at_60x20_lobby_chat_a_masked_password_whole_keys_and_no_old_log(
    small_terminal: Callable[..., Terminal], server: str
) -> None:
    ann = small_terminal("--server", server, "--name", "Ann")
    bob = small_terminal("--server", server, "--name", "Bob")
    for person in (ann, bob):
        lines = person.wait_for(shows("No tables yet"), "the lobby")
        assert all(len(line) <= WIDTH for line in lines)
        assert any(line.rstrip().endswith("q quit") for line in lines), lines  # not cut

    # item 2: what Ann says in the lobby shows in Bob's lobby, in its chat pane
    ann.keys("t")
    ann.wait_for(shows("say:"), "the chat line")
    ann.keys("-l", "hello lobby")
    ann.keys("Enter")
    lines = bob.wait_for(shows("Ann: hello lobby"), "Ann's line in Bob's lobby")
    assert any("lobby chat" in line for line in lines)

    # item 12: the new-table form masks the password as it is typed
    bob.keys("n")
    bob.wait_for(shows("New table"), "the new-table form")
    bob.keys("Down")
    bob.keys("-l", "secret")
    lines = bob.wait_for(shows("••••••"), "the masked password")
    assert not any("secret" in line for line in lines)
    bob.keys("BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "Enter")
    bob.wait_for(shows("Waiting for the match"), "Bob's table")

    # item 1: Ann sits at Bob's table and hears a bot join; then leaves and watches it
    ann.wait_for(shows("Bob's table"), "Bob's table in Ann's lobby")
    ann.keys("Enter")
    ann.wait_for(shows("Waiting for the match"), "Ann at Bob's table")
    bob.keys("b")
    bob.wait_for(shows("Add a bot"), "the bot picker")
    bob.keys("Enter")
    ann.wait_for(shows("(a bot) joined"), "the bot's arrival in Ann's log")
    ann.keys("q")
    ann.wait_for(shows("You left the table"), "Ann back in the lobby")
    ann.keys("s")
    lines = ann.wait_for(shows("watching"), "Ann watching Bob's table")
    assert not any("(a bot) joined" in line for line in lines), "\n".join(lines)
    assert not any("hello lobby" in line for line in lines)
    ann.keys("q")
    ann.wait_for(shows("Bob's table"), "the lobby again")
