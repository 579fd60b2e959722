"""The network side alone (no screen): a lost connection is resumed with the seat's token."""

from __future__ import annotations

import pytest
import trio
from client_server import Watched, running_server

from client.ui.intents import Quit, TableRequest
from client.ui.model import Model
from client.ui.network import Network, Plan
from protocol.options import TableOptions

pytestmark = pytest.mark.e2e


async def test_a_lost_connection_is_resumed_with_the_token() -> None:
    plan = Plan(
        create=True,
        table_name="resume",
        options=TableOptions.parse({"seats": 2}),
        bots=1,
        start=True,
    )
    with running_server(["--bot-think-ms", "20"]) as (host, port):
        model = Model(name="Tester")
        watched = Watched()
        network = Network(model, watched.redraw, trio.current_time, address=(host, port), plan=plan)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(network.run)
            with trio.fail_after(60):
                await watched.until(lambda: model.view is not None)
                first = network.session
                assert first is not None and first.resume_token is not None
                seat = model.seat
                await first.abort()
                await watched.until(lambda: not model.connected)
                assert "connection lost" in model.status
                await watched.until(
                    lambda: (
                        network.session is not first
                        and model.connected
                        and network.session is not None
                        and network.session.view is not None
                    )
                )
            second = network.session
            assert second is not None and second.welcome is not None
            assert second.welcome.resumed
            assert second.resume_token == first.resume_token
            assert model.seat == seat and model.table is not None
            network.submit(TableRequest("chat", {"text": "back again"}))
            with trio.fail_after(30):
                await watched.until(lambda: any("back again" in line for line in model.chat))
            network.submit(Quit())
