"""The catch-up of a spectator who arrives mid-round (issue 28), at one table: sent a batch
at a time, each when the last was written, with the live events behind it and the view
last; a catch-up that goes on into the next round (from the broadcast's history), and one
whose events the history no longer holds (the view alone); a spectator who leaves or takes
a bot's seat mid-way; a second ``spectate``; an older spectator. The whole flow over real
sockets is tests/e2e/test_spectate_catch_up.py."""

from __future__ import annotations

import pytest
import trio
from test_table_rig import (
    FakePeer,
    create,
    ok,
    open_lobby,
    play,
    rigged,
    settle,
    two_players,
)

import server.table.catch_up
from protocol.cards import Card
from protocol.commands import Play, SeatCommand, command_from_data
from protocol.messages import (
    AddBot,
    GameEvent,
    GameView,
    Leave,
    Ok,
    Ready,
    Spectate,
    Start,
    TakeBotSeat,
)
from server.lobby import Lobby
from server.table import Table


async def watch(lobby: Lobby, table: Table, spectator: FakePeer) -> FakePeer:
    """``spectator`` watches ``table``, and everything it is owed has arrived."""
    await ok(lobby, spectator, lambda i: Spectate(id=i, table_id=table.table_id))
    await settle()
    return spectator


def before_view(peer: FakePeer) -> list[int]:
    """The seqs of the events ``peer`` got before its first view."""
    first = next(i for i, m in enumerate(peer.received) if isinstance(m, GameView))
    return [m.seq for m in peer.received[:first] if isinstance(m, GameEvent)]


async def stall(lobby: Lobby, players: list[FakePeer]) -> None:
    """One step of a long round: the seat to act draws, or passes after drawing, or does
    whatever else its view offers first (a colour to choose, a card it must play)."""
    for peer in players:
        legal = peer.view["legal"]
        if peer.view["to_act"] != peer.seat or not legal:
            continue
        chosen = next((d for d in legal if d["type"] in ("draw", "pass")), legal[0])
        command = command_from_data(chosen)
        assert isinstance(command, SeatCommand)
        reply = await play(lobby, peer, command)
        assert isinstance(reply, Ok), reply
        await settle()
        return
    raise AssertionError("nobody is to act")


def round_seqs(table: Table) -> list[int]:
    return [item.seq for item in table.game.replay_log.round_so_far()]


