"""The floor for the server benchmark: a bare Trio echo over the protocol's framing.

Each connection gets one task that reads length-prefixed frames (``protocol.framing``),
decodes each body with the protocol's codec (``protocol.codec``: the same msgpack limits
and checks the real server applies), encodes the map again and writes it back to the
sender. No handshake, no lobby, no tables: whatever latency this shows is what Trio, the
kernel's loopback and msgpack cost before any game logic runs.

Run from the repository root (``tests/bench/server.py`` starts it for you)::

    .venv/bin/python tests/bench/echo.py --port 0

The first stdout line is ``echo listening on 127.0.0.1:PORT``; SIGINT or SIGTERM stops it.
"""

from __future__ import annotations

import argparse
import signal
import sys
from functools import partial

import trio

from protocol.codec import decode_body, encode_body
from protocol.errors import ProtocolError
from protocol.framing import FrameDecoder, encode_frame

LISTENING = "echo listening on "
"""How the first stdout line starts; the port follows the last colon."""

READ_SIZE = 16 * 1024
"""Bytes asked of the socket per read (the same as the real server's sessions)."""


async def echo_connection(stream: trio.SocketStream) -> None:
    """Echo every frame of one connection until it closes or sends something broken."""
    decoder = FrameDecoder()
    async with stream:
        try:
            while True:
                data = await stream.receive_some(READ_SIZE)
                if not data:
                    return
                decoder.feed(data)
                replies = []
                while (body := decoder.next_frame()) is not None:
                    replies.append(encode_frame(encode_body(decode_body(body))))
                if replies:
                    await stream.send_all(b"".join(replies))
        except (trio.BrokenResourceError, trio.ClosedResourceError, ProtocolError):
            return


async def serve(host: str, port: int) -> None:
    """Listen on ``host``:``port`` (0 picks one), announce it, echo until a signal comes."""
    with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async with trio.open_nursery() as nursery:
            listeners = await nursery.start(
                partial(trio.serve_tcp, echo_connection, port, host=host, backlog=4096)
            )
            bound_port = listeners[0].socket.getsockname()[1]
            print(f"{LISTENING}{host}:{bound_port}", flush=True)
            async for _ in signals:
                nursery.cancel_scope.cancel()
                break


def main(argv: list[str] | None = None) -> int:
    """Parse the flags and serve."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=0, help="TCP port; 0 picks a free one")
    args = parser.parse_args(argv)
    trio.run(serve, args.host, args.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
