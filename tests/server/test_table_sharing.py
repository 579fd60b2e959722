"""What a table builds once and shares: public event messages and the table state.

A public event goes to every seat without a secret in it as one message (so one encoded
frame), never to the seat whose secret it carries nor, with its cause, to the sender. The
table state is rebuilt only when something it shows changes, including what the engine
changes by itself (a player marked away).
"""

from __future__ import annotations

from typing import Any

import trio
import trio.testing
from test_table_rig import FakePeer, create, ok, open_lobby, play, rigged, settle

from protocol.cards import Card
from protocol.commands import Draw, Play
from protocol.events import Drew, DrewReason, Event, SecretCards
from protocol.messages import Join, Ready, Spectate, Start, TableState
from server.lobby import Lobby
from server.table import Table
from server.table.history import EventHistory


def test_the_public_message_goes_only_where_it_reveals_nothing_and_names_no_cause() -> None:
    history = EventHistory(10)
    drew = Event(
        1, Drew(seat=0, count=1, reason=DrewReason.DRAW), {0: SecretCards((Card.parse("R5"),))}
    )
    (item,) = history.extend([drew], cause_peer=7, cause_id=42)
    public = item.public_message()
    assert public.body.to_data() == {
        "seq": 1,
        "kind": "drew",
        "seat": 0,
        "count": 1,
        "reason": "draw",
    }
    assert public.cause is None and b"R5" not in public.frame()

    assert item.message_for(1, 8, public) is public
    assert item.message_for(2, 9, public) is public
    assert item.message_for(None, 10, public) is public
    drawer = item.message_for(0, 11, public)
    assert drawer is not public and drawer.body.secret == SecretCards((Card.parse("R5"),))
    assert drawer.cause is None
    sender = item.message_for(1, 7, public)
    assert sender is not public and sender.cause == 42 and sender.body == public.body
    for seat in (None, 0, 1, 2):
        expected = drew.for_seat(seat)
        assert item.message_for(seat, 8, public).body.to_data() == expected
        assert item.message_for(seat, 8).body.to_data() == expected


async def _table_of_two(
    nursery: trio.Nursery, **options: Any
) -> tuple[Lobby, Table, FakePeer, FakePeer]:
    lobby = await open_lobby(nursery)
    ann, bob = FakePeer("Ann"), FakePeer("Bob")
    table = await create(lobby, ann, seats=2, **options)
    await ok(lobby, bob, lambda i: Join(id=i, table_id=table.table_id))
    return lobby, table, ann, bob


async def test_seats_without_a_secret_share_one_message_per_event(nursery: trio.Nursery) -> None:
    lobby, table, ann, bob = await _table_of_two(nursery, turn_seconds=0)
    sue = FakePeer("Sue")
    await ok(lobby, sue, lambda i: Spectate(id=i, table_id=table.table_id))
    await ok(lobby, ann, lambda i: Start(id=i))
    rigged(table, hands=[["R1", "G2"], ["Y4", "Y5"]], top="B9", current=0)
    last = table.broadcast.last_seq

    await play(lobby, ann, Draw())
    news = {who.name: [e for e in who.events if e.seq > last] for who in (ann, bob, sue)}
    assert news["Bob"] and news["Bob"][0].body.kind == "drew"
    for mine, bobs, sues in zip(news["Ann"], news["Bob"], news["Sue"], strict=True):
        assert bobs is sues  # one message, so one frame, for both
        assert mine is not bobs and mine.cause is not None and bobs.cause is None
    drawn = news["Ann"][0].body.to_data()["cards"]
    assert len(drawn) == 1 and "cards" not in news["Bob"][0].body.to_data()
    assert Card.parse(drawn[0]).code.encode() not in news["Bob"][0].frame()


async def test_the_table_state_is_rebuilt_only_when_it_shows_something_new(
    nursery: trio.Nursery,
) -> None:
    lobby, table, ann, bob = await _table_of_two(nursery, turn_seconds=0)
    lobby_state = table.public.current()
    assert table.public.current() is lobby_state
    await ok(lobby, bob, lambda i: Ready(id=i))
    assert table.public.current() is not lobby_state and ann.state.seats[1].ready

    await ok(lobby, ann, lambda i: Start(id=i))
    rigged(table, hands=[["R1", "G2"], ["Y4", "Y5"]], top="R9", current=0)
    await settle()
    playing = table.public.current()
    told = len(ann.of(TableState)) + len(bob.of(TableState))
    await play(lobby, ann, Play(Card.parse("R1")))
    assert table.public.current() is playing
    assert len(ann.of(TableState)) + len(bob.of(TableState)) == told


async def test_the_state_follows_what_the_engine_changes_by_itself(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    _lobby, table, ann, bob = await _table_of_two(nursery, turn_seconds=2)
    await ok(_lobby, ann, lambda i: Start(id=i))
    assert not ann.state.seats[0].away
    # Ann never moves: after her third expired turn the engine marks her away.
    with trio.fail_after(10_000):
        await bob.wait_for(lambda: bob.state.seats[0].away)
    assert "away" in bob.event_kinds()
    assert table.public.current() == bob.state
