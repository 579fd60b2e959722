"""The page in a real browser, against the real server and its bots."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import trio
from e2e_client import FAST_OPTIONS, Player
from e2e_server import ServerProcess
from playwright.sync_api import Browser, Page
from web_browser import play_until

from protocol.messages import AddBot, CreateTable, Start
from protocol.options import TableOptions

ROUND_OVER = "#round-result, #match-result"


def sign_in_and_sit(page: Page, url: str, *, touch: bool = False, bots: int = 2) -> None:
    """Open the page, give a name, make a table with ``bots`` server bots and start it."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(url)
    tap = page.tap if touch else page.click
    page.fill("#name-input", "Ann")
    tap("#name-form button")
    page.wait_for_selector("#lobby-screen:not([hidden])")
    tap("#create summary")
    page.fill("#create-form [name=name]", "evening")
    page.fill("#create-form [name=seats]", str(bots + 1))
    page.fill("#create-form [name=bots]", str(bots))
    tap("#create-form button[type=submit]")
    page.wait_for_selector(f"#seats .seat >> nth={bots}")
    page.wait_for_selector("#seats .seat.empty", state="detached")
    tap("#start")
    page.wait_for_selector("#hand .card")
    assert errors == []


def test_a_whole_round_against_server_bots_from_the_page(
    web_server: tuple[ServerProcess, str], browser: Browser
) -> None:
    _server, url = web_server
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    sign_in_and_sit(page, url)
    assert page.inner_text("#seats .seat.you .seat-name") == "Ann (you)"
    moves = play_until(page, ROUND_OVER)
    assert moves > 0
    result = page.inner_text("#dialog")
    assert "won" in result
    assert "Ann" in page.inner_text("#dialog .results") or "you" in result
    assert "round over:" in page.inner_text("#log")
    page.close()


