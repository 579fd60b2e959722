"""A host bans a guest: kicked, and kept out of the table by address and by name."""

from __future__ import annotations

import trio
from test_table_rig import FakePeer, create, ok, open_lobby, refused

from protocol.errors import LobbyRejectCode
from protocol.messages import Join, Kick, Left, Spectate


async def test_a_banned_guest_cannot_come_back_by_address_or_by_name(
    nursery: trio.Nursery,
) -> None:
    lobby = await open_lobby(nursery)
    ann = FakePeer("Ann", address="10.0.0.1")
    eve = FakePeer("Eve", address="10.0.0.66")
    table = await create(lobby, ann, seats=4)
    await ok(lobby, eve, lambda i: Join(id=i, table_id=table.table_id))
    await ok(lobby, ann, lambda i: Kick(id=i, seat=1, ban=True))
    assert eve.last(Left).message == "Ann asked you to leave and banned you from this table"

    for again in (FakePeer("Mallory", address="10.0.0.66"), FakePeer("EVE", address="10.0.0.7")):
        code = await refused(lobby, again, lambda i: Join(id=i, table_id=table.table_id))
        assert code == LobbyRejectCode.BANNED
        code = await refused(lobby, again, lambda i: Spectate(id=i, table_id=table.table_id))
        assert code == LobbyRejectCode.BANNED
    # Anyone else still joins; a kick without a ban lets the guest straight back.
    bob = FakePeer("Bob", address="10.0.0.2")
    await ok(lobby, bob, lambda i: Join(id=i, table_id=table.table_id))
    await ok(lobby, ann, lambda i: Kick(id=i, seat=bob.seat or 0))
    assert bob.last(Left).message == "Ann asked you to leave"
    await ok(
        lobby, FakePeer("Bob", address="10.0.0.2"), lambda i: Join(id=i, table_id=table.table_id)
    )


async def test_a_guest_on_the_hosts_own_machine_is_banned_by_name_only(
    nursery: trio.Nursery,
) -> None:
    lobby = await open_lobby(nursery)
    ann = FakePeer("Ann", address="127.0.0.1")
    table = await create(lobby, ann, seats=3)
    await ok(
        lobby, FakePeer("Eve", address="127.0.0.1"), lambda i: Join(id=i, table_id=table.table_id)
    )
    await ok(lobby, ann, lambda i: Kick(id=i, seat=1, ban=True))
    await ok(
        lobby, FakePeer("Cat", address="127.0.0.1"), lambda i: Join(id=i, table_id=table.table_id)
    )
    code = await refused(
        lobby, FakePeer("Eve", address="127.0.0.1"), lambda i: Join(id=i, table_id=table.table_id)
    )
    assert code == LobbyRejectCode.BANNED
