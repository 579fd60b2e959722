"""Length-prefixed frames: a 4-byte big-endian body length, then the body.

``encode_frame`` wraps one body; ``FrameDecoder`` collects bytes as they arrive from a
stream, in chunks of any size, and hands out complete bodies. A header that announces a
body of 0 bytes or more than ``MAX_FRAME_BODY`` is refused as soon as its 4 bytes are in,
before any of the body is buffered.
"""

from __future__ import annotations

from protocol.errors import ErrorCode, LocalProtocolError, RemoteProtocolError
from protocol.limits import MAX_FRAME_BODY

__all__ = ["HEADER_SIZE", "FrameDecoder", "encode_frame"]

HEADER_SIZE = 4
"""Bytes in a frame header."""

# Compact the buffer once this much of it has been consumed, so that feeding many small
# frames costs linear time and the buffer never holds much more than one frame.
_COMPACT_AFTER = 64 * 1024


def encode_frame(body: bytes) -> bytes:
    """One frame carrying ``body``; raises LocalProtocolError if its size is not allowed."""
    if not 0 < len(body) <= MAX_FRAME_BODY:
        raise LocalProtocolError(
            ErrorCode.FRAME_TOO_LARGE,
            f"a frame body must be 1 to {MAX_FRAME_BODY} bytes, not {len(body)}",
        )
    return len(body).to_bytes(HEADER_SIZE, "big") + body


class FrameDecoder:
    """Turns a byte stream into frame bodies.

    ``feed`` adds bytes; ``next_frame`` returns the next complete body, or None until more
    bytes arrive. After it has raised, the stream cannot be trusted and the decoder keeps
    raising the same error.
    """

    __slots__ = ("_buffer", "_error", "_start")

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._start = 0
        self._error: RemoteProtocolError | None = None

    @property
    def buffered(self) -> int:
        """Bytes received and not yet handed out as part of a frame."""
        return len(self._buffer) - self._start

    def feed(self, data: bytes) -> None:
        """Add bytes received from the stream."""
        self._buffer += data

    def next_frame(self) -> bytes | None:
        """The next complete frame body, or None if it has not fully arrived.

        Raises RemoteProtocolError(frame-too-large) for a header announcing 0 bytes or
        more than the limit.
        """
        if self._error is not None:
            raise self._error
        if self.buffered < HEADER_SIZE:
            return None
        start = self._start
        length = int.from_bytes(self._buffer[start : start + HEADER_SIZE], "big")
        if not 0 < length <= MAX_FRAME_BODY:
            self._error = RemoteProtocolError(
                ErrorCode.FRAME_TOO_LARGE,
                f"frame header announces {length} bytes; allowed is 1 to {MAX_FRAME_BODY}",
            )
            raise self._error
        end = start + HEADER_SIZE + length
        if len(self._buffer) < end:
            return None
        body = bytes(self._buffer[start + HEADER_SIZE : end])
        self._start = end
        if self._start >= _COMPACT_AFTER or self._start == len(self._buffer):
            del self._buffer[: self._start]
            self._start = 0
        return body
