"""The page's log says what the terminal's says: the same sentence for every event of a
real match (client/ui/describe.py and server/web/log.js)."""

from __future__ import annotations

import random

import trio
from e2e_client import FAST_OPTIONS, Player, drive
from e2e_server import ServerProcess
from playwright.sync_api import Browser

from client.ui.describe import describe_event
from protocol.events import SeenEvent
from protocol.messages import AddBot, CreateTable, GameEvent, Start
from protocol.options import TableOptions

NAMES = ["Ann", "Bot 1", "Bot 2"]

DESCRIBE = """async ([bodies, seat, names]) => {
  const log = await import("/log.js");
  const name = (s) => (s === seat ? "you" : names[s] ?? `seat ${s + 1}`);
  return bodies.map((body, i) => log.describeEvent(body, name, i ? bodies[i - 1] : null));
}"""


async def a_match(port: int) -> tuple[list[SeenEvent], int]:
    player = await Player.connect(port, "Ann", versions=("1.3",))
    async with trio.open_nursery() as nursery:
        nursery.start_soon(player.read_forever)
        options = TableOptions.parse({**FAST_OPTIONS, "seats": 3, "deck": "bts"})
        await player.ok(lambda id_: CreateTable(id=id_, name="log", options=options))
        for _ in range(2):
            await player.ok(lambda id_: AddBot(id=id_, strategy="normal"))
        await player.ok(lambda id_: Start(id=id_))
        await drive([player], lambda: player.match_over, random.Random(9))
        nursery.cancel_scope.cancel()
    assert player.seat is not None
    events = [frame.body for frame in player.frames if isinstance(frame, GameEvent)]
    return events, player.seat


def test_every_event_reads_the_same_on_the_page_as_in_the_terminal(
    web_server: tuple[ServerProcess, str], browser: Browser
) -> None:
    server, url = web_server
    events, seat = trio.run(a_match, server.port)
    kinds = {event.to_data()["kind"] for event in events}
    assert {"played", "drew", "round-over", "match-over"} <= kinds

    def name_of(index: int | None) -> str:
        return "you" if index == seat else NAMES[index] if index is not None else "nobody"

    terminal = [
        describe_event(event, name_of, events[n - 1] if n else None)
        for n, event in enumerate(events)
    ]
    page = browser.new_page()
    page.goto(url)
    on_page = page.evaluate(DESCRIBE, [[event.to_data() for event in events], seat, NAMES])
    page.close()
    assert len(on_page) == len(terminal)
    differ = [(t, p) for t, p in zip(terminal, on_page, strict=True) if t != p]
    assert differ == []
