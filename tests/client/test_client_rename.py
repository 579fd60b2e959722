"""A name changed in the lobby (issue 26, item 10; protocol 1.3 ``rename``) against a real
server: the client asks, the server calls it by the new name from then on (the table it
creates seats it so), and a table checks the new name as it checks a hello's."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
from client_server import Watched, running_server

from client.config import default_name, load_config, remember_name
from client.session import connect
from client.ui.controller import Controller
from client.ui.intents import Quit
from client.ui.model import Mode, Model, Screen
from client.ui.network import Network
from protocol.errors import LobbyRejectCode
from protocol.messages import Join, ListTables, Rename, TableList

pytestmark = pytest.mark.e2e


async def test_a_name_changed_in_the_lobby_is_the_one_a_table_seats(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    remember_name("Guest")
    with running_server() as (host, port):
        model = Model(name="Guest")
        watched = Watched()
        network = Network(model, watched.redraw, trio.current_time, address=(host, port))
        keys = Controller(model, network.submit)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(network.run)
            with trio.fail_after(60):
                await watched.until(lambda: model.screen is Screen.LOBBY)
                keys.lobby.start_rename()
                assert model.mode is Mode.RENAME
                keys.type_text("  Zoë the Great  ")  # the spaces around are cut
                keys.submit_text()
                await watched.until(lambda: model.name != "Guest")
                assert model.name == "Zoë the Great" and "You are Zoë" in model.message
                assert default_name() == "Zoë the Great"  # the next start's name, as --name
                assert load_config()["name"] == "Zoë the Great"
                keys.lobby.open_form()
                keys.lobby.submit_form()
                await watched.until(lambda: model.table is not None)
                assert model.table is not None and model.table.seats[0].name == "Zoë the Great"
                table_id = model.table.table_id

            async with connect(host, port, "Ann") as ann:
                # a look-alike of a seated name is taken, as for a hello's name
                renamed = await ann.request(Rename(id=ann.next_id(), name="ZOË THE GREAT"))
                assert renamed.ok
                joined = await ann.request(Join(id=ann.next_id(), table_id=table_id))
                assert not joined.ok and joined.code == LobbyRejectCode.NAME_TAKEN
                again = await ann.request(Rename(id=ann.next_id(), name="Ann"))
                assert again.ok
                assert (await ann.request(Join(id=ann.next_id(), table_id=table_id))).ok
                at_table = await ann.request(Rename(id=ann.next_id(), name="Anna"))
                assert not at_table.ok and at_table.code == LobbyRejectCode.ALREADY_AT_TABLE
                ann.table_list = None
                assert (await ann.request(ListTables(id=ann.next_id()))).ok
                listing = ann.table_list
                assert isinstance(listing, TableList) and listing.tables[0].host == "Zoë the Great"
            network.submit(Quit())
