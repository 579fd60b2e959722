"""``FrameWriter`` with a scripted direct write and a stream the test opens and shuts: the
order of bytes when the direct write takes part of a frame, or could take a frame while the
writer task is still writing; held frames; the deadline on the last words."""

from __future__ import annotations

import math
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
import trio
import trio.testing

from server.outbox import OutboxFull
from server.writer import FrameWriter


class Wire:
    """Everything written, by either path, in the order it reached the connection."""

    def __init__(self) -> None:
        self.data = bytearray()


class ScriptedDirect:
    """A direct write that takes ``takes`` bytes of each write in turn (then everything)."""

    def __init__(self, wire: Wire, *takes: int) -> None:
        self.wire = wire
        self.takes = list(takes)
        self.detached = False

    def write(self, data: bytes) -> int:
        if self.detached:
            return 0
        taken = self.takes.pop(0) if self.takes else len(data)
        self.wire.data += data[:taken]
        return taken

    def detach(self) -> None:
        self.detached = True


class GatedStream(trio.abc.Stream):
    """A stream whose writes wait until the gate is open (or for ever: a client that does
    not read)."""

    def __init__(self, wire: Wire) -> None:
        self.wire = wire
        self.gate = trio.Event()

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        await self.gate.wait()
        self.wire.data += data

    async def wait_send_all_might_not_block(self) -> None:
        await self.gate.wait()

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        await trio.sleep_forever()
        raise AssertionError("unreachable")

    async def aclose(self) -> None:
        pass


@asynccontextmanager
async def writing(
    *takes: int, max_messages: int = 100, max_bytes: int = 10_000, direct: bool = True
) -> AsyncIterator[tuple[FrameWriter, GatedStream, Wire, trio.Event]]:
    """A writer whose task runs meanwhile; the event is set when the task has returned."""
    wire = Wire()
    stream = GatedStream(wire)
    writer = FrameWriter(
        stream,
        ScriptedDirect(wire, *takes) if direct else None,
        max_messages=max_messages,
        max_bytes=max_bytes,
        last_write_seconds=1,
    )
    ended = trio.Event()

    async def run() -> None:
        await writer.run()
        ended.set()

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(run)
            yield writer, stream, wire, ended
            nursery.cancel_scope.cancel()


async def test_a_frame_sent_while_the_task_writes_waits_behind_it() -> None:
    async with writing(4) as (writer, stream, wire, ended):
        writer.send([b"aaaaaaaa"])  # the direct write takes 4, the task the other 4
        await trio.testing.wait_all_tasks_blocked()
        assert writer.queued == 0  # the task holds the rest, waiting for the stream
        writer.send([b"bb"])  # the direct write could take it now: it must not
        assert writer.queued == 1
        stream.gate.set()
        writer.finish(b"!", flush=True)
        await ended.wait()
        assert bytes(wire.data) == b"aaaaaaaabb!"


async def test_nothing_queued_and_an_idle_task_writes_at_once() -> None:
    async with writing() as (writer, _stream, wire, _):
        await trio.testing.wait_all_tasks_blocked()
        writer.send([b"one", b"two"])
        assert bytes(wire.data) == b"onetwo"  # the gate is shut: this was the direct path
        assert writer.queued == 0


async def test_held_frames_leave_first_with_the_next_send() -> None:
    async with writing() as (writer, _stream, wire, _):
        writer.hold([b"h1"])
        writer.hold([b"h2"])
        assert bytes(wire.data) == b""
        writer.send([b"s"])
        assert bytes(wire.data) == b"h1h2s"


async def test_a_shutdown_flushes_queued_then_held_then_the_last_words() -> None:
    async with writing(0) as (writer, stream, wire, ended):
        writer.send([b"q1", b"q2"])  # the socket takes nothing: both queue
        writer.hold([b"h"])
        writer.finish(b"bye", flush=True)
        writer.send([b"late"])  # after finish: dropped
        stream.gate.set()
        await ended.wait()
        assert bytes(wire.data) == b"q1q2hbye"


async def test_a_close_drops_what_is_queued_and_held_but_finishes_a_begun_frame() -> None:
    async with writing(3) as (writer, stream, wire, ended):
        writer.send([b"first", b"second"])  # 3 bytes of "first" are out
        writer.send([b"third"])
        writer.hold([b"held"])
        writer.finish(b"ERR", flush=False)
        stream.gate.set()
        await ended.wait()
        assert bytes(wire.data) == b"firstERR"


async def test_an_overflow_is_raised_to_the_caller() -> None:
    async with writing(direct=False, max_messages=2) as (writer, _stream, _wire, _):
        writer.send([b"1", b"2"])
        with pytest.raises(OutboxFull):
            writer.send([b"3"])


async def test_the_last_words_to_a_client_that_never_reads_end_at_the_deadline(
    autojump_clock: trio.abc.Clock,
) -> None:
    async with writing(direct=False) as (writer, _stream, wire, ended):
        start = trio.current_time()
        writer.finish(b"ERR", flush=False)
        await ended.wait()  # the gate never opens
        assert trio.current_time() - start == pytest.approx(1)
        assert bytes(wire.data) == b""


async def test_a_shutdown_flush_ends_at_the_deadline_given(
    autojump_clock: trio.abc.Clock,
) -> None:
    async with writing(direct=False) as (writer, _stream, _wire, ended):
        writer.send([b"queued"])
        start = trio.current_time()
        writer.limit(start + 5)
        writer.finish(b"bye", flush=True)
        await ended.wait()
        assert trio.current_time() - start == pytest.approx(5)


async def test_wait_for_room_says_false_when_nothing_is_written_in_time(
    autojump_clock: trio.abc.Clock,
) -> None:
    async with writing(direct=False, max_messages=4) as (writer, stream, _wire, _):
        assert await writer.wait_for_room(math.inf)  # empty: room at once
        writer.send([b"1", b"2", b"3"])
        assert not await writer.wait_for_room(3)
        stream.gate.set()
        assert await writer.wait_for_room(3)


async def test_after_detach_nothing_is_taken() -> None:
    async with writing() as (writer, _stream, wire, _):
        writer.detach()
        writer.send([b"x"])
        writer.hold([b"y"])
        assert bytes(wire.data) == b""


async def test_when_drained_calls_back_once_the_outbox_is_written_and_never_after_finish() -> None:
    async with writing(0, 0) as (writer, stream, wire, ended):
        calls: list[str] = []
        writer.when_drained(lambda: calls.append("empty"))
        assert calls == ["empty"]  # nothing waits: at once
        writer.send([b"batch"])  # the socket takes nothing (nor of the next): it queues
        writer.when_drained(lambda: calls.append("written"))
        await trio.testing.wait_all_tasks_blocked()
        assert calls == ["empty"]  # still waiting for the client to read
        stream.gate.set()
        await trio.testing.wait_all_tasks_blocked()
        assert calls == ["empty", "written"] and bytes(wire.data) == b"batch"
        stream.gate = trio.Event()
        writer.send([b"more"])
        writer.when_drained(lambda: calls.append("never"))
        writer.finish(None, flush=False)
        stream.gate.set()
        await ended.wait()
        assert calls == ["empty", "written"]
