"""What one connection has still to write: frames in order, bounded in messages and bytes.

Plain bookkeeping, no I/O and no clock (tested as such). The session puts encoded frames
in; its one writer task takes them out, several at a time, as one write. Both bounds exist
for the same reason, a client that does not read: the message count bounds the work that
waits, the byte count the memory (a table list or a full view weighs hundreds of times a
ping, so a count alone lets a few non-readers hold many megabytes).

A frame that does not fit raises ``OutboxFull`` and is not queued; the session then closes
itself with ``too-slow`` (the game never waits for a slow reader).
"""

from __future__ import annotations

from collections import deque

__all__ = ["Outbox", "OutboxFull"]


class OutboxFull(Exception):
    """A frame would pass a bound; ``what`` names the bound, as in "256 messages"."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


class Outbox:
    """Frames waiting to be written, oldest first, at most ``max_messages`` and ``max_bytes``.

    A frame counts as one message whatever its size; the tail of a frame the socket took in
    part counts as one message of its remaining bytes.
    """

    __slots__ = ("_bytes", "_frames", "_tail_first", "max_bytes", "max_messages")

    def __init__(self, max_messages: int, max_bytes: int) -> None:
        if max_messages < 1 or max_bytes < 1:
            raise ValueError(f"an outbox needs room, not {max_messages} / {max_bytes} bytes")
        self.max_messages = max_messages
        self.max_bytes = max_bytes
        self._frames: deque[bytes] = deque()
        self._bytes = 0
        self._tail_first = False  # the first frame is the rest of one already begun

    def __len__(self) -> int:
        """Frames waiting."""
        return len(self._frames)

    def __bool__(self) -> bool:
        return bool(self._frames)

    @property
    def nbytes(self) -> int:
        """Bytes waiting."""
        return self._bytes

    @property
    def over_half(self) -> bool:
        """Whether more than half of either bound is taken (the reader pauses then)."""
        return len(self._frames) > self.max_messages // 2 or self._bytes > self.max_bytes // 2

    def put(self, frame: bytes) -> None:
        """Queue ``frame`` last; raises ``OutboxFull`` (queueing nothing) if it does not fit."""
        if len(self._frames) >= self.max_messages:
            raise OutboxFull(f"{self.max_messages} messages")
        size = len(frame)
        if self._bytes + size > self.max_bytes:
            raise OutboxFull(f"{self.max_bytes:,} bytes")
        self._frames.append(frame)
        self._bytes += size

    def put_all(self, frames: list[bytes], *, skip: int = 0) -> None:
        """Queue ``frames`` in order, leaving out their first ``skip`` bytes: what the socket
        already took of them, which only an empty outbox may be told (nothing may overtake
        what is queued). Raises ``OutboxFull`` at the first frame that does not fit; the
        frames before it stay queued."""
        if skip:
            assert not self._frames, "bytes were written past queued frames"
        for frame in frames:
            if skip >= len(frame):
                skip -= len(frame)
                continue
            if skip:
                self.put(frame[skip:])
                self._tail_first = True
                skip = 0
            else:
                self.put(frame)

    def take(self, size: int) -> bytes:
        """The oldest frames as one write: at least one, and no more once ``size`` bytes are
        reached (so a batch may end one frame past it). The outbox must not be empty."""
        frames = self._frames
        first = frames.popleft()
        self._tail_first = False
        taken = len(first)
        if not frames or taken >= size:
            self._bytes -= taken
            return first
        batch = [first]
        while frames and taken < size:
            batch.append(frames.popleft())
            taken += len(batch[-1])
        self._bytes -= taken
        return b"".join(batch)

    @property
    def begun(self) -> bool:
        """Whether the first frame waiting is the rest of one the socket took in part."""
        return self._tail_first

    def drop_unbegun(self) -> None:
        """Drop every frame not yet begun (a session closed at once says its last words
        next). The rest of a frame the socket took in part stays: a frame is never cut."""
        frames = self._frames
        if self._tail_first:
            tail = frames.popleft()
            frames.clear()
            frames.append(tail)
            self._bytes = len(tail)
        else:
            frames.clear()
            self._bytes = 0
