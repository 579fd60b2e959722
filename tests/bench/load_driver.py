"""One load-generating process for ``tests/bench/server.py``: many lean clients on real sockets.

The orchestrator starts one driver per core and steers it with one line per step on stdin;
the driver answers each step with one JSON line on stdout:

- ``connect``: open every connection (TCP, or with ``--websocket`` the page's WebSocket on
  the web port) and say hello (game mode) -> ``{"connected": n}``
- ``seat``: each table's first connection creates the table, the others join, the host
  starts the match -> ``{"seated": tables}``
- ``run paced|saturate WARMUP SECONDS``: play (or echo) for WARMUP + SECONDS; only the last
  SECONDS are measured -> the samples and counts of that window
- ``quit``: say bye, close everything -> ``{"quit": true}``

The clients are deliberately lean so that the server, not the load, is what is measured:
they frame and unpack msgpack themselves (``protocol.framing`` and plain ``msgpack``, no
schema validation) and keep only the latest view of each seat. Each table is played by one
task: it waits until the seat the newest view names as ``to_act`` has that view, picks a
command from the view's ``legal`` list (declaring UNO whenever it can, so nobody is ever
exposed), sends it, and waits for its reply. Paced, the task first waits a uniformly random
250-750 ms (500 ms on average, human pace); at saturation it sends at once.

Latency is command to event: from just before the command is written to the arrival of the
first ``event`` whose ``cause`` is that command's id (for a rejected command, which causes
no event, to its reply; every rejection is also counted as an error). In echo mode a group
of connections stands in for a table: one member at a time sends a command-sized map and
the latency is the time until the same map comes back.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
import trio

from protocol.framing import FrameDecoder, encode_frame

# The policy is the end-to-end clients' (tests/e2e), shared rather than written twice.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
from e2e_client import turn_choice
from e2e_websocket import WebSocketClient

READ_SIZE = 64 * 1024

TABLE_OPTIONS: dict[str, Any] = {
    "deck": "classic",
    "target_score": 100_000,
    "turn_seconds": 0,
    "decision_seconds": 3600,
    "dance_seconds": 3600,
    "round_pause_seconds": 0,
}
"""A match that outlasts the benchmark, with no clock that could act for a seat."""

STALL_SECONDS = 10.0
"""A table with nothing to do for this long while it should be playing counts as stalled."""

SETUP_LIMIT = 16
"""Connections opened, or tables set up, at once."""

PACE_RANGE = (0.25, 0.75)
"""Seconds a paced table waits before each command: uniform, 500 ms on average."""


def pack(message: dict[str, Any]) -> bytes:
    """One frame holding ``message``."""
    return encode_frame(msgpack.packb(message))


class DriverError(Exception):
    """The server answered something the benchmark cannot go on from (the server's fault)."""


class Recorder:
    """What one measured window saw, summed over the driver's tables."""

    def __init__(self) -> None:
        self.recording = False
        self.latencies_ms: list[float] = []
        self.reply_ms: list[float] = []
        self.actions = 0
        self.rejections = 0
        self.stalls = 0
        self.notes: list[str] = []

    def note(self, text: str) -> None:
        if len(self.notes) < 20:
            self.notes.append(text)


class Client:
    """One connection: a reader task, a lock around writes, the latest view."""

    def __init__(self, stream: trio.abc.Stream, name: str) -> None:
        self.stream = stream
        self.name = name
        self.decoder = FrameDecoder()
        self.write_lock = trio.StrictFIFOLock()
        self.next_id = 0
        self.waiting: dict[int, trio.Event] = {}
        self.replies: dict[int, dict[str, Any]] = {}
        self.view: dict[str, Any] | None = None
        self.view_seq = -1
        self.seat: int | None = None
        self.table_id: str | None = None
        self.closed = False
        self.error: str | None = None
        self.welcomed = trio.Event()
        # The one command in flight, for latency: its id and when it was written.
        self.timed_id: int | None = None
        self.timed_at = 0.0
        self.on_change: Callable[[], None] = lambda: None
        self.recorder: Recorder | None = None

    async def send(self, message: dict[str, Any]) -> None:
        async with self.write_lock:
            await self.stream.send_all(pack(message))

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send a command (its id is filled in) and wait for its reply."""
        request_id = self.next_id
        self.next_id = (self.next_id + 1) % 2**32
        done = trio.Event()
        self.waiting[request_id] = done
        await self.send({**message, "id": request_id})
        await done.wait()
        return self.replies.pop(request_id, {"type": "closed", "error": self.error})

    async def read_forever(self) -> None:
        try:
            while True:
                data = await self.stream.receive_some(READ_SIZE)
                if not data:
                    break
                self.decoder.feed(bytes(data))  # a copy only of a bytearray
                while (body := self.decoder.next_frame()) is not None:
                    await self._handle(msgpack.unpackb(body))
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        finally:
            self.closed = True
            for event in self.waiting.values():
                event.set()
            self.welcomed.set()
            self.on_change()

    async def _handle(self, message: dict[str, Any]) -> None:  # noqa: C901 (a dispatch: one branch per message type)
        kind = message.get("type")
        now = trio.current_time()
        if kind == "event":
            if message.get("cause") is not None and message["cause"] == self.timed_id:
                self._sample(now)
        elif kind == "view":
            self.view = message["body"]
            self.view_seq = message["seq"]
            self.on_change()
        elif kind in ("ok", "rejected"):
            request_id = message["id"]
            if request_id == self.timed_id:
                if kind == "rejected" and self.recorder is not None:
                    self.recorder.rejections += 1
                    self.recorder.note(f"{self.name}: rejected {message.get('code')}")
                self._sample(now)
            self.replies[request_id] = message
            event = self.waiting.pop(request_id, None)
            if event is not None:
                event.set()
        elif kind == "welcome":
            self.welcomed.set()
        elif kind == "joined":
            self.table_id, self.seat = message["table_id"], message.get("seat")
        elif kind == "ping":
            await self.send({"type": "pong", "nonce": message.get("nonce", 0)})
        elif kind in ("error", "closing"):
            self.error = f"{kind}: {message.get('code', '')} {message.get('message', '')}"
            self.welcomed.set()
        elif kind == "echo":
            self._sample(now)
            event = self.waiting.pop(message["id"], None)
            if event is not None:
                event.set()

    def _sample(self, now: float) -> None:
        if self.timed_id is None:
            return
        self.timed_id = None
        recorder = self.recorder
        if recorder is not None and recorder.recording:
            recorder.latencies_ms.append((now - self.timed_at) * 1000)


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A command from the view's legal list, by the end-to-end tests' own policy."""
    return turn_choice(view["legal"], rng)


class TablePlayer:
    """The seats of one table, and the task that plays it."""

    def __init__(self, number: int, clients: list[Client], rng: random.Random) -> None:
        self.number = number
        self.clients = clients
        self.rng = rng
        self._changed = trio.Event()
        for client in clients:
            client.on_change = self._notify

    def _notify(self) -> None:
        changed, self._changed = self._changed, trio.Event()
        changed.set()

    def actor(self) -> Client | None:
        """The client to act now: its view is the newest at the table and names it."""
        newest = max(client.view_seq for client in self.clients)
        for client in self.clients:
            view = client.view
            if (
                view is not None
                and client.view_seq == newest
                and view.get("to_act") == client.seat
                and view.get("seat") == client.seat
                and view.get("legal")
            ):
                return client
        return None

    async def seat(self, options: dict[str, Any]) -> None:
        host, *others = self.clients
        reply = await host.request(
            {"type": "create-table", "name": f"bench {self.number}", "options": options}
        )
        if reply["type"] != "ok":
            raise DriverError(f"create-table refused: {reply}")
        table_id = reply["result"]["table_id"]
        for client in others:
            reply = await client.request({"type": "join", "table_id": table_id})
            if reply["type"] != "ok":
                raise DriverError(f"join refused: {reply}")
        reply = await host.request({"type": "start"})
        if reply["type"] != "ok":
            raise DriverError(f"start refused: {reply}")

    async def play(self, recorder: Recorder, paced: bool) -> None:
        """Play until cancelled; one command in flight at a time."""
        for client in self.clients:
            client.recorder = recorder
        while True:
            actor = self.actor()
            if actor is None:
                if any(client.closed for client in self.clients):
                    recorder.note(f"table {self.number}: a connection closed")
                    await trio.sleep_forever()
                changed = self._changed
                with trio.move_on_after(STALL_SECONDS) as waited:
                    await changed.wait()
                if waited.cancelled_caught:
                    recorder.stalls += 1
                    recorder.note(f"table {self.number}: nothing to do for {STALL_SECONDS} s")
                    await trio.sleep_forever()
                continue
            if paced:
                await trio.sleep(self.rng.uniform(*PACE_RANGE))
            command = choose(actor.view or {}, self.rng)
            request_id = actor.next_id
            actor.next_id += 1
            done = trio.Event()
            actor.waiting[request_id] = done
            actor.timed_id, actor.timed_at = request_id, trio.current_time()
            with trio.CancelScope(shield=True):  # never cut a frame in half
                await actor.send({"type": "game", "id": request_id, "command": command})
            await done.wait()
            actor.replies.pop(request_id, None)
            if recorder.recording:
                recorder.actions += 1
                recorder.reply_ms.append((trio.current_time() - actor.timed_at) * 1000)


class EchoGroup:
    """Echo mode: a group of connections that takes turns sending one command-sized map."""

    COMMAND: dict[str, Any] = {"type": "play", "card": "R7", "uno": False}

    def __init__(self, number: int, clients: list[Client], rng: random.Random) -> None:
        self.number = number
        self.clients = clients
        self.rng = rng
        self._turn = 0

    async def play(self, recorder: Recorder, paced: bool) -> None:
        while True:
            client = self.clients[self._turn % len(self.clients)]
            self._turn += 1
            client.recorder = recorder
            if paced:
                await trio.sleep(self.rng.uniform(*PACE_RANGE))
            request_id = client.next_id
            client.next_id += 1
            done = trio.Event()
            client.waiting[request_id] = done
            client.timed_id, client.timed_at = request_id, trio.current_time()
            with trio.CancelScope(shield=True):  # never cut a frame in half
                await client.send({"type": "echo", "id": request_id, "command": self.COMMAND})
            await done.wait()
            if recorder.recording:
                recorder.actions += 1
                recorder.reply_ms.append((trio.current_time() - client.timed_at) * 1000)


class Driver:
    """The connections and tables of one driver process, run step by step from stdin."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.rng = random.Random(args.seed)
        self.clients: list[Client] = []
        self.groups: list[TablePlayer | EchoGroup] = []

    async def connect(self, nursery: trio.Nursery) -> dict[str, Any]:
        limiter = trio.CapacityLimiter(SETUP_LIMIT)
        total = self.args.tables * self.args.seats
        slots: list[Client | None] = [None] * total

        async def open_one(index: int) -> None:
            async with limiter:
                stream: trio.abc.Stream
                if self.args.websocket:
                    stream = await WebSocketClient.open(self.args.port)
                else:
                    stream = await trio.open_tcp_stream("127.0.0.1", self.args.port)
                client = Client(stream, f"d{self.args.index}c{index}")
                nursery.start_soon(client.read_forever)
                if self.args.mode == "game":
                    await client.send({"type": "hello", "versions": ["1.0"], "name": client.name})
                    await client.welcomed.wait()
                    if client.error is not None or client.closed:
                        raise DriverError(f"{client.name}: no welcome ({client.error})")
                slots[index] = client

        async with trio.open_nursery() as openers:
            for index in range(total):
                openers.start_soon(open_one, index)
        self.clients = [client for client in slots if client is not None]
        return {"connected": sum(not client.closed for client in self.clients)}

    async def seat(self) -> dict[str, Any]:
        seats = self.args.seats
        for number in range(self.args.tables):
            members = self.clients[number * seats : (number + 1) * seats]
            rng = random.Random(self.rng.getrandbits(64))
            group: TablePlayer | EchoGroup
            if self.args.mode == "game":
                group = TablePlayer(number, members, rng)
            else:
                group = EchoGroup(number, members, rng)
            self.groups.append(group)
        if self.args.mode == "game":
            limiter = trio.CapacityLimiter(SETUP_LIMIT)
            options = {**TABLE_OPTIONS, "seats": seats}

            async def seat_one(table: TablePlayer) -> None:
                async with limiter:
                    await table.seat(options)

            async with trio.open_nursery() as seaters:
                for group in self.groups:
                    assert isinstance(group, TablePlayer)
                    seaters.start_soon(seat_one, group)
        return {"seated": len(self.groups)}

    async def run(self, pace: str, warmup: float, seconds: float) -> dict[str, Any]:
        # A collection in the driver would stall every table it plays and count as the
        # server's latency: the driver collects before the window and not during it.
        gc.collect()
        gc.disable()
        try:
            return await self._run(pace, warmup, seconds)
        finally:
            gc.enable()

    async def _run(self, pace: str, warmup: float, seconds: float) -> dict[str, Any]:
        recorder = Recorder()
        paced = pace == "paced"
        async with trio.open_nursery() as players:
            for group in self.groups:
                players.start_soon(group.play, recorder, paced)
            await trio.sleep(warmup)
            recorder.recording = True
            started = trio.current_time()
            await trio.sleep(seconds)
            recorder.recording = False
            elapsed = trio.current_time() - started
            players.cancel_scope.cancel()
        # Let the commands still in flight get their replies before the next step.
        with trio.move_on_after(STALL_SECONDS):
            for client in self.clients:
                while client.waiting and not client.closed:
                    await trio.sleep(0.01)
        for client in self.clients:
            client.timed_id = None
        closed = sum(client.closed for client in self.clients)
        errors = [client.error for client in self.clients if client.error]
        return {
            "seconds": elapsed,
            "actions": recorder.actions,
            "latencies_ms": [round(value, 3) for value in recorder.latencies_ms],
            "reply_ms": [round(value, 3) for value in recorder.reply_ms],
            "rejections": recorder.rejections,
            "stalls": recorder.stalls,
            "closed": closed,
            "server_errors": errors[:10],
            "notes": recorder.notes,
        }

    async def quit(self) -> dict[str, Any]:
        for client in self.clients:
            if not client.closed and self.args.mode == "game":
                with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                    await client.send({"type": "bye"})
            await client.stream.aclose()
        return {"quit": True}


async def steer(args: argparse.Namespace) -> None:
    """Run the steps read from stdin, one JSON answer per step on stdout."""
    driver = Driver(args)
    stdin = trio.lowlevel.FdStream(os.dup(sys.stdin.fileno()))
    buffer = b""
    async with trio.open_nursery() as nursery:
        while True:
            while b"\n" not in buffer:
                chunk = await stdin.receive_some(4096)
                if not chunk:
                    nursery.cancel_scope.cancel()
                    return
                buffer += chunk
            line, buffer = buffer.split(b"\n", 1)
            step, *rest = line.decode().split()
            answer: dict[str, Any]
            if step == "connect":
                answer = await driver.connect(nursery)
            elif step == "seat":
                answer = await driver.seat()
            elif step == "run":
                answer = await driver.run(rest[0], float(rest[1]), float(rest[2]))
            elif step == "quit":
                answer = await driver.quit()
            else:
                raise DriverError(f"unknown step {step!r}")
            print(json.dumps(answer), flush=True)
            if step == "quit":
                nursery.cancel_scope.cancel()
                return


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="one load driver (started by server.py)")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--mode", choices=("game", "echo"), default="game")
    parser.add_argument("--tables", type=int, required=True)
    parser.add_argument("--seats", type=int, default=5)
    parser.add_argument("--index", type=int, default=0, help="this driver's number, for names")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--websocket", action="store_true", help="connect to the server's web port (/ws)"
    )
    trio.run(steer, parser.parse_args(argv))
    return 0


if __name__ == "__main__":
    sys.exit(main())
