"""A replay fetched over the protocol (``get-replay``, 1.3): a real server plays a match to
its end, and the client's pages join into exactly the bytes ``uno-server replay`` writes
for it; an unkept match and a bad cursor are refused with their codes, and a 1.2 peer
has no such message."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import trio
from e2e_client import Player, drive, seat_table
from e2e_server import ServerProcess

from client.replay_fetch import ReplayFetchError, fetch_replay
from client.session import connect
from protocol.codec import encode_body
from protocol.framing import encode_frame
from protocol.messages import GetReplay, GetStandings, ListMatches, StandingsPeriod
from protocol.replay_file import read_replay


async def play_a_match(server: ServerProcess) -> None:
    async with trio.open_nursery() as nursery:
        players, _ = await seat_table(
            server.port, nursery, ["ann", "bob"], options={"target_score": 100}, bots=1
        )
        await drive(players, lambda: all(p.match_over for p in players), random.Random(3))
        nursery.cancel_scope.cancel()


def written_by_the_server(state: Path, match_id: int, out: Path) -> bytes:
    command = [sys.executable, "-m", "server", "replay", str(match_id), "--out", str(out)]
    command += ["--state", str(state)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return out.read_bytes()


async def test_the_fetched_pages_are_the_file_uno_server_replay_writes(tmp_path: Path) -> None:
    server = ServerProcess.start(tmp_path)
    state = server.state
    assert state is not None
    try:
        with trio.fail_after(120):
            await play_a_match(server)
            async with connect("127.0.0.1", server.port, "reader") as session:
                await session.request(ListMatches(id=session.next_id(), limit=1))
                assert session.match_list is not None
                (match,) = session.match_list.matches
                assert match.match_id is not None
                match_id = match.match_id
                fetched_id, whole = await fetch_replay(session, match_id)
                paged_id, paged = await fetch_replay(session, match_id, lines_per_page=7)
                table_id, by_table = await fetch_replay(session, table_id=match.table_id)
                unkept = await session.request(GetReplay(id=session.next_id(), match_id=999))
                bad = await session.request(
                    GetReplay(id=session.next_id(), match_id=match_id, cursor="99.0")
                )
                try:
                    await fetch_replay(session, match_id + 1)
                except ReplayFetchError as error:
                    refused = error.code
                else:
                    refused = None
        file_bytes = written_by_the_server(state, match_id, tmp_path / "match.jsonl")
    finally:
        server.stop()

    assert whole.encode("utf-8") == file_bytes
    assert paged == whole == by_table
    assert fetched_id == paged_id == table_id == match_id
    lines = whole.splitlines()
    assert len(lines) > 3 * 7  # the small pages were many
    replay = read_replay(lines)
    assert replay.match_id == match_id and replay.events[-1].kind == "match-over"
    assert (unkept.ok, unkept.code) == (False, "no-replay")
    assert (bad.ok, bad.code) == (False, "bad-cursor")
    assert refused == "no-replay"


async def test_a_1_2_peer_has_no_get_replay(tmp_path: Path) -> None:
    server = ServerProcess.start(tmp_path)
    try:
        with trio.fail_after(30):
            old = await Player.connect(server.port, "old", versions=("1.2",))
            assert old.welcome is not None and old.welcome.version == "1.2"
            # Its own connection would refuse to send it: written as raw bytes.
            frame = encode_frame(encode_body({"type": "get-replay", "id": 1, "match_id": 1}))
            await old.stream.send_all(frame)
            while await old.receive() is not None:
                pass
            assert old.error is not None and old.error.code == "unknown-message"
    finally:
        server.stop()


async def test_a_no_state_server_lists_the_matches_it_keeps_and_gives_them_by_id(
    tmp_path: Path,
) -> None:
    server = ServerProcess.start(tmp_path, "--no-state")
    try:
        with trio.fail_after(120):
            await play_a_match(server)
            await play_a_match(server)
            async with connect("127.0.0.1", server.port, "reader") as session:
                standings = await session.request(
                    GetStandings(id=session.next_id(), period=StandingsPeriod.ALL)
                )
                await session.request(ListMatches(id=session.next_id(), limit=1))
                assert session.match_list is not None
                (latest,) = session.match_list.matches
                cursor = session.match_list.next_cursor
                assert cursor is not None
                await session.request(ListMatches(id=session.next_id(), cursor=cursor))
                (earlier,) = session.match_list.matches
                last_page_cursor = session.match_list.next_cursor
                assert latest.match_id is not None and earlier.match_id is not None
                fetched_id, whole = await fetch_replay(session, latest.match_id)
                _, by_table = await fetch_replay(session, table_id=latest.table_id)
                _, first = await fetch_replay(session, earlier.match_id)
    finally:
        server.stop()

    assert (standings.ok, standings.code) == (False, "no-history")  # still no standings
    assert (latest.match_id, earlier.match_id) == (2, 1)  # the server's own ids, latest first
    assert last_page_cursor is None
    assert fetched_id == 2 and whole == by_table
    for record, text in ((latest, whole), (earlier, first)):
        replay = read_replay(text.splitlines())
        assert replay.match_id == record.match_id
        assert [p.name for p in replay.players] == [p.name for p in record.players]
        assert [p.score for p in replay.players] == [p.score for p in record.players]
        assert replay.winners == record.winners and record.winners
        assert replay.events[-1].kind == "match-over"
    assert whole != first
