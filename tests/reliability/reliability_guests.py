"""Guests from many addresses: clients bound to a chosen loopback address, the honest
table that must be served while they attack, and the figures of that.

All of 127.0.0.0/8 is loopback on Linux, so a client that binds its socket to 127.0.0.N
before it connects is, for the server, another machine: it has its own connection share,
table quota and chat budget.

- ``connect_from``: a ``TimedPlayer`` (a ``Player`` that times its game commands) from an
  address, saying hello with every protocol version (1.2 has ``kick`` with ``ban``);
  ``raw_name`` puts a name on the wire exactly as given, which the protocol's own client
  would have cleaned first.
- ``RawClient``: bytes and decoded frames only, for attackers that stop mid-frame.
- ``honest_table``: two people from two more addresses and a bot; ``play`` makes them
  play a number of moves, each timed from the command to its reply.
- ``bot_table``: a guest makes a table of itself and three bots, starts it and walks
  away, leaving the bots to play.
- ``RssWatch``: the server's resident memory, sampled, with its peak.
- ``commands_played``: how many commands the journal holds for tables, by name (read
  once the server has stopped: it holds the file's lock while it runs).
"""

from __future__ import annotations

import contextlib
import random
import socket
import sqlite3
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import trio
from e2e_client import FAST_OPTIONS, Hub, Player, drive
from reliability_figures import rss_kib

from protocol.codec import decode_body, encode_body
from protocol.framing import FrameDecoder, encode_frame
from protocol.messages import (
    AddBot,
    CreateTable,
    Error,
    Hello,
    Join,
    ListTables,
    Ok,
    Ping,
    Pong,
    Rejected,
    Start,
    TableList,
    Welcome,
)
from protocol.options import TableOptions
from protocol.version import SUPPORTED_VERSIONS

__all__ = [
    "HONEST",
    "RawClient",
    "RssWatch",
    "TimedPlayer",
    "attacker",
    "bot_table",
    "commands_played",
    "connect_from",
    "count_tables",
    "honest_table",
    "latency_ms",
    "open_from",
    "play",
]

HONEST = tuple(f"127.0.0.{number}" for number in range(100, 105))
"""The honest players' addresses; attackers use ``attacker(n)``, from 127.0.0.2 up."""


def attacker(number: int) -> str:
    """The address of attacking machine ``number`` (0 to 90)."""
    if not 0 <= number <= 90:
        raise ValueError(f"attacker {number} would collide with the honest addresses")
    return f"127.0.0.{number + 2}"


async def open_from(port: int, source: str, receive_buffer: int | None = None) -> trio.SocketStream:
    """A TCP stream to the server on 127.0.0.1 from the loopback address ``source``; with
    ``receive_buffer``, a socket that buffers at most about that many bytes unread."""
    sock = trio.socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    try:
        await sock.bind((source, 0))
        await sock.connect(("127.0.0.1", port))
    except BaseException:
        sock.close()
        raise
    return trio.SocketStream(sock)


class TimedPlayer(Player):
    """A Player that keeps how long each game command took to be answered, in seconds."""

    def __init__(self, stream: trio.SocketStream, name: str, hub: Hub) -> None:
        super().__init__(stream, name, hub)
        self.latencies: list[float] = []

    async def read_forever(self) -> None:
        """The background reader, which also answers the server's pings (a long test
        outlasts the idle timeout)."""
        while (message := await self.receive()) is not None:
            if isinstance(message, Ping) and not self.closed:
                frame = self.conn.send(Pong(nonce=message.nonce))
                while not self.closed:  # a flooding task may be writing at this moment
                    try:
                        await self.stream.send_all(frame)
                    except trio.BusyResourceError:
                        await trio.sleep(0.01)
                        continue
                    except (trio.BrokenResourceError, trio.ClosedResourceError):
                        pass
                    break

    async def game(self, data: dict[str, Any]) -> Ok | Rejected:
        began = trio.current_time()
        reply = await super().game(data)
        self.latencies.append(trio.current_time() - began)
        return reply


async def connect_from(
    port: int,
    source: str,
    name: str,
    hub: Hub | None = None,
    *,
    raw_name: bool = False,
    receive_buffer: int | None = None,
    resume_token: str | None = None,
    last_seq: int | None = None,
) -> TimedPlayer:
    """Connect from ``source`` and say hello; the welcome (or the error that refused the
    connection) is read here, before any reader task starts: see ``welcome``."""
    stream = await open_from(port, source, receive_buffer)
    player = TimedPlayer(stream, name, hub or Hub())
    hello = Hello(
        versions=SUPPORTED_VERSIONS, name=name, resume_token=resume_token, last_seq=last_seq
    )
    frame = player.conn.send(hello)  # moves the connection's state past the hello
    if raw_name:
        body = {"type": "hello", "versions": list(SUPPORTED_VERSIONS), "name": name}
        frame = encode_frame(encode_body(body))
    await player.stream.send_all(frame)
    answer = await player.receive()
    if isinstance(answer, Welcome):
        player.welcome = answer
    return player


async def count_tables(player: Player) -> int:
    """How many tables the server lists now (every page); ``player``'s reader must run."""
    cursor: str | None = None
    total = 0
    while True:
        before = len(player.frames)
        await player.ok(lambda id_, c=cursor: ListTables(id=id_, cursor=c))  # type: ignore[misc]
        page = [frame for frame in player.frames[before:] if isinstance(frame, TableList)][-1]
        total += len(page.tables)
        if page.next_cursor is None:
            return total
        cursor = page.next_cursor


