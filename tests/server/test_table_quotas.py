"""Quotas that follow who asks: tables per address, and the empty-table clock that a resume
alone cannot wind back."""

from __future__ import annotations

import trio
import trio.testing
from test_table_rig import FakePeer, create, ok, open_lobby, refused, settle

from protocol.errors import LobbyRejectCode
from protocol.messages import CreateTable, Ready, ResumeSeat


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
