"""The whole client, headless, while its server is killed with SIGKILL mid-match and
started again on the same port: with the journal it takes its seat back in the same match;
without one (``--no-state``) it says the table is gone and shows the lobby. While the server
is away the table says so, no turn clock runs and a game key says why it sends nothing."""

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
from client.ui.model import Model, Screen
from client.ui.network import Network, Plan
from client.ui.render import render
from protocol.options import TableOptions

pytestmark = pytest.mark.e2e

BOUND_SECONDS = 90
PLAN = Plan(
    create=True, table_name="restart", options=TableOptions.parse({"seats": 2}), bots=1, start=True
)


class Screenful:
    """Waits on the app's redraws; reads the screen as text."""

    def __init__(self, client: ClientApp) -> None:
        self.client = client
        self.model = client.model
        self._changed = asyncio.Event()
        client.app.on_invalidate += lambda _app: self._changed.set()

    async def until(self, condition: Callable[[], object]) -> None:
        while not condition():
            self._changed.clear()
            await self._changed.wait()

    def text(self) -> str:
        fragments = render(self.model, 100, 30, time.monotonic())
        return "".join(fragment[1] for fragment in fragments)


def _settled(network: Network, lost: object) -> bool:
    """Back in the lobby, or a fresh view of the match (not the pause of the restart)."""
    session = network.session
    if session is None or session is lost:
        return False
    return network.model.table is None or (
        session.view is not None and session.view.shared.phase != "paused"
    )


def _server_flags(state: Path | None) -> list[str]:
    journal = ["--state", str(state)] if state is not None else ["--no-state"]
    return [*journal, "--bot-think-ms", "20", "--seed", "5"]


async def _kill_and_restart(server: ServerChild, restart_flags: list[str]) -> tuple[Model, str]:
    """Seat the client in a running match, kill the server, check the screen while it is
    away, start it again on the same port; return the model once the client settled."""
    host, port = await asyncio.to_thread(server.start)
    model = Model(name="Tester")

    def network(model: Model, redraw: Callable[[], None]) -> Network:
        return Network(model, redraw, time.monotonic, address=(host, port), plan=PLAN)

    with create_pipe_input() as keys:
        client = ClientApp(model, network, input=keys, output=DummyOutput())
        screen = Screenful(client)
        running = asyncio.create_task(client.run())
        async with asyncio.timeout(BOUND_SECONDS):
            await screen.until(lambda: model.view is not None and model.table is not None)
            assert model.table is not None
            table_id = model.table.table_id
            await asyncio.to_thread(server.kill)
            await screen.until(lambda: not model.connected)
            assert model.screen is Screen.TABLE  # the table stays in view, not frozen
            shown = screen.text()
            assert "THE SERVER IS AWAY" in shown and "⏱" not in shown, shown
            keys.send_text("d")
            await screen.until(lambda: "the server is away" in model.shown_message)
            assert model.message_is_error
            sent = len(client.intents)
            await asyncio.to_thread(server.start, [*restart_flags, "--port", str(port)])
            lost = client.network.session
            await screen.until(lambda: model.connected and _settled(client.network, lost))
            assert len(client.intents) == sent  # the refused key was never queued
            keys.send_text("\x03")
            await running
    return model, table_id


def test_with_the_journal_the_client_is_back_in_the_same_match(tmp_path: Path) -> None:
    flags = _server_flags(tmp_path / "server.sqlite3")
    server = ServerChild(flags)
    try:
        model, table_id = asyncio.run(_kill_and_restart(server, flags))
    finally:
        server.stop()
    assert model.screen is Screen.TABLE
    assert model.table is not None and model.table.table_id == table_id
    assert model.seat == 0 and model.view is not None and model.hand
    assert model.shown_message == "Reconnected: your seat is back"


def test_without_the_journal_the_client_says_so_in_the_lobby(tmp_path: Path) -> None:
    server = ServerChild(_server_flags(tmp_path / "server.sqlite3"))
    try:
        model, _ = asyncio.run(_kill_and_restart(server, _server_flags(None)))
    finally:
        server.stop()
    assert model.screen is Screen.LOBBY and model.table is None
    assert "without your table" in model.shown_message and model.message_is_error
