"""Bots the server hosts: the one part of ``client`` the server may import.

A server plays a bot seat (a host's ``add-bot``, a person's seat while away) with a real
protocol client inside its own process. Everything it needs of ``client`` is here, so
that the layers point one way (pyproject's import-linter contracts):

- :func:`known_strategy` and :func:`level_of`: whether a strategy name exists, and the
  level it means (``basic`` is ``normal``), for the lobby's checks and the seat list;
- :func:`memory_pipe`: two connected in-memory byte streams, one end for the server's
  session and one for the bot;
- :func:`serve_seat`: the bot itself on its end: hello with the stand-in token, then
  each fresh view's choice after the think delay, until the connection ends.

A ``hard`` bot's search runs in a worker thread (``trio.to_thread``), never on the event
loop, with at most CPU count minus one searches at once per process (:data:`SEARCHES`);
past that a decision is played as ``normal``, at once.
"""

from __future__ import annotations

import logging
import math
import os
import random
from dataclasses import dataclass

import trio

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

__all__ = [
    "SEARCHES",
    "HostedBot",
    "ResumeState",
    "choose_off_loop",
    "known_strategy",
    "level_of",
    "memory_pipe",
    "serve_seat",
]

log = logging.getLogger("uno.server.bots")

EVENTS_KEPT = 64
"""Events a hard hosted bot keeps: more than one move brings between two views (a gap
only makes its round memory forget what it cannot trust)."""

SEARCHES = trio.CapacityLimiter(max(1, (os.cpu_count() or 2) - 1))
"""How many ``hard`` bots may search at once, per process (a core is left to the tables)."""


def known_strategy(name: str) -> bool:
    """Whether a bot strategy (a level, an alias or ``random``) of that name exists."""
    return name in STRATEGIES


def level_of(strategy: str) -> str:
    """The level a strategy name means (``basic`` is ``normal``), as the seat list shows it."""
    return canonical_strategy(strategy)


# -- the in-memory connection ----------------------------------------------------------------


class _PipeEnd(trio.abc.HalfCloseableStream):
    """One end of :func:`memory_pipe`: what it sends, the other end receives, in order.
    ``send_eof`` ends this direction (the other end then reads b""); writing to an end
    whose peer has closed raises ``trio.BrokenResourceError``, as a socket does."""

    def __init__(
        self, outgoing: trio.MemorySendChannel[bytes], incoming: trio.MemoryReceiveChannel[bytes]
    ) -> None:
        self._outgoing = outgoing
        self._incoming = incoming
        self._pending = bytearray()
        self._eof_sent = False
        self._closed = False

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        if self._closed:
            raise trio.ClosedResourceError("this end of the pipe is closed")
        if self._eof_sent:
            raise trio.ClosedResourceError("this end of the pipe has sent its end of file")
        await trio.lowlevel.checkpoint()
        if data:
            self._outgoing.send_nowait(bytes(data))  # unbounded: it never blocks

    async def wait_send_all_might_not_block(self) -> None:
        if self._closed:
            raise trio.ClosedResourceError("this end of the pipe is closed")
        await trio.lowlevel.checkpoint()

    async def send_eof(self) -> None:
        if self._closed:
            raise trio.ClosedResourceError("this end of the pipe is closed")
        self._eof_sent = True
        self._outgoing.close()
        await trio.lowlevel.checkpoint()

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        if max_bytes is not None and max_bytes < 1:
            raise ValueError("max_bytes must be at least 1")
        if self._closed:
            raise trio.ClosedResourceError("this end of the pipe is closed")
        if not self._pending:
            try:
                self._pending += await self._incoming.receive()
            except trio.EndOfChannel:
                return b""
        else:
            await trio.lowlevel.checkpoint()
        size = len(self._pending) if max_bytes is None else max_bytes
        chunk = bytes(self._pending[:size])
        del self._pending[:size]
        return chunk

    async def aclose(self) -> None:
        self._closed = True
        self._outgoing.close()
        self._incoming.close()
        await trio.lowlevel.checkpoint()


def memory_pipe() -> tuple[trio.abc.HalfCloseableStream, trio.abc.HalfCloseableStream]:
    """Two connected in-memory streams (bytes written to one are read from the other).
    Writes never block: a hosted bot's session is trusted and the server's outbox bounds
    what it holds."""
    to_second, from_first = trio.open_memory_channel[bytes](math.inf)
    to_first, from_second = trio.open_memory_channel[bytes](math.inf)
    return _PipeEnd(to_second, from_second), _PipeEnd(to_first, from_first)


# -- the bot on its end ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HostedBot:
    """How one hosted bot plays: its name, the strategy, its pace and its seed."""

    name: str
    """Its name in the hello."""
    strategy: str
    """A strategy of ``client.bots.strategies``; an unknown one plays ``basic``."""
    think_seconds: float
    """How long it waits before each command."""
    jump_in_ms: tuple[int, int]
    """The range of its reaction before a jump-in (ruling 37), instead of the think."""
    seed: int
    """Seeds its choices."""


async def serve_seat(stream: trio.abc.Stream, bot: HostedBot, resume: ResumeState) -> None:
    """Greet the server over ``stream`` with ``resume`` (the stand-in token the table made
    and the last event seen), then play the seat until the connection ends. Returns
    quietly when the token opens no seat or the connection ends."""
    hard = level_of(bot.strategy) == "hard"
    try:
        # A hosted bot decides from its views and keeps no history: a hard one only the
        # few events its round memory reads between two views.
        async with open_session(
            stream,
            bot.name,
            resume=resume,
            events_kept=EVENTS_KEPT if hard else 0,
            latencies_kept=0,
            bot=True,
        ) as client:
            if client.welcome is None or not client.welcome.resumed:
                log.info("bot %s was not seated (its token opens no seat now)", bot.name)
                return
            strategy = bot.strategy if known_strategy(bot.strategy) else "basic"
            if strategy != bot.strategy:
                log.warning("no bot strategy %r; %s plays basic", bot.strategy, bot.name)
            await play_seat(
                client,
                strategy,
                random.Random(bot.seed),
                bot.think_seconds,
                Knobs(jump_in_ms=bot.jump_in_ms),
            )
    except SessionError as error:
        log.debug("bot %s stopped: %s", bot.name, error)


async def choose_off_loop(
    view: View, rng: random.Random, strategy: str, memory: RoundMemory | None = None
) -> SeatCommand | None:
    """The strategy's choice; a ``hard`` search runs in a worker thread, never on the
    event loop, and when every search slot is busy this decision is played as ``normal``.
    ``memory`` is the round as the seat's events told it (only ``hard`` reads it)."""
    knobs = table_knobs(strategy)
    if level_of(strategy) != "hard":
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
    (before a jump-in, after a reaction drawn from ``reaction.jump_in_ms``). A choice the
    server refuses is not retried: the bot waits for the next view, so it can never spin.
    Raises SessionError once the connection has ended."""
    reaction = reaction or Knobs()
    acted_on: object = None
    memory = RoundMemory() if level_of(strategy) == "hard" else None

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
        command = await choose_off_loop(view, rng, strategy, memory)
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
