"""The one writer of a session: encoded frames to the stream, in order, and the last words.

``send`` never blocks. When nothing waits ahead of the frames and the stream is a TCP socket
on POSIX, they are written there and then, as far as the kernel takes them
(``server.socket_writer``); the rest, or everything on other streams, joins the bounded
``Outbox``, which ONE task (``run``) drains. A full outbox raises ``OutboxFull`` to the
session, which closes itself as too slow.

``hold`` keeps frames for the next ``send``, which writes them first, in the same write.

``when_drained`` calls back once nothing waits to be written: a sender with more to say
than the outbox holds (a spectator's catch-up, server/table/catch_up.py) feeds it a batch at
a time, each after the last has left, through this one writer.

The last words (an error, or ``closing`` on shutdown) are written by the same task after
everything it has begun, so a frame is never cut in half by another frame. ``finish``
either drops what is queued and held (a close: the last words follow at once) or keeps it
(a shutdown: queued, then held, then the last words). A deadline bounds all of it, for a
client that reads nothing: ``last_write_seconds`` after a close, or the one ``limit`` sets.
The last write itself is shielded, so cancelling the session around it does not cut the
error short; only its deadline does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

import trio

from server.outbox import Outbox

__all__ = ["DirectWrite", "FrameWriter", "OffersDirectWrite"]

# Bytes of queued frames joined into one write (a batch may end one frame past it). A
# client that was slow to read has several frames waiting; one call for them saves a
# system call and a wake-up of its reader per frame.
_WRITE_BATCH = 64 * 1024


class DirectWrite(Protocol):
    """A write that never waits (``server.socket_writer.SocketWriter``)."""

    def write(self, data: bytes) -> int:
        """Write what can be written of ``data`` now; return how many bytes that was."""

    def detach(self) -> None:
        """Write nothing more."""


@runtime_checkable
class OffersDirectWrite(Protocol):
    """A stream that is its own ``DirectWrite`` where it can be (the WebSocket stream)."""

    def direct_writer(self) -> DirectWrite | None:
        """The write that never waits for this stream, or None."""


class FrameWriter:
    """Writes one session's frames; see the module docstring.

    ``direct`` writes to the same connection as ``stream`` without waiting, where there is
    such a thing (``SocketWriter.for_stream(stream)``); None sends everything through the
    task.
    """

    def __init__(
        self,
        stream: trio.abc.Stream,
        direct: DirectWrite | None,
        *,
        max_messages: int,
        max_bytes: int,
        last_write_seconds: float,
    ) -> None:
        self._stream = stream
        self._outbox = Outbox(max_messages, max_bytes)
        self._direct = direct
        self._last_write_seconds = last_write_seconds
        self._held: list[bytes] = []  # frames that leave with the next send
        self._busy = False  # the task is writing frames taken from the outbox
        self._finished = False  # no more frames: only the last words are left to say
        self._last: list[bytes] = []  # the final write: held frames on a shutdown, last words
        self._on_drained: list[Callable[[], None]] = []  # called when the outbox empties
        self._waits = trio.lowlevel.ParkingLot()  # the task, while the outbox is empty
        self._written = trio.Event()  # set by the task after each write
        self._scope = trio.CancelScope()

    @property
    def queued(self) -> int:
        """Frames waiting for the task (for logs and tests)."""
        return len(self._outbox)

    @property
    def queued_bytes(self) -> int:
        """Bytes waiting for the task (for logs and tests)."""
        return self._outbox.nbytes

    def hold(self, frames: list[bytes]) -> None:
        """Keep ``frames`` for the next ``send``."""
        if not self._finished:
            self._held.extend(frames)

    def send(self, frames: list[bytes]) -> None:
        """Write the held frames, then ``frames``, in order; never blocks.

        Raises ``OutboxFull`` when they do not fit behind what already waits.
        """
        if self._finished:
            return
        if self._held:
            frames[:0] = self._held
            self._held = []
        if not frames:
            return
        outbox = self._outbox
        direct = self._direct
        if direct is not None and not outbox and not self._busy:
            # Nothing is queued and the task holds nothing: no earlier frame can be overtaken.
            data = frames[0] if len(frames) == 1 else b"".join(frames)
            written = direct.write(data)
            if written == len(data):
                return
            outbox.put_all(frames, skip=written)
        else:
            outbox.put_all(frames)
        self._waits.unpark()

    def when_drained(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` once nothing waits to be written (at once if nothing does);
        never after ``finish`` or ``detach``."""
        if self._finished:
            return
        if not self._outbox and not self._busy:
            callback()
        else:
            self._on_drained.append(callback)

    def limit(self, deadline: float) -> None:
        """Write nothing after ``deadline`` (trio time)."""
        self._scope.deadline = min(self._scope.deadline, deadline)

    def finish(self, last_words: bytes | None, *, flush: bool) -> None:
        """Take no more frames, and say ``last_words`` (if any) last.

        With ``flush``, what is queued and held is written first (under the deadline given
        to ``limit``); without, both are dropped and the last words leave within
        ``last_write_seconds``. Only the first call counts.
        """
        if self._finished:
            return
        self._finished = True
        self._on_drained = []
        self._last = self._held if flush else []
        self._held = []
        if last_words is not None:
            self._last.append(last_words)
        if not flush:
            self._outbox.drop_unbegun()
            self.limit(trio.current_time() + self._last_write_seconds)
        self._waits.unpark_all()

    def detach(self) -> None:
        """The stream is about to close: take and write nothing more."""
        self._finished = True
        self._on_drained = []
        if self._direct is not None:
            self._direct.detach()
        self._waits.unpark_all()

    async def wait_for_room(self, timeout: float) -> bool:
        """Wait while more than half the outbox is taken; False if nothing was written for
        ``timeout`` seconds meanwhile."""
        while self._outbox.over_half:
            self._written = trio.Event()
            with trio.move_on_after(timeout):
                await self._written.wait()
                continue
            return False
        return True

    async def run(self) -> bool:
        """The one task: write until finished. True if the connection was lost."""
        try:
            with self._scope:
                await self._drain()
            if self._last and not self._scope.cancelled_caught:
                last = self._last[0] if len(self._last) == 1 else b"".join(self._last)
                deadline = min(self._scope.deadline, trio.current_time() + self._last_write_seconds)
                with trio.CancelScope(shield=True, deadline=deadline):
                    await self._stream.send_all(last)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            return True
        return False

    async def _drain(self) -> None:
        """Write the outbox in batches until ``finish`` and nothing is left."""
        outbox = self._outbox
        while True:
            while not outbox and not self._finished:
                await self._waits.park()
            if not outbox:
                return
            self._busy = True
            await self._stream.send_all(outbox.take(_WRITE_BATCH))
            self._busy = False
            self._written.set()
            if not outbox and self._on_drained:
                callbacks, self._on_drained = self._on_drained, []
                for callback in callbacks:
                    callback()
