"""The history and standings over the protocol (1.2) from a real server: a page of the
standings and of the latest matches, paged, and refused where they cannot be answered."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import trio
from e2e_client import Player, drive, seat_table
from e2e_server import ServerProcess

from protocol.codec import encode_body
from protocol.framing import encode_frame
from protocol.messages import (
    GetStandings,
    ListMatches,
    MatchList,
    Ok,
    Rejected,
    Rematch,
    Standings,
    StandingsPeriod,
)

pytestmark = pytest.mark.e2e

NEW = ("1.0", "1.1", "1.2")


def last_of(player: Player, kind: type) -> object:
    found = [frame for frame in player.frames if isinstance(frame, kind)]
    assert found, f"no {kind.__name__} arrived"
    return found[-1]


async def test_the_lobby_pages_the_standings_and_the_latest_matches(tmp_path: Path) -> None:
    server = ServerProcess.start(tmp_path)
    try:
        with trio.fail_after(90):
            async with trio.open_nursery() as nursery:
                players, _ = await seat_table(server.port, nursery, ["ann", "bob"], bots=1)
                await drive(players, lambda: players[0].match_over, random.Random(3))
                await players[0].ok(lambda id_: Rematch(id=id_))
                await players[0].hub.until(lambda: not players[0].match_over)
                await drive(players, lambda: players[0].match_over, random.Random(4))

                reader = await Player.connect(server.port, "reader", versions=NEW)
                nursery.start_soon(reader.read_forever)
                await reader.ok(lambda id_: GetStandings(id=id_, limit=2))
                first = last_of(reader, Standings)
                assert isinstance(first, Standings) and first.next_cursor is not None
                cursor = first.next_cursor
                await reader.ok(lambda id_: GetStandings(id=id_, cursor=cursor, limit=2))
                second = last_of(reader, Standings)
                assert isinstance(second, Standings) and second.next_cursor is None
                board = first.players + second.players
                assert [s.bot for s in board] == [False, False, True]
                assert {s.name for s in board if not s.bot} == {"ann", "bob"}
                assert all(s.matches == 2 for s in board)
                assert sum(s.wins for s in board) == 2

                await reader.ok(
                    lambda id_: GetStandings(id=id_, period=StandingsPeriod.WEEK, limit=10)
                )
                week = last_of(reader, Standings)
                assert isinstance(week, Standings) and week.period is StandingsPeriod.WEEK
                assert week.players == board

                await reader.ok(lambda id_: ListMatches(id=id_, limit=1))
                latest = last_of(reader, MatchList)
                assert isinstance(latest, MatchList) and latest.next_cursor is not None
                cursor = latest.next_cursor
                await reader.ok(lambda id_: ListMatches(id=id_, cursor=cursor, limit=5))
                older = last_of(reader, MatchList)
                assert isinstance(older, MatchList) and older.next_cursor is None
                (newest,) = latest.matches
                (oldest,) = older.matches
                assert newest.finished_at >= oldest.finished_at
                for match in (newest, oldest):
                    assert match.table == "e2e" and match.deck == "classic"
                    assert match.options.target_score == 60
                    assert [p.name for p in match.players][:2] == ["ann", "bob"]
                    assert len(match.winners) == 1
                    assert match.players[[p.name for p in match.players].index(match.winners[0])]

                refused = await reader.request(lambda id_: ListMatches(id=id_, cursor="x"))
                assert isinstance(refused, Rejected) and refused.code == "bad-cursor"
                nursery.cancel_scope.cancel()
    finally:
        server.stop()


async def test_a_server_without_a_journal_says_it_keeps_no_history(tmp_path: Path) -> None:
    """No standings; its match list holds only the records it keeps in memory (1.3,
    tests/e2e/test_replay_fetch.py), none before a match has finished."""
    server = ServerProcess.start(tmp_path, "--no-state")
    try:
        with trio.fail_after(30):
            async with trio.open_nursery() as nursery:
                reader = await Player.connect(server.port, "reader", versions=NEW)
                nursery.start_soon(reader.read_forever)
                reply = await reader.request(lambda id_: GetStandings(id=id_))
                assert isinstance(reply, Rejected) and reply.code == "no-history"
                assert not any(isinstance(f, Standings) for f in reader.frames)
                await reader.ok(lambda id_: ListMatches(id=id_))
                (listed,) = [f for f in reader.frames if isinstance(f, MatchList)]
                assert listed.matches == () and listed.next_cursor is None
                nursery.cancel_scope.cancel()
    finally:
        server.stop()


@pytest.mark.parametrize("version", ["1.0", "1.1"])
async def test_an_older_connection_has_no_history_messages(tmp_path: Path, version: str) -> None:
    server = ServerProcess.start(tmp_path)
    try:
        with trio.fail_after(30):
            old = await Player.connect(server.port, "old", versions=(version,))
            assert old.welcome is not None and old.welcome.version == version
            # Its own connection would refuse to send it: written as raw bytes.
            frame = encode_frame(encode_body({"type": "get-standings", "id": 1}))
            await old.stream.send_all(frame)
            while await old.receive() is not None:
                pass
            assert old.error is not None and old.error.code == "unknown-message"
            assert not any(isinstance(f, Ok | Standings) for f in old.frames)
    finally:
        server.stop()
