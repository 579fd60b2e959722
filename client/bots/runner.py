"""The headless bot runner: N bots in one process play whole matches over the protocol.

Each bot is one connection and one task. It acts on every fresh view (one that includes
every event received): ready between rounds, otherwise the command its strategy picks,
after its think time (or its catch reaction delay). The first bot hosts: it creates the
table (or joins the named one), starts the match and asks for each rematch until the
number of games is played. ``Stats`` collects what the ``--json`` summary reports.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from functools import partial
from itertools import islice
from typing import Any

import trio

from client.bots.api import Bot, RefusedError, connect_bot
from client.bots.memory import RoundMemory
from client.bots.ride import SeatLostError, reconnected, worth_resuming
from client.bots.strategies import Knobs, canonical_strategy, choose, is_jump_in, jump_in_seconds
from client.session import (
    ClientSession,
    ServerClosedError,
    ServerProtocolError,
    SessionError,
    percentile,
)
from protocol.commands import Catch, SeatCommand
from protocol.errors import ErrorCode, LocalProtocolError
from protocol.events import MatchOver, RoundOver
from protocol.messages import Closing, Ready
from protocol.phase import Phase
from protocol.views import View

__all__ = ["Pacer", "RunSettings", "Stats", "play_bot", "run_bots"]

# Codes that end a connection without anyone breaking the protocol.
_ORDERLY_CLOSES = {Closing.TYPE, ErrorCode.SERVER_SHUTDOWN.value}


@dataclass(frozen=True, slots=True)
class RunSettings:
    """Everything one run of ``uno-bot`` needs to know."""

    host: str
    port: int
    table: str = "bots"
    create: bool = True
    options: Mapping[str, Any] = field(default_factory=dict)
    password: str | None = None
    bots: int = 4
    strategy: str = "basic"
    strategies: tuple[str, ...] = ()
    """One strategy per bot, overriding ``strategy`` for the first ones (e.g. basic,random)."""
    knobs: Knobs = field(default_factory=Knobs)
    games: int = 1
    seed: int | None = None
    name_prefix: str = "bot"
    rate: float | None = 15.0
    """Messages a bot sends per second at most (stay under the server's allowance)."""
    burst: float = 20.0
    reconnect_seconds: float = 30.0
    """After a lost connection, how long each bot tries to take its seat back."""

    def strategy_of(self, index: int) -> str:
        return self.strategies[index] if index < len(self.strategies) else self.strategy


@dataclass(slots=True)
class Stats:
    """What happened in a run; ``summary()`` is the ``--json`` object."""

    matches: int = 0
    rounds: int = 0
    results: list[dict[str, Any]] = field(default_factory=list)
    commands: int = 0
    rejections: int = 0
    races: int = 0
    protocol_errors: int = 0
    gaps: int = 0
    rejection_codes: Counter[str] = field(default_factory=Counter)
    latencies_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        return {
            "matches": self.matches,
            "rounds": self.rounds,
            "results": self.results,
            "commands": self.commands,
            "rejections": self.rejections,
            "races": self.races,
            "protocol_errors": self.protocol_errors,
            "gaps": self.gaps,
            "rejection_codes": dict(self.rejection_codes),
            "latency_ms": {
                "p50": round(percentile(self.latencies_ms, 0.50), 3),
                "p99": round(percentile(self.latencies_ms, 0.99), 3),
            },
            "errors": self.errors,
        }


class Pacer:
    """A token bucket on the client side, so a fast bot never trips the server's allowance."""

    def __init__(self, rate: float | None, burst: float) -> None:
        self._rate = rate
        self._burst = max(burst, 1.0)
        self._tokens = self._burst
        self._stamp = trio.current_time()

    async def take(self) -> None:
        """Wait until one more message may be sent."""
        if self._rate is None:
            return
        now = trio.current_time()
        self._tokens = min(self._burst, self._tokens + (now - self._stamp) * self._rate)
        self._stamp = now
        if self._tokens < 1.0:
            await trio.sleep((1.0 - self._tokens) / self._rate)
            self._stamp = trio.current_time()
            self._tokens = 1.0
        self._tokens -= 1.0


def _think_seconds(
    command: SeatCommand, view: View, seat: int | None, rng: random.Random, knobs: Knobs
) -> float:
    if isinstance(command, Catch):
        return knobs.catch_delay_ms / 1000.0
    if is_jump_in(command, view):
        return jump_in_seconds(knobs, rng)
    if view.shared.to_act != seat:
        return 0.0
    low, high = knobs.think_ms
    return rng.uniform(low, high) / 1000.0 if high > 0 else 0.0


async def play_bot(
    bot: Bot,
    strategy: str,
    rng: random.Random,
    *,
    knobs: Knobs,
    stats: Stats,
    pacer: Pacer | None = None,
) -> None:
    """Play every fresh view until the connection ends (or the task is cancelled)."""
    session = bot.session
    pacer = pacer or Pacer(None, 1)
    acted_on: object = None
    ready_for: object = None
    memory = RoundMemory() if canonical_strategy(strategy) == "hard" else None
    while True:
        try:
            await session.wait_for(partial(_news, bot, acted_on))
        except SessionError:
            return
        if session.closed:
            # Nothing more will come; looping on the last view would spin without
            # ever reaching a checkpoint (not even Ctrl-C could stop it).
            return
        view = session.view
        if view is None:  # not reached: a fresh view is there
            continue
        acted_on = view
        if view.shared.phase == Phase.ROUND_OVER:
            round_key = (view.shared.round, view.shared.last_seq)
            if ready_for != round_key:
                ready_for = round_key
                await pacer.take()
                await _count(stats, bot, None)
            continue
        if memory is not None:
            memory.know_table(session.table)
            memory.catch_up_messages(session.events)
        command = choose(view, rng, strategy, knobs, memory)
        if command is None:
            continue
        delay = _think_seconds(command, view, bot.seat, rng, knobs)
        if delay > 0:
            await trio.sleep(delay)
            if session.view is not acted_on:
                acted_on = None  # the table moved on while thinking: look again
                continue
        await pacer.take()
        await _count(stats, bot, command)


def _news(bot: Bot, acted_on: object, session: ClientSession) -> bool:
    """The session closed, or a fresh view arrived that the bot has not acted on."""
    return session.closed or (bot.fresh and session.view is not acted_on)


def _more_events(counted: int, session: ClientSession) -> bool:
    return session.event_count > counted


async def _count(stats: Stats, bot: Bot, command: SeatCommand | None) -> None:
    """Send a game command (None: say ready) and add its fate to the stats.

    A rejection counts as a lost race when the server says so, and also when other
    players' events arrived after the view the command was chosen from: the command was
    legal in that view and another command got there first (a catch after the exposed
    hand changed is refused as ``not-exposed``, for instance).
    """
    chosen_at = bot.session.view_seq
    try:
        if command is None:
            reply = await bot.session.request(Ready(id=bot.session.next_id(), ready=True))
        else:
            reply = await bot.send(command)
    except SessionError:
        return
    except LocalProtocolError as error:
        stats.protocol_errors += 1
        stats.errors.append(f"{bot.name}: {error}")
        return
    stats.commands += 1
    stats.latencies_ms.append(reply.latency_ms)
    if reply.ok:
        return
    if reply.lost_race or bot.session.last_seq > chosen_at:
        stats.races += 1
    else:
        stats.rejections += 1
        stats.rejection_codes[reply.code or "?"] += 1


def _record_close(stats: Stats, bot: Bot) -> None:
    reason = bot.session.close_reason
    if isinstance(reason, ServerProtocolError) or (
        isinstance(reason, ServerClosedError) and reason.code not in _ORDERLY_CLOSES
    ):
        stats.protocol_errors += 1
        stats.errors.append(f"{bot.name}: {reason}")
    stats.gaps += bot.session.gap_count


def _match_result(bot: Bot, event: MatchOver) -> dict[str, Any]:
    names: dict[int, str] = {}
    table = bot.session.table
    if table is not None:
        names = {s.seat: s.name or f"seat {s.seat}" for s in table.seats}
    scores = event.scores
    winners = [names.get(seat, f"seat {seat}") for seat in event.winners]
    return {
        "winner": winners[0] if len(winners) == 1 else winners,
        "scores": {names.get(seat, f"seat {seat}"): score for seat, score in enumerate(scores)},
    }


async def _host(bot: Bot, settings: RunSettings, stats: Stats, counted: int) -> None:
    """Watch the host's event stream (after the first ``counted`` events): count rounds
    and matches, ask for rematches."""
    session = bot.session
    while stats.matches < settings.games:
        await session.wait_for(partial(_more_events, counted))
        fresh = min(session.event_count - counted, len(session.events))
        counted = session.event_count
        # Only the newest events: the kept list is long and this runs after every change.
        for message in list(islice(reversed(session.events), fresh))[::-1]:
            body = message.body.body
            if isinstance(body, RoundOver):
                stats.rounds += 1
            elif isinstance(body, MatchOver):
                stats.matches += 1
                stats.results.append(_match_result(bot, body))
                if stats.matches < settings.games and settings.create:
                    await bot.rematch()


async def run_bots(
    settings: RunSettings,
    stats: Stats | None = None,
    started: Callable[[], None] | None = None,
) -> Stats:
    """Connect the bots, seat them, play ``settings.games`` matches, and report.

    ``stats`` collects as the run goes (a caller interrupted midway still has them);
    ``started`` is called once every bot is seated and the match has begun.
    """
    stats = stats if stats is not None else Stats()
    async with AsyncExitStack() as stack:
        bots: list[Bot] = []
        for index in range(settings.bots):
            name = f"{settings.name_prefix}{index + 1}"
            bots.append(
                await stack.enter_async_context(connect_bot(settings.host, settings.port, name))
            )
        try:
            await _play_table(bots, settings, stats, started)
        except (SessionError, RefusedError) as error:
            stats.errors.append(f"{bots[0].name}: {error}")
        for bot in bots:
            _record_close(stats, bot)
    return stats


async def _play_table(
    bots: list[Bot],
    settings: RunSettings,
    stats: Stats,
    started: Callable[[], None] | None = None,
) -> None:
    """Create or find the table, seat every bot, and play until the games are done."""
    host = bots[0]
    if settings.create:
        options = {"seats": max(settings.bots, 2), **settings.options}
        table_id = await host.create_table(settings.table, options, settings.password)
    else:
        table_id = await host.find_table(settings.table)
        await host.join(table_id, password=settings.password)
    for bot in bots[1:]:
        await bot.join(table_id, password=settings.password)
    master = random.Random(settings.seed)
    async with trio.open_nursery() as nursery:
        plays = []
        for index, bot in enumerate(bots):
            play = partial(
                play_bot,
                strategy=settings.strategy_of(index),
                rng=random.Random(master.getrandbits(64)),
                knobs=settings.knobs,
                stats=stats,
                pacer=Pacer(settings.rate, settings.burst),
            )
            plays.append(play)
            if index:
                nursery.start_soon(_ride, bot, settings, stats, play)
        try:
            if settings.create:
                await host.wait_seated(settings.bots)
                await host.start()
            if started is not None:
                started()
            await _ride(host, settings, stats, plays[0], host_watch=True)
        except (SessionError, RefusedError) as error:
            if isinstance(error, SeatLostError):
                raise
            stats.errors.append(f"{host.name}: {error}")
        nursery.cancel_scope.cancel()


async def _ride(
    bot: Bot,
    settings: RunSettings,
    stats: Stats,
    play: Callable[[Bot], Awaitable[None]],
    host_watch: bool = False,
) -> None:
    """Play on the bot's session; when the server goes away, take the seat back on a new
    connection and play on (``SeatLostError`` when that fails). The host also watches the
    matches, and returns once the games are played."""
    counted = bot.session.event_count
    if await _play_session(bot, settings, stats, play, host_watch=host_watch, counted=counted):
        return
    while worth_resuming(bot.session):
        stats.gaps += bot.session.gap_count
        async with reconnected(bot, settings.host, settings.port, settings.reconnect_seconds):
            # The new session numbers its events from its first: count them all.
            if await _play_session(bot, settings, stats, play, host_watch=host_watch, counted=0):
                return


async def _play_session(
    bot: Bot,
    settings: RunSettings,
    stats: Stats,
    play: Callable[[Bot], Awaitable[None]],
    *,
    host_watch: bool,
    counted: int,
) -> bool:
    """Play until this session ends (False) or, for the host, the games are done (True)."""
    async with trio.open_nursery() as nursery:
        nursery.start_soon(play, bot)
        if not host_watch:
            return False
        try:
            await _host(bot, settings, stats, counted)
        except SessionError:
            return False
        nursery.cancel_scope.cancel()
    return True
