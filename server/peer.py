"""The contracts between the network shell and the lobby: what a table or the lobby sees of
a client (``Peer``), and what a client's session needs of the lobby (``LobbyPort``).

A session (server/session.py) implements ``Peer``; the lobby and the tables only ever call
``send``, ``hold`` and ``close`` on it. ``send`` never blocks: a peer whose outbox is full
(in messages or in bytes, ``SessionLimits.outbox_size`` and ``outbox_bytes``) closes itself
with the ``too-slow`` error, so a table never waits for a slow reader.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from collections.abc import Callable

    from protocol.errors import ErrorCode
    from protocol.messages import Message
    from protocol.version import Version

__all__ = ["LobbyPort", "Peer"]


class Peer(Protocol):
    """What a table or the lobby sees of one client connection."""

    peer_id: int
    """Unique per connection for the life of the server."""
    name: str
    """The display name from the hello, already cleaned of control characters."""
    address: str
    """The remote IP address, for logs."""
    bot: bool
    """The hello said the connection is a program playing by itself (1.3 ``hello.bot``)."""

    @property
    def version(self) -> Version:
        """The protocol version the hello negotiated (what the peer is sent is judged by it)."""

    def send(self, *messages: Message) -> None:
        """Send ``messages`` to the client, in order. Never blocks.

        A full outbox (too many messages or too many bytes waiting) makes the session close
        itself with ``too-slow``; the caller does not learn of it and must not care.
        """

    def hold(self, *messages: Message) -> None:
        """Like ``send``, but the messages wait for the next ``send`` and leave with it.

        One write (and one wake-up of the client) instead of two. The caller must follow
        with a ``send`` soon: held messages go nowhere by themselves. A graceful shutdown
        still writes them (before ``closing``); a ``close`` drops them.
        """

    def when_drained(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` once everything sent so far has been written to the client
        (at once if it has), from whichever task wrote the last of it. Never called for a
        connection that closes first: its loss reaches the table instead."""

    def close(self, code: ErrorCode, reason: str) -> None:
        """Send a protocol error with ``code`` and ``reason``, then close the connection."""


class LobbyPort(Protocol):
    """What a session needs of the lobby (``server.lobby.Lobby`` provides it)."""

    def arrived(self, peer: Peer) -> None:
        """``peer``'s hello is answered: it is in the lobby (and hears its chat) until it
        sits at a table."""

    async def handle(self, peer: Peer, message: Message) -> None:
        """Act on one message from ``peer``; replies go back through ``peer.send``."""

    def disconnected(self, peer: Peer) -> None:
        """``peer``'s connection is gone."""

    def resume(self, peer: Peer, token: str, last_seq: int) -> bool:
        """Give ``peer`` the seat a hello's resume token opens (no reply); False if none."""
