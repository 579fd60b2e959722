"""The host closes a table its server rebuilt after a restart, from the whole client,
headless: a real uno-server (with its journal) and a real ``uno-bot`` seated as a second
person are killed with SIGKILL mid-match; the server starts again on the same port and
file, the host's client resumes and, while the table waits for the other person, offers
``C`` to close it, asks first, and is back in the lobby once the server closed it."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from client_builders import table_state
from client_server import ServerChild
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from test_client_restart import Screenful

from client.ui.app import ClientApp
from client.ui.hints import keys_hint
from client.ui.host_controller import can_close_rebuilt
from client.ui.intents import TableRequest
from client.ui.model import Mode, Model, Screen, apply_table_state
from client.ui.network import Network, Plan
from protocol.messages import CloseTable, TableStatus
from protocol.options import TableOptions

BOUND_SECONDS = 60
PLAN = Plan(
    create=True, table_name="rebuilt", options=TableOptions.parse({"seats": 2, "turn_seconds": 0})
)


def _person_bot(host: str, port: int) -> subprocess.Popen[bytes]:
    """One ``uno-bot`` that joins the table by name: a person, as far as the server knows."""
    command = [sys.executable, "-m", "client.bots", "--server", f"{host}:{port}"]
    command += ["--table", "rebuilt", "--bots", "1", "--name", "Bob", "--think-ms", "20", "40"]
    command += ["--timeout", str(BOUND_SECONDS)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


async def _close_after_restart(server: ServerChild, flags: list[str]) -> Model:
    host, port = await asyncio.to_thread(server.start)
    model = Model(name="Ann")

    def network(model: Model, redraw: Callable[[], None]) -> Network:
        return Network(model, redraw, time.monotonic, address=(host, port), plan=PLAN)

    bob: subprocess.Popen[bytes] | None = None
    with create_pipe_input() as keys:
        client = ClientApp(model, network, input=keys, output=DummyOutput())
        screen = Screenful(client)
        running = asyncio.create_task(client.run())
        try:
            async with asyncio.timeout(BOUND_SECONDS):
                await screen.until(lambda: model.table is not None)
                bob = _person_bot(host, port)
                await screen.until(
                    lambda: model.table is not None and model.table.seats[1].name is not None
                )
                keys.send_text("s")
                await screen.until(lambda: model.view is not None)
                keys.send_text("C")  # not rebuilt: nothing to close
                await screen.until(lambda: "rebuilt after a restart" in model.shown_message)
                assert model.mode is Mode.NORMAL and "C close" not in keys_hint(model)

                bob.kill()
                await asyncio.to_thread(bob.wait)
                await asyncio.to_thread(server.kill)
                await screen.until(lambda: not model.connected)
                await asyncio.to_thread(server.start, [*flags, "--port", str(port)])
                await screen.until(
                    lambda: (
                        model.connected
                        and model.table is not None
                        and model.table.state is TableStatus.PAUSED
                        and model.rebuilt_table is not None
                    )
                )
                assert "C close the table" in keys_hint(model)  # Bob is not back: it waits
                keys.send_text("C")
                await screen.until(lambda: model.mode is Mode.CONFIRM)
                assert "Close this table" in screen.text()
                keys.send_text("n")  # no: it stays
                await screen.until(lambda: model.mode is Mode.NORMAL)
                assert model.table is not None
                keys.send_text("C")
                await screen.until(lambda: model.mode is Mode.CONFIRM)
                keys.send_text("y")
                await screen.until(lambda: model.table is None)
                # The lobby's list refreshes after the left: wait for one without the table
                # (a list fetched before the close may still be on the screen).
                await screen.until(
                    lambda: (
                        model.screen is Screen.LOBBY
                        and all(table.name != "rebuilt" for table in model.tables)
                    )
                )
                keys.send_text("\x03")
                await running
        finally:
            if bob is not None and bob.poll() is None:
                bob.kill()
                bob.wait()
    return model


def at_table(status: TableStatus, seat: int = 0, rebuilt: bool = True) -> Model:
    model = Model(name="Ann", connected=True)
    apply_table_state(model, table_state(2, status), seat)
    model.rebuilt_table = "t1" if rebuilt else None
    return model


def test_only_the_host_of_a_rebuilt_table_still_waiting_may_close_it() -> None:
    assert can_close_rebuilt(at_table(TableStatus.PAUSED))
    assert not can_close_rebuilt(at_table(TableStatus.PAUSED, seat=1))  # a guest
    assert not can_close_rebuilt(at_table(TableStatus.PAUSED, rebuilt=False))  # paused by hand
    assert not can_close_rebuilt(at_table(TableStatus.PLAYING))  # it plays on


def test_close_asks_first_and_sends_close_table_only_on_yes(drive) -> None:
    model = at_table(TableStatus.PAUSED)
    controller, sent = drive(model)
    controller.host.close_rebuilt()
    assert model.mode is Mode.CONFIRM and sent == []
    controller.host.confirm(False)
    assert sent == [] and model.mode is Mode.NORMAL
    controller.host.close_rebuilt()
    controller.host.confirm(True)
    assert sent == [TableRequest(CloseTable.TYPE)]
    guest = at_table(TableStatus.PAUSED, seat=1)
    controller, sent = drive(guest)
    controller.host.close_rebuilt()
    assert sent == [] and "only the host" in guest.message


@pytest.mark.e2e
def test_the_host_closes_a_rebuilt_table_instead_of_resuming_it(tmp_path: Path) -> None:
    flags = ["--state", str(tmp_path / "server.sqlite3"), "--restart-grace", "60"]
    flags += ["--bot-think-ms", "20", "--seed", "5"]
    server = ServerChild(flags)
    try:
        model = asyncio.run(_close_after_restart(server, flags))
    finally:
        server.stop()
    assert model.screen is Screen.LOBBY
    assert model.shown_message == "The table closed"
    assert all(table.name != "rebuilt" for table in model.tables)
