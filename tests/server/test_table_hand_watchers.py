"""At a teaching table, the mark of who watched with every hand showing follows the person
(server.table.hand_watchers): their address and every name that reads like theirs, as a
ban does; the server's own machine by name alone. The same over real sockets, with a
rename, is tests/e2e/test_spectators_see_hands.py."""

from __future__ import annotations

from collections.abc import Callable

import trio
from test_table_rig import FakePeer, create, ok, open_lobby, refused, settle

from protocol.errors import LobbyRejectCode
from protocol.messages import AddBot, Leave, Spectate, Start, TakeBotSeat
from server.lobby import Lobby
from server.table import Table

GUEST = "192.168.1.30"
"""A guest's machine on the LAN (not the server's own)."""


async def teaching(nursery: trio.Nursery) -> tuple[Lobby, Table]:
    lobby = await open_lobby(nursery, bot_think_ms=60_000)
    ann = FakePeer("Ann")
    table = await create(lobby, ann, seats=2, turn_seconds=0, spectators_see_hands=True)
    await ok(lobby, ann, lambda i: AddBot(id=i, strategy="basic"))
    await ok(lobby, ann, lambda i: Start(id=i))
    await settle()
    return lobby, table


async def watched_and_left(lobby: Lobby, table: Table, name: str, address: str) -> None:
    pupil = FakePeer(name, address=address)
    await ok(lobby, pupil, lambda i: Spectate(id=i, table_id=table.table_id))
    await ok(lobby, pupil, lambda i: Leave(id=i))
    await settle()


def take_seat(table: Table) -> Callable[[int], TakeBotSeat]:
    return lambda i: TakeBotSeat(id=i, table_id=table.table_id, seat=1)


async def test_another_name_from_the_same_machine_is_refused(nursery: trio.Nursery) -> None:
    lobby, table = await teaching(nursery)
    await watched_and_left(lobby, table, "Pupil", GUEST)
    renamed = FakePeer("Zed", address=GUEST)
    assert await refused(lobby, renamed, take_seat(table)) == LobbyRejectCode.WATCHED_HANDS


async def test_a_look_alike_name_from_another_machine_is_refused(nursery: trio.Nursery) -> None:
    lobby, table = await teaching(nursery)
    await watched_and_left(lobby, table, "Pupil", GUEST)
    alike = FakePeer("pupil.", address="192.168.1.31")
    assert await refused(lobby, alike, take_seat(table)) == LobbyRejectCode.WATCHED_HANDS


async def test_the_servers_own_machine_is_marked_by_name_alone(nursery: trio.Nursery) -> None:
    lobby, table = await teaching(nursery)
    await watched_and_left(lobby, table, "Kid", "127.0.0.1")
    kid = FakePeer("Kid", address="127.0.0.1")
    assert await refused(lobby, kid, take_seat(table)) == LobbyRejectCode.WATCHED_HANDS
    # Everyone at the server's computer shares its address: another name there may sit.
    await ok(lobby, FakePeer("Mum", address="127.0.0.1"), take_seat(table))
