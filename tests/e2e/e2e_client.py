"""A client built from ``protocol`` only, for end-to-end tests against the real server.

``Player`` speaks the protocol over a trio TCP stream with a sans-IO ``ClientConnection``;
a background task reads every frame, keeps all of them (the redaction checks read every
frame afterwards) and tracks the latest view. ``drive`` plays the seats of a table from
their views' ``legal`` lists, one command at a time, until a condition holds.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import trio

from protocol.commands import command_from_data
from protocol.connection import ClientConnection
from protocol.messages import (
    AddBot,
    Closing,
    CreateTable,
    Error,
    Game,
    GameEvent,
    GameView,
    Hello,
    Join,
    Joined,
    Message,
    Ok,
    Ping,
    Pong,
    Rejected,
    Request,
    Spectate,
    Start,
    TableState,
    Welcome,
)
from protocol.options import TableOptions

FAST_OPTIONS: dict[str, Any] = {
    "target_score": 60,
    "turn_seconds": 20,
    "decision_seconds": 20,
    "dance_seconds": 20,
    "round_pause_seconds": 0,
}
"""Table options for whole matches: a low target, no pause between rounds, clocks that
only matter if a client stalls."""


class Hub:
    """Lets one task wait until any of several players has received something new."""

    def __init__(self) -> None:
        self._changed = trio.Event()

    def notify(self) -> None:
        changed, self._changed = self._changed, trio.Event()
        changed.set()

    async def until(self, condition: Callable[[], bool]) -> None:
        while not condition():
            await self._changed.wait()


class Player:
    """One connection to the server, speaking the protocol from ``protocol`` only."""

    def __init__(self, stream: trio.SocketStream, name: str, hub: Hub) -> None:
        self.stream = stream
        self.name = name
        self.hub = hub
        self.conn = ClientConnection()
        # The reader answers pings while a driver sends commands: one sender at a time.
        self._sending = trio.Lock()
        self.frames: list[Message] = []
        self.welcome: Welcome | None = None
        self.view: dict[str, Any] | None = None
        self.views_seen = 0
        self.events: list[dict[str, Any]] = []
        self.seat: int | None = None
        self.table_id: str | None = None
        self.token: str | None = None
        self.state: TableState | None = None
        self.closed = False
        self.error: Error | None = None
        self.replies: dict[int, Ok | Rejected] = {}
        self.unexpected_rejections: list[tuple[dict[str, Any], Rejected]] = []

    # --- connecting ----------------------------------------------------------------------

    @classmethod
    async def connect(
        cls,
        port: int,
        name: str,
        hub: Hub | None = None,
        *,
        resume_token: str | None = None,
        last_seq: int | None = None,
        versions: tuple[str, ...] = ("1.0",),
        local_address: str | None = None,
        receive_buffer: int | None = None,
    ) -> Player:
        """Connect and say hello (offering ``versions``); the welcome is awaited here,
        before the reader starts. ``local_address``: another loopback address to come
        from (127.0.0.2 ...: a guest's machine, not the server's own). ``receive_buffer``:
        the socket's receive buffer in bytes, set before it connects (a slow reader's
        small window)."""
        if receive_buffer is None:
            stream = await trio.open_tcp_stream("127.0.0.1", port, local_address=local_address)
        else:
            sock = trio.socket.socket(trio.socket.AF_INET, trio.socket.SOCK_STREAM)
            sock.setsockopt(trio.socket.SOL_SOCKET, trio.socket.SO_RCVBUF, receive_buffer)
            if local_address is not None:
                await sock.bind((local_address, 0))
            await sock.connect(("127.0.0.1", port))
            stream = trio.SocketStream(sock)
        player = cls(stream, name, hub or Hub())
        await player.send(
            Hello(versions=versions, name=name, resume_token=resume_token, last_seq=last_seq)
        )
        welcome = await player.receive()
        assert isinstance(welcome, Welcome), welcome
        player.welcome = welcome
        return player

    async def send(self, message: Message) -> None:
        async with self._sending:
            await self.stream.send_all(self.conn.send(message))

    async def receive(self) -> Message | None:
        """The next message (recorded), or None once the server closed the connection."""
        while True:
            message = self.conn.next_message()
            if message is not None:
                self._record(message)
                return message
            try:
                data = await self.stream.receive_some(65536)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                data = b""
            if not data:
                self.closed = True
                self.hub.notify()
                return None
            self.conn.receive_data(bytes(data))

    async def read_forever(self) -> None:
        """The background reader: record everything until the connection ends, answering
        the server's pings as every client must."""
        while (message := await self.receive()) is not None:
            if isinstance(message, Ping):
                with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                    await self.send(Pong(nonce=message.nonce))

    async def close(self) -> None:
        await self.stream.aclose()

    def _record(self, message: Message) -> None:
        self.frames.append(message)
        match message:
            case GameView():
                self.view = message.body.to_data()
                self.views_seen += 1
            case GameEvent():
                self.events.append(message.body.to_data())
            case Joined():
                self.table_id, self.seat = message.table_id, message.seat
                self.token = message.resume_token or self.token
            case TableState():
                self.state = message
            case Ok() | Rejected():
                self.replies[message.id] = message
            case Error():
                self.error = message
            case _:
                pass
        self.hub.notify()

    # --- commands ------------------------------------------------------------------------

    async def request(self, make: Callable[[int], Request]) -> Ok | Rejected:
        """Send ``make(id)`` and wait (the reader must run) for its one reply."""
        request = make(self.conn.next_request_id())
        await self.send(request)
        await self.hub.until(lambda: request.id in self.replies or self.closed)
        assert request.id in self.replies, f"{self.name}: closed without a reply: {self.error}"
        return self.replies.pop(request.id)

    async def ok(self, make: Callable[[int], Request]) -> dict[str, Any]:
        reply = await self.request(make)
        assert isinstance(reply, Ok), f"{self.name}: {reply}"
        return {} if reply.result is None else reply.result.to_data()

    async def game(self, data: dict[str, Any]) -> Ok | Rejected:
        command = command_from_data(data)
        return await self.request(lambda id_: Game(id=id_, command=command))  # type: ignore[arg-type]

    # --- what the player knows -----------------------------------------------------------

    @property
    def last_seq(self) -> int:
        return self.events[-1]["seq"] if self.events else 0

    @property
    def hand(self) -> list[str]:
        return list(self.view.get("hand") or []) if self.view else []

    def legal(self) -> list[dict[str, Any]]:
        return list(self.view.get("legal") or []) if self.view else []

    def event_kinds(self) -> list[str]:
        return [event["kind"] for event in self.events]

    @property
    def match_over(self) -> bool:
        return bool(self.view and self.view.get("match_result"))

    @property
    def closing(self) -> Closing | None:
        found = [frame for frame in self.frames if isinstance(frame, Closing)]
        return found[-1] if found else None


