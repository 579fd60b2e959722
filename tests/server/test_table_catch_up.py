"""The catch-up of a spectator who arrives mid-round (issue 28), at one table: its bound,
a second ``spectate``, and the stretch before the first round. The whole flow over real
sockets is tests/e2e/test_spectate_catch_up.py."""

from __future__ import annotations

import pytest
import trio
from test_table_rig import FakePeer, ok, settle, two_players

import server.table.handlers
from protocol.messages import GameEvent, GameView, Spectate
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


async def test_a_round_within_the_bound_is_sent_whole_and_a_longer_one_not(
    nursery: trio.Nursery, monkeypatch: pytest.MonkeyPatch
) -> None:
    lobby, table, _, _ = await two_players(nursery, turn_seconds=0)
    await settle()
    so_far = [item.seq for item in table.game.replay_log.round_so_far()]
    assert so_far and table.game.replay_log.round_so_far()[0].event.kind == "round-started"
    monkeypatch.setattr(server.table.handlers, "MAX_CATCH_UP_EVENTS", len(so_far))
    within = await watch(lobby, table, FakePeer("Cy"))
    assert before_view(within) == so_far
    monkeypatch.setattr(server.table.handlers, "MAX_CATCH_UP_EVENTS", len(so_far) - 1)
    past = await watch(lobby, table, FakePeer("Di"))
    assert before_view(past) == []
    assert past.view["last_seq"] == so_far[-1]  # the view alone is its starting point


async def test_a_second_spectate_sends_no_second_catch_up(nursery: trio.Nursery) -> None:
    lobby, table, _, _ = await two_players(nursery, turn_seconds=0)
    spectator = await watch(lobby, table, FakePeer("Cy"))
    first = len(spectator.events)
    assert first > 0
    await watch(lobby, table, spectator)
    assert len(spectator.events) == first


async def test_an_older_spectator_gets_the_view_alone(nursery: trio.Nursery) -> None:
    lobby, table, _, _ = await two_players(nursery, turn_seconds=0)
    spectator = await watch(lobby, table, FakePeer("Cy", version=(1, 2)))
    assert spectator.events == []
    assert spectator.view["last_seq"] == table.broadcast.last_seq
