"""Whole matches over real sockets, every deck, with every frame checked for secrets."""

from __future__ import annotations

import random

import pytest
import trio
from e2e_client import Player, drive, seat_table
from e2e_secrets import leaks
from e2e_server import ServerProcess

from protocol.events import SeenEvent
from protocol.messages import GameEvent, GameView

DECKS = ("classic", "modern-swap", "modern-shuffle", "bts", "minecraft")


async def play_match(port: int, deck: str, people: int, bots: int, seed: int) -> None:
    async with trio.open_nursery() as nursery:
        players, spectators = await seat_table(
            port,
            nursery,
            [f"{deck[:6]}{n}" for n in range(people)],
            options={"deck": deck},
            bots=bots,
            spectators=1,
            table_name=f"{deck} table",
        )
        await drive(players, lambda: players[0].match_over, random.Random(seed))
        # Everyone, the spectator too, has the same final event.
        await players[0].hub.until(lambda: all(p.match_over for p in players + spectators))
        assert "match-over" in players[0].event_kinds()
        assert [p.unexpected_rejections for p in players] == [[] for _ in players]
        problems = leaks(players, spectators)
        assert problems == [], "\n".join(problems[:20])
        views = sum(isinstance(frame, GameView) for frame in players[0].frames)
        assert views > 10
        assert_the_check_would_see_a_leak(players, spectators)
        nursery.cancel_scope.cancel()


def assert_the_check_would_see_a_leak(players: list[Player], spectators: list[Player]) -> None:
    """The secrecy check is only evidence if it can fail: forge one leak and see it caught."""
    snoop = spectators[0]
    secret = next(
        body for player in players for body in player.events if "hand" in body or "cards" in body
    )
    forged = GameEvent(seq=secret["seq"], body=SeenEvent.from_data(secret))
    snoop.frames.append(forged)
    try:
        assert any(snoop.name in problem for problem in leaks(players, spectators))
    finally:
        snoop.frames.remove(forged)


async def test_whole_matches_on_every_deck_at_once_keep_every_hand_secret(
    uno_server: ServerProcess,
) -> None:
    with trio.fail_after(90):
        async with trio.open_nursery() as nursery:
            for number, deck in enumerate(DECKS):
                people, bots = (3, 0) if number % 2 == 0 else (2, 1)
                nursery.start_soon(play_match, uno_server.port, deck, people, bots, number)


@pytest.mark.parametrize("deck", ["classic", "bts"])
async def test_a_two_player_match_plays_to_the_end(uno_server: ServerProcess, deck: str) -> None:
    with trio.fail_after(60):
        await play_match(uno_server.port, deck, 2, 0, 11)


async def test_the_listening_line_is_the_first_line(uno_server: ServerProcess) -> None:
    assert uno_server.first_line == f"uno-server listening on 127.0.0.1:{uno_server.port}"
    player = await Player.connect(uno_server.port, "probe")
    assert player.welcome is not None
    assert player.welcome.version == "1.0"
    await player.close()
