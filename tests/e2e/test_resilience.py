"""Connections that fail or come back: resume with the token, a wrong token, bad frames and
a wrong version while another table plays on, and SIGTERM."""

from __future__ import annotations

import random
import signal
from pathlib import Path

import pytest
import trio
from e2e_client import Hub, Player, drive, seat_table, settle
from e2e_secrets import leaks
from e2e_server import ServerProcess

from protocol.codec import encode_body
from protocol.framing import encode_frame
from protocol.messages import (
    Closing,
    Error,
    GameEvent,
    GameView,
    Hello,
    Joined,
    ListTables,
    Ok,
    Rejected,
    ResumeSeat,
)
from protocol.version import SUPPORTED_VERSIONS


def _merged(old: Player, new: Player) -> Player:
    """One player's whole story across two connections (for the secrecy checks)."""
    new.frames = old.frames + new.frames
    new.events = old.events + new.events
    return new


@pytest.mark.parametrize("how", ["resume-command", "hello-token"])
async def test_a_reconnect_with_the_token_resumes_the_same_hand_without_a_gap(
    uno_server: ServerProcess, how: str
) -> None:
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            players, _ = await seat_table(uno_server.port, nursery, ["ann", "bob", "cat"])
            rng = random.Random(3)
            await drive(players, lambda: len(players[0].events) > 30, rng)
            await settle(players)
            leaver = players[1]
            token, seat, last_seq = leaver.token, leaver.seat, leaver.last_seq
            hand_when_leaving = sorted(leaver.hand)
            await leaver.close()
            # The others play on; a server bot plays the empty seat meanwhile.
            others = [players[0], players[2]]
            await drive(others, lambda: len(players[0].events) > last_seq + 20, rng)
            await settle(others)
            assert any(e["kind"] == "away" and e["seat"] == seat for e in players[0].events)

            hub = players[0].hub  # the driver below must hear this connection too
            if how == "hello-token":
                back = await Player.connect(
                    uno_server.port, "bob", hub, resume_token=token, last_seq=last_seq
                )
                assert back.welcome is not None
                assert back.welcome.resumed
                nursery.start_soon(back.read_forever)
            else:
                back = await Player.connect(uno_server.port, "bob", hub)
                nursery.start_soon(back.read_forever)
                assert token is not None
                reply = await back.request(
                    lambda id_: ResumeSeat(id=id_, token=token, last_seq=last_seq)
                )
                assert isinstance(reply, Ok), reply
            await hub.until(lambda: back.view is not None)
            assert back.seat == seat
            seqs = [frame.seq for frame in back.frames if isinstance(frame, GameEvent)]
            assert seqs[0] == last_seq + 1
            assert seqs == list(range(last_seq + 1, last_seq + 1 + len(seqs)))
            whole = _merged(leaver, back)
            # The hand rebuilt from the events before and after the break equals the view.
            assert leaks([players[0], whole, players[2]]) == []
            if not any(e.get("seat") == seat for e in back.events if e["kind"] != "turn"):
                assert sorted(back.hand) == hand_when_leaving
            players[1] = back
            await drive(players, lambda: players[0].match_over, rng)
            nursery.cancel_scope.cancel()


async def test_a_wrong_token_gets_nothing(uno_server: ServerProcess) -> None:
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            players, _ = await seat_table(uno_server.port, nursery, ["ann", "bob"])
            await drive(players, lambda: len(players[0].events) > 10, random.Random(1))
            thief = await Player.connect(uno_server.port, "eve")
            nursery.start_soon(thief.read_forever)
            forged = (players[1].token or "x")[::-1]
            reply = await thief.request(lambda id_: ResumeSeat(id=id_, token=forged, last_seq=0))
            assert isinstance(reply, Rejected)
            assert reply.code == "bad-token"
            with_hello = await Player.connect(
                uno_server.port, "eve2", resume_token=forged, last_seq=0
            )
            assert with_hello.welcome is not None
            assert not with_hello.welcome.resumed
            nursery.start_soon(with_hello.read_forever)
            # A later request is answered, and nothing of the table came before it.
            for spy in (thief, with_hello):
                assert isinstance(await spy.request(lambda id_: ListTables(id=id_)), Ok)
                assert not [f for f in spy.frames if isinstance(f, GameEvent | GameView | Joined)]
            nursery.cancel_scope.cancel()


