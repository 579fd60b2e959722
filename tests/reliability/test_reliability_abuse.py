"""Abuse: a flood, a client that never reads, a thousand half-open connections, guessed
resume tokens, and terminal escape sequences in names and chat."""

from __future__ import annotations

import contextlib
import random
import secrets
from pathlib import Path

import trio
from e2e_client import FAST_OPTIONS, Hub, Player, drive, seat_table
from e2e_server import ServerProcess
from reliability_clients import connect_raw, connect_slow, unprintable
from reliability_figures import record, rss_kib
from reliability_fuzz import read_answer

from protocol.codec import encode_body
from protocol.framing import encode_frame
from protocol.limits import clean_text
from protocol.messages import (
    AddBot,
    Chat,
    ChatMessage,
    CreateTable,
    Error,
    GameEvent,
    GameView,
    Hello,
    Join,
    Joined,
    ListTables,
    Ok,
    Ping,
    Pong,
    Rejected,
    ResumeSeat,
    Start,
    Welcome,
)
from protocol.options import TableOptions


def _log_lines(server: ServerProcess, *words: str) -> list[str]:
    return [line for line in server.log_text().splitlines() if all(w in line for w in words)]


async def test_a_flooding_client_is_cut_off_by_its_allowance_while_a_table_plays(
    tmp_path: Path,
) -> None:
    server = ServerProcess.start(tmp_path, "--allowance", "200", "400")
    try:
        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                players, _ = await seat_table(server.port, nursery, ["ann", "bob"], bots=1)
                match_over = trio.Event()

                async def play() -> None:
                    await drive(players, lambda: players[0].match_over, random.Random(8))
                    match_over.set()

                nursery.start_soon(play)
                flooder = await Player.connect(server.port, "flood")
                nursery.start_soon(flooder.read_forever)
                # Pongs ask for no answer: nothing but the allowance can stop them (pings
                # would fill the flooder's outbox with pongs first, and it would be cut as
                # too slow rather than as a flood).
                batch = b"".join(flooder.conn.send(Pong(nonce=n)) for n in range(100))
                sent = 0
                with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                    while not flooder.closed:
                        await flooder.stream.send_all(batch)
                        sent += 100
                await flooder.hub.until(lambda: flooder.closed)
                await match_over.wait()
                assert flooder.error is not None
                assert flooder.error.code == "rate-limited"
                assert [p.unexpected_rejections for p in players] == [[], []]
                assert not any(player.closed for player in players)
                nursery.cancel_scope.cancel()
    finally:
        server.stop()
    assert _log_lines(server, "'flood'", "rate-limited")
    record("flood", messages_written=sent, answer=flooder.error.code, allowance=[200, 400])


async def test_a_client_that_never_reads_is_cut_off_and_may_resume(tmp_path: Path) -> None:
    server = ServerProcess.start(tmp_path, "--allowance", "100000", "100000")
    try:
        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                hub = Hub()
                loud = await Player.connect(server.port, "loud", hub)
                nursery.start_soon(loud.read_forever)
                sloth = await connect_slow(server.port, "sloth", hub)
                reading = trio.CancelScope()

                async def read_while_allowed() -> None:
                    with reading:
                        await sloth.read_forever()

                nursery.start_soon(read_while_allowed)
                created = await loud.ok(
                    lambda id_: CreateTable(id=id_, name="den", options=TableOptions())
                )
                await sloth.ok(lambda id_: Join(id=id_, table_id=created["table_id"]))
                await loud.ok(lambda id_: Start(id=id_))
                await hub.until(lambda: sloth.view is not None)
                reading.cancel()  # from here on, sloth reads nothing
                rss_before = rss_kib(server.process.pid)
                seat, token = sloth.seat, sloth.token

                def sloth_away() -> bool:
                    return any(e["kind"] == "away" and e["seat"] == seat for e in loud.events)

                lines = 0
                while not sloth_away():
                    batch = [
                        Chat(id=loud.conn.next_request_id(), text="z" * 200) for _ in range(32)
                    ]
                    for chat in batch:
                        await loud.send(chat)
                    await hub.until(lambda b=batch: all(c.id in loud.replies for c in b))  # type: ignore[misc]
                    for chat in batch:
                        loud.replies.pop(chat.id)
                    lines += len(batch)
                rss_after = rss_kib(server.process.pid)
                # What was buffered before the cut is still there to read, then the end.
                await sloth.read_forever()
                assert sloth.closed
                assert token is not None
                back = await Player.connect(
                    server.port, "sloth", hub, resume_token=token, last_seq=sloth.last_seq
                )
                nursery.start_soon(back.read_forever)
                assert back.welcome is not None
                assert back.welcome.resumed
                await hub.until(lambda: back.view is not None)
                assert back.seat == seat
                nursery.cancel_scope.cancel()
    finally:
        server.stop()
    assert _log_lines(server, "'sloth'", "too-slow")
    assert rss_after < 2 * rss_before + 20 * 1024
    record(
        "never-reads",
        chat_lines_until_cut=lines,
        rss_kib={"before": rss_before, "after_the_cut": rss_after},
    )


