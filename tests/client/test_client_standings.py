"""The standings screen, headless against a real server: ``h`` in the lobby shows who is
winning this week, ``w`` all time, Enter a match's final table, Esc the lobby again."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from client_server import ServerChild
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from client.ui.app import ClientApp
from client.ui.intents import TableRequest
from client.ui.model import Mode, Model, Screen
from client.ui.network import Network
from client.ui.render import render
from protocol.messages import StandingsPeriod
from protocol.options import TableConfig
from server.journal import Journal

pytestmark = pytest.mark.e2e

SECONDS = 60
TEN_DAYS = 10 * 24 * 3600


def finished(journal: Journal, table_id: str, name: str, players: list[tuple[str, bool, int]]):
    config = TableConfig(seats=len(players), target_score=200)
    table = journal.for_table(table_id)
    table.opened(name, config, None, "127.0.0.1")
    table.match_started(1, 1, 0, 1, config)
    winner = max(players, key=lambda p: p[2])[0]
    table.match_finished(
        {
            "deck": "classic",
            "players": [{"name": n, "bot": bot, "score": score} for n, bot, score in players],
            "winners": [winner],
        }
    )
    table.closed()


def a_history(path: Path) -> None:
    """Two finished matches in a journal: Bob's ten days ago, Ann's today."""
    journal = Journal.open(path)
    try:
        finished(journal, "1", "Old", [("Bob", False, 230), ("Ann", False, 0)])
        # Ten days back: the match, and the day the kept standings counted it on.
        db = journal.connection
        db.execute(
            "UPDATE matches SET finished_at = ? WHERE table_id = '1'", (time.time() - TEN_DAYS,)
        )
        db.execute("UPDATE player_days SET day = day - 10")
        finished(
            journal, "2", "Friday", [("Ann", False, 210), ("Bob", False, 5), ("Bot 1", True, 0)]
        )
    finally:
        journal.close()


def screen_text(model: Model) -> str:
    return "".join(text for _, text, *_ in render(model, 100, 30, 0.0))


async def look_at_standings(host: str, port: int) -> tuple[ClientApp, list[str]]:
    model = Model(name="Tester")

    def network(model: Model, redraw: Callable[[], None]) -> Network:
        return Network(model, redraw, time.monotonic, address=(host, port))

    shown: list[str] = []
    with create_pipe_input() as keys:
        client = ClientApp(model, network, input=keys, output=DummyOutput())
        changed = asyncio.Event()
        client.app.on_invalidate += lambda _app: changed.set()

        async def until(condition: Callable[[], object]) -> None:
            while not condition():
                changed.clear()
                await changed.wait()

        running = asyncio.create_task(client.run())
        records = model.records
        async with asyncio.timeout(SECONDS):
            await until(lambda: model.screen is Screen.LOBBY and records.available)
            shown.append(screen_text(model))
            keys.send_text("h")
            await until(lambda: model.mode is Mode.STANDINGS and records.loaded and records.matches)
            shown.append(screen_text(model))
            keys.send_text("w")
            await until(lambda: records.period is StandingsPeriod.ALL and records.loaded)
            shown.append(screen_text(model))
            keys.send_text("\r")
            await until(lambda: records.showing_match)
            shown.append(screen_text(model))
            keys.send_text("\x1b")
            await until(lambda: model.mode is Mode.NORMAL)
            keys.send_text("q")
            await running
    return client, shown


def test_the_standings_screen_shows_the_week_all_time_and_a_final_table(tmp_path: Path) -> None:
    state = tmp_path / "server.sqlite3"
    a_history(state)
    server = ServerChild(["--state", str(state)])
    try:
        host, port = server.start()
        client, (lobby, week, all_time, final) = asyncio.run(look_at_standings(host, port))
    finally:
        server.stop()
    assert "h standings" in lobby
    assert "standings · this week" in week
    # this week: Ann 1 win of 1 match, 210 points; Bob 0 of 1, 5 points; the bot apart
    assert " Ann                          1        1      210" in week
    assert " Bob                          0        1        5" in week
    assert week.index("bots") < week.index("Bot 1")
    assert "won by Ann" in week and "won by Bob" in week  # the latest matches: both
    assert "standings · all time" in all_time
    assert " Bob                          1        2      235" in all_time
    assert "final table" in final and "Friday (table 2)" in final
    assert "★ Ann" in final and "target score 200" in final
    asked = [i for i in client.intents if isinstance(i, TableRequest)]
    assert [i.type for i in asked] == ["get-standings", "list-matches", "get-standings"]
    assert [i.fields.get("period") for i in asked] == ["week", None, "all"]


async def ask_without_history(host: str, port: int) -> str:
    model = Model(name="Tester")

    def network(model: Model, redraw: Callable[[], None]) -> Network:
        return Network(model, redraw, time.monotonic, address=(host, port))

    with create_pipe_input() as keys:
        client = ClientApp(model, network, input=keys, output=DummyOutput())
        changed = asyncio.Event()
        client.app.on_invalidate += lambda _app: changed.set()
        running = asyncio.create_task(client.run())
        async with asyncio.timeout(SECONDS):
            while not (model.screen is Screen.LOBBY and model.records.available):
                changed.clear()
                await changed.wait()
            keys.send_text("h")
            while not model.records.refused:
                changed.clear()
                await changed.wait()
            shown = screen_text(model)
            keys.send_text("\x1b")
            keys.send_text("q")
            await running
    return shown


def test_a_server_without_a_journal_says_it_keeps_no_history() -> None:
    server = ServerChild(["--no-state"])
    try:
        host, port = server.start()
        shown = asyncio.run(ask_without_history(host, port))
    finally:
        server.stop()
    assert "This server keeps no history: it was started" in shown and "--no-state" in shown
    assert "asking the server" not in shown


def test_an_older_server_says_it_has_no_standings(drive) -> None:
    model = Model(name="Tester", connected=True)
    controller, sent = drive(model)
    controller.records.open()
    assert model.mode is Mode.NORMAL and sent == []
    assert model.message_is_error and "keeps no standings" in model.message
