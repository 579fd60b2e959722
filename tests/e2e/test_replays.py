"""A finished match's replay, end to end: a real server plays a seeded ``party`` match
(house rules) watched by a 1.3 spectator from the start; ``uno-server replay`` then
writes the match's file, whose events are exactly the spectator's (no hand before its
round's end) and whose header names the players and their final scores."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import trio
from e2e_client import Hub, Player, basic_policy, drive, seat_table, settle
from e2e_server import ServerProcess

from protocol.messages import Spectate, Start
from protocol.options import preset_options
from protocol.replay_file import read_replay
from protocol.version import SUPPORTED_VERSIONS

PARTY = preset_options("party", {"target_score": 300})


def replay_command(state: Path, *words: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "server", "replay", *words, "--state", str(state)]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


def history(state: Path) -> dict[str, Any]:
    command = [sys.executable, "-m", "server", "history", "--json", "--state", str(state)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=True)
    return dict(json.loads(done.stdout))


def jumping_policy(player: Player, rng: random.Random) -> dict[str, Any] | None:
    """As ``basic_policy``, but off its turn a seat jumps in whenever its view offers it
    (a jump-in is the house rule that comes up least by itself)."""
    view = player.view
    if view is not None and view.get("to_act") != view.get("seat"):
        jumps = [data for data in player.legal() if data["type"] == "play"]
        if jumps:
            return rng.choice(jumps)
    return basic_policy(player, rng)


async def play_watched_match(server: ServerProcess) -> tuple[list[Player], Player]:
    """Three 1.3 people and a bot at a party table, a 1.3 spectator there before the deal;
    played to the match's end, jumping in whenever a seat may."""
    async with trio.open_nursery() as nursery:
        players, _ = await seat_table(
            server.port, nursery, ["ann", "bob", "cy"], options=PARTY, bots=1, start=False,
            versions=[SUPPORTED_VERSIONS] * 3,
        )  # fmt: skip
        watcher = await Player.connect(
            server.port, "watcher", players[0].hub, versions=SUPPORTED_VERSIONS
        )
        nursery.start_soon(watcher.read_forever)
        assert players[0].table_id is not None
        table_id = players[0].table_id
        await watcher.ok(lambda id_: Spectate(id=id_, table_id=table_id))
        await players[0].ok(lambda id_: Start(id=id_))
        await drive(
            players,
            lambda: watcher.match_over and all(p.match_over for p in players),
            random.Random(28),
            jumping_policy,
        )
        nursery.cancel_scope.cancel()
    return players, watcher


async def test_the_replay_of_a_match_is_what_its_spectator_saw(tmp_path: Path) -> None:
    server = ServerProcess.start(tmp_path)
    state = server.state
    assert state is not None
    try:
        with trio.fail_after(120):
            players, watcher = await play_watched_match(server)
        out = tmp_path / "match.jsonl"
        (match,) = history(state)["matches"]
        match_id = int(match["match_id"])
        done = replay_command(state, str(match_id), "--out", str(out))
        assert done.returncode == 0, done.stderr
        again = replay_command(state, str(match_id), "--out", str(out))
        assert again.returncode == 1 and "exists" in again.stderr  # never over a file
        missing = replay_command(state, str(match_id + 1), "--out", str(tmp_path / "no"))
        assert missing.returncode == 1 and "no replay of match" in missing.stderr
    finally:
        server.stop()

    replay = read_replay(out.read_text(encoding="utf-8").splitlines())
    assert replay.match_id == match_id
    assert [event.to_data() for event in replay.events] == watcher.events
    kinds = {event["kind"] for event in watcher.events}
    assert {"round-started", "played", "drew", "round-over", "match-over"} <= kinds
    assert [p.name for p in replay.players][:3] == ["ann", "bob", "cy"]
    final = replay.events[-1].to_data()
    assert final["kind"] == "match-over"
    assert [p.score for p in replay.players] == final["scores"]
    assert replay.config.to_data()["jump_in"] is True
    assert all(len(done.hands) == len(replay.players) for done in replay.rounds())
    assert len(replay.rounds()) == sum(1 for k in watcher.event_kinds() if k == "round-over")
    assert any(not p.bot for p in replay.players) and any(p.bot for p in replay.players)
    # Every secret a player was sent (its drawn cards, its hand) is missing from the
    # record's event of the same number.
    recorded = {event.seq: event.to_data() for event in replay.events}
    secrets = [
        (event["seq"], key)
        for player in players
        for event in player.events
        for key in ("cards", "hand")
        if key in event
    ]
    assert secrets, "the players were sent no secret: the check would prove nothing"
    assert all(key not in recorded[seq] for seq, key in secrets)


async def test_a_match_rebuilt_after_a_kill_keeps_one_whole_record(tmp_path: Path) -> None:
    """Killed mid-match and started again on its journal: the record is the events the
    first spectator saw before the kill, then those a new one saw after, without a gap."""
    rng = random.Random(6)
    first = ServerProcess.start(tmp_path, "--restart-grace", "30")
    state = first.state
    assert state is not None
    options = {"target_score": 150, "turn_seconds": 0}
    try:
        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                players, (before,) = await seat_table(
                    first.port, nursery, ["ann", "bob"], options=options, spectators=1
                )
                await drive(players, lambda: len(players[0].events) > 60, rng)
                await settle(players)
                held = [(p.name, p.token, p.last_seq) for p in players]
                first.process.send_signal(signal.SIGKILL)
                first.process.wait()
                nursery.cancel_scope.cancel()
    finally:
        first.stop()
    again = ServerProcess.start(tmp_path, "--restart-grace", "30", state=state)
    try:
        with trio.fail_after(90):
            async with trio.open_nursery() as nursery:
                hub = Hub()
                back = []
                for name, token, last_seq in held:
                    player = await Player.connect(
                        again.port, name, hub, resume_token=token, last_seq=last_seq
                    )
                    nursery.start_soon(player.read_forever)
                    back.append(player)
                after = await Player.connect(again.port, "late", hub, versions=SUPPORTED_VERSIONS)
                nursery.start_soon(after.read_forever)
                await hub.until(lambda: all(p.view is not None for p in back))
                table_id = back[0].table_id
                assert table_id is not None
                await after.ok(lambda id_: Spectate(id=id_, table_id=table_id))
                await drive(back, lambda: after.match_over and back[0].match_over, rng)
                nursery.cancel_scope.cancel()
        (match,) = history(state)["matches"]
        out = tmp_path / "rebuilt.jsonl"
        done = replay_command(state, str(match["match_id"]), "--out", str(out))
        assert done.returncode == 0, done.stderr
    finally:
        again.stop()
    replay = read_replay(out.read_text(encoding="utf-8").splitlines())
    recorded = [event.to_data() for event in replay.events]
    assert [event["seq"] for event in recorded] == list(range(1, len(recorded) + 1))
    assert recorded[: len(before.events)] == before.events
    assert after.events and recorded[-len(after.events) :] == after.events
    assert recorded[-1]["kind"] == "match-over"
