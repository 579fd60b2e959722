"""The new-table form: it sends only the options the person changed (the rest are the
server's defaults), seats bots of a chosen level, scrolls on a small terminal; the seat
list shows each bot's level."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Callable

import pytest
from client_builders import engine_view, model_with
from client_server import running_server
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from test_client_headless import Driver
from test_client_render import screen

from client.bots.strategies import LEVELS
from client.ui.app import ClientApp
from client.ui.intents import TableRequest
from client.ui.model import Mode, Model, Screen
from client.ui.network import Network
from client.ui.table_form import LEVEL_CHOICES, form_rows
from protocol.messages import SeatInfo

DOWN, RIGHT, LEFT = "\x1b[B", "\x1b[C", "\x1b[D"


def lobby() -> Model:
    return Model(name="Ann", connected=True, server_name="Kitchen")


def test_the_form_offers_every_bot_level() -> None:
    assert sorted(LEVEL_CHOICES) == sorted(LEVELS)


def test_untouched_options_are_not_sent_and_a_changed_one_is(drive) -> None:
    model = lobby()
    controller, sent = drive(model)
    controller.lobby.open_form()
    assert "server's default (usually 60)" in "\n".join(screen(model, 100, 40))
    model.form_index = form_rows().index("target_score")
    controller.lobby.form_change(1)
    controller.lobby.form_change(-1)  # back to 500: still the person's choice
    model.form_index = form_rows().index("skip_any")
    controller.lobby.form_change(1)
    controller.lobby.submit_form()
    assert isinstance(sent[0], TableRequest)
    assert sent[0].fields["options"] == {"target_score": 500, "skip_any": True}
    assert sent[0].then == ()


def test_the_forms_bots_of_a_level_follow_the_new_table(drive) -> None:
    model = lobby()
    controller, sent = drive(model)
    controller.lobby.open_form()
    model.form_index = form_rows().index("bots")
    controller.lobby.form_change(1)
    controller.lobby.form_change(1)
    model.form_index = form_rows().index("bot_level")
    controller.lobby.form_change(-1)
    assert "bot level              easy" in "\n".join(screen(model, 100, 40))
    controller.lobby.submit_form()
    [create] = sent
    assert isinstance(create, TableRequest) and create.type == "create-table"
    assert create.then == (TableRequest("add-bot", {"strategy": "easy"}),) * 2
    assert create.then[0].to_message(2).to_data()["strategy"] == "easy"


def test_the_bot_speed_is_sent_only_once_the_person_sets_it(drive) -> None:
    model = lobby()
    controller, sent = drive(model)
    controller.lobby.open_form()
    controller.lobby.submit_form()
    assert "bot_think_ms" not in sent[-1].fields  # untouched: the server's --bot-think-ms
    controller.lobby.open_form()
    model.form_index = form_rows().index("bot_speed")
    assert "bot speed              server's default" in "\n".join(screen(model, 100, 40))
    controller.lobby.form_change(-1)
    controller.lobby.form_change(-1)
    assert "bot speed              600 ms a move" in "\n".join(screen(model, 100, 40))
    controller.lobby.submit_form()
    create = sent[-1]
    assert isinstance(create, TableRequest) and create.fields["bot_think_ms"] == 600
    assert create.to_message(3).to_data()["bot_think_ms"] == 600


def test_the_bot_speed_stays_within_what_the_protocol_allows(drive) -> None:
    model = lobby()
    controller, _sent = drive(model)
    controller.lobby.open_form()
    model.form_index = form_rows().index("bot_speed")
    for _ in range(20):
        controller.lobby.form_change(-1)
    assert model.form["bot_speed"] == 0


def test_bots_that_leave_no_seat_are_refused_locally(drive) -> None:
    model = lobby()
    controller, sent = drive(model)
    controller.lobby.open_form()
    model.form["bots"] = 2
    model.form["seats"] = 2
    controller.lobby.submit_form()
    assert sent == [] and model.mode is Mode.CREATE and "no seat of 2" in model.message


def test_the_form_scrolls_to_the_selected_row_on_a_small_terminal(drive) -> None:
    model = lobby()
    controller, _sent = drive(model)
    controller.lobby.open_form()
    controller.lobby.form_move(-1)  # wraps to the last row
    lines = screen(model, 60, 20)
    assert any("spectators see hands" in line and "▶" in line for line in lines)
    assert "Enter create" in lines[-1]
    controller.lobby.form_move(1)
    lines = screen(model, 60, 20)
    assert any("▶ name" in line for line in lines) and any("more below" in line for line in lines)
    assert "Enter create" in lines[-1]


def test_the_seat_list_shows_each_bots_level() -> None:
    model = model_with(engine_view())
    assert model.table is not None
    seats = list(model.table.seats)
    seats[1] = SeatInfo(seat=1, name="Bot 1", bot=True, level="hard")
    model.table = dataclasses.replace(model.table, seats=tuple(seats))
    assert any("Bot 1" in line and "bot · hard" in line for line in screen(model))


async def create_by_form(host: str, port: int) -> Model:
    model = Model(name="Ann")

    def network(model: Model, redraw: Callable[[], None]) -> Network:
        return Network(model, redraw, time.monotonic, address=(host, port))

    with create_pipe_input() as keys:
        client = ClientApp(model, network, input=keys, output=DummyOutput())
        driver = Driver(client, keys)
        running = asyncio.create_task(client.run())
        async with asyncio.timeout(60):
            await driver.until(lambda: model.screen is Screen.LOBBY)
            driver.press("n")
            await driver.until(lambda: model.mode is Mode.CREATE)
            to_bots = form_rows().index("bots")
            driver.press(*[DOWN] * to_bots, RIGHT, RIGHT, DOWN, RIGHT, "\r")  # 2 hard bots
            await driver.until(
                lambda: model.table is not None and sum(s.bot for s in model.table.seats) == 2
            )
            driver.press("\x03")
            await running
    return model


@pytest.mark.e2e
def test_a_form_table_keeps_the_servers_defaults_and_seats_its_bots() -> None:
    with running_server(["--turn-seconds", "25", "--bot-think-ms", "20"]) as (host, port):
        model = asyncio.run(create_by_form(host, port))
    assert model.table is not None
    assert model.table.options.turn_seconds == 25
    assert model.table.bot_think_ms == 20  # the bot speed left alone: the server's
    assert [seat.level for seat in model.table.seats if seat.bot] == ["hard", "hard"]
