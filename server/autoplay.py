"""Server bots as real protocol clients, connected to the server through memory streams.

Two kinds of seat are played by the server: bot seats the host added, and people's seats
marked away (their connection is gone, or the engine saw three turn expiries in a row).
Both are played the same way, by a client that speaks protocol v1 like any other:

- A ``client.session.ClientSession`` on one end of an in-memory stream pair
  (``trio.testing.memory_stream_pair``), and a real ``server.session.Session`` attached
  to the lobby on the other. Nothing is shortcut: the bot says hello, is welcomed, and
  receives the same redacted events and views a remote client of that seat would get.
- It reaches its seat through the normal lobby path: its hello carries a resume token
  that the table made for it (a stand-in token, never the owner's), so the table seats it
  as the seat's stand-in. The table accepts game commands for the seat from its stand-in
  while the seat is a bot's or away, and dismisses it when the owner is back.
- It picks each command with ``client.bots.strategies.choose`` from the view's legal
  commands, after a think delay so people can follow the game. A choice the server refuses
  is not retried: the bot waits for the next view, so it can never spin.

One bot costs one session pair and a handful of tasks. ``BotLauncher`` starts them; the
table keeps the ``StandIn`` handle to dismiss its bot.
"""

from __future__ import annotations

import itertools
import logging
import os
import random
from collections.abc import Callable
from dataclasses import dataclass

import trio
import trio.testing

from client.bots.memory import RoundMemory
from client.bots.strategies import (
    STRATEGIES,
    Knobs,
    canonical_strategy,
    choose,
    is_jump_in,
    jump_in_seconds,
    table_knobs,
)
from client.session import ClientSession, ResumeState, SessionError, open_session
from protocol.commands import SeatCommand
from protocol.views import View
from server.identity import ServerIdentity
from server.limits import SessionLimits
from server.peer import LobbyPort, Peer
from server.session import Session

__all__ = ["BOT_LIMITS", "BotLauncher", "BotOrder", "StandIn", "known_strategy"]

BOT_EVENTS_KEPT = 64
"""Events a hard server bot keeps: more than one move brings between two views (a gap
only makes its round memory forget what it cannot trust)."""

log = logging.getLogger("uno.server.bots")

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


def known_strategy(name: str) -> bool:
    """Whether a bot strategy of that name exists."""
    return name in STRATEGIES


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
        server_end, client_end = trio.testing.memory_stream_pair()
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
                    await _serve_seat(client_end, order)
                    # The client said bye and closed its end: the server session ends
                    # by itself; nothing else is left to wait for.
        finally:
            on_exit(stand_in)


async def _serve_seat(stream: trio.abc.Stream, order: BotOrder) -> None:
    """Greet the server with the stand-in token, then play until the connection ends."""
    resume = ResumeState(order.token, order.last_seq)
    try:
        # A server bot decides from its views and keeps no history in the server: a hard
        # one only the few events its round memory reads between two views.
        kept = BOT_EVENTS_KEPT if canonical_strategy(order.strategy) == "hard" else 0
        async with open_session(
            stream, order.name, resume=resume, events_kept=kept, latencies_kept=0, bot=True
        ) as client:
            if client.welcome is None or not client.welcome.resumed:
                log.info("bot %s was not seated (its token opens no seat now)", order.name)
                return
            strategy = order.strategy if known_strategy(order.strategy) else "basic"
            if strategy != order.strategy:
                log.warning("no bot strategy %r; %s plays basic", order.strategy, order.name)
            await play_seat(
                client,
                strategy,
                random.Random(order.seed),
                order.think_seconds,
                Knobs(jump_in_ms=order.jump_in_ms),
            )
    except SessionError as error:
        log.debug("bot %s stopped: %s", order.name, error)


SEARCHES = trio.CapacityLimiter(max(1, (os.cpu_count() or 2) - 1))
"""How many ``hard`` bots may search at once, server-wide (a core is left to the tables)."""


async def _choose(
    view: View, rng: random.Random, strategy: str, memory: RoundMemory | None = None
) -> SeatCommand | None:
    """The strategy's choice; a ``hard`` search runs in a worker thread, never on the
    event loop, and when every search slot is busy this decision is played as ``normal``.
    ``memory`` is the round as the seat's events told it (only ``hard`` reads it)."""
    knobs = table_knobs(strategy)
    if canonical_strategy(strategy) != "hard":
        return choose(view, rng, strategy, knobs)
    try:
        SEARCHES.acquire_nowait()
    except trio.WouldBlock:
        return choose(view, rng, "normal", knobs)
    try:
        return await trio.to_thread.run_sync(choose, view, rng, strategy, knobs, memory)
    finally:
        SEARCHES.release()


async def play_seat(
    client: ClientSession,
    strategy: str,
    rng: random.Random,
    think_seconds: float,
    reaction: Knobs | None = None,
) -> None:
    """Act on every fresh view (one that includes every event received) until the
    connection ends: the strategy's pick among the legal commands, after the think delay
    (before a jump-in, after a reaction drawn from ``reaction.jump_in_ms``). Raises
    SessionError once the connection has ended."""
    reaction = reaction or Knobs()
    acted_on: object = None
    memory = RoundMemory() if canonical_strategy(strategy) == "hard" else None

    def news(session: ClientSession) -> bool:
        view = session.view
        fresh = view is not None and session.view_seq >= session.last_seq
        return fresh and view is not acted_on

    while True:
        await client.wait_for(news)
        view = client.view
        assert view is not None
        acted_on = view
        if memory is not None:
            memory.know_table(client.table)
            memory.catch_up_messages(client.events)
        started = trio.current_time()
        command = await _choose(view, rng, strategy, memory)
        if command is None:
            continue
        delay = jump_in_seconds(reaction, rng) if is_jump_in(command, view) else think_seconds
        # A hard bot searched during the delay: only the rest of it is waited.
        delay -= trio.current_time() - started
        if delay > 0:
            await trio.sleep(delay)
            if client.view is not acted_on:
                acted_on = None  # the table moved on while the bot thought: look again
                continue
        reply = await client.play(command)
        if not reply.ok and not reply.lost_race:
            log.debug("bot %s was refused %s: %s", client.name, command, reply.message)
