"""A driver for scenario tests: several API bots at one table on a real server process.

The driver plays the table forward one command at a time with the basic strategy (no
catches, never forgetting UNO) until a condition on the bots' views holds, so a test can
then script exactly the moment it is about: rather than rigging the deal with a seed
found offline, the test plays a seeded server until the situation arises. Every step is
deterministic for a given server ``--seed`` and driver seed, and bounded.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from functools import partial
from typing import Any, TypeVar

from client.bots.api import Bot, connect_bot
from client.bots.command import spawn_server
from client.bots.strategies import Knobs, choose
from protocol.commands import Play
from protocol.phase import Phase
from protocol.views import SharedView, View

T = TypeVar("T")

QUIET = Knobs(catch=False)
"""How the driver plays: basic, prompt, never catching, never forgetting UNO."""

# Short clocks so that a server-side timeout never waits long; a high target so the
# match never ends under a scenario.
SERVER_ARGS = ("--bot-think-ms", "20", "--round-pause-seconds", "0")
BASE_OPTIONS = {"target_score": 100_000, "turn_seconds": 30}


def _caught_up(bot: Bot, target: int, session: Any) -> bool:
    """Whether ``bot`` acts on a fresh view and its session has seen event ``target``."""
    return bool(bot.fresh and session.last_seq >= target)


class Table:
    """The bots seated at one table, in seat order."""

    def __init__(self, bots: Sequence[Bot], host: str, port: int, table_id: str) -> None:
        self.bots = list(bots)
        self.host = host
        self.port = port
        self.table_id = table_id
        self.rng = random.Random(1)

    def seat(self, index: int) -> Bot:
        """The bot in seat ``index``."""
        return next(bot for bot in self.bots if bot.seat == index)

    @property
    def view(self) -> SharedView:
        """The public part of the table, from the host's latest view."""
        view = self.bots[0].view
        assert view is not None, "the match has not started"
        return view.shared

    def acting(self) -> Bot | None:
        """The bot the match waits on, if any."""
        to_act = self.view.to_act
        return None if to_act is None else self.seat(to_act)

    async def settle(self) -> None:
        """Wait until every connected bot holds a fresh view of the same last event."""
        while True:
            live = [bot for bot in self.bots if not bot.session.closed]
            target = max(bot.session.last_seq for bot in live)
            for bot in live:
                await bot.session.wait_for(partial(_caught_up, bot, target))
            if max(bot.session.last_seq for bot in live) == target:
                return

    async def step(self, knobs: Knobs = QUIET) -> None:
        """Play one command forward: the acting bot's basic choice, or ready between rounds."""
        if self.view.phase == Phase.ROUND_OVER:
            before = self.bots[0].session.last_seq
            for bot in self.bots:
                if not bot.session.closed:
                    await bot.ready()
            await self.bots[0].session.wait_for(lambda s: s.last_seq > before)
            return
        acting = self.acting()
        assert acting is not None, f"nobody to act in phase {self.view.phase}"
        bot = acting
        assert bot.view is not None
        command = choose(bot.view, self.rng, "basic", knobs)
        assert command is not None, f"seat {bot.seat} has nothing to do: {bot.view}"
        before = bot.session.last_seq
        reply = await bot.send(command)
        assert reply.ok, f"the driver's {command} was rejected: {reply.code} {reply.message}"
        await bot.session.wait_for(lambda s: s.last_seq > before)

    async def drive_until(self, condition: Callable[[Table], T | None], max_steps: int = 4000) -> T:
        """Step until ``condition(self)`` returns something true; return it."""
        for _ in range(max_steps):
            await self.settle()
            found = condition(self)
            if found:
                return found
            await self.step()
        raise AssertionError(f"the situation did not arise within {max_steps} commands")

    def next_seat(self, seat: int) -> int:
        """The seat after ``seat`` in the direction of play."""
        return (seat + self.view.direction) % len(self.view.counts)


@asynccontextmanager
async def table_of(
    count: int,
    options: Mapping[str, Any],
    *,
    seed: int = 1,
    server_args: Sequence[str] = SERVER_ARGS,
) -> AsyncIterator[Table]:
    """Start a server, seat ``count`` bots (p1, p2, ...) at a new table and start the match."""
    async with spawn_server(server_args, seed) as (host, port), AsyncExitStack() as stack:
        bots = [
            await stack.enter_async_context(connect_bot(host, port, f"p{index + 1}"))
            for index in range(count)
        ]
        table_id = await bots[0].create_table(
            "scenario", {**BASE_OPTIONS, "seats": count, **options}
        )
        for bot in bots[1:]:
            await bot.join(table_id)
        await bots[0].wait_seated(count)
        await bots[0].start()
        table = Table(bots, host, port, table_id)
        await table.settle()
        yield table


def plays_of(bot: Bot, card: str) -> list[Play]:
    """The legal plays of the card ``card`` (a code) in the bot's view."""
    return [c for c in bot.legal if isinstance(c, Play) and c.card.code == card]


def turn_of(bot: Bot | None) -> View | None:
    """The bot's view when it is on its turn (the ``turn`` phase), else None."""
    view = None if bot is None else bot.view
    return view if view is not None and view.shared.phase == Phase.TURN else None
