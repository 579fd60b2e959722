"""The page's log says what the terminal's says: the same sentence for every event of a
real match, and for a stack of draw cards (client/ui/describe.py and server/web/log.js,
both reading the sentences of client/ui/sentences.py)."""

from __future__ import annotations

import random

import pytest
import trio
from e2e_client import FAST_OPTIONS, Player, drive
from e2e_server import ServerProcess
from playwright.sync_api import Browser

from client.i18n import LANGUAGES, choose
from client.ui.describe import describe_event, stack_after
from client.ui.sentences import say
from protocol.events import SeenEvent
from protocol.messages import AddBot, CreateTable, GameEvent, Start
from protocol.options import TableOptions

NAMES = ["Ann", "Bot 1", "Bot 2"]

DESCRIBE = """async ([bodies, seat, names, lang]) => {
  const log = await import("/log.js");
  const sentences = await import("/sentences.js");
  sentences.setLanguage(lang);
  const you = sentences.say("you");
  const name = (s) => (s === seat ? you : names[s] ?? `seat ${s + 1}`);
  let stack = [];
  return bodies.map((body, i) => {
    const line = log.describeEvent(body, name, i ? bodies[i - 1] : null, stack);
    stack = log.stackAfter(stack, body);
    return line;
  });
}"""


async def a_match(port: int) -> tuple[list[SeenEvent], int]:
    player = await Player.connect(port, "Ann", versions=("1.3",))
    async with trio.open_nursery() as nursery:
        nursery.start_soon(player.read_forever)
        options = TableOptions.parse(
            {**FAST_OPTIONS, "seats": 3, "deck": "bts", "stack": "progressive"}
        )
        await player.ok(lambda id_: CreateTable(id=id_, name="log", options=options))
        for _ in range(2):
            await player.ok(lambda id_: AddBot(id=id_, strategy="normal"))
        await player.ok(lambda id_: Start(id=id_))
        await drive([player], lambda: player.match_over, random.Random(9))
        nursery.cancel_scope.cancel()
    assert player.seat is not None
    events = [frame.body for frame in player.frames if isinstance(frame, GameEvent)]
    return events, player.seat


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_event_reads_the_same_on_the_page_as_in_the_terminal(
    web_server: tuple[ServerProcess, str], browser: Browser, lang: str
) -> None:
    server, url = web_server
    events, seat = trio.run(a_match, server.port)
    kinds = {event.to_data()["kind"] for event in events}
    assert {"played", "drew", "round-over", "match-over"} <= kinds

    terminal, on_page = _both_logs(events, seat, url, browser, lang)
    assert len(on_page) == len(terminal)
    differ = [(t, p) for t, p in zip(terminal, on_page, strict=True) if t != p]
    assert differ == []


def _both_logs(
    events: list[SeenEvent], seat: int, url: str, browser: Browser, lang: str = "en"
) -> tuple[list[str], list[str]]:
    """The terminal's log lines for ``events`` at ``seat`` in ``lang``, and the page's."""

    def name_of(index: int | None) -> str:
        return say("you") if index == seat else NAMES[index] if index is not None else "nobody"

    terminal = []
    stack: tuple[str, ...] = ()
    choose(lang)
    try:
        for n, event in enumerate(events):
            terminal.append(describe_event(event, name_of, events[n - 1] if n else None, stack))
            stack = stack_after(stack, event.body)
    finally:
        choose("en")
    page = browser.new_page()
    page.goto(url)
    bodies = [event.to_data() for event in events]
    on_page = page.evaluate(DESCRIBE, [bodies, seat, NAMES, lang])
    page.close()
    return terminal, on_page


def _event(seq: int, **data: object) -> SeenEvent:
    return SeenEvent.from_data({"seq": seq, **data})


def test_a_stack_reads_the_same_on_the_page_as_in_the_terminal(
    web_server: tuple[ServerProcess, str], browser: Browser
) -> None:
    _, url = web_server
    events = [
        _event(1, kind="played", seat=1, card="R+2", color="R", count=4),
        _event(2, kind="played", seat=2, card="G+2", color="G", count=4),
        _event(3, kind="played", seat=0, card="B+2", color="B", count=4),
        _event(4, kind="drew", seat=1, count=6, reason="draw-two"),
        _event(5, kind="played", seat=2, card="W+4", color="Y", count=3),
        _event(6, kind="played", seat=0, card="W+4", color="B", count=3),
        _event(7, kind="drew", seat=1, count=8, reason="wild-draw-four"),
        _event(8, kind="played", seat=2, card="Y+2", color="Y", count=2),
        _event(9, kind="drew", seat=0, count=2, reason="draw-two", cards=["R1", "G2"]),
    ]
    terminal, on_page = _both_logs(events, 0, url, browser)
    assert terminal[3] == "Bot 1 drew 6: a stack of three Draw Twos"
    assert terminal[6] == "Bot 1 drew 8: a stack of two Wild Draw Fours"
    assert terminal[8] == "you drew 2 cards: R1 G2 (Draw Two)"
    assert on_page == terminal
