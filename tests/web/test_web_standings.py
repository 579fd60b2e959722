"""The page's standings (uno-client's `h` screen) and the host's closing of a table the
server rebuilt after a restart (uno-client's `C`), in a real browser against a real server."""

from __future__ import annotations

import random
import threading
from pathlib import Path

import trio
from e2e_client import FAST_OPTIONS, Player, drive
from e2e_server import ServerProcess
from playwright.sync_api import Browser, Page

from protocol.messages import AddBot, CreateTable, Join, Start
from protocol.options import TableOptions


def sign_in(page: Page, url: str, name: str = "Ann") -> None:
    page.goto(url)
    page.fill("#name-input", name)
    page.click("#name-form button")


def test_the_standings_show_a_finished_match(
    web_server: tuple[ServerProcess, str], browser: Browser
) -> None:
    server, url = web_server

    async def a_match() -> None:
        player = await Player.connect(server.port, "Bea", versions=("1.3",))
        async with trio.open_nursery() as nursery:
            nursery.start_soon(player.read_forever)
            options = TableOptions.parse({**FAST_OPTIONS, "seats": 2})
            await player.ok(lambda id_: CreateTable(id=id_, name="friday", options=options))
            await player.ok(lambda id_: AddBot(id=id_, strategy="normal"))
            await player.ok(lambda id_: Start(id=id_))
            await drive([player], lambda: player.match_over, random.Random(3))
            nursery.cancel_scope.cancel()

    trio.run(a_match)
    page = browser.new_page(viewport={"width": 360, "height": 640})
    sign_in(page, url)
    page.wait_for_selector("#lobby-screen:not([hidden])")
    page.click("#show-standings")
    page.wait_for_selector("#standings-screen:not([hidden]) #matches li")
    rows = page.locator("#standings tbody tr").all_inner_texts()
    people = [row.split("\t") for row in rows]
    assert ["Bea", *people[0][1:]] == people[0] and people[0][2] == "1"  # one match played
    assert "bots" in rows
    match = page.inner_text("#matches li")
    assert "friday" in match and "Bea" in match
    # This week and all time both hold it; Back goes to the lobby.
    assert page.inner_text("#standings-period") == "this week"
    page.click("#standings-period")
    page.wait_for_selector("#standings-period:text('all time')")
    page.wait_for_selector("#standings tbody tr:has-text('Bea')")
    page.click("#standings-screen [data-action=lobby]")
    page.wait_for_selector("#lobby-screen:not([hidden])")
    page.close()


def test_the_host_closes_a_table_rebuilt_after_a_restart(
    web_server: tuple[ServerProcess, str], browser: Browser, tmp_path: Path
) -> None:
    server, url = web_server
    page = browser.new_page(viewport={"width": 360, "height": 640})
    page.on("dialog", lambda dialog: dialog.accept())
    sign_in(page, url)
    page.click("#create summary")
    page.fill("#create-form [name=name]", "kitchen")
    page.fill("#create-form [name=seats]", "3")
    page.fill("#create-form [name=bots]", "1")
    page.fill("#create-form [name=turn_seconds]", "0")
    page.click("#create-form button[type=submit]")
    page.wait_for_selector("#seats .seat >> nth=1")
    table_id = page.evaluate('async () => (await import("/app.js")).state.tableId')
    started = threading.Event()

    async def guest() -> None:
        # A guest over TCP takes the third seat, stays for the start, and goes: the
        # rebuilt table then waits, paused, for them.
        player = await Player.connect(server.port, "Bea", versions=("1.3",))
        async with trio.open_nursery() as nursery:
            nursery.start_soon(player.read_forever)
            await player.ok(lambda id_: Join(id=id_, table_id=table_id))
            await trio.to_thread.run_sync(started.wait, 30)
            nursery.cancel_scope.cancel()
        await player.close()

    thread = threading.Thread(target=trio.run, args=(guest,))
    thread.start()
    page.wait_for_selector("#seats .seat.empty", state="detached")
    page.click("#start")
    page.wait_for_selector("#hand .card")
    started.set()
    thread.join(30)
    # Not rebuilt: nothing to close.
    assert page.locator("#close-table").count() == 0
    assert server.terminate() == 0
    page.wait_for_selector("#status[data-status=reconnecting]")
    web_port = int(url.rstrip("/").rsplit(":", 1)[1])
    again = ServerProcess.start(
        tmp_path, "--port", str(server.port), "--web-port", str(web_port), state=server.state
    )
    try:
        page.wait_for_selector("#status[data-status=online]", timeout=20_000)
        # The rebuilt table waits, paused, for Bea: its host may close it instead.
        page.wait_for_selector("#close-table", timeout=20_000)
        page.click("#close-table")
        page.wait_for_selector("#lobby-screen:not([hidden])", timeout=10_000)
        assert "closed" in page.inner_text("#notice")
        assert page.locator(f"[data-table='{table_id}']").count() == 0
    finally:
        again.stop()
    page.close()