def basic_policy(player: Player, rng: random.Random) -> dict[str, Any] | None:
    """A legal command for the player's latest view, or None when it is not its move.

    Off its turn a seat only catches (or calls UNO for itself when exposed); on its turn it
    plays (declaring UNO whenever a play allows it), else draws, else passes; it answers
    Wild Draw Fours, dances and colour choices at random among what is legal.
    """
    view = player.view
    legal = player.legal()
    if view is None or not legal:
        return None
    if view.get("to_act") != view.get("seat"):
        off_turn = [data for data in legal if data["type"] in ("catch", "call-uno")]
        return rng.choice(off_turn) if off_turn else None
    return turn_choice(legal, rng)


def turn_choice(legal: Sequence[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """On one's turn: a dance, a Wild Draw Four answer or a colour if asked; else a play
    (declaring UNO whenever a play allows it), else a draw, else a pass."""
    by_type: dict[str, list[dict[str, Any]]] = {}
    for data in legal:
        by_type.setdefault(data["type"], []).append(data)
    plays = by_type.get("play", [])
    declared = [data for data in plays if data.get("uno")]
    for group in (
        by_type.get("dance", []),
        by_type.get("challenge", []) + by_type.get("accept", []),
        by_type.get("choose-color", []),
        declared,
        plays,
        by_type.get("draw", []),
        by_type.get("pass", []),
    ):
        if group:
            return rng.choice(group)
    return rng.choice(legal)


async def settle(players: Sequence[Player]) -> None:
    """Wait until every connected player's view includes the same latest event."""

    def settled() -> bool:
        live = [player for player in players if not player.closed and player.view is not None]
        return len({player.view["last_seq"] for player in live if player.view}) <= 1

    await players[0].hub.until(settled)


async def drive(
    players: Sequence[Player],
    done: Callable[[], bool],
    rng: random.Random,
    policy: Callable[[Player, random.Random], dict[str, Any] | None] = basic_policy,
    max_commands: int = 20_000,
) -> int:
    """Play the players' seats until ``done()``; returns how many commands were sent.

    A command is chosen from a view at most once. A rejection of a command the view listed
    as legal is recorded in ``unexpected_rejections`` unless a newer view had arrived by
    the time the reply came (then the choice was stale: a bot or a clock moved first).
    """
    hub = players[0].hub
    acted: dict[int, int] = {}
    sent = 0
    while not done():
        await settle(players)
        if done():
            break
        chosen = None
        for index, player in enumerate(players):
            if player.closed or acted.get(index) == player.views_seen:
                continue
            data = policy(player, rng)
            if data is not None:
                chosen = (index, player, data)
                break
        if chosen is None:
            marks = [player.views_seen for player in players]
            await hub.until(
                lambda marks=marks: (
                    done()  # type: ignore[misc]
                    or [player.views_seen for player in players] != marks
                )
            )
            continue
        index, player, data = chosen
        acted[index] = player.views_seen
        before = player.views_seen
        reply = await player.game(data)
        sent += 1
        assert sent <= max_commands, "the match does not end"
        if isinstance(reply, Rejected) and player.views_seen == before:
            player.unexpected_rejections.append((data, reply))
    return sent


async def seat_table(
    port: int,
    nursery: trio.Nursery,
    names: Iterable[str],
    *,
    options: dict[str, Any] | None = None,
    bots: int = 0,
    spectators: int = 0,
    table_name: str = "e2e",
    start: bool = True,
    hub: Hub | None = None,
    versions: Sequence[tuple[str, ...]] = (),
) -> tuple[list[Player], list[Player]]:
    """Connect people (the first is the host), create a table, seat them, add bots and
    spectators, and start the match. ``versions`` gives what each person offers in the
    hello (by default 1.0 only). Returns (seated people, spectators)."""
    hub = hub or Hub()
    names = list(names)
    offers = list(versions) + [("1.0",)] * (len(names) - len(versions))
    people = [
        await Player.connect(port, name, hub, versions=offer)
        for name, offer in zip(names, offers, strict=True)
    ]
    watchers = [await Player.connect(port, f"watcher{n}", hub) for n in range(spectators)]
    for player in people + watchers:
        nursery.start_soon(player.read_forever)
    host = people[0]
    seats = len(people) + bots
    table_options = {**FAST_OPTIONS, "seats": seats, **(options or {})}
    result = await host.ok(
        lambda id_: CreateTable(id=id_, name=table_name, options=TableOptions.parse(table_options))
    )
    table_id = result["table_id"]
    for player in people[1:]:
        await player.ok(lambda id_: Join(id=id_, table_id=table_id))
    for _ in range(bots):
        await host.ok(lambda id_: AddBot(id=id_, strategy="basic"))
    for watcher in watchers:
        await watcher.ok(lambda id_: Spectate(id=id_, table_id=table_id))
    if start:
        await host.ok(lambda id_: Start(id=id_))
        await hub.until(lambda: all(player.view is not None for player in people + watchers))
    return people, watchers
