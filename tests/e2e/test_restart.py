"""A host laptop that restarts: a real uno-server killed with SIGKILL mid-match and started
again on the same journal. Every seat resumes with its token and its hand, the event
numbers go on without a gap, and the match plays on to its end."""

from __future__ import annotations

import random
import signal
from pathlib import Path

import pytest
import trio
from e2e_client import Hub, Player, drive, seat_table, settle
from e2e_server import ServerProcess

pytestmark = pytest.mark.e2e

NAMES = ["ann", "bob", "cat"]


async def _play_then_kill(
    server: ServerProcess, rng: random.Random, moves: int
) -> tuple[list[tuple[str, str, int, list[str]]], list[int], str]:
    """Seat three people, play about ``moves`` events, kill the server; what each held."""
    async with trio.open_nursery() as nursery:
        players, _ = await seat_table(
            server.port, nursery, NAMES, options={"target_score": 200, "turn_seconds": 0}
        )
        await drive(players, lambda: len(players[0].events) > moves, rng)
        await settle(players)
        held = []
        for player in players:
            assert player.token is not None and player.view is not None
            held.append((player.name, player.token, player.last_seq, sorted(player.hand)))
        scores = list(players[0].view["scores"]) if players[0].view else []
        table_id = players[0].table_id
        assert table_id is not None
        server.process.send_signal(signal.SIGKILL)
        server.process.wait()
        nursery.cancel_scope.cancel()
    return held, scores, table_id


async def test_a_killed_server_comes_back_with_every_table_and_hand(tmp_path: Path) -> None:
    rng = random.Random(5)
    first = ServerProcess.start(tmp_path, "--restart-grace", "30")
    state = first.state
    assert state is not None
    try:
        with trio.fail_after(60):
            held, scores, table_id = await _play_then_kill(first, rng, moves=40)
    finally:
        first.stop()

    again = ServerProcess.start(tmp_path, "--restart-grace", "30", state=state)
    try:
        with trio.fail_after(90):
            async with trio.open_nursery() as nursery:
                hub = Hub()
                players = []
                for name, token, last_seq, hand in held:
                    player = await Player.connect(
                        again.port, name, hub, resume_token=token, last_seq=last_seq
                    )
                    assert player.welcome is not None and player.welcome.resumed, name
                    nursery.start_soon(player.read_forever)
                    players.append((player, last_seq, hand))
                await hub.until(lambda: all(p.view is not None for p, _, _ in players))
                for player, last_seq, hand in players:
                    assert player.table_id == table_id
                    assert sorted(player.hand) == hand, player.name  # the same cards
                    assert player.view is not None and player.view["last_seq"] >= last_seq
                    assert list(player.view["scores"]) == scores
                    # Every event it now gets follows on from what it had, with no gap.
                    seqs = [event["seq"] for event in player.events]
                    assert seqs == list(range(last_seq + 1, last_seq + 1 + len(seqs)))
                people = [player for player, _, _ in players]
                # Paused until everyone was back; then the match plays on to its end.
                await drive(people, lambda: people[0].match_over, rng)
                # The others hear of the end an instant later than the first.
                await hub.until(lambda: all(player.match_over for player in people))
                assert all(not player.unexpected_rejections for player in people)
                nursery.cancel_scope.cancel()
    finally:
        again.stop()
    assert "rebuilt from the journal" in again.log_text()
