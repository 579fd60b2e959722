"""A rematch asks the guests (1.3) on the browser page: the table's owner (a protocol
connection) asks for one after a one-round match; the page, a guest, shows a "Ready for
the rematch" button instead of dealing at once, and its click starts the new match."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import trio
from e2e_client import FAST_OPTIONS, Player
from e2e_server import ServerProcess
from playwright.sync_api import Browser
from web_browser import play_until

from protocol.messages import CreateTable, Rematch, Start
from protocol.options import TableOptions

OWNER = ("1.3",)


def test_the_page_says_ready_for_the_owners_rematch(
    web_server: tuple[ServerProcess, str], browser: Browser
) -> None:
    server, url = web_server
    kept: list[Player] = []  # connections left open on purpose (the owner at the end)

    async def as_owner(
        token: str | None, act: Callable[[Player], Awaitable[None]], *, stay: bool = False
    ) -> Player:
        owner = await Player.connect(server.port, "Owner", resume_token=token, versions=OWNER)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(owner.read_forever)
            await act(owner)
            nursery.cancel_scope.cancel()
        if stay:
            kept.append(owner)
        else:
            await owner.close()  # away: a server bot plays the owner's turns
        return owner

    async def create(owner: Player) -> None:
        options = {**FAST_OPTIONS, "seats": 2, "target_score": 1, "round_pause_seconds": 3600}
        await owner.ok(
            lambda id_: CreateTable(id=id_, name="again", options=TableOptions.parse(options))
        )

    async def start(owner: Player) -> None:
        await owner.ok(lambda id_: Start(id=id_))

    async def rematch(owner: Player) -> None:
        await owner.ok(lambda id_: Rematch(id=id_))
        await owner.hub.until(lambda: owner.state is not None and owner.state.rematch_asked)

    owner = trio.run(as_owner, None, create)
    assert owner.table_id is not None and owner.token is not None
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    page.goto(f"{url}#table={owner.table_id}")
    page.fill("#name-input", "Guest")
    page.click("#name-form button")
    page.wait_for_selector("#table-screen:not([hidden]) #seats .seat.you")

    trio.run(as_owner, owner.token, start)
    page.wait_for_selector("#hand .card")
    play_until(page, "#match-result")
    trio.run(lambda: as_owner(owner.token, rematch, stay=True))

    ready = page.wait_for_selector("#dialog [data-command=ready]")
    assert ready is not None and ready.inner_text() == "Ready for the rematch"
    assert page.query_selector("#dialog button:text-is('Rematch')") is None
    ready.click()
    page.wait_for_selector("#match-result", state="detached")
    page.wait_for_selector("#hand .card")
    page.close()
