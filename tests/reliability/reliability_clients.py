"""Clients that misbehave on purpose, built on ``e2e_client.Player``.

- ``connect_raw``: a player that also keeps every frame body exactly as the server sent it
  (before the protocol's own checks clean any text), to prove what reached it.
- ``connect_slow``: a player whose socket has a tiny receive buffer, for a client that
  stops reading.
- ``unprintable``: every string anywhere in a decoded body that a terminal would act on.
"""

from __future__ import annotations

import socket
from typing import Any

import trio
from e2e_client import Hub, Player

from protocol.codec import decode_body
from protocol.connection import ClientConnection
from protocol.framing import FrameDecoder
from protocol.messages import Hello, Welcome

__all__ = ["TeeConnection", "connect_raw", "connect_slow", "unprintable"]


class TeeConnection(ClientConnection):
    """A ClientConnection that also keeps every received body as plain, unchecked data."""

    def __init__(self) -> None:
        super().__init__()
        self.raw_bodies: list[dict[str, Any]] = []
        self._raw = FrameDecoder()

    def receive_data(self, data: bytes) -> None:
        self._raw.feed(data)
        while (body := self._raw.next_frame()) is not None:
            self.raw_bodies.append(decode_body(body))
        super().receive_data(data)


async def _hello(player: Player, name: str) -> Player:
    await player.send(Hello(versions=("1.0",), name=name))
    welcome = await player.receive()
    assert isinstance(welcome, Welcome), welcome
    player.welcome = welcome
    return player


async def connect_raw(port: int, name: str, hub: Hub) -> tuple[Player, TeeConnection]:
    """A player whose connection records raw bodies (say hello with ``name``)."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    player = Player(stream, name, hub)
    tee = TeeConnection()
    player.conn = tee
    return await _hello(player, name), tee


async def connect_slow(port: int, name: str, hub: Hub, receive_buffer: int = 4096) -> Player:
    """A player whose socket buffers at most about ``receive_buffer`` bytes unread."""
    sock = trio.socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    await sock.connect(("127.0.0.1", port))
    return await _hello(Player(trio.SocketStream(sock), name, hub), name)


def unprintable(value: object) -> list[str]:
    """Every string inside ``value`` (keys too) holding a character that is not printable:
    escape, the other C0 and C1 controls, DEL, bidirectional overrides and the like."""
    found: list[str] = []
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if not item.isprintable():
                found.append(item)
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list | tuple):
            pending.extend(item)
    return found