async def test_the_round_goes_a_batch_at_a_time_then_the_live_events_then_the_view(
    nursery: trio.Nursery, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server.table.catch_up, "CATCH_UP_BATCH", 3)
    lobby, table, ann, bob = await two_players(nursery, turn_seconds=0)
    await settle()
    for _ in range(4):
        await stall(lobby, [ann, bob])
    so_far = round_seqs(table)
    assert len(so_far) > 3 * 3
    spectator = await watch(lobby, table, FakePeer("Cy", auto_drain=False))
    assert [event.seq for event in spectator.events] == so_far[:3]  # one batch, unwritten
    assert not spectator.of(GameView)
    await stall(lobby, [ann, bob])  # a live move while it catches up: it waits its turn
    assert [event.seq for event in spectator.events] == so_far[:3]
    batches = 1
    while not spectator.of(GameView):
        assert spectator.undrained, "the catch-up stopped before its view"
        spectator.drain()
        await settle()
        batches += 1
    last = table.broadcast.last_seq
    assert last > so_far[-1]
    assert before_view(spectator) == list(range(so_far[0], last + 1))
    assert spectator.view["last_seq"] == last
    assert batches == -(-(last - so_far[0] + 1) // 3) + 1  # the last drain finds nothing new
    await stall(lobby, [ann, bob])  # from now on, live like everyone
    assert [event.seq for event in spectator.events] == list(
        range(so_far[0], table.broadcast.last_seq + 1)
    )


async def next_round(lobby: Lobby, table: Table, ann: FakePeer, bob: FakePeer) -> None:
    """Ann wins the round with her last card; both are ready, and the next round starts
    (a table of ``two_players`` with a long ``round_pause_seconds`` and a high target)."""
    rigged(table, hands=[["R1"], ["Y4", "Y5", "Y6"]], top="R9", current=0)
    reply = await play(lobby, ann, Play(Card.parse("R1")))
    assert isinstance(reply, Ok), reply
    await ok(lobby, ann, lambda i: Ready(id=i))
    await ok(lobby, bob, lambda i: Ready(id=i))
    await settle()


async def test_a_catch_up_goes_on_into_the_next_round_from_the_history(
    nursery: trio.Nursery, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server.table.catch_up, "CATCH_UP_BATCH", 2)
    lobby, table, ann, bob = await two_players(
        nursery, turn_seconds=0, round_pause_seconds=3600, target_score=500
    )
    await stall(lobby, [ann, bob])
    first = round_seqs(table)[0]
    spectator = await watch(lobby, table, FakePeer("Cy", auto_drain=False))
    assert [event.seq for event in spectator.events] == [first, first + 1]
    await next_round(lobby, table, ann, bob)
    await stall(lobby, [ann, bob])
    assert round_seqs(table)[0] > first + 2  # what it is owed next is the history's only
    while not spectator.of(GameView):
        assert spectator.undrained, "the catch-up stopped before its view"
        spectator.drain()
        await settle()
    last = table.broadcast.last_seq
    assert before_view(spectator) == list(range(first, last + 1))
    assert spectator.view["last_seq"] == last
    await stall(lobby, [ann, bob])
    assert [event.seq for event in spectator.events] == list(
        range(first, table.broadcast.last_seq + 1)
    )


async def test_a_catch_up_whose_events_are_gone_ends_with_the_view_alone(
    nursery: trio.Nursery, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server.table.catch_up, "CATCH_UP_BATCH", 2)
    lobby, table, ann, bob = await two_players(
        nursery, history_limit=4, turn_seconds=0, round_pause_seconds=3600, target_score=500
    )
    await stall(lobby, [ann, bob])
    first = round_seqs(table)[0]
    spectator = await watch(lobby, table, FakePeer("Cy", auto_drain=False))
    assert [event.seq for event in spectator.events] == [first, first + 1]
    await next_round(lobby, table, ann, bob)
    assert table.broadcast.last_seq - 4 > first + 2  # the history has let them go
    spectator.drain()
    await settle()
    last = table.broadcast.last_seq
    assert before_view(spectator) == [first, first + 1]
    assert spectator.view["last_seq"] == last
    assert not spectator.undrained and not table.seating.catching_up
    await stall(lobby, [ann, bob])  # live from its view on, each event once
    seqs = [event.seq for event in spectator.events]
    assert seqs == [first, first + 1, *range(last + 1, table.broadcast.last_seq + 1)]
    assert len(seqs) > 2


async def test_a_spectator_who_leaves_mid_way_is_sent_no_more(
    nursery: trio.Nursery, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server.table.catch_up, "CATCH_UP_BATCH", 2)
    lobby, table, ann, bob = await two_players(nursery, turn_seconds=0)
    await settle()
    spectator = await watch(lobby, table, FakePeer("Cy", auto_drain=False))
    assert len(spectator.events) == 2
    await ok(lobby, spectator, lambda i: Leave(id=i))
    await settle()
    spectator.drain()
    await settle()
    assert len(spectator.events) == 2
    assert not spectator.of(GameView)
    assert not table.seating.catching_up
    await stall(lobby, [ann, bob])
    assert len(spectator.events) == 2


async def test_watching_again_and_again_keeps_one_drained_callback(
    nursery: trio.Nursery, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server.table.catch_up, "CATCH_UP_BATCH", 2)
    lobby, table, ann, bob = await two_players(nursery, turn_seconds=0)
    await stall(lobby, [ann, bob])
    spectator = FakePeer("Cy", auto_drain=False)
    for _ in range(3):
        await watch(lobby, table, spectator)
        await ok(lobby, spectator, lambda i: Leave(id=i))
    await watch(lobby, table, spectator)
    assert len(spectator.undrained) == 1  # at most one CatchUpDrained for the table's inbox
    watched = len(spectator.events)  # four first batches
    while not spectator.of(GameView):
        assert len(spectator.undrained) == 1
        spectator.drain()
        await settle()
    assert not spectator.undrained
    so_far = round_seqs(table)
    assert [event.seq for event in spectator.events[watched - 2 :]] == so_far  # the last one


async def test_a_catch_up_begun_again_waits_for_its_own_first_batch(
    nursery: trio.Nursery, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server.table.catch_up, "CATCH_UP_BATCH", 2)
    lobby, table, ann, bob = await two_players(nursery, turn_seconds=0)
    await stall(lobby, [ann, bob])
    spectator = await watch(lobby, table, FakePeer("Cy", auto_drain=False))
    await ok(lobby, spectator, lambda i: Leave(id=i))
    await lobby.handle(spectator, Spectate(id=spectator.next_id(), table_id=table.table_id))
    spectator.drain()  # the table reads its callback's item after the new first batch left
    await settle()
    assert len(spectator.events) == 4 and len(spectator.undrained) == 1
    spectator.drain()
    await settle()
    assert len(spectator.events) == 6


async def test_a_spectator_who_takes_a_bots_seat_mid_way_follows_its_seat(
    nursery: trio.Nursery, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server.table.catch_up, "CATCH_UP_BATCH", 2)
    lobby = await open_lobby(nursery, bot_think_ms=60_000)
    ann = FakePeer("Ann")
    table = await create(lobby, ann, seats=2, turn_seconds=0)
    await ok(lobby, ann, lambda i: AddBot(id=i, strategy="basic"))
    await ok(lobby, ann, lambda i: Start(id=i))
    await settle()
    cy = await watch(lobby, table, FakePeer("Cy", auto_drain=False))
    assert len(cy.events) == 2 and not cy.of(GameView)
    await ok(lobby, cy, lambda i: TakeBotSeat(id=i, table_id=table.table_id, seat=1))
    await settle()
    assert cy.seat == 1 and cy.view["seat"] == 1  # its seat's view, at once
    assert not table.seating.catching_up
    seen = len(cy.events)
    cy.drain()  # the batch it was sent is written: no more of the catch-up comes
    await settle()
    assert len(cy.events) == seen
    await stall(lobby, [ann, cy])
    assert cy.events[-1].seq == table.broadcast.last_seq  # live, as the seat's


async def test_a_second_spectate_sends_no_second_catch_up(nursery: trio.Nursery) -> None:
    lobby, table, _, _ = await two_players(nursery, turn_seconds=0)
    spectator = await watch(lobby, table, FakePeer("Cy"))
    first = len(spectator.events)
    assert first > 0
    assert before_view(spectator) == round_seqs(table)
    await watch(lobby, table, spectator)
    assert len(spectator.events) == first


async def test_an_older_spectator_gets_the_view_alone(nursery: trio.Nursery) -> None:
    lobby, table, _, _ = await two_players(nursery, turn_seconds=0)
    spectator = await watch(lobby, table, FakePeer("Cy", version=(1, 2)))
    assert spectator.events == []
    assert spectator.view["last_seq"] == table.broadcast.last_seq
