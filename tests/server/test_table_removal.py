"""Everyone at a table hears a kick or a ban (issue 26, item 7): the table state that
follows names the seat the host removed (``removed_seat``, 1.3), once; a peer of an older
version is sent the state without it."""

from __future__ import annotations

import trio
from test_table_rig import FakePeer, create, ok, open_lobby

from protocol.compat import for_version
from protocol.messages import AddBot, Join, Kick, ListTables, Start, TableList, TableState


async def test_the_others_hear_who_was_kicked_and_who_was_banned(nursery: trio.Nursery) -> None:
    lobby = await open_lobby(nursery)
    ann, bob, eve = FakePeer("Ann"), FakePeer("Bob"), FakePeer("Eve", address="10.0.0.66")
    table = await create(lobby, ann, seats=4)
    await ok(lobby, bob, lambda i: Join(id=i, table_id=table.table_id))
    await ok(lobby, eve, lambda i: Join(id=i, table_id=table.table_id))
    await ok(lobby, ann, lambda i: Kick(id=i, seat=2, ban=True))
    state = bob.last(TableState)
    assert (state.removed_seat, state.removed_banned) == (2, True)
    assert state.seats[2].name is None  # before the match the chair is emptied
    older = for_version(state, (1, 2))
    assert isinstance(older, TableState) and older.seats == state.seats
    assert (older.removed_seat, older.removed_banned) == (None, False)
    assert for_version(state, (1, 3)) is state
    # the next change says nothing of a removal
    await ok(lobby, ann, lambda i: AddBot(id=i, strategy="easy"))
    later = bob.last(TableState)
    assert later is not state and later.removed_seat is None


async def test_a_kick_mid_match_names_the_seat_a_bot_now_plays(nursery: trio.Nursery) -> None:
    lobby = await open_lobby(nursery)
    ann, bob, cy = FakePeer("Ann"), FakePeer("Bob"), FakePeer("Cy")
    table = await create(lobby, ann, seats=3)
    await ok(lobby, bob, lambda i: Join(id=i, table_id=table.table_id))
    await ok(lobby, cy, lambda i: Join(id=i, table_id=table.table_id))
    await ok(lobby, ann, lambda i: Start(id=i))
    await ok(lobby, ann, lambda i: Kick(id=i, seat=1))
    state = cy.last(TableState)
    assert (state.removed_seat, state.removed_banned) == (1, False)
    assert state.seats[1].bot


async def test_a_banned_guests_table_list_says_so_and_only_theirs(nursery: trio.Nursery) -> None:
    lobby = await open_lobby(nursery)
    ann, eve = FakePeer("Ann", address="10.0.0.1"), FakePeer("Eve", address="10.0.0.66")
    table = await create(lobby, ann, seats=4)
    await ok(lobby, eve, lambda i: Join(id=i, table_id=table.table_id))
    await ok(lobby, ann, lambda i: Kick(id=i, seat=1, ban=True))
    await ok(lobby, eve, lambda i: ListTables(id=i))
    listed = eve.last(TableList)
    assert [summary.banned for summary in listed.tables] == [True]
    older = for_version(listed, (1, 2))
    assert isinstance(older, TableList) and not older.tables[0].banned
    bob = FakePeer("Bob", address="10.0.0.2")
    await ok(lobby, bob, lambda i: ListTables(id=i))
    assert [summary.banned for summary in bob.last(TableList).tables] == [False]
