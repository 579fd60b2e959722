"""Jump-in from the page (issue 25): at a party table (jump-in on) against two server bots
that think for most of a second, the player taps a card the page marks playable while a
bot is to act; the page shows the jump-in in its log, the card on top and one card fewer
in the hand."""

from __future__ import annotations

from pathlib import Path

from conftest import page_url
from e2e_server import ServerProcess
from playwright.sync_api import Browser, Page
from playwright.sync_api import Error as PlaywrightError
from web_browser import play_until

# Long enough for a tap between a bot's play and the next bot's move.
BOT_THINK_MS = "900"
MAX_STEPS = 1500
YOURS = "#prompt.yours"
JUMPED = "you jumped in ahead of"
# A loaded machine may take seconds to answer a tap; a jump-in shown later than this is
# missed, and the next tap counts the lines afresh.
JUMP_WAIT_MS = 6000


def sit_at_a_party_table(page: Page, url: str) -> None:
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(url)
    page.fill("#name-input", "Ann")
    page.click("#name-form button")
    page.wait_for_selector("#lobby-screen:not([hidden])")
    page.click("#create summary")
    page.fill("#create-form [name=name]", "jumpers")
    page.select_option("#create-form [name=preset]", "party")
    page.fill("#create-form [name=seats]", "3")
    page.fill("#create-form [name=bots]", "2")
    page.click("#create-form button[type=submit]")
    page.wait_for_selector("#seats .seat >> nth=2")
    page.wait_for_selector("#seats .seat.empty", state="detached")
    page.click("#start")
    page.wait_for_selector("#hand .card")


def off_turn_card(page: Page) -> str | None:
    """The code of a card the page marks playable while someone else is to act (a jump-in)."""
    if page.query_selector(YOURS) is not None or page.is_visible("#dialog"):
        return None
    card = page.query_selector("#hand .card.playable")
    return None if card is None else card.get_attribute("data-card")


_COUNT_JUMPS = """text => [...document.querySelectorAll('#log li')]
    .filter(li => li.innerText.startsWith(text)).length"""


def jump_lines(page: Page) -> int:
    """How many jump-in lines of this player the page's log shows."""
    return int(page.evaluate(_COUNT_JUMPS, JUMPED))


def hand_names(page: Page) -> list[str]:
    """The names of the cards in the hand, as the page says them."""
    labels = page.locator("#hand .card").evaluate_all("cards => cards.map(c => c.ariaLabel)")
    return [str(label).removesuffix(", playable") for label in labels]


def test_a_player_jumps_in_from_the_page(tmp_path: Path, browser: Browser) -> None:
    server = ServerProcess.start(tmp_path, "--bot-think-ms", BOT_THINK_MS)
    errors: list[str] = []
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        sit_at_a_party_table(page, page_url(server))
        jumped = None
        for _ in range(MAX_STEPS):
            chance = off_turn_card(page)
            if chance is not None:
                before, shown = hand_names(page), jump_lines(page)
                try:
                    page.click(f"#hand .card.playable[data-card='{chance}']", timeout=1000)
                    # A new line, not an old one: a jump-in shown after an earlier wait
                    # gave up would otherwise pass for this one.
                    page.wait_for_function(
                        f"([text, seen]) => ({_COUNT_JUMPS})(text) > seen",
                        arg=[JUMPED, shown],
                        timeout=JUMP_WAIT_MS,
                    )
                except PlaywrightError:
                    continue  # a bot moved first: the card is no jump-in any more
                jumped = before
                break
            if page.query_selector(YOURS) is not None:
                play_until(page, "#never", stop_after=1)
            elif page.is_visible("#dialog [data-command=ready]"):
                page.click("#dialog [data-command=ready]")
            else:
                page.wait_for_timeout(50)
        assert jumped is not None, "no jump-in chance came in the steps given"
        lines = page.locator("#log li").all_inner_texts()
        at = max(i for i, line in enumerate(lines) if line.startswith(JUMPED))
        assert lines[at].startswith("you jumped in ahead of Bot ")
        # A bot's play can re-draw the hand between the look and the tap, so the card
        # played may be another jump-in than the one looked at: one card of the hand went.
        named = [n for n in jumped if lines[at + 1].startswith(f"you played {n}")]
        assert named, lines[at + 1]
        played = max(named, key=len)  # "Wild Draw Four", not "Wild"
        # The log line comes with the event, the hand with the view just behind it.
        page.wait_for_function(
            "count => document.querySelectorAll('#hand .card').length === count",
            arg=len(jumped) - 1,
            timeout=3000,
        )
        after = hand_names(page)
        assert sorted([*after, played]) == sorted(jumped)
    finally:
        page.close()
        server.stop()
    assert errors == []
