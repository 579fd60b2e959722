"""A rematch asks the guests (1.3), with two real ``uno-client``s in tmux: the ``--serve``
host and a guest play a one-round match with a bot; the host's ``r`` asks for a rematch, the
guest's screen shows the ask, its clock and who is ready, and the guest's Enter starts it."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from test_client_tmux import (
    Terminal,
    open_terminal,
    play_both_until,
    serve_with_a_guest,
    turn_line,
)

__all__ = ["open_terminal"]  # the fixture, used by name

pytestmark = [pytest.mark.e2e]

ASKED = re.compile(r"Match over · the rematch starts in \d+:\d\d · Enter: ready for the rematch")


def test_the_guest_says_ready_for_the_hosts_rematch(
    open_terminal: Callable[..., Terminal],
) -> None:
    host, guest = serve_with_a_guest(open_terminal, "--target-score=1", "--round-pause-seconds=600")
    host.keys("s")
    play_both_until(host, guest, "Match over")
    screen = guest.wait_for(lambda s: any("The host may start" in x for x in s), "the end")
    assert not any("rematch starts" in line for line in screen)

    host.keys("r")
    screen = guest.wait_for(lambda s: ASKED.search(turn_line(s)), "the rematch asked")
    text = "\n".join(screen)
    assert "Ready for the rematch: Hostess, Bot 1 · waiting for Guest" in text
    assert "Enter ready for the rematch" in text  # the keys line
    hosting = host.wait_for(lambda s: any("waiting for Guest" in x for x in s), "the ask")
    assert "you are ready; waiting for the others" in turn_line(hosting)
    assert not any("r rematch" in line for line in hosting)  # asked once

    guest.keys("Enter")
    for terminal in (guest, host):
        terminal.wait_for(
            lambda s: "Match over" not in turn_line(s) and any("Your hand (3)" in x for x in s),
            "the rematch dealt",
        )
