"""Protocol 1.1's ``left`` against a real server: kicked, the table closed, back in the lobby.

The guest is the client's network side driven by its controller (the keys' intents), on
a locked table: the lobby asks for the password, a wrong one is refused, the right one
seats the guest. The host, a plain session, then kicks the guest and later leaves, which
closes the table under the guest watching it.
"""

from __future__ import annotations

import pytest
import trio
from client_server import Watched, running_server

from client.session import connect
from client.ui.controller import Controller
from client.ui.intents import Quit
from client.ui.model import Mode, Model, Screen
from client.ui.network import Network
from protocol.messages import CreateTable, Kick, Leave, LeftReason
from protocol.options import TableOptions

pytestmark = pytest.mark.e2e


async def test_kicked_and_closed_tables_send_the_client_back_to_the_lobby() -> None:
    with running_server() as (host, port):
        async with connect(host, port, "Host") as hosting:
            created = await hosting.request(
                CreateTable(
                    id=hosting.next_id(),
                    name="Family",
                    options=TableOptions.parse({"seats": 3}),
                    password="pw",
                )
            )
            assert created.ok
            model = Model(name="Guest")
            watched = Watched()
            network = Network(model, watched.redraw, trio.current_time, address=(host, port))
            keys = Controller(model, network.submit)
            async with trio.open_nursery() as nursery:
                nursery.start_soon(network.run)
                with trio.fail_after(60):
                    await watched.until(lambda: any(t.name == "Family" for t in model.tables))
                    assert model.tables[0].locked
                    keys.lobby.join_selected()
                    assert model.mode is Mode.PASSWORD
                    keys.type_text("wrong")
                    keys.submit_text()
                    await watched.until(lambda: model.message_is_error)
                    assert model.message.startswith("cannot join:") and model.screen is Screen.LOBBY

                    keys.lobby.join_selected()
                    keys.type_text("pw")
                    keys.submit_text()
                    await watched.until(lambda: model.screen is Screen.TABLE)
                    assert model.seat == 1 and not model.spectating

                    assert (await hosting.request(Kick(id=hosting.next_id(), seat=1))).ok
                    await watched.until(lambda: model.screen is Screen.LOBBY)
                    assert model.message.endswith("asked you to leave"), model.message
                    assert network.session is not None and network.session.left is not None
                    assert network.session.left.reason is LeftReason.KICKED
                    assert network.session.resume_state() is None

                    keys.lobby.join_selected(spectate=True)
                    keys.type_text("pw")
                    keys.submit_text()
                    await watched.until(lambda: model.screen is Screen.TABLE)
                    assert model.spectating

                    assert (await hosting.request(Leave(id=hosting.next_id()))).ok
                    await watched.until(lambda: model.screen is Screen.LOBBY)
                    assert model.message.startswith("The table closed")
                    assert network.session.left.reason is LeftReason.TABLE_CLOSED
                    await watched.until(lambda: not any(t.name == "Family" for t in model.tables))
                network.submit(Quit())
