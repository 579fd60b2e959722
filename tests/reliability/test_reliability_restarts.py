"""Chaos for the journal: a real uno-server killed with SIGKILL at random moments of a match
and started again on the same state file, again and again, until the match is over.

Each time, every seat resumes with its token, the event numbers go on without a gap, and
no move the server acknowledged is lost. When the server died with nothing in flight (the
players had settled; nobody else plays), every seat gets back exactly the hand it held; a
move in flight may or may not have been kept, as nobody heard of it. The short form kills the
server a few times; ``UNO_SOAK=1`` many more, over several matches.
"""

from __future__ import annotations

import random
import signal
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import pytest
import trio
from e2e_client import Hub, Player, drive, seat_table, settle
from e2e_server import ServerProcess
from reliability_figures import SOAK, record

from protocol.messages import GameEvent, Ok

pytestmark = pytest.mark.e2e

NAMES = ["ann", "bob", "cat"]
OPTIONS = {"target_score": 150, "turn_seconds": 5, "decision_seconds": 5, "catch_grace_ms": 300}
KILLS = 40 if SOAK else 4
MATCHES = 3 if SOAK else 1


@dataclass
class Seat:
    """What one person holds when the server dies."""

    name: str
    token: str
    last_seq: int
    hand: list[str]
    acknowledged: int
    """The highest event number among the events of moves the server said ok to."""


def _acknowledged(player: Player) -> int:
    ok_ids = {reply_id for reply_id, reply in player.replies.items() if isinstance(reply, Ok)}
    caused = [
        frame.seq
        for frame in player.frames
        if isinstance(frame, GameEvent) and frame.cause in ok_ids
    ]
    return max(caused, default=0)


def _held(players: list[Player]) -> list[Seat]:
    seats = []
    for player in players:
        assert player.token is not None and player.view is not None
        seats.append(
            Seat(
                player.name,
                player.token,
                player.last_seq,
                sorted(player.hand),
                _acknowledged(player),
            )
        )
    return seats


async def _kill(server: ServerProcess) -> None:
    server.process.send_signal(signal.SIGKILL)
    await trio.to_thread.run_sync(server.process.wait)


async def _resume(
    port: int, seats: list[Seat], nursery: trio.Nursery, *, quiet: bool
) -> list[Player]:
    hub = Hub()
    players = []
    for seat in seats:
        player = await Player.connect(
            port, seat.name, hub, resume_token=seat.token, last_seq=seat.last_seq
        )
        assert player.welcome is not None and player.welcome.resumed, seat.name
        nursery.start_soon(player.read_forever)
        players.append(player)
    await hub.until(lambda: all(player.view is not None for player in players))
    for player, seat in zip(players, seats, strict=True):
        if quiet:
            assert sorted(player.hand) == seat.hand, f"{seat.name}'s hand changed"
        assert player.view is not None
        assert player.view["last_seq"] >= max(seat.last_seq, seat.acknowledged), "a move was lost"
        seqs = [event["seq"] for event in player.events]
        assert seqs == list(range(seat.last_seq + 1, seat.last_seq + 1 + len(seqs))), "a gap"
    return players


def _reached(players: list[Player], target: int) -> bool:
    return players[0].match_over or len(players[0].events) >= target


async def _one_match(tmp_path: Path, rng: random.Random, number: int) -> dict[str, int]:
    state = tmp_path / f"match-{number}.sqlite3"
    server = ServerProcess.start(tmp_path, "--restart-grace", "30", state=state, seed=number)
    kills = moves = quiet_kills = 0
    try:
        async with trio.open_nursery() as nursery:
            players, _ = await seat_table(server.port, nursery, NAMES, options=OPTIONS)
            while True:
                target = len(players[0].events) + rng.randint(3, 40)
                moves += await drive(players, partial(_reached, players, target), rng)
                if players[0].match_over or kills >= KILLS:
                    break
                # Sometimes when all is quiet, sometimes with moves and views in flight.
                quiet = rng.random() < 0.5
                if quiet:
                    await settle(players)
                seats = _held(players)
                await _kill(server)
                kills += 1
                for player in players:
                    await player.close()
                server = ServerProcess.start(
                    tmp_path, "--restart-grace", "30", state=state, seed=number
                )
                players = await _resume(server.port, seats, nursery, quiet=quiet)
                quiet_kills += quiet
            # Until every seat has heard the end: the last views reach the seats one by one.
            await drive(players, lambda: all(player.match_over for player in players), rng)
            assert all(not player.unexpected_rejections for player in players)
            nursery.cancel_scope.cancel()
    finally:
        server.stop()
    return {"kills": kills, "quiet_kills": quiet_kills, "moves": moves}


async def test_matches_survive_being_killed_again_and_again(tmp_path: Path) -> None:
    rng = random.Random(11)
    totals = {"kills": 0, "quiet_kills": 0, "moves": 0, "matches": 0}
    with trio.fail_after(600 if SOAK else 120):
        for number in range(MATCHES):
            for key, value in (await _one_match(tmp_path, rng, number + 1)).items():
                totals[key] += value
            totals["matches"] += 1
    assert totals["kills"] >= 1, "the server was never killed: the match ended first"
    record("restarts", **totals)
