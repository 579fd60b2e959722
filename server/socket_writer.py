"""A write to a TCP socket straight from synchronous code: what the kernel takes, at once.

Why it exists: latency. A table sends a move's events from its own step; written here, they
reach the sender's socket in that step, with no wake-up of the writer task, no task switch
and none of ``send_all``'s machinery. Measured when it came in (docs/performance.md, "A move
first, its views after"): server CPU per action 1.35 -> 0.91 ms paced and 1.02 -> 0.61 ms
saturated, saturation 966 -> 1,586 actions/s, paced p50 1.24 -> 1.13 ms.

It is a write past the stream's API, so it stays small and in one place: TCP sessions use
it, and so does the WebSocket stream (``server.websocket``), which frames a binary
message and writes it here to its TCP socket.

- POSIX only (there ``os.write`` on a socket is ``send``), and only for a
  ``trio.SocketStream`` (a WebSocket's is the one under it). Windows and in-memory
  streams (the server's own bots) get no ``SocketWriter``; everything they are sent goes
  through the session's writer task.
- It never waits: Trio's sockets do not block, so a full socket buffer takes nothing (or a
  part). Whatever is left is the caller's to hand to the writer task, in order, behind
  nothing: the caller writes here only when nothing is queued and the writer is idle.
- A broken connection raises nothing here: the write takes nothing, and the writer task
  finds the connection lost on its own write. (Python ignores SIGPIPE, so a write to a
  socket the peer has reset fails with EPIPE instead of ending the process.)
- ``detach`` before the socket closes: after it, writes take nothing. Its descriptor
  number may belong to another connection the moment the socket is closed.

No descriptor number leaves this class.
"""

from __future__ import annotations

import os

import trio

__all__ = ["SocketWriter"]


class SocketWriter:
    """Writes to one connected TCP socket without waiting; see the module docstring."""

    __slots__ = ("_fd",)

    def __init__(self, stream: trio.SocketStream) -> None:
        self._fd = stream.socket.fileno()

    @classmethod
    def for_stream(cls, stream: trio.abc.Stream) -> SocketWriter | None:
        """A writer for ``stream``, or None where it must go through a writer task (not
        POSIX, not a socket stream, or a socket already closed)."""
        if os.name != "posix" or not isinstance(stream, trio.SocketStream):
            return None
        if stream.socket.fileno() < 0:
            return None
        return cls(stream)

    @property
    def attached(self) -> bool:
        """Whether writes can still reach the socket (False after ``detach``)."""
        return self._fd >= 0

    def write(self, data: bytes) -> int:
        """Write what the socket takes of ``data`` now; return how many bytes that was.

        0 when the socket buffer is full, the connection is broken or the writer detached.
        """
        fd = self._fd
        if fd < 0:
            return 0
        try:
            return os.write(fd, data)
        except OSError:
            return 0

    def detach(self) -> None:
        """Write nothing more (call before the socket closes). Idempotent."""
        self._fd = -1
