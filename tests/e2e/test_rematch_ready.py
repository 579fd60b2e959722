"""A rematch asks the guests (1.3) on a real server: the host's ``rematch`` waits until
every connected person says ready, or until the round break runs out; a 1.2 guest is not
told of the ask and the clock decides for it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import trio
from e2e_client import Player, drive, seat_table
from e2e_server import ServerProcess

from protocol.messages import Ready, Rejected, Rematch, TableState, TableStatus

pytestmark = pytest.mark.e2e

NEW = ("1.0", "1.1", "1.2", "1.3")
OLD = ("1.0", "1.1", "1.2")
ONE_ROUND = {"target_score": 1}  # the first round's winner wins the match


def asked(player: Player) -> bool:
    return player.state is not None and player.state.rematch_asked


def states(player: Player) -> list[TableState]:
    return [frame for frame in player.frames if isinstance(frame, TableState)]


def playing(player: Player) -> bool:
    return player.state is not None and player.state.state is TableStatus.PLAYING


async def test_the_rematch_starts_when_the_guest_says_ready(tmp_path: Path) -> None:
    server = ServerProcess.start(tmp_path)
    try:
        with trio.fail_after(90):
            async with trio.open_nursery() as nursery:
                options = {**ONE_ROUND, "round_pause_seconds": 3600}
                players, _ = await seat_table(
                    server.port, nursery, ["ann", "bob"], options=options, versions=[NEW, NEW]
                )
                ann, bob = players
                await drive(players, lambda: ann.match_over and bob.match_over, random.Random(5))
                events_before = len(bob.events)

                await ann.ok(lambda id_: Rematch(id=id_))
                await bob.hub.until(lambda: asked(bob))
                assert bob.state is not None and bob.state.state is TableStatus.OVER
                assert [seat.ready for seat in bob.state.seats] == [True, False]
                assert len(bob.events) == events_before  # nothing dealt yet
                again = await ann.request(lambda id_: Rematch(id=id_))
                assert isinstance(again, Rejected) and again.code == "wrong-table-state"

                await bob.ok(lambda id_: Ready(id=id_))
                await bob.hub.until(lambda: playing(ann) and playing(bob))
                assert bob.state is not None and not bob.state.rematch_asked
                assert not bob.match_over and "dealer-chosen" in bob.event_kinds()[events_before:]
                nursery.cancel_scope.cancel()
    finally:
        server.stop()


async def test_the_clock_starts_the_rematch_for_a_guest_who_does_not_answer(
    tmp_path: Path,
) -> None:
    server = ServerProcess.start(tmp_path)
    try:
        with trio.fail_after(90):
            async with trio.open_nursery() as nursery:
                options = {**ONE_ROUND, "round_pause_seconds": 1}
                players, _ = await seat_table(
                    server.port, nursery, ["ann", "old"], options=options, versions=[NEW, OLD]
                )
                ann, old = players
                await drive(players, lambda: ann.match_over and old.match_over, random.Random(6))
                await ann.ok(lambda id_: Rematch(id=id_))
                await ann.hub.until(lambda: playing(ann) and playing(old))
                assert any(state.rematch_asked for state in states(ann))  # the ask, then the clock
                assert not any(state.rematch_asked for state in states(old))
                nursery.cancel_scope.cancel()
    finally:
        server.stop()
