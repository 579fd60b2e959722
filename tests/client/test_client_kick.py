"""The host's kick (`k`) and ban (`K`): a person chosen (never a bot), a question, and the
`kick` sent only on `y`; against a real server the banned guest cannot come back."""

from __future__ import annotations

import pytest
import trio
from client_builders import table_state
from client_server import Watched, running_server
from test_client_render import screen

from client.session import connect
from client.ui.controller import Controller
from client.ui.intents import Quit, TableRequest
from client.ui.model import Mode, Model, apply_table_state
from client.ui.network import Network, Plan
from protocol.errors import LobbyRejectCode
from protocol.messages import Join, TableStatus
from protocol.options import TableOptions


def hosting(status: TableStatus = TableStatus.LOBBY, bots: tuple[int, ...] = (2,)) -> Model:
    model = Model(name="Ann", connected=True)
    apply_table_state(model, table_state(4, status, bots=bots), 0)
    return model


def test_kick_asks_whom_among_people_then_asks_to_confirm(drive) -> None:
    model = hosting(TableStatus.PLAYING)
    controller, sent = drive(model)
    controller.host.kick()
    assert model.picker is not None and [v for v, _ in model.picker.options] == [1, 3]
    controller.pick_move(1)
    controller.pick_confirm()
    assert model.mode is Mode.CONFIRM and sent == []
    assert "Kick Di? A bot takes their seat. y yes · n no" in "\n".join(screen(model))
    controller.host.confirm(False)
    assert sent == [] and model.mode is Mode.NORMAL and model.picker is None
    controller.host.kick()
    controller.pick_confirm()
    controller.host.confirm(True)
    assert sent == [TableRequest("kick", {"seat": 1})]


def test_ban_with_one_other_person_goes_straight_to_the_question(drive) -> None:
    model = hosting(bots=(2, 3))
    controller, sent = drive(model)
    controller.host.kick(ban=True)
    assert model.mode is Mode.CONFIRM
    assert "Ban Bob? They leave and may not come back" in "\n".join(screen(model))
    controller.cancel()  # Esc: nothing sent
    assert sent == [] and model.mode is Mode.NORMAL
    controller.host.kick(ban=True)
    controller.host.confirm(True)
    assert sent == [TableRequest("kick", {"seat": 1, "ban": True})]
    assert sent[0].to_message(3).to_data()["ban"] is True


def test_a_guest_is_told_only_the_host_bans(drive) -> None:
    model = Model(name="Bob", connected=True)
    apply_table_state(model, table_state(3, TableStatus.LOBBY), 1)
    controller, sent = drive(model)
    controller.host.kick(ban=True)
    assert sent == [] and model.message == "only the host can ban a player"


@pytest.mark.e2e
async def test_the_host_kicks_then_bans_a_guest_by_keys() -> None:
    with running_server() as (host, port):
        model = Model(name="Host")
        watched = Watched()
        plan = Plan(create=True, table_name="Family", options=TableOptions.parse({"seats": 3}))
        network = Network(model, watched.redraw, trio.current_time, (host, port), plan)
        keys = Controller(model, network.submit)
        async with connect(host, port, "Guest") as guest, trio.open_nursery() as nursery:
            nursery.start_soon(network.run)
            with trio.fail_after(60):
                await watched.until(lambda: model.table is not None and model.is_host)
                assert model.table is not None
                table_id = model.table.table_id

                async def guest_joins() -> bool:
                    reply = await guest.request(Join(id=guest.next_id(), table_id=table_id))
                    if reply.ok:
                        await watched.until(
                            lambda: model.table is not None and model.table.seats[1].name
                        )
                    return reply.ok

                def seat_one_empty() -> bool:
                    return model.table is not None and not model.table.seats[1].name

                assert await guest_joins()
                keys.host.kick()
                keys.host.confirm(True)
                await watched.until(
                    lambda: model.table is not None and not model.table.seats[1].name
                )
                assert await guest_joins()  # a kick is not a ban
                keys.host.kick(ban=True)
                keys.host.confirm(True)
                await watched.until(
                    lambda: model.table is not None and not model.table.seats[1].name
                )
                reply = await guest.request(Join(id=guest.next_id(), table_id=table_id))
                assert not reply.ok and reply.code == LobbyRejectCode.BANNED
            network.submit(Quit())
