"""A seat kept on this machine, from the whole client (headless) against a real
``uno-server``: a client that ends while its table waits for its match (the match has not
begun, or is over) finds the seat offered in the lobby at its next start, "your seat at
Ann's table", and Enter takes it back; a seat whose table is gone is forgotten."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import trio
from client_server import running_server
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from test_client_restart import Screenful

from client.kept_seats import KeptSeat, SeatClaim
from client.session import connect
from client.ui.app import ClientApp
from client.ui.model import Model, Screen
from client.ui.network import Network, Plan
from protocol.messages import CreateTable

pytestmark = pytest.mark.e2e

BOUND_SECONDS = 60


Condition = Callable[[Model], object]


async def _run_client(
    address: tuple[str, int], plan: Plan, until: Condition, after_enter: Condition | None = None
) -> tuple[Model, str]:
    """One run of the client as Tester: until ``until`` holds; then, with ``after_enter``,
    Enter and until that holds; then Ctrl-C. The model, and the screen's text when
    ``until`` held."""
    model = Model(name="Tester")

    def network(model: Model, redraw: Callable[[], None]) -> Network:
        return Network(model, redraw, time.monotonic, address=address, plan=plan)

    with create_pipe_input() as keys:
        client = ClientApp(model, network, input=keys, output=DummyOutput())
        screen = Screenful(client)
        running = asyncio.create_task(client.run())
        async with asyncio.timeout(BOUND_SECONDS):
            await screen.until(lambda: until(model))
            text = screen.text()
            if after_enter is not None:
                keys.send_text("\r")
                await screen.until(lambda: after_enter(model))
            keys.send_text("\x03")
            await running
    return model, text


def _seated(model: Model) -> bool:
    return model.table is not None and model.seat is not None


def _offered(model: Model) -> bool:
    return model.kept_seat is not None


class AnnHosts:
    """Ann, over the protocol, in a thread of her own: her table (Friday) waits for its
    match while the block runs. ``server_id`` is the server's id, from her welcome."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.server_id = ""
        self._ready = threading.Event()
        self._done = threading.Event()
        self._thread = threading.Thread(target=trio.run, args=(self._sit,), daemon=True)

    def __enter__(self) -> AnnHosts:
        self._thread.start()
        assert self._ready.wait(BOUND_SECONDS), "Ann's table was not made"
        return self

    def __exit__(self, *_exc: object) -> None:
        self._done.set()
        self._thread.join(BOUND_SECONDS)

    async def _sit(self) -> None:
        with trio.fail_after(BOUND_SECONDS * 3):
            async with connect("127.0.0.1", self.port, "Ann") as ann:
                assert ann.welcome is not None
                self.server_id = ann.welcome.server_id
                await ann.request(CreateTable(id=ann.next_id(), name="Friday"))
                await ann.wait_for(lambda s: s.seat is not None)
                self._ready.set()
                while not self._done.is_set():
                    await trio.sleep(0.1)


def _client(
    address: tuple[str, int], plan: Plan, until: Condition, after: Condition | None = None
) -> tuple[Model, str]:
    return asyncio.run(_run_client(address, plan, until, after))


def test_a_seat_at_a_table_waiting_for_its_match_is_offered_then_taken_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    with running_server() as address, AnnHosts(address[1]):
        first, _ = _client(address, Plan(join="Friday"), _seated)
        again, text = _client(address, Plan(), _offered, _seated)
    assert "Your seat at Ann's table is kept for you." in text
    assert "your seat: Enter takes it back" in text
    assert again.screen is Screen.TABLE and again.seat == first.seat
    assert again.table is not None and again.table.name == "Friday"


def test_a_dead_token_and_a_seat_whose_table_is_gone_are_forgotten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    with running_server() as address, AnnHosts(address[1]) as ann:
        claim = SeatClaim.claim(ann.server_id, "Tester")
        assert claim is not None
        claim.keep(KeptSeat("no-such-token", "1"))  # Ann's table; a token it never gave
        claim.release()
        refused, _ = _client(
            address, Plan(), _offered, lambda m: "kept from last time is gone" in m.shown_message
        )
        claim = SeatClaim.claim(ann.server_id, "Tester")
        assert claim is not None and claim.kept() is None
        claim.keep(KeptSeat("no-such-token", "999"))  # a table the server does not have
        claim.release()
        gone, _ = _client(address, Plan(), lambda m: m.screen is Screen.LOBBY and m.tables)
        claim = SeatClaim.claim(ann.server_id, "Tester")
        assert claim is not None and claim.kept() is None
    assert refused.table is None and refused.kept_seat is None
    assert gone.kept_seat is None
