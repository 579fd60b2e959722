"""A match result says who was a program and what a stand-in played, over real processes:
a real ``uno-bot`` joins a person's table as an ordinary seat (its hello says it is a bot,
1.3), the person drops out mid-match so a stand-in plays her turns, and the history then
lists the ``uno-bot`` seat as a bot (the standings put it apart from people) and credits
the person with the match, noting how many of her turns the stand-in played."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
import trio
from e2e_client import FAST_OPTIONS, Hub, Player, drive
from e2e_server import ServerProcess

from protocol.messages import (
    CreateTable,
    GetStandings,
    ListMatches,
    MatchList,
    Standings,
    Start,
)
from protocol.options import TableOptions

pytestmark = pytest.mark.e2e

V13 = ("1.0", "1.1", "1.2", "1.3")


async def test_a_uno_bot_seat_is_a_bot_s_and_a_stand_in_s_turns_are_noted(tmp_path: Path) -> None:
    server = ServerProcess.start(tmp_path)
    bot_command = [sys.executable, "-m", "client.bots", "--server", f"127.0.0.1:{server.port}"]
    bot_command += ["--table", "mix", "--bots", "1", "--games", "1", "--name", "robo"]
    try:
        with trio.fail_after(120):
            async with trio.open_nursery() as nursery:
                hub = Hub()
                ann = await Player.connect(server.port, "ann", hub, versions=V13)
                nursery.start_soon(ann.read_forever)
                options = {**FAST_OPTIONS, "seats": 2, "target_score": 40, "turn_seconds": 0}
                await ann.ok(
                    lambda i: CreateTable(id=i, name="mix", options=TableOptions.parse(options))
                )
                bot = await trio.lowlevel.open_process(bot_command)
                await hub.until(lambda: ann.state is not None and bool(ann.state.seats[1].name))
                await ann.ok(lambda i: Start(id=i))
                await drive([ann], lambda: len(ann.events) > 12, random.Random(4))
                await ann.close()  # she is away: a stand-in plays her seat to the end
                assert await bot.wait() == 0  # the uno-bot played its one match to the end

                reader = await Player.connect(server.port, "reader", hub, versions=V13)
                nursery.start_soon(reader.read_forever)
                await reader.ok(lambda i: ListMatches(id=i))
                await reader.ok(lambda i: GetStandings(id=i))
                older = await Player.connect(server.port, "older", hub, versions=("1.2",))
                nursery.start_soon(older.read_forever)
                await older.ok(lambda i: ListMatches(id=i))
                nursery.cancel_scope.cancel()
    finally:
        server.stop()
    (listing,) = [frame for frame in reader.frames if isinstance(frame, MatchList)]
    (match,) = listing.matches
    players = {player.name: player for player in match.players}
    assert players["robo1"].bot and players["robo1"].stand_in_turns == 0
    assert not players["ann"].bot and players["ann"].stand_in_turns > 0
    (board,) = [frame for frame in reader.frames if isinstance(frame, Standings)]
    # People first, then the bots, apart.
    assert [(s.name, s.bot) for s in board.players] == [("ann", False), ("robo1", True)]
    (old_listing,) = [frame for frame in older.frames if isinstance(frame, MatchList)]
    assert all(player.stand_in_turns == 0 for player in old_listing.matches[0].players)
    assert old_listing.matches[0].players[0].bot == players[match.players[0].name].bot
