"""Debian's chromium driven by Playwright, and a player that taps through the page.

Playwright cannot download its own browser here, so it launches the system's
(``/usr/bin/chromium``). ``need_chromium`` skips without it, or fails under ``CI=true``,
as the terminal tests do for tmux. ``play_until`` plays the page the way a person would:
it looks only at what the page shows (marked playable cards, the action buttons, the
pickers) and taps them.
"""

from __future__ import annotations

import os
import shutil

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# In the order a player would think of them: answer a picker, play a card, then the
# buttons (accepting a Wild Draw Four rather than gambling on a challenge).
_MOVES = (
    "#dialog .choice",
    "#hand .card.playable",
    "#actions [data-command=accept]",
    "#actions [data-command=choose-color]",
    "#actions [data-command=call-uno]",
    "#actions [data-command=draw]",
    "#actions [data-command=pass]",
    "#actions [data-command=refuse-dance]",
    "#actions [data-command=dance]",
)


def need_chromium() -> None:
    """Skip without chromium; under CI (``CI=true``) a missing browser fails instead."""
    if shutil.which("chromium") is not None or os.path.exists(CHROMIUM):
        return
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail("chromium is not installed, and CI=true requires the browser tests")
    pytest.skip("chromium is not installed (make tools installs it where it can)")


def play_until(
    page: Page, done: str, *, touch: bool = False, max_moves: int = 3000, stop_after: int = 0
) -> int:
    """Tap through the page until ``done`` (a selector) is on it, or (``stop_after``) that
    many moves are made; returns the moves made."""
    moves = 0
    while page.query_selector(done) is None and not (stop_after and moves >= stop_after):
        # The page's policy allows no eval, so the wait is a selector, not a script.
        anything = ", ".join([done, *(f"{selector}:visible" for selector in _MOVES)])
        page.wait_for_selector(anything, timeout=30_000)
        if page.query_selector(done) is not None:
            break
        for selector in _MOVES:
            target = page.query_selector(selector)
            if target is None or not target.is_visible():
                continue
            try:
                if touch:
                    target.tap(timeout=2000)
                else:
                    target.click(timeout=2000)
            except PlaywrightError:
                pass  # the page moved on under the tap (a bot played): look again
            moves += 1
            break
        assert moves <= max_moves, "the round does not end"
    return moves