def test_a_whole_round_at_a_phone_viewport_with_touch(
    web_server: tuple[ServerProcess, str], browser: Browser
) -> None:
    _server, url = web_server
    context = browser.new_context(
        viewport={"width": 360, "height": 640}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    sign_in_and_sit(page, url, touch=True)
    # Touch first: every button and card on the table is at least 44 px each way. Measured
    # in one script, at one instant: the bots play meanwhile and the page redraws its cards.
    sizes = page.evaluate(
        """() => [...document.querySelectorAll("#table-screen button")]
            .filter((button) => button.checkVisibility())
            .map((button) => {
                const box = button.getBoundingClientRect();
                return [button.innerText, box.width, box.height];
            })"""
    )
    assert sizes, "no button on the table"
    small = [(text, width, height) for text, width, height in sizes if min(width, height) < 44]
    assert small == []
    # Nothing sticks out sideways at 360 px: no sideways scrolling in portrait.
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    play_until(page, ROUND_OVER, touch=True, stop_after=4)
    # ``make web-screenshot`` keeps a picture of the table for docs/web.md; a test run
    # without it writes nothing.
    shot = os.environ.get("UNO_WEB_SCREENSHOT")
    if shot:
        # A turn of one's own with nothing open over the hand.
        while page.query_selector("#dialog:not([hidden]) .choice") is not None:
            page.tap("#dialog .choice")
        page.wait_for_selector("#hand .card.playable")
        page.screenshot(path=shot)
    play_until(page, ROUND_OVER, touch=True)
    assert "won" in page.inner_text("#dialog")
    context.close()


def test_a_reload_mid_round_resumes_the_seat(
    web_server: tuple[ServerProcess, str], browser: Browser
) -> None:
    server, url = web_server
    context = browser.new_context(viewport={"width": 360, "height": 640})
    page = context.new_page()
    sign_in_and_sit(page, url)
    play_until(page, ROUND_OVER, stop_after=3)
    table = page.inner_text("#table-head strong")
    page.reload()
    page.wait_for_selector("#table-screen:not([hidden]) #hand .card")
    assert page.inner_text("#table-head strong") == table
    assert page.inner_text("#seats .seat.you .seat-name") == "Ann (you)"
    assert page.is_hidden("#lobby-screen")
    # The same seat, not a new one: the table still has one person and two bots.
    assert len(page.query_selector_all("#seats .seat")) == 3
    assert "Ann resumed seat 0" in server.log_text()
    play_until(page, ROUND_OVER)
    context.close()


def test_a_link_that_names_a_table_lands_on_its_join(
    web_server: tuple[ServerProcess, str], browser: Browser
) -> None:
    server, url = web_server

    async def host_a_table() -> str:
        # The host plays in the terminal, over TCP; the guest follows the page's link.
        host = await Player.connect(server.port, "Host", versions=("1.3",))
        hosts.append(host)
        options = TableOptions.parse({**FAST_OPTIONS, "seats": 2})
        async with trio.open_nursery() as nursery:
            nursery.start_soon(host.read_forever)
            result = await host.ok(lambda id_: CreateTable(id=id_, name="kitchen", options=options))
            nursery.cancel_scope.cancel()
        return str(result["table_id"])

    hosts: list[Player] = []
    table_id = trio.run(host_a_table)
    page = browser.new_page(viewport={"width": 360, "height": 640})
    page.goto(f"{url}#table={table_id}")
    page.fill("#name-input", "Guest")
    page.click("#name-form button")
    page.wait_for_selector("#table-screen:not([hidden]) #seats .seat.you")
    assert page.inner_text("#table-head strong") == "kitchen"
    assert page.inner_text("#seats .seat.you .seat-name") == "Guest (you)"
    assert page.inner_text("#seats .seat >> nth=0").startswith("Host")
    page.close()


@pytest.mark.parametrize("stop", ["SIGKILL", "SIGTERM"])
def test_a_server_restarted_with_its_journal_gives_the_page_its_seat_back(
    web_server: tuple[ServerProcess, str], browser: Browser, tmp_path: Path, stop: str
) -> None:
    server, url = web_server
    page = browser.new_page(viewport={"width": 360, "height": 640})
    sign_in_and_sit(page, url)
    play_until(page, ROUND_OVER, stop_after=3)
    table = page.inner_text("#table-head strong")
    assert page.inner_text("#status") == "online"
    if stop == "SIGKILL":
        server.process.kill()
        server.process.wait()
    else:
        assert server.terminate() == 0
    # The page says so honestly while the server is gone.
    page.wait_for_selector("#status[data-status=reconnecting]")
    assert page.inner_text("#status") == "reconnecting…"
    web_port = int(url.rstrip("/").rsplit(":", 1)[1])
    again = ServerProcess.start(
        tmp_path, "--port", str(server.port), "--web-port", str(web_port), state=server.state
    )
    try:
        page.wait_for_selector("#status[data-status=online]", timeout=20_000)
        page.wait_for_selector("#table-screen:not([hidden]) #seats .seat.you", timeout=20_000)
        assert page.inner_text("#table-head strong") == table
        assert page.inner_text("#seats .seat.you .seat-name") == "Ann (you)"
        assert "Ann resumed seat 0" in again.log_text()
        # The rebuilt match goes on from the page (paused until its people are back).
        play_until(page, ROUND_OVER)
    finally:
        again.stop()
    page.close()


def test_a_page_that_starts_watching_mid_round_shows_the_rounds_first_lines(
    web_server: tuple[ServerProcess, str], browser: Browser
) -> None:
    server, url = web_server

    async def start_a_round() -> Player:
        # Two server bots play up to the host's turn, where the round waits (no clock).
        host = await Player.connect(server.port, "Host", versions=("1.3",))
        options = TableOptions.parse({**FAST_OPTIONS, "seats": 3, "turn_seconds": 0})
        async with trio.open_nursery() as nursery:
            nursery.start_soon(host.read_forever)
            await host.ok(lambda id_: CreateTable(id=id_, name="lesson", options=options))
            for _ in range(2):
                await host.ok(lambda id_: AddBot(id=id_, strategy="normal"))
            await host.ok(lambda id_: Start(id=id_))
            await host.hub.until(lambda: host.view is not None and host.legal() != [])
            nursery.cancel_scope.cancel()
        return host

    host = trio.run(start_a_round)  # kept connected: its seat is not handed to a bot
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    page.goto(url)
    page.fill("#name-input", "Wes")
    page.click("#name-form button")
    page.click(".table-entry button:has-text('Watch')")
    page.wait_for_selector("#table-screen:not([hidden])")
    page.wait_for_selector("#log:has-text('first card: ')", timeout=10_000)
    log = page.inner_text("#log")
    assert "round 1 begins (dealer: " in log
    assert host.seat == 0
    page.close()


def test_a_teaching_table_made_on_the_page_shows_its_watchers_every_hand(
    web_server: tuple[ServerProcess, str], browser: Browser
) -> None:
    _server, url = web_server
    host = browser.new_page(viewport={"width": 1000, "height": 800})
    host.goto(url)
    host.fill("#name-input", "Ann")
    host.click("#name-form button")
    host.click("#create summary")
    assert "anyone watching sees all the cards" in host.inner_text("#create-form")
    host.fill("#create-form [name=name]", "class")
    host.fill("#create-form [name=seats]", "2")
    host.fill("#create-form [name=bots]", "1")
    host.fill("#create-form [name=turn_seconds]", "0")
    host.check("#create-form [name=spectators_see_hands]")
    host.click("#create-form button[type=submit]")
    host.wait_for_selector("#seats .seat >> nth=1")
    host.wait_for_selector("#seats .seat.empty", state="detached")
    host.click("#start")
    host.wait_for_selector("#hand .card")
    pupil = browser.new_page(viewport={"width": 1000, "height": 800})
    pupil.goto(url)
    pupil.fill("#name-input", "Wes")
    pupil.click("#name-form button")
    entry = pupil.wait_for_selector(".table-entry:has-text('spectators see every hand')")
    assert entry is not None
    pupil.click(".table-entry button:has-text('Watch')")
    pupil.wait_for_selector("#seats .seat .seen-hand >> nth=1")
    seen = [len(t.split()) for t in pupil.locator("#seats .seat .seen-hand").all_inner_texts()]
    counts = pupil.locator("#seats .seat .count").all_inner_texts()
    assert [f"{n} cards" if n != 1 else "1 card" for n in seen] == counts
    assert host.locator("#seats .seen-hand").count() == 0  # a player sees no other hand
    host.close()
    pupil.close()
