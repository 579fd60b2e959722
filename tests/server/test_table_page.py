"""What docs/protocol.md states about a table's seats, each test named after one statement
of the page: what ``start`` needs, the scope of ``name-taken``, to whom the host role
passes, what a seat looks like after its person left, was kicked or lost the connection,
and which lobby rejection wins when a request breaks several rules."""

from __future__ import annotations

from functools import partial
from typing import Any

import trio
from test_table_rig import FakePeer, create, ok, open_lobby, refused, settle

from protocol.messages import (
    AddBot,
    Join,
    Joined,
    Kick,
    Leave,
    ResumeSeat,
    Spectate,
    Start,
    TableState,
)
from server.lobby import Lobby
from server.table import Table


def shown(state: TableState) -> list[tuple[str | None, bool, bool]]:
    """Each seat as the page describes it: name, bot, away."""
    return [(seat.name, seat.bot, seat.away) for seat in state.seats]


async def seated(lobby: Lobby, table: Table, *names: str) -> list[FakePeer]:
    peers = [FakePeer(name) for name in names]
    for peer in peers:
        await ok(lobby, peer, lambda i: Join(id=i, table_id=table.table_id))
    return peers


async def test_start_needs_two_seats_taken_not_ready_and_drops_the_empty_chairs(
    nursery: trio.Nursery,
) -> None:
    lobby = await open_lobby(nursery)
    ann, bob = FakePeer("Ann"), FakePeer("Bob")
    table = await create(lobby, ann, seats=4, turn_seconds=0)
    assert await refused(lobby, ann, lambda i: Start(id=i)) == "not-enough-players"
    await ok(lobby, bob, lambda i: Join(id=i, table_id=table.table_id, seat=3))
    assert not any(seat.ready for seat in ann.state.seats)
    await ok(lobby, ann, lambda i: Start(id=i))
    assert bob.last(Joined).seat == 1  # moved down into the gap, told by a new joined
    assert ann.state.options.seats == 2
    assert [seat.seat for seat in ann.state.seats] == [0, 1]


async def test_start_counts_bots_as_taken_seats(nursery: trio.Nursery) -> None:
    lobby = await open_lobby(nursery)
    ann = FakePeer("Ann")
    await create(lobby, ann, seats=3, turn_seconds=0)
    await ok(lobby, ann, lambda i: AddBot(id=i, strategy="basic"))
    await ok(lobby, ann, lambda i: Start(id=i))
    assert ann.state.state == "playing"


async def test_name_taken_is_per_table_against_seats_and_bots_not_spectators(
    nursery: trio.Nursery,
) -> None:
    lobby = await open_lobby(nursery)
    dan = FakePeer("Dan")
    table = await create(lobby, FakePeer("Ann"), seats=4)
    other = await create(lobby, dan, seats=4)
    await ok(lobby, FakePeer("Ann"), lambda i: Spectate(id=i, table_id=table.table_id))
    wide = FakePeer("\uff21\uff2e\uff2e")  # ANN in fullwidth letters
    assert await refused(lobby, wide, lambda i: Join(id=i, table_id=table.table_id)) == "name-taken"
    await ok(lobby, FakePeer("Ann"), lambda i: Join(id=i, table_id=other.table_id))
    await ok(lobby, dan, lambda i: AddBot(id=i, strategy="basic"))
    # The spectator Ann does not hold the name; a bot's does.
    joiner = FakePeer("Bot 1")
    assert await refused(lobby, joiner, lambda i: Join(id=i, table_id=other.table_id)) == (
        "name-taken"
    )


async def test_the_host_role_passes_to_the_next_connected_person_in_seat_order(
    nursery: trio.Nursery,
) -> None:
    lobby = await open_lobby(nursery)
    ann = FakePeer("Ann")
    table = await create(lobby, ann, seats=4)
    bob, cat, dan = await seated(lobby, table, "Bob", "Cat", "Dan")
    lobby.disconnected(bob)
    await ok(lobby, ann, lambda i: Leave(id=i))
    await settle()
    assert cat.state.host_seat == 2  # Bob, next in order, is not connected
    assert cat.state.owner_seat == 2  # the owner left: handed on for good
    lobby.disconnected(cat)  # an owner whose connection is lost lends it on
    await settle()
    assert dan.state.host_seat == 3
    await ok(lobby, dan, lambda i: Leave(id=i))
    await settle()
    # Nobody is connected: the owner, away, holds it.
    assert table.seating.host == 2


async def test_the_host_role_passes_to_a_person_who_comes_back_while_the_host_is_gone(
    nursery: trio.Nursery,
) -> None:
    lobby = await open_lobby(nursery)
    ann = FakePeer("Ann")
    table = await create(lobby, ann, seats=3)
    bob, cat = await seated(lobby, table, "Bob", "Cat")
    lobby.disconnected(bob)
    lobby.disconnected(ann)
    await settle()
    assert cat.state.host_seat == 2
    lobby.disconnected(cat)
    await settle()
    assert table.seating.host == 0  # nobody connected: the owner, away, holds it
    back = FakePeer("Bob")
    await ok(lobby, back, lambda i: ResumeSeat(id=i, token=bob.token or "", last_seq=0))
    assert back.state.host_seat == 1  # lent to the first person back


async def test_a_seat_left_or_kicked_in_a_match_is_a_bot_and_a_lost_one_is_away(
    nursery: trio.Nursery,
) -> None:
    lobby = await open_lobby(nursery)
    ann = FakePeer("Ann")
    table = await create(lobby, ann, seats=4, turn_seconds=0)
    _, cat, dan = await seated(lobby, table, "Bob", "Cat", "Dan")
    await ok(lobby, ann, lambda i: Kick(id=i, seat=3))
    assert shown(ann.state)[3] == (None, False, False)  # before the match: an empty chair
    await ok(lobby, dan, lambda i: Join(id=i, table_id=table.table_id))
    await ok(lobby, ann, lambda i: Start(id=i))
    await ok(lobby, ann, lambda i: Kick(id=i, seat=1))
    await ok(lobby, cat, lambda i: Leave(id=i))
    lobby.disconnected(dan)
    await settle()
    assert shown(ann.state) == [
        ("Ann", False, False),
        ("Bot 1", True, False),
        ("Bot 2", True, False),
        ("Dan", False, True),
    ]


async def test_precedence_of_a_join_password_then_seat_then_name(nursery: trio.Nursery) -> None:
    lobby = await open_lobby(nursery)
    table = await create(lobby, FakePeer("Ann"), password="pw", seats=2)

    async def join(name: str, **fields: Any) -> str:
        return await refused(
            lobby, FakePeer(name), partial(Join, table_id=table.table_id, **fields)
        )

    assert await join("Ann", seat=0) == "wrong-password"
    assert await join("Ann", seat=0, password="pw") == "seat-taken"
    await ok(lobby, FakePeer("Bob"), partial(Join, table_id=table.table_id, password="pw"))
    assert await join("Ann", password="pw") == "table-full"


async def test_precedence_the_lobby_answers_before_the_table(nursery: trio.Nursery) -> None:
    lobby = await open_lobby(nursery)
    ann = FakePeer("Ann")
    await create(lobby, ann, seats=2)
    other = await create(lobby, FakePeer("Bob"), password="pw", seats=2)
    assert await refused(lobby, ann, partial(Join, table_id="404")) == "table-not-found"
    # At another table: refused before the table would look at the password.
    assert await refused(lobby, ann, partial(Join, table_id=other.table_id)) == ("already-at-table")
    assert await refused(lobby, FakePeer("Cat"), partial(Start)) == "not-at-table"
