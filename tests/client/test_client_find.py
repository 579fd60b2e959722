"""The find screen: servers found on the LAN, chosen with ↑/↓ and joined with Enter."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import pytest
from client_builders import found_server
from client_server import running_server
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from test_client_headless import ARROW_KEYS, Driver
from test_client_render import screen

from client.ui.app import ClientApp
from client.ui.intents import Connect, Quit
from client.ui.model import Model, Screen, apply_discovered
from client.ui.network import Network

ATTIC = found_server("Attic", "10.0.0.5", protocols=("2.0",), compatible=False)
KITCHEN = found_server("Kitchen", password=True)
DEN = found_server("Den", "2001:db8::7", 9000, tables=1, seats_free=1)


def test_enter_joins_the_chosen_compatible_server(drive) -> None:
    model = Model(name="Ann")
    apply_discovered(model, [KITCHEN, DEN, ATTIC])
    controller, sent = drive(model)
    controller.lobby.find_move(1)
    controller.lobby.join_discovered()
    assert sent == [Connect("2001:db8::7", 9000)]
    assert model.address == "[2001:db8::7]:9000"
    assert not model.message_is_error


def test_an_incompatible_server_is_refused_with_a_reason_not_joined(drive) -> None:
    model = Model(name="Ann")
    apply_discovered(model, [KITCHEN, ATTIC])
    controller, sent = drive(model)
    controller.lobby.find_move(-1)  # wraps round to the last one
    controller.lobby.join_discovered()
    assert sent == []
    assert model.message_is_error
    assert "cannot join Attic" in model.message and "speaks protocol 2.0" in model.message


def test_nothing_found_says_how_to_connect_instead(drive) -> None:
    model = Model(name="Ann")
    controller, sent = drive(model)
    controller.lobby.find_move(1)
    controller.lobby.join_discovered()
    assert sent == [] and "press a" in model.message


def test_the_selection_follows_its_server_as_the_list_changes() -> None:
    model = Model(name="Ann")
    apply_discovered(model, [KITCHEN, DEN])
    model.server_index = 1
    apply_discovered(model, [ATTIC, KITCHEN, DEN])  # a new server sorts in before it
    assert model.chosen_server == DEN
    apply_discovered(model, [ATTIC])  # gone: the selection stays in range
    assert model.chosen_server == ATTIC
    apply_discovered(model, [])
    assert model.chosen_server is None


def test_the_screen_shows_address_name_load_password_and_fit() -> None:
    model = Model(name="Ann", discovery="looking on every interface…")
    apply_discovered(model, [KITCHEN, DEN, ATTIC])
    assert model.screen is Screen.FIND
    lines = screen(model, 120, 30)
    kitchen = next(line for line in lines if "Kitchen" in line)
    assert kitchen.lstrip().startswith("▶")
    assert "192.168.1.20:7531" in kitchen and "2 tables, 3 free" in kitchen
    assert "password" in kitchen
    den = next(line for line in lines if "Den" in line)
    assert "[2001:db8::7]:9000" in den and "1 table, 1 free" in den
    assert "password" not in den
    attic = lines.index(next(line for line in lines if "Attic" in line))
    assert "incompatible: it speaks protocol 2.0" in lines[attic + 1]
    assert any("Enter join" in line for line in lines)


def test_an_empty_list_says_what_discovery_is_doing() -> None:
    model = Model(name="Ann", discovery="mDNS unavailable: no multicast")
    text = "\n".join(screen(model))
    assert "none found: mDNS unavailable: no multicast" in text and "press a" in text


@pytest.mark.e2e
def test_by_keys_an_incompatible_server_is_refused_and_a_found_one_joined() -> None:
    async def find_and_join(host: str, port: int) -> ClientApp:
        model = Model(name="Ann")
        apply_discovered(model, [ATTIC, found_server("Here", host, port)])

        def network(model: Model, redraw: Callable[[], None]) -> Network:
            return Network(model, redraw, time.monotonic)

        with create_pipe_input() as keys:
            client = ClientApp(model, network, input=keys, output=DummyOutput())
            driver = Driver(client, keys)
            running = asyncio.create_task(client.run())
            async with asyncio.timeout(60):
                driver.press("\r")  # Attic speaks protocol 2.0
                await driver.until(lambda: model.message_is_error)
                assert "cannot join Attic" in model.message
                driver.press(ARROW_KEYS["down"], "\r")
                await driver.until(lambda: model.screen is Screen.LOBBY)
                driver.press("q")
                await running
        return client

    with running_server() as (host, port):
        client = asyncio.run(find_and_join(host, port))
    assert client.intents == [Connect(host, port), Quit()]
    assert client.model.address == f"{host}:{port}"
