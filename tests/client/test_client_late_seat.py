"""A late-comer's seat, headless against a real server: the lobby lists a table in play
with its bot seats, Enter watches it, Enter again offers the bots' seats, and the one
chosen is the late-comer's, with the bot's cards."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
import time
from collections.abc import Callable

import pytest
import trio
from client_builders import table_state
from client_server import running_server
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from test_client_headless import Driver
from test_client_render import screen

from client.bots.api import connect_bot
from client.ui.app import ClientApp
from client.ui.intents import TableRequest
from client.ui.model import Mode, Model, Screen, apply_table_state
from client.ui.network import Network, Plan
from protocol.messages import TableStatus, TableSummary

SECONDS = 60


def host_a_table_with_bots(
    host: str, port: int, started: threading.Event, done: threading.Event
) -> None:
    """In a thread of its own: Ann creates a table, seats two server bots and starts; she
    stays connected (her seat has no clock, so the match waits on her turn) until ``done``."""

    async def main() -> None:
        async with connect_bot(host, port, "Ann") as ann:
            await ann.create_table("Late night", {"seats": 3, "turn_seconds": 0})
            await ann.add_bot("easy")
            await ann.add_bot("hard")
            await ann.start()
            started.set()
            await trio.to_thread.run_sync(done.wait, abandon_on_cancel=True)

    trio.run(main)


async def take_a_seat(host: str, port: int, plan: Plan | None = None) -> ClientApp:
    """From the lobby by keys (or, with ``plan``, from ``--table``: watched at once)."""
    model = Model(name="Late")

    def network(model: Model, redraw: Callable[[], None]) -> Network:
        return Network(model, redraw, time.monotonic, address=(host, port), plan=plan)

    with create_pipe_input() as keys:
        client = ClientApp(model, network, input=keys, output=DummyOutput())
        driver = Driver(client, keys)
        running = asyncio.create_task(client.run())
        async with asyncio.timeout(SECONDS):
            if plan is None:
                await driver.until(lambda: model.tables and model.tables[0].bot_seats == 2)
                assert model.tables[0].state is not TableStatus.LOBBY
                driver.press("\r")
            await driver.until(lambda: model.spectating and model.view is not None)
            driver.press("\r")
            await driver.until(lambda: model.mode is Mode.PICK)
            assert model.picker is not None
            assert [label.split(" · ")[0] for _, label in model.picker.options] == [
                "Bot 1 (easy)",
                "Bot 2 (hard)",
            ]
            driver.press("\x1b[C", "\r")  # the second bot
            await driver.until(lambda: model.seat == 2 and not model.spectating and model.hand)
            driver.press("\x03")
            await running
    return client


@pytest.mark.e2e
@pytest.mark.parametrize("by_name", [False, True], ids=["lobby-keys", "table-flag"])
def test_a_late_comer_takes_a_bots_seat_from_the_lobby_by_keys(by_name: bool) -> None:
    started, done = threading.Event(), threading.Event()
    plan = Plan(join="Late night") if by_name else None
    with running_server(["--bot-think-ms", "20"]) as (host, port):
        ann = threading.Thread(target=host_a_table_with_bots, args=(host, port, started, done))
        ann.start()
        try:
            assert started.wait(SECONDS)
            client = asyncio.run(take_a_seat(host, port, plan))
        finally:
            done.set()
            ann.join(SECONDS)
    model = client.model
    requests = [i for i in client.intents if isinstance(i, TableRequest)]
    # --table watches at once (the network's own request, not a key's).
    assert [r.type for r in requests] == [*([] if by_name else ["spectate"]), "take-bot-seat"]
    assert requests[-1].fields["seat"] == 2
    assert model.screen is Screen.TABLE and model.table is not None
    seat = model.table.seats[2]
    assert seat.name == "Late" and not seat.bot
    assert model.view is not None and len(model.hand) == model.view.shared.counts[2]


PLAYING_NO_BOTS = TableSummary(
    table_id="t1", name="Friday", state=TableStatus.PLAYING, seats=2, taken=2
)
LOCKED_WITH_BOTS = TableSummary(
    table_id="t2",
    name="Family",
    state=TableStatus.BETWEEN_ROUNDS,
    seats=3,
    taken=3,
    locked=True,
    bot_seats=1,
)


def test_a_table_in_play_held_by_people_is_not_joined_and_says_why(drive) -> None:
    model = Model(name="Di", connected=True, tables=[PLAYING_NO_BOTS])
    controller, sent = drive(model)
    controller.lobby.join_selected()
    assert sent == [] and model.message_is_error and "s to watch" in model.message
    assert "bot seat" not in "\n".join(screen(model))


def test_a_locked_tables_password_goes_with_the_seat_taken_there(drive) -> None:
    model = Model(name="Di", connected=True, tables=[LOCKED_WITH_BOTS])
    assert "1 bot seat to take" in "\n".join(screen(model))
    controller, sent = drive(model)
    controller.lobby.join_selected()
    controller.type_text("pw")
    controller.submit_text()
    assert sent == [TableRequest("spectate", {"table_id": "t2", "password": "pw"})]
    state = table_state(3, TableStatus.BETWEEN_ROUNDS, bots=(1,))
    apply_table_state(model, dataclasses.replace(state, table_id="t2"), None)
    assert "Enter take a bot's seat" in "\n".join(screen(model))
    assert "You are watching. Enter takes a bot's seat" in "\n".join(screen(model))
    controller.play_selected()
    assert model.mode is Mode.PICK and model.picker is not None
    controller.pick_confirm()
    assert sent[-1] == TableRequest(
        "take-bot-seat", {"table_id": "t2", "seat": 1, "password": "pw"}
    )