async def honest_table(
    port: int, nursery: trio.Nursery, names: Sequence[str] = ("ann", "bob")
) -> list[TimedPlayer]:
    """Two people from ``HONEST``'s addresses: the first creates a table of three, the
    second joins, the first adds a bot and starts. Returns them with their readers running."""
    hub = Hub()
    people = [
        await connect_from(port, source, name, hub)
        for source, name in zip(HONEST, names, strict=False)
    ]
    for person in people:
        assert person.welcome is not None, f"{person.name} was refused: {person.error}"
        nursery.start_soon(person.read_forever)
    host, friend = people
    options = {**FAST_OPTIONS, "seats": 3, "target_score": 1000}
    created = await host.ok(
        lambda id_: CreateTable(id=id_, name="honest", options=TableOptions.parse(options))
    )
    await friend.ok(lambda id_: Join(id=id_, table_id=created["table_id"]))
    await host.ok(lambda id_: AddBot(id=id_, strategy="basic"))
    await host.ok(lambda id_: Start(id=id_))
    await hub.until(lambda: all(person.view is not None for person in people))
    return people


async def bot_table(
    port: int,
    source: str,
    name: str,
    nursery: trio.Nursery,
    *,
    bot_think_ms: int | None = None,
) -> TimedPlayer:
    """A guest makes a table of itself and three bots (at ``bot_think_ms``, if given),
    starts it and walks away: a bot stands in for it and the table plays on by itself.
    Returns the guest, hung up (its last table state says the pace the server chose)."""
    guest = await connect_from(port, source, name)
    nursery.start_soon(guest.read_forever)
    options = {**FAST_OPTIONS, "seats": 4, "target_score": 100_000}
    await guest.ok(
        lambda id_: CreateTable(
            id=id_, name=name, options=TableOptions.parse(options), bot_think_ms=bot_think_ms
        )
    )
    for _ in range(3):
        await guest.ok(lambda id_: AddBot(id=id_, strategy="basic"))
    await guest.ok(lambda id_: Start(id=id_))
    await guest.hub.until(lambda: guest.view is not None)
    await guest.close()
    return guest


async def play(people: Sequence[TimedPlayer], moves: int, seed: int = 1) -> int:
    """Play the people's seats for ``moves`` game commands (or to the match's end); every
    one must be answered and none refused unexpectedly. Returns the commands sent."""
    sent = await drive(
        people,
        lambda: sum(len(p.latencies) for p in people) >= moves or people[0].match_over,
        random.Random(seed),
    )
    assert [person.unexpected_rejections for person in people] == [[]] * len(people)
    assert not any(person.closed for person in people), [p.error for p in people]
    return sent


def latency_ms(people: Sequence[TimedPlayer]) -> dict[str, float | int]:
    """p50 and p99 of the people's command-to-reply times, in milliseconds."""
    times = sorted(t * 1000 for person in people for t in person.latencies)
    if len(times) < 2:
        return {"commands": len(times)}
    cuts = statistics.quantiles(times, n=100, method="inclusive")
    return {"commands": len(times), "p50": round(cuts[49], 2), "p99": round(cuts[98], 2)}


class RawClient:
    """A connection that writes bytes as given and decodes whatever comes back."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.frames: list[dict[str, Any]] = []
        self.closed = False
        self._decoder = FrameDecoder()

    @classmethod
    async def open(cls, port: int, source: str, receive_buffer: int | None = None) -> RawClient:
        return cls(await open_from(port, source, receive_buffer))

    async def send(self, data: bytes) -> bool:
        """Write ``data``; False if the server has closed the connection."""
        try:
            await self.stream.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            self.closed = True
        return not self.closed

    async def read_for(self, seconds: float) -> bool:
        """Read what arrives for up to ``seconds``; True once the server has closed."""
        with trio.move_on_after(seconds):
            while not self.closed:
                try:
                    data = await self.stream.receive_some(65536)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    data = b""
                if not data:
                    self.closed = True
                    break
                self._decoder.feed(bytes(data))
                while (body := self._decoder.next_frame()) is not None:
                    self.frames.append(decode_body(body))
        return self.closed

    async def hello(self, name: str) -> bool:
        """Say hello and read the answer; True if welcomed."""
        body = {"type": "hello", "versions": list(SUPPORTED_VERSIONS), "name": name}
        await self.send(encode_frame(encode_body(body)))
        while not self.frames and not self.closed:
            await self.read_for(1.0)
        return bool(self.frames) and self.frames[0]["type"] == Welcome.TYPE

    @property
    def error_code(self) -> str | None:
        """The code of the last ``error`` the server sent, if any."""
        errors = [frame for frame in self.frames if frame["type"] == Error.TYPE]
        return str(errors[-1]["code"]) if errors else None

    async def aclose(self) -> None:
        await self.stream.aclose()


class RssWatch:
    """Samples the resident memory of a process until cancelled; keeps the peak."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.began = trio.current_time()
        self.first = rss_kib(pid)
        self.peak = self.first
        self.last = self.first

    def sample(self) -> int:
        """The resident KiB now (kept as ``last``, and in ``peak`` if it is the most)."""
        self.last = rss_kib(self.pid)
        self.peak = max(self.peak, self.last)
        return self.last

    async def run(self, every: float = 0.1) -> None:
        while True:
            self.sample()
            await trio.sleep(every)


def commands_played(journal: Path, names: Sequence[str]) -> list[int]:
    """The commands the journal of a stopped server holds for each table named ``names``."""
    with contextlib.closing(sqlite3.connect(f"file:{journal}?mode=ro", uri=True)) as db:
        rows = db.execute(
            "SELECT tables.name, COUNT(*) FROM commands JOIN tables USING (table_id)"
            " GROUP BY tables.name"
        ).fetchall()
    counts = dict(rows)
    return [counts.get(name, 0) for name in names]
