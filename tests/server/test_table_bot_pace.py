"""The host sets how fast a table's server bots play (``create-table``'s ``bot_think_ms``):
the bots keep that pace, the table state says it, and a restart keeps it."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing
from test_table_rig import FakePeer, journaled_lobby, ok, open_lobby, play, rigged, settle

from protocol.cards import Card
from protocol.commands import Play
from protocol.errors import ErrorCode, LocalProtocolError, RemoteProtocolError
from protocol.events import Played
from protocol.messages import (
    MAX_BOT_THINK_MS,
    AddBot,
    CreateTable,
    ResumeSeat,
    Sender,
    Start,
    message_from_data,
)
from protocol.options import TableOptions
from server.lobby import Lobby
from server.settings import LobbySettings
from server.table import Table

SLOW_DEFAULT_MS = 60_000
"""The server's own pace in these tests: a bot at it never plays within ``PATIENCE``."""
PATIENCE = 5
"""Seconds of the mock clock a test waits for the bot's move."""


async def paced_table(lobby: Lobby, ann: FakePeer, bot_think_ms: int | None) -> Table:
    """A two-seat table made by Ann with a bot in seat 1, its match started."""
    await ok(
        lobby,
        ann,
        lambda i: CreateTable(
            id=i,
            name="Pace",
            options=TableOptions.parse({"seats": 2, "turn_seconds": 0}),
            bot_think_ms=bot_think_ms,
        ),
    )
    await ok(lobby, ann, lambda i: AddBot(id=i, strategy="basic"))
    await ok(lobby, ann, lambda i: Start(id=i))
    table = lobby.location(ann)
    assert table is not None
    return table


async def the_bot_plays_within_patience(lobby: Lobby, table: Table, ann: FakePeer) -> None:
    """Ann plays, leaving the bot a card to play; wait (mock time) until it played."""
    await settle()
    rigged(table, hands=[["R1", "G2"], ["Y4", "R6", "B7"]], top="R9", current=0)
    await play(lobby, ann, Play(Card.parse("R1")))

    def bot_played() -> bool:
        return any(isinstance(e.body.body, Played) and e.body.body.seat == 1 for e in ann.events)

    with trio.fail_after(PATIENCE):
        await ann.wait_for(bot_played)


async def test_bots_at_a_table_play_at_the_pace_its_host_set(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    lobby = await open_lobby(nursery, bot_think_ms=SLOW_DEFAULT_MS)
    ann = FakePeer("Ann")
    table = await paced_table(lobby, ann, bot_think_ms=300)
    assert ann.state.bot_think_ms == 300
    await the_bot_plays_within_patience(lobby, table, ann)


async def test_a_table_without_a_pace_takes_the_servers(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    lobby = await open_lobby(nursery, bot_think_ms=SLOW_DEFAULT_MS)
    ann = FakePeer("Ann")
    table = await paced_table(lobby, ann, bot_think_ms=None)
    assert ann.state.bot_think_ms == SLOW_DEFAULT_MS
    with pytest.raises(trio.TooSlowError):
        await the_bot_plays_within_patience(lobby, table, ann)


def test_a_pace_out_of_bounds_is_refused_on_construction_and_from_the_wire() -> None:
    with pytest.raises(LocalProtocolError):
        CreateTable(id=1, name="Pace", bot_think_ms=-1)
    with pytest.raises(LocalProtocolError):
        CreateTable(id=1, name="Pace", bot_think_ms=MAX_BOT_THINK_MS + 1)
    wire = {"type": "create-table", "id": 1, "name": "Pace", "bot_think_ms": 10**9}
    with pytest.raises(RemoteProtocolError) as caught:
        message_from_data(wire, Sender.CLIENT, "1.2")
    assert caught.value.code == ErrorCode.BAD_MESSAGE
    wire["bot_think_ms"] = 250
    assert message_from_data(wire, Sender.CLIENT, "1.2") == CreateTable(
        id=1, name="Pace", bot_think_ms=250
    )


async def test_the_pace_survives_a_restart(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    path = tmp_path / "server.sqlite3"
    settings = LobbySettings(seed=1, bot_think_ms=SLOW_DEFAULT_MS)
    async with journaled_lobby(path, settings) as lobby:
        ann = FakePeer("Ann")
        await paced_table(lobby, ann, bot_think_ms=300)
        token = ann.token
        assert token is not None

    async with journaled_lobby(path, settings) as lobby:
        again = FakePeer("Ann")
        await ok(lobby, again, lambda i: ResumeSeat(id=i, token=token, last_seq=0))
        table = lobby.location(again)
        assert table is not None
        assert again.state.bot_think_ms == 300
        await the_bot_plays_within_patience(lobby, table, again)


@pytest.mark.parametrize(
    ("asked", "server_pace", "used"),
    [(0, 0, 250), (None, 0, 250), (100, 800, 250), (None, 800, 800), (400, 0, 400)],
)
async def test_a_guests_table_never_plays_faster_than_the_guest_floor(
    nursery: trio.Nursery,
    autojump_clock: trio.testing.MockClock,
    asked: int | None,
    server_pace: int,
    used: int,
) -> None:
    lobby = await open_lobby(nursery, bot_think_ms=server_pace, guest_bot_think_ms=250)
    guest = FakePeer("Gus", address="10.9.9.9")
    await paced_table(lobby, guest, bot_think_ms=asked)
    assert guest.state.bot_think_ms == used


async def test_the_host_machine_sets_any_pace(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    lobby = await open_lobby(nursery, bot_think_ms=800, guest_bot_think_ms=250)
    for address in ("127.0.0.1", "::1"):
        host = FakePeer("Ann", address=address)
        await paced_table(lobby, host, bot_think_ms=0)
        assert host.state.bot_think_ms == 0
    # Another loopback address is a guest (how the tests play many guests).
    guest = FakePeer("Gus", address="127.0.0.7")
    await paced_table(lobby, guest, bot_think_ms=0)
    assert guest.state.bot_think_ms == 250


async def test_a_guests_floor_holds_after_a_restart(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """A table the journal holds at a pace faster than the floor (made before the floor,
    or under a lower one) is rebuilt at the floor."""
    path = tmp_path / "server.sqlite3"
    async with journaled_lobby(path, LobbySettings(seed=1, guest_bot_think_ms=0)) as lobby:
        guest = FakePeer("Gus", address="10.9.9.9")
        await paced_table(lobby, guest, bot_think_ms=0)
        assert guest.state.bot_think_ms == 0
        token = guest.token
        assert token is not None
    async with journaled_lobby(path, LobbySettings(seed=1, guest_bot_think_ms=250)) as lobby:
        again = FakePeer("Gus", address="10.9.9.9")
        await ok(lobby, again, lambda i: ResumeSeat(id=i, token=token, last_seq=0))
        assert again.state.bot_think_ms == 250
