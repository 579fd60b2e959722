"""Closing a connection so that the client reads the server's last words before the end.

A socket closed while bytes the client sent still sit unread makes TCP answer with a
reset instead of an orderly end: the client's next write fails, and on some systems
(Windows, often macOS) the reset also throws away what the client had received but not
read yet, which is the error that said why it was refused. So after its last words the
server ends its own side (a FIN), reads and drops whatever the client still sends until
the client closes too, and only then closes the socket. A deadline and a byte budget
bound the wait, so a client that keeps the connection open or keeps sending costs no
more than a refused connection did.
"""

from __future__ import annotations

import contextlib

import trio

__all__ = ["DRAIN_BYTES", "close_politely"]

DRAIN_BYTES = 256 * 1024
"""The most bytes read and dropped before closing anyway (a hello is at most 64 KiB)."""

_READ_SIZE = 16 * 1024


async def close_politely(stream: trio.abc.Stream, deadline: float) -> None:
    """End ``stream`` after what was written to it has been said: our side first, then
    the client's (or ``deadline``, trio time, or ``DRAIN_BYTES``), then the socket."""
    with (
        trio.move_on_at(deadline),
        contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError),
    ):
        if isinstance(stream, trio.abc.HalfCloseableStream):
            await stream.send_eof()
        drained = 0
        while drained < DRAIN_BYTES:
            data = await stream.receive_some(_READ_SIZE)
            if not data:
                break
            drained += len(data)
    await trio.aclose_forcefully(stream)