async def test_a_reading_client_that_pipelines_300_pings_gets_300_pongs(tmp_path: Path) -> None:
    server = ServerProcess.start(tmp_path)  # an allowance of 2000 at once: not the limit
    try:
        with trio.fail_after(30):
            pinger = await Player.connect(server.port, "pinger")
            async with trio.open_nursery() as nursery:
                nursery.start_soon(pinger.read_forever)
                await pinger.stream.send_all(
                    b"".join(pinger.conn.send(Ping(nonce=n)) for n in range(300))
                )

                def pongs() -> int:
                    return sum(isinstance(frame, Pong) for frame in pinger.frames)

                await pinger.hub.until(lambda: pinger.closed or pongs() == 300)
                assert pinger.error is None, pinger.error
                assert pongs() == 300
                nursery.cancel_scope.cancel()
    finally:
        server.stop()


HALF_OPEN = 1000


async def test_a_thousand_half_open_connections_never_keep_another_address_out(
    tmp_path: Path,
) -> None:
    server = ServerProcess.start(tmp_path, "--handshake-seconds", "1", "--log-level", "INFO")
    endings: dict[str, int] = {}
    try:
        with trio.fail_after(90):
            async with trio.open_nursery() as nursery:
                opened = trio.Semaphore(0)
                limit = trio.CapacityLimiter(200)

                async def half_open(number: int) -> None:
                    async with limit:
                        stream = await trio.open_tcp_stream("127.0.0.1", server.port)
                    if number % 2:  # the start of a hello, never finished
                        hello = encode_frame(encode_body({"type": "hello", "versions": ["1.0"]}))
                        with contextlib.suppress(trio.BrokenResourceError):
                            await stream.send_all(hello[:6])
                    opened.release()
                    frames = []
                    with contextlib.suppress(trio.BrokenResourceError):
                        frames = (await read_answer(stream)).frames
                    code = frames[-1].get("code", "?") if frames else "closed"
                    endings[code] = endings.get(code, 0) + 1
                    await stream.aclose()

                for number in range(HALF_OPEN):
                    nursery.start_soon(half_open, number)
                for _ in range(HALF_OPEN):
                    await opened.acquire()
                # Every half-open connection is open (or already refused): now a player
                # from another address joins, plays a match with a bot, and is served.
                stream = await trio.open_tcp_stream(
                    "127.0.0.1", server.port, local_address="127.0.0.2"
                )
                guest = Player(stream, "guest", Hub())
                await guest.send(Hello(versions=("1.0",), name="guest"))
                assert isinstance(await guest.receive(), Welcome)
                still_half_open = HALF_OPEN - sum(endings.values())
                nursery.start_soon(guest.read_forever)
                options = {**FAST_OPTIONS, "seats": 2}
                await guest.ok(
                    lambda id_: CreateTable(id=id_, name="g", options=TableOptions.parse(options))
                )
                await guest.ok(lambda id_: AddBot(id=id_, strategy="basic"))
                await guest.ok(lambda id_: Start(id=id_))
                await drive([guest], lambda: guest.match_over, random.Random(6))
                assert guest.unexpected_rejections == []
                await guest.close()
    finally:
        server.stop()
    assert sum(endings.values()) == HALF_OPEN
    # Each was refused at once (the address had its share) or cut at the handshake
    # deadline, and told which with a typed error.
    assert set(endings) <= {"server-full", "handshake-timeout"}, endings
    assert endings.get("server-full", 0) > 0
    refused = _log_lines(server, "refused a connection from 127.0.0.1")
    assert not _log_lines(server, "refused a connection from 127.0.0.2")
    record(
        "half-open",
        connections=HALF_OPEN,
        endings=endings,
        refusals_logged=len(refused),
        still_half_open_when_the_guest_was_welcomed=still_half_open,
    )


