"""The page says a real server's rejections and ``left`` from their codes as the terminal
does (issue 29): the same sentence from the same table, in a real browser, and a
rejection's option by the same translated name."""

from __future__ import annotations

import trio
from e2e_client import seat_table
from e2e_server import ServerProcess
from playwright.sync_api import Browser

from client import i18n
from client.session import rejection_case
from client.ui.model import case_words
from client.ui.reducer import left_words
from client.ui.sentences import SENTENCES, coded
from protocol.messages import CreateTable, Join, Kick, Left, Rejected, Start
from protocol.options import TableOptions

SAY = """async ([lang, rejections, lefts]) => {
  const sentences = await import("/sentences.js");
  const log = await import("/log.js");
  sentences.setLanguage(lang);
  return [rejections.map((m) => log.rejectedWords(m)), lefts.map((m) => log.leftWords(m))];
}"""

_TEAMS_OF_THREE = TableOptions.parse({"scoring": "teams", "seats": 3})


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
        create = lambda id_: CreateTable(id=id_, name="x", options=_TEAMS_OF_THREE)  # noqa: E731
        rejections.append(await bob.request(create))
        nursery.cancel_scope.cancel()
    lefts = [f for p in (bob, old) for f in p.frames if isinstance(f, Left)]
    assert all(isinstance(r, Rejected) for r in rejections)
    return [r for r in rejections if isinstance(r, Rejected)], lefts


def test_the_page_says_rejections_and_left_as_the_terminal_does(
    web_server: tuple[ServerProcess, str], browser: Browser
) -> None:
    server, url = web_server
    rejections, lefts = trio.run(what_a_server_says, server.port)
    assert [r.code for r in rejections] == ["not-host", "table-not-found", "bad-options"]
    assert rejections[2].option == "scoring"
    assert [left.cause for left in lefts] == ["asked-to-leave", None]  # bob 1.3, old 1.2
    page = browser.new_page()
    page.goto(url)
    data = ([r.to_data() for r in rejections], [left.to_data() for left in lefts])
    try:
        for lang in ("en", "de"):
            i18n.choose(lang)
            terminal = [[terminal_words(r) for r in rejections], [left_words(x) for x in lefts]]
            assert page.evaluate(SAY, [lang, *data]) == terminal, lang
    finally:
        i18n.choose("en")
    page.close()
    english = [SENTENCES["rejected.not-host"], SENTENCES["rejected.table-not-found"]]
    assert terminal[0][:2] != english  # the last round was German
    assert terminal[0][2] == "die Optionen des Tisches passen nicht zusammen: prüfe Wertung"


def terminal_words(refused: Rejected) -> str:
    """What the terminal client says for a rejection, from its code and fields
    (``client.ui.model.apply_reply``)."""
    fields = case_words(rejection_case(refused))
    return coded("rejected", refused.code, refused.message, **fields)
