"""Server bots as real protocol clients, connected to the server through memory streams.

Two kinds of seat are played by the server: bot seats the host added, and people's seats
marked away (their connection is gone, or the engine saw three turn expiries in a row).
Both are played the same way, by a client that speaks protocol v1 like any other:

- A bot of ``client.bots.hosted`` (a real client session, the one part of ``client`` the
  server imports) on one end of an in-memory stream pair (``hosted.memory_pipe``), and a
  real ``server.session.Session`` attached to the lobby on the other. Nothing is
  shortcut: the bot says hello, is welcomed, and receives the same redacted events and
  views a remote client of that seat would get.
- It reaches its seat through the normal lobby path: its hello carries a resume token
  that the table made for it (a stand-in token, never the owner's), so the table seats it
  as the seat's stand-in. The table accepts game commands for the seat from its stand-in
  while the seat is a bot's or away, and dismisses it when the owner is back.
- It picks each command with its strategy from the view's legal commands, after a think
  delay so people can follow the game (``hosted.serve_seat``).

One bot costs one session pair and a handful of tasks. ``BotLauncher`` starts them; the
table keeps the ``StandIn`` handle to dismiss its bot.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

import trio

from client.bots.hosted import HostedBot, ResumeState, known_strategy, memory_pipe, serve_seat
from server.identity import ServerIdentity
from server.limits import SessionLimits
from server.peer import LobbyPort, Peer
from server.session import Session

__all__ = ["BOT_LIMITS", "BotLauncher", "BotOrder", "StandIn", "known_strategy"]

BOT_ADDRESS = "in-process"
"""The ``address`` of a server bot's session, for logs."""

BOT_LIMITS = SessionLimits(
    allowance_rate=10_000.0,
    allowance_burst=10_000.0,
    outbox_size=4096,
    outbox_bytes=4 * 1024 * 1024,
)
"""A server bot is trusted: it has no message allowance to speak of (a table of bots with
no think time plays as fast as the machine allows), and a deep outbox (about 1 KiB a
message)."""


@dataclass(frozen=True, slots=True)
class BotOrder:
    """What one server bot is to do: which seat (by token), how, and how fast."""

    token: str
    """The stand-in token its hello presents; it opens exactly one seat as a stand-in."""
    name: str
    """Its name in the hello (the bot seat's name, or a stand-in's)."""
    strategy: str
    """A strategy of ``client.bots.strategies``; an unknown one plays ``basic``."""
    think_seconds: float
    """How long it waits before each command."""
    jump_in_ms: tuple[int, int]
    """The range of its reaction before a jump-in (ruling 37), instead of the think."""
    seed: int
    """Seeds its choices."""
    last_seq: int
    """The table's last event number when the bot was ordered (it resumes after it)."""


class StandIn:
    """The table's handle on one server bot: its token, its peer once seated, its end."""

    def __init__(self, token: str) -> None:
        self.token = token
        self.peer: Peer | None = None
        """The bot's server session once the table has seated it."""
        self._scope = trio.CancelScope()

    def dismiss(self) -> None:
        """Stop the bot; its connection ends (it may be mid-handshake or mid-command)."""
        self._scope.cancel()


class BotLauncher:
    """Starts server bots as protocol clients of ``lobby``; see the module docstring."""

    def __init__(
        self,
        lobby: LobbyPort,
        identity: ServerIdentity,
        limits: SessionLimits = BOT_LIMITS,
    ) -> None:
        self._lobby = lobby
        self._identity = identity
        self._limits = limits
        # Negative ids never meet the listener's, which count up from 1.
        self._peer_ids = itertools.count(-1, -1)

    def launch(
        self, nursery: trio.Nursery, order: BotOrder, on_exit: Callable[[StandIn], None]
    ) -> StandIn:
        """Start one bot in ``nursery``; ``on_exit`` hears when it has stopped, for any
        reason (dismissed, refused, or its connection ended)."""
        stand_in = StandIn(order.token)
        nursery.start_soon(self._run, order, stand_in, on_exit)
        return stand_in

    async def _run(
        self, order: BotOrder, stand_in: StandIn, on_exit: Callable[[StandIn], None]
    ) -> None:
        server_end, client_end = memory_pipe()
        session = Session(
            server_end,
            peer_id=next(self._peer_ids),
            address=BOT_ADDRESS,
            lobby=self._lobby,
            identity=self._identity,
            limits=self._limits,
        )
        try:
            with stand_in._scope:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(session.run)
                    bot = HostedBot(
                        order.name,
                        order.strategy,
                        order.think_seconds,
                        order.jump_in_ms,
                        order.seed,
                    )
                    await serve_seat(client_end, bot, ResumeState(order.token, order.last_seq))
                    # The client said bye and closed its end: the server session ends
                    # by itself; nothing else is left to wait for.
        finally:
            on_exit(stand_in)
