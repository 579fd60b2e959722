"""The page says a real server's rejections and ``left`` from their codes as the terminal
does (issue 29): the same sentence from the same table, in a real browser."""

from __future__ import annotations

import trio
from e2e_client import seat_table
from e2e_server import ServerProcess
from playwright.sync_api import Browser

from client.ui.reducer import left_words
from client.ui.sentences import SENTENCES, coded
from protocol.messages import Join, Kick, Left, Rejected, Start

SAY = """async ([rejections, lefts]) => {
  const sentences = await import("/sentences.js");
  const log = await import("/log.js");
  return [
    rejections.map((m) => sentences.coded("rejected", m.code, m.message)),
    lefts.map((m) => log.leftWords(m)),
  ];
}"""


async def what_a_server_says(port: int) -> tuple[list[Rejected], list[Left]]:
    async with trio.open_nursery() as nursery:
        (ann, bob, old), _ = await seat_table(
            port,
            nursery,
            ["ann", "bob", "old"],
            options={"seats": 4},
            start=False,
            versions=[("1.3",), ("1.3",), ("1.2",)],
        )
        rejections = [
            await bob.request(lambda id_: Start(id=id_)),
            await bob.request(lambda id_: Join(id=id_, table_id="999")),
        ]
        assert bob.seat is not None and old.seat is not None
        bob_seat, old_seat = bob.seat, old.seat
        await ann.ok(lambda id_: Kick(id=id_, seat=bob_seat, ban=True))
        await ann.ok(lambda id_: Kick(id=id_, seat=old_seat))
        await ann.hub.until(
            lambda: all(any(isinstance(f, Left) for f in p.frames) for p in (bob, old))
        )
        nursery.cancel_scope.cancel()
    lefts = [f for p in (bob, old) for f in p.frames if isinstance(f, Left)]
    assert all(isinstance(r, Rejected) for r in rejections)
    return [r for r in rejections if isinstance(r, Rejected)], lefts


def test_the_page_says_rejections_and_left_as_the_terminal_does(
    web_server: tuple[ServerProcess, str], browser: Browser
) -> None:
    server, url = web_server
    rejections, lefts = trio.run(what_a_server_says, server.port)
    assert [r.code for r in rejections] == ["not-host", "table-not-found"]
    assert [left.cause for left in lefts] == ["asked-to-leave", None]  # bob 1.3, old 1.2

    terminal = (
        [coded("rejected", r.code, r.message) for r in rejections],
        [left_words(left) for left in lefts],
    )
    assert terminal[0] == [SENTENCES["rejected.not-host"], SENTENCES["rejected.table-not-found"]]
    assert terminal[1][0] == "ann asked you to leave and banned you from this table"
    page = browser.new_page()
    page.goto(url)
    data = ([r.to_data() for r in rejections], [left.to_data() for left in lefts])
    on_page = page.evaluate(SAY, list(data))
    assert on_page == [terminal[0], terminal[1]]
    page.close()
