"""The keys and words of a kept seat and of a ``--serve`` server that stopped, through the
real application (pipe input, dummy output) and the renderer, no server: Enter on the
lobby's kept seat asks for it back; R asks for the server again only while it is down."""

from __future__ import annotations

import asyncio
import time

from test_client_keys import press_and_watch

from client.ui.intents import RestartServer, TableRequest, TakeBackSeat
from client.ui.model import Model, apply_table_list
from client.ui.render import render
from protocol.messages import TableStatus, TableSummary

FRIDAY = TableSummary(
    table_id="t7", name="Friday", state=TableStatus.OVER, seats=4, taken=2, host="Ann"
)
PLAIN = TableSummary(table_id="t8", name="Plain", state=TableStatus.LOBBY, seats=4, taken=1)


def lobby(kept: str | None) -> Model:
    model = Model(name="Tester", connected=True)
    apply_table_list(model, [FRIDAY, PLAIN])
    model.kept_seat = kept
    return model


def text(model: Model) -> str:
    return "".join(fragment[1] for fragment in render(model, 100, 30, time.monotonic()))


def test_enter_on_the_kept_seat_takes_it_back_and_on_another_table_joins() -> None:
    model = lobby("t7")
    shown = text(model)
    assert "Your seat at Ann's table is kept for you." in shown
    assert "your seat: Enter takes it back" in shown
    client = asyncio.run(press_and_watch(model, [("\r", lambda c: bool(c.intents))]))
    assert client.intents[0] == TakeBackSeat("t7")
    model = lobby("t7")
    client = asyncio.run(press_and_watch(model, [("j\r", lambda c: bool(c.intents))]))
    assert client.intents[0] == TableRequest("join", {"table_id": "t8"})
    assert "your seat" not in text(lobby(None)).lower()


def test_r_restarts_the_served_server_only_while_it_is_down() -> None:
    model = lobby(None)
    model.connected = False
    client = asyncio.run(press_and_watch(model, [("R?", lambda c: c.model.mode.name == "HELP")]))
    assert not any(isinstance(intent, RestartServer) for intent in client.intents)
    model = lobby(None)
    model.connected = False
    model.server_down = "the server stopped (killed by SIGKILL)"
    assert "the server stopped (killed by SIGKILL): R start it again" in text(model)
    client = asyncio.run(press_and_watch(model, [("R", lambda c: bool(c.intents))]))
    assert client.intents[0] == RestartServer()
    assert model.shown_message == "starting your server again…"