async def test_guessed_resume_tokens_never_take_a_seat(tmp_path: Path) -> None:
    server = ServerProcess.start(tmp_path)
    guesses = 0
    try:
        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                players, _ = await seat_table(server.port, nursery, ["ann", "bob"])
                await drive(players, lambda: len(players[0].events) > 10, random.Random(2))
                real = players[1].token
                assert real is not None
                rng = random.Random(11)
                candidates = [secrets.token_urlsafe(24) for _ in range(200)]
                candidates += [_near_miss(real, rng) for _ in range(200)]
                candidates += [real.upper(), real.lower(), real[:-1], real + "A", real[::-1]]
                candidates += [" " + real, real + "\x00", real[:12], ""]
                candidates = [c for c in candidates if c != real and 0 < len(c) <= 128]
                thief = await Player.connect(server.port, "thief")
                nursery.start_soon(thief.read_forever)
                for guess in candidates:
                    reply = await thief.request(
                        lambda id_, g=guess: ResumeSeat(id=id_, token=g, last_seq=0)  # type: ignore[misc]
                    )
                    assert isinstance(reply, Rejected), reply
                    assert reply.code == "bad-token"
                    guesses += 1
                for guess in candidates[:100]:
                    spy = await Player.connect(server.port, "spy", resume_token=guess, last_seq=0)
                    assert spy.welcome is not None
                    assert not spy.welcome.resumed
                    await spy.close()
                    guesses += 1
                assert not [f for f in thief.frames if isinstance(f, GameEvent | GameView | Joined)]
                assert isinstance(await thief.request(lambda id_: ListTables(id=id_)), Ok)
                # The owners never noticed: nobody was marked away, and play goes on.
                assert not any(e["kind"] == "away" for e in players[0].events)
                await drive(players, lambda: players[0].match_over, random.Random(3))
                assert not any(player.closed for player in players)
                nursery.cancel_scope.cancel()
    finally:
        server.stop()
    record("guessed-tokens", guesses=guesses, seats_taken=0)


def _near_miss(token: str, rng: random.Random) -> str:
    """``token`` with one character changed."""
    where = rng.randrange(len(token))
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    other = rng.choice(alphabet.replace(token[where], ""))
    return token[:where] + other + token[where + 1 :]


NASTY_NAME = "\x1b]0;owned\x07mal\x1b[31m\u202e"
NASTY_CHAT = [
    "\x1b[2J\x1b[Hclear screen",
    "bell\x07\x07 and \x1b]2;title\x1b\\ title",
    "\x9b31mC1 red\x9bm and \x1bP+q\x1b\\ DCS",
    "line\r\nbreak\ttab\x00nul\x7fdel",
    "\u202eevil bidi\u2066 \x1b[?1049h alt screen",
]


async def test_names_and_chat_with_escape_sequences_reach_nobody_intact(tmp_path: Path) -> None:
    server = ServerProcess.start(tmp_path)
    try:
        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                hub = Hub()
                ann, ann_raw = await connect_raw(server.port, "ann", hub)
                nursery.start_soon(ann.read_forever)
                mal, _ = await connect_raw(server.port, NASTY_NAME, hub)
                nursery.start_soon(mal.read_forever)
                assert isinstance(await ann.request(lambda id_: ListTables(id=id_)), Ok)
                for text in NASTY_CHAT:  # in the lobby
                    await mal.ok(lambda id_, t=text: Chat(id=id_, text=t))  # type: ignore[misc]
                created = await mal.ok(
                    lambda id_: CreateTable(
                        id=id_, name="\x1b[5mden\x1b[0m\x07", options=TableOptions()
                    )
                )
                await ann.ok(lambda id_: Join(id=id_, table_id=created["table_id"]))
                for text in NASTY_CHAT:  # at the table
                    await mal.ok(lambda id_, t=text: Chat(id=id_, text=t))  # type: ignore[misc]
                await hub.until(
                    lambda: (
                        sum(isinstance(f, ChatMessage) for f in ann.frames) >= 2 * len(NASTY_CHAT)
                    )
                )
                nursery.cancel_scope.cancel()
    finally:
        server.stop()
    chats = [f for f in ann.frames if isinstance(f, ChatMessage)]
    assert [c.text for c in chats] == [clean_text(text) for text in NASTY_CHAT] * 2
    assert {c.sender for c in chats} == {clean_text(NASTY_NAME)} == {"mal"}
    # What reached ann, byte for byte, before any check of its own could clean it:
    assert unprintable(ann_raw.raw_bodies) == []
    assert any("mal" in str(body) for body in ann_raw.raw_bodies if body["type"] == "table-state")
    # The check is evidence only if it can fail: it does see what mallory sent.
    assert len(unprintable([NASTY_NAME, *NASTY_CHAT])) == len(NASTY_CHAT) + 1
    errors = [f for f in ann.frames + mal.frames if isinstance(f, Error)]
    assert errors == []
    record("escapes", chat_lines=len(chats), raw_frames_checked=len(ann_raw.raw_bodies))
