"""A host bans a guest: kicked, and kept out of the table by address and by name, for the
table's life (a restart included)."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing
from test_table_rig import FakePeer, create, journaled_lobby, ok, open_lobby, refused

from protocol.errors import LobbyRejectCode
from protocol.messages import Chat, ChatMessage, Join, Kick, Leave, Left, ResumeSeat, Spectate
from server.journal import Journal
from server.settings import LobbySettings


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


# Documentation addresses (RFC 5737): never one of this machine's interfaces.
HOST, GUEST, OTHER = "192.0.2.1", "192.0.2.66", "198.51.100.7"


async def test_a_ban_of_an_away_seat_covers_the_address_it_came_from(
    nursery: trio.Nursery,
) -> None:
    lobby = await open_lobby(nursery)
    ann = FakePeer("Ann", address=HOST)
    eve = FakePeer("Eve", address=GUEST)
    table = await create(lobby, ann, seats=3)
    await ok(lobby, eve, lambda i: Join(id=i, table_id=table.table_id))
    lobby.disconnected(eve)
    await ann.wait_for(lambda: table.seating[1] is not None and table.seating[1].peer is None)
    await ok(lobby, ann, lambda i: Kick(id=i, seat=1, ban=True))
    assert [(ban.name, ban.address) for ban in table.seating.bans.given] == [("Eve", GUEST)]
    code = await refused(
        lobby, FakePeer("Friendly", address=GUEST), lambda i: Join(id=i, table_id=table.table_id)
    )
    assert code == LobbyRejectCode.BANNED
    await ok(lobby, FakePeer("Cat", address=OTHER), lambda i: Join(id=i, table_id=table.table_id))


@pytest.mark.parametrize("name", ["rnallory", "mallory.", "MALL\u00d3RY", "mal\u200dlory"])
async def test_a_name_that_reads_like_a_banned_one_is_banned(
    nursery: trio.Nursery, name: str
) -> None:
    lobby = await open_lobby(nursery)
    ann = FakePeer("Ann", address=HOST)
    table = await create(lobby, ann, seats=3)
    await ok(
        lobby, FakePeer("mallory", address=GUEST), lambda i: Join(id=i, table_id=table.table_id)
    )
    await ok(lobby, ann, lambda i: Kick(id=i, seat=1, ban=True))
    code = await refused(
        lobby, FakePeer(name, address=OTHER), lambda i: Join(id=i, table_id=table.table_id)
    )
    assert code == LobbyRejectCode.BANNED


async def test_a_guest_on_the_servers_machine_is_banned_by_name_only_whoever_hosts(
    nursery: trio.Nursery,
) -> None:
    # The host plays from another machine; the banned guest sat at the server's own.
    lobby = await open_lobby(nursery)
    ann = FakePeer("Ann", address=HOST)
    table = await create(lobby, ann, seats=3)
    await ok(lobby, FakePeer("Eve", address="::1"), lambda i: Join(id=i, table_id=table.table_id))
    await ok(lobby, ann, lambda i: Kick(id=i, seat=1, ban=True))
    assert [(ban.name, ban.address) for ban in table.seating.bans.given] == [("Eve", None)]
    await ok(lobby, FakePeer("Cat", address="::1"), lambda i: Join(id=i, table_id=table.table_id))


async def test_bans_and_an_away_seats_address_survive_a_restart(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    path = tmp_path / "server.sqlite3"
    settings = LobbySettings(seed=1)
    async with journaled_lobby(path, settings) as lobby:
        ann = FakePeer("Ann", address=HOST)
        table = await create(lobby, ann, seats=4)
        for name, address in [("mallory", GUEST), ("Eve", OTHER)]:
            guest = FakePeer(name, address=address)
            await ok(lobby, guest, lambda i: Join(id=i, table_id=table.table_id))
        await ok(lobby, ann, lambda i: Kick(id=i, seat=1, ban=True))  # mallory
        token = ann.token
        assert token is not None

    async with journaled_lobby(path, settings) as lobby:
        ann = FakePeer("Ann", address=HOST)
        await ok(lobby, ann, lambda i: ResumeSeat(id=i, token=token, last_seq=0))
        rebuilt = lobby.location(ann)
        assert rebuilt is not None
        table = rebuilt
        for name, address in [("friendly", GUEST), ("rnallory", "203.0.113.9")]:
            comeback = FakePeer(name, address=address)
            code = await refused(lobby, comeback, lambda i: Join(id=i, table_id=table.table_id))
            assert code == LobbyRejectCode.BANNED
        # Eve never came back after the restart: her seat still knows her address.
        eve_seat = next(seat for seat in table.seating if seat.name == "Eve")
        await ok(lobby, ann, lambda i: Kick(id=i, seat=eve_seat.index, ban=True))
        code = await refused(
            lobby, FakePeer("Zed", address=OTHER), lambda i: Join(id=i, table_id=table.table_id)
        )
        assert code == LobbyRejectCode.BANNED
        assert len(table.seating.bans.given) == 2  # the restored ban was not written twice
    journal = Journal.open(path)
    try:
        (saved,), _ = journal.open_tables()
        assert [(ban.name, ban.address) for ban in saved.bans] == [
            ("mallory", GUEST),
            ("Eve", OTHER),
        ]
    finally:
        journal.close()


async def test_nobody_passes_for_the_server_in_chat_or_at_a_table(nursery: trio.Nursery) -> None:
    lobby = await open_lobby(nursery)
    ann = FakePeer("Ann", address="10.0.0.1")
    table = await create(lobby, ann, seats=3)
    for name in ("uno-server", "UNO-Server", "uno-serv\u0435r"):  # the last with a Cyrillic e
        fake = FakePeer(name, address="10.0.0.66")
        assert await refused(lobby, fake, lambda i: Chat(id=i, text="restart now")) == (
            LobbyRejectCode.NAME_TAKEN
        )
        code = await refused(lobby, fake, lambda i: Join(id=i, table_id=table.table_id))
        assert code == LobbyRejectCode.NAME_TAKEN
        await ok(lobby, fake, lambda i: Spectate(id=i, table_id=table.table_id))
        assert await refused(lobby, fake, lambda i: Chat(id=i, text="restart now")) == (
            LobbyRejectCode.NAME_TAKEN
        )
        await ok(lobby, fake, lambda i: Leave(id=i))
    assert not [line for line in ann.of(ChatMessage) if line.text == "restart now"]
    await ok(lobby, FakePeer("Bob", address="10.0.0.2"), lambda i: Chat(id=i, text="hi"))
