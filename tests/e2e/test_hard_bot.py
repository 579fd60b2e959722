"""A ``hard`` bot at a real server, over a real socket: it plays whole rounds from what
its seat receives, and every frame it receives passes the secrecy check."""

from __future__ import annotations

import random
from typing import Any

import trio
from e2e_client import Player, basic_policy, drive, seat_table
from e2e_secrets import leaks
from e2e_server import ServerProcess
from test_matches import assert_the_check_would_see_a_leak

from client.bots.memory import RoundMemory
from client.bots.strategies import Knobs, choose
from protocol.events import SeenEvent
from protocol.views import View

HARD = Knobs(playouts=4)


async def test_a_hard_bot_receives_nothing_beyond_its_seat_view(
    uno_server: ServerProcess,
) -> None:
    memory = RoundMemory()
    searched: list[dict[str, Any]] = []
    remembered: list[bool] = []

    def policy(player: Player, rng: random.Random) -> dict[str, Any] | None:
        if player.name != "hard" or player.view is None or not player.legal():
            return basic_policy(player, rng)
        # This client keeps the wire maps it received; the bot reads the typed records.
        memory.catch_up(SeenEvent.from_data(event) for event in player.events)
        if player.view.get("to_act") != player.view.get("seat"):
            return basic_policy(player, rng)
        command = choose(View.from_data(player.view), rng, "hard", HARD, memory)
        searched.append(player.view)
        remembered.append(memory.discard is not None)
        return None if command is None else command.to_data()

    with trio.fail_after(90):
        async with trio.open_nursery() as nursery:
            players, spectators = await seat_table(
                uno_server.port, nursery, ["hard", "plain"], spectators=1
            )
            await drive(players, lambda: players[0].match_over, random.Random(3), policy)
            assert [p.unexpected_rejections for p in players] == [[], []]
            problems = leaks(players, spectators)
            assert problems == [], "\n".join(problems[:20])
            assert_the_check_would_see_a_leak(players, spectators)
            nursery.cancel_scope.cancel()
    # It decided from many views, and its memory, fed only its own frames, knew the
    # discard pile at most of them (a reshuffle's cards it no longer knows).
    assert len(searched) > 10
    assert sum(remembered) > len(remembered) // 2
