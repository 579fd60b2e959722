"""The table's owner keeps the host role (docs/protocol.md section 7, *the host*): lent
to another person while the owner is away, back the moment the owner returns (after a
restart too, where nobody is lent it during the grace), handed on for good only when the
owner leaves; a person lent the role may not kick, ban or close on the owner."""

from __future__ import annotations

from pathlib import Path

import trio
import trio.testing
from test_table_rig import FakePeer, create, journaled_lobby, ok, open_lobby, refused, settle

from protocol.messages import (
    CloseTable,
    HostReason,
    Join,
    Kick,
    Leave,
    PauseTable,
    ResumeSeat,
    Start,
    TableState,
)
from server.lobby import Lobby
from server.settings import LobbySettings


def host_of(state: TableState) -> tuple[int | None, int | None, HostReason | None]:
    return state.host_seat, state.owner_seat, state.host_reason


async def three_at_a_table(nursery: trio.Nursery) -> tuple[Lobby, FakePeer, FakePeer, FakePeer]:
    lobby = await open_lobby(nursery)
    ann, bob, cat = FakePeer("Ann"), FakePeer("Bob"), FakePeer("Cat")
    table = await create(lobby, ann, seats=3, turn_seconds=0)
    for guest in (bob, cat):
        await ok(lobby, guest, lambda i: Join(id=i, table_id=table.table_id))
    return lobby, ann, bob, cat


async def test_an_owner_who_loses_the_connection_lends_the_role_and_gets_it_back(
    nursery: trio.Nursery,
) -> None:
    lobby, ann, bob, cat = await three_at_a_table(nursery)
    assert host_of(bob.state) == (0, 0, HostReason.OWNER)
    lobby.disconnected(ann)
    await settle()
    assert host_of(cat.state) == (1, 0, HostReason.OWNER_AWAY)
    back = FakePeer("Ann")
    await ok(lobby, back, lambda i: ResumeSeat(id=i, token=ann.token or "", last_seq=0))
    await settle()
    assert host_of(bob.state) == (0, 0, HostReason.OWNER)
    assert host_of(back.state) == (0, 0, HostReason.OWNER)


async def test_a_host_lent_the_role_may_not_kick_or_ban_the_owner_but_may_kick_others(
    nursery: trio.Nursery,
) -> None:
    lobby, ann, bob, _ = await three_at_a_table(nursery)
    await ok(lobby, ann, lambda i: Start(id=i))
    lobby.disconnected(ann)
    await settle()
    assert bob.state.host_seat == 1
    assert await refused(lobby, bob, lambda i: Kick(id=i, seat=0)) == "not-host"
    assert await refused(lobby, bob, lambda i: Kick(id=i, seat=0, ban=True)) == "not-host"
    assert bob.state.seats[0].name == "Ann" and not bob.state.seats[0].bot  # still hers
    await ok(lobby, bob, lambda i: PauseTable(id=i))  # the other host's controls are lent too
    await ok(lobby, bob, lambda i: Kick(id=i, seat=2))
    assert bob.state.seats[2].bot
    back = FakePeer("Ann")
    reply = await ok(lobby, back, lambda i: ResumeSeat(id=i, token=ann.token or "", last_seq=0))
    assert reply.result is not None and reply.result.seat == 0  # her token still opens it


async def test_a_lent_role_moves_on_when_its_borrower_goes_and_stays_on_the_owner_alone(
    nursery: trio.Nursery,
) -> None:
    lobby, ann, bob, cat = await three_at_a_table(nursery)
    lobby.disconnected(ann)
    await settle()
    assert host_of(cat.state) == (1, 0, HostReason.OWNER_AWAY)
    lobby.disconnected(bob)
    await settle()
    assert host_of(cat.state) == (2, 0, HostReason.OWNER_AWAY)
    back = FakePeer("Bob")
    await ok(lobby, back, lambda i: ResumeSeat(id=i, token=bob.token or "", last_seq=0))
    await settle()
    assert cat.state.host_seat == 2  # a borrower still here keeps it until the owner is back
    table = lobby.location(cat)
    assert table is not None
    lobby.disconnected(back)
    lobby.disconnected(cat)
    await settle()
    assert (table.seating.host, table.seating.host_reason) == (0, HostReason.OWNER)


async def test_an_owner_who_leaves_hands_the_role_on_for_good(nursery: trio.Nursery) -> None:
    lobby, ann, bob, cat = await three_at_a_table(nursery)
    await ok(lobby, ann, lambda i: Start(id=i))
    lobby.disconnected(bob)
    await ok(lobby, ann, lambda i: Leave(id=i))
    await settle()
    # Bob, next in seat order, is away: the role goes to Cat, who owns it from now on.
    assert host_of(cat.state) == (2, 2, HostReason.OWNER_LEFT)
    back = FakePeer("Bob")
    await ok(lobby, back, lambda i: ResumeSeat(id=i, token=bob.token or "", last_seq=0))
    await settle()
    assert host_of(back.state) == (2, 2, HostReason.OWNER_LEFT)
    lobby.disconnected(cat)
    await settle()
    assert host_of(back.state) == (1, 2, HostReason.OWNER_AWAY)  # Cat lends it now


async def test_after_a_restart_the_owner_is_host_through_the_grace_and_lends_it_after(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    path = tmp_path / "server.sqlite3"
    settings = LobbySettings(seed=1, restart_grace_seconds=30.0)
    tokens: dict[str, str] = {}
    async with journaled_lobby(path, settings) as lobby:
        ann, bob, cat = FakePeer("Ann"), FakePeer("Bob"), FakePeer("Cat")
        table = await create(lobby, ann, seats=3, turn_seconds=0)
        for guest in (bob, cat):
            await ok(lobby, guest, lambda i: Join(id=i, table_id=table.table_id))
        await ok(lobby, ann, lambda i: Start(id=i))
        lobby.disconnected(ann)  # the journal keeps the owner, not whom it was lent to
        await settle()
        assert bob.state.host_seat == 1
        tokens = {p.name: p.token or "" for p in (ann, bob, cat)}

    async with journaled_lobby(path, settings) as lobby:
        bob = FakePeer("Bob")
        await ok(lobby, bob, lambda i: ResumeSeat(id=i, token=tokens["Bob"], last_seq=0))
        await settle()
        assert host_of(bob.state) == (0, 0, HostReason.OWNER)  # the grace lends nothing
        assert await refused(lobby, bob, lambda i: CloseTable(id=i)) == "not-host"
        assert await refused(lobby, bob, lambda i: Kick(id=i, seat=0)) == "not-host"
        await trio.sleep(31)  # the grace ends with Ann and Cat still away
        await settle()
        assert host_of(bob.state) == (1, 0, HostReason.OWNER_AWAY)
        assert await refused(lobby, bob, lambda i: Kick(id=i, seat=0, ban=True)) == ("not-host")
        assert await refused(lobby, bob, lambda i: CloseTable(id=i)) == "not-host"
        ann = FakePeer("Ann")
        await ok(lobby, ann, lambda i: ResumeSeat(id=i, token=tokens["Ann"], last_seq=0))
        await settle()
        assert host_of(bob.state) == (0, 0, HostReason.OWNER)
