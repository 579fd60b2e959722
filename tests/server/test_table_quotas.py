"""Quotas that follow who asks: tables per address, the tables kept for newcomers, idle
tables giving way to them, and the empty-table clock that a resume alone cannot wind back."""

from __future__ import annotations

import trio
import trio.testing
from test_table_rig import FakePeer, call, create, ok, open_lobby, refused, settle

from protocol.errors import LobbyRejectCode
from protocol.messages import CreateTable, Left, Ok, Ready, ResumeSeat
from protocol.options import UnusableOptions


async def test_one_address_cannot_take_more_than_its_share_of_tables(
    nursery: trio.Nursery,
) -> None:
    lobby = await open_lobby(nursery, max_tables=6, max_tables_per_address=2)
    guest = "10.0.0.66"
    for number in range(2):
        await create(lobby, FakePeer(f"g{number}", address=guest), name=f"mine {number}")
    greedy = FakePeer("g2", address=guest)
    code = await refused(lobby, greedy, lambda i: CreateTable(id=i, name="one more"))
    assert code == LobbyRejectCode.TOO_MANY_TABLES
    # Someone else still gets a table, and the guest does again once one of theirs closes.
    await create(lobby, FakePeer("Ann", address="10.0.0.2"), name="Ann's")
    assert lobby.summary().tables == 3


async def test_a_resume_pauses_the_empty_table_clock_but_does_not_wind_it_back(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    lobby = await open_lobby(nursery, empty_table_seconds=60.0)
    ann = FakePeer("Ann")
    table = await create(lobby, ann)
    token = ann.token
    assert token is not None and table.closes_at is None
    lobby.disconnected(ann)
    await settle()
    assert table.closes_at is not None
    await trio.sleep(40)

    again = FakePeer("Ann")
    await ok(lobby, again, lambda i: ResumeSeat(id=i, token=token, last_seq=0))
    assert table.closes_at is None  # stopped while she is here
    await trio.sleep(100)
    lobby.disconnected(again)
    await settle()
    closes_at = table.closes_at
    assert closes_at is not None
    assert closes_at - trio.current_time() == 20  # goes on from where it stopped
    await trio.sleep(21)
    assert table.closed and lobby.summary().tables == 0


async def test_a_persons_move_winds_the_empty_table_clock_back(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    lobby = await open_lobby(nursery, empty_table_seconds=60.0)
    ann = FakePeer("Ann")
    await create(lobby, ann)
    token = ann.token
    assert token is not None
    lobby.disconnected(ann)
    await settle()
    await trio.sleep(50)

    again = FakePeer("Ann")
    await ok(lobby, again, lambda i: ResumeSeat(id=i, token=token, last_seq=0))
    await ok(lobby, again, lambda i: Ready(id=i))  # a move: the full time again
    table = lobby.location(again)
    assert table is not None
    lobby.disconnected(again)
    await settle()
    closes_at = table.closes_at
    assert closes_at is not None and closes_at - trio.current_time() == 60


async def test_the_last_tables_wait_for_addresses_that_hold_none(nursery: trio.Nursery) -> None:
    lobby = await open_lobby(nursery, max_tables=16, max_tables_per_address=4)
    assert lobby.settings.table_reserve == 2
    squatters = [f"10.0.1.{n}" for n in range(5)]
    answers: dict[str, int] = {}
    for address in squatters:
        for number in range(4):
            peer = FakePeer(f"s{number}", address=address)
            reply = await call(lobby, peer, lambda i: CreateTable(id=i, name="mine"))
            code = "ok" if isinstance(reply, Ok) else reply.code
            answers[code] = answers.get(code, 0) + 1
    # 14 tables by the first addresses' quotas; then only a table each for newcomers.
    assert answers == {"ok": 15, "too-many-tables": 5}
    await create(lobby, FakePeer("Ann", address="10.0.0.2"), name="Ann's")
    assert lobby.summary().tables == 16
    # Ann's address holds a table now: the reserve is not for it.
    assert (
        await refused(
            lobby, FakePeer("Bob", address="10.0.0.2"), lambda i: CreateTable(id=i, name="more")
        )
        == LobbyRejectCode.TOO_MANY_TABLES
    )


async def test_at_the_cap_the_table_idle_for_longest_gives_way_to_a_newcomer(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    lobby = await open_lobby(
        nursery, max_tables=4, max_tables_per_address=4, idle_table_seconds=300.0
    )
    creators = []
    for number in range(4):
        creator = FakePeer(f"s{number}", address=f"10.0.1.{number}")
        await create(lobby, creator, name=f"t{number}")
        creators.append(creator)
        await trio.sleep(10)
    newcomer = FakePeer("Ann", address="10.0.0.2")
    # Nobody has been idle long enough yet: the newcomer is refused.
    code = await refused(lobby, newcomer, lambda i: CreateTable(id=i, name="Ann's"))
    assert code == LobbyRejectCode.TOO_MANY_TABLES
    await trio.sleep(300)
    await ok(lobby, creators[0], lambda i: Ready(id=i))  # a move: t0 is not the idlest
    # A create refused for its options closes nobody's table.
    bad = UnusableOptions(why="target_score must be positive")
    code = await refused(lobby, newcomer, lambda i: CreateTable(id=i, name="Ann's", options=bad))
    assert code == LobbyRejectCode.BAD_OPTIONS
    await settle()
    assert [creator.of(Left) for creator in creators] == [[]] * 4
    await create(lobby, newcomer, name="Ann's")
    await settle()
    # The first idle table (t1, the oldest move once t0 moved) closed, its creator told;
    # the creator stayed connected all along.
    assert [creator.closed for creator in creators] == [None] * 4
    left = creators[1].of(Left)
    assert left and "make room" in left[-1].message
    at = [lobby.location(peer) for peer in [*creators, newcomer]]
    assert [table.name if table else None for table in at] == ["t0", None, "t2", "t3", "Ann's"]
    assert lobby.summary().tables == 4