_SHORT = b"\x82\xa4type"
_NEXT = encode_frame(encode_body({"type": "list-tables", "id": 1, "limit": 5}))
BAD_INPUTS = {
    "garbage": (b"\x00\x00\x00\x06\xc1\xc1\xc1\xc1\xc1\xc1", "malformed-frame"),
    "oversized": ((70_000).to_bytes(4, "big") + b"\x80" * 100, "frame-too-large"),
    # A header announcing a body as long as a short start plus the whole next frame: the
    # body swallows that frame and is no msgpack map.
    "truncated": (
        (len(_SHORT) + len(_NEXT)).to_bytes(4, "big") + _SHORT + _NEXT,
        "malformed-frame",
    ),
    "ext-type": (encode_frame(b"\x81\xa4type\xd6\xff\x00\x00\x00\x01"), "malformed-frame"),
}


async def _bad_client(port: int, data: bytes, before_hello: bool) -> Error:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    player = Player(stream, "mallory", Hub())
    if not before_hello:
        await player.send(Hello(versions=("1.0",), name="mallory"))
        await player.receive()
    await stream.send_all(data)
    frames = []
    while (message := await player.receive()) is not None:
        frames.append(message)
    assert player.closed
    assert isinstance(frames[-1], Error), frames
    return frames[-1]


async def test_bad_frames_and_a_wrong_version_are_refused_while_another_table_plays_on(
    uno_server: ServerProcess,
) -> None:
    with trio.fail_after(90):
        async with trio.open_nursery() as nursery:
            players, spectators = await seat_table(
                uno_server.port, nursery, ["ann", "bob"], bots=1, spectators=1
            )
            playing = trio.Event()

            async def play() -> None:
                await drive(players, lambda: players[0].match_over, random.Random(2))
                playing.set()

            nursery.start_soon(play)
            for name, (data, code) in BAD_INPUTS.items():
                error = await _bad_client(uno_server.port, data, before_hello=False)
                assert error.code == code, name
                error = await _bad_client(uno_server.port, data, before_hello=True)
                assert error.code == code, name
            wrong_version = encode_frame(
                encode_body({"type": "hello", "versions": ["2.0", "9.9"], "name": "old"})
            )
            error = await _bad_client(uno_server.port, wrong_version, before_hello=True)
            assert error.code == "unsupported-version"
            assert error.versions == SUPPORTED_VERSIONS
            second_hello = encode_frame(
                encode_body({"type": "hello", "versions": ["1.0"], "name": "again"})
            )
            error = await _bad_client(uno_server.port, second_hello, before_hello=False)
            assert error.code == "duplicate-hello"
            await playing.wait()
            assert [p.unexpected_rejections for p in players] == [[], []]
            assert not any(p.closed for p in players + spectators)
            assert leaks(players, spectators) == []
            nursery.cancel_scope.cancel()


async def test_sigterm_tells_the_clients_then_exits_cleanly(tmp_path: Path) -> None:
    server = ServerProcess.start(tmp_path, "--shutdown-seconds", "2")
    try:
        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                players, _ = await seat_table(server.port, nursery, ["ann", "bob"])
                await drive(players, lambda: len(players[0].events) > 10, random.Random(4))
                lurker = await Player.connect(server.port, "lurker")
                nursery.start_soon(lurker.read_forever)
                status = await trio.to_thread.run_sync(server.terminate)
                everyone = [*players, lurker]
                await players[0].hub.until(lambda: all(p.closed for p in players))
                await lurker.hub.until(lambda: lurker.closed)
                for player in everyone:
                    assert isinstance(player.frames[-1], Closing), player.frames[-1]
                assert status == 0
        rest = server.rest_of_stdout()
        assert "reachable at: 127.0.0.1:" in rest
        log = server.log_text()
        assert "received SIGTERM" in log
        assert "the server has stopped" in log
    finally:
        server.stop()


async def test_sigint_stops_an_idle_server_with_status_zero(tmp_path: Path) -> None:
    server = ServerProcess.start(tmp_path)
    try:
        player = await Player.connect(server.port, "early")
        server.process.send_signal(signal.SIGINT)
        with trio.fail_after(30):
            assert [type(m) for m in [await player.receive(), await player.receive()]] == [
                Closing,
                type(None),
            ]
        assert await trio.to_thread.run_sync(server.process.wait, 30) == 0
        assert "received SIGINT" in server.log_text()
    finally:
        server.stop()
