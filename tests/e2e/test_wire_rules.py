"""Rules that must hold over the wire: illegal commands, the UNO catch window, challenges,
the turn clock. Each drives a real server's table to the moment in question."""

from __future__ import annotations

import random
from typing import Any

import trio
from e2e_client import Player, basic_policy, drive, seat_table, settle
from e2e_secrets import leaks
from e2e_server import ServerProcess

from protocol.messages import Join, Ok, PauseTable, Rejected


def _on_turn(player: Player) -> bool:
    return bool(player.view and player.view.get("to_act") == player.seat)


def forgetful(player: Player, rng: random.Random) -> dict[str, Any] | None:
    """Plays like ``basic_policy`` but never says UNO and never catches anyone."""
    if not _on_turn(player):
        return None
    data = basic_policy(player, rng)
    if data is not None and data["type"] == "play" and data.get("uno"):
        return {**data, "uno": False}
    if data is not None and data["type"] in ("catch", "call-uno"):
        return None
    return data


def _exposed(players: list[Player]) -> list[int]:
    view = players[0].view or {}
    return list(view.get("exposed") or [])


async def _until_someone_is_exposed(port: int, nursery: trio.Nursery) -> list[Player]:
    players, _ = await seat_table(
        port, nursery, ["ann", "bob", "cat"], options={"catch_grace_ms": 0, "target_score": 500}
    )
    await drive(players, lambda: bool(_exposed(players)), random.Random(5), forgetful)
    await settle(players)
    return players


async def test_a_catch_inside_the_window_costs_the_exposed_player_two_cards(
    uno_server: ServerProcess,
) -> None:
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            players = await _until_someone_is_exposed(uno_server.port, nursery)
            exposed = _exposed(players)[0]
            to_act = players[0].view["to_act"]  # type: ignore[index]
            catcher = next(p for p in players if p.seat not in (exposed, to_act))
            assert {"type": "catch", "target": exposed} in catcher.legal()
            before = catcher.view["counts"][exposed]  # type: ignore[index]
            reply = await catcher.game({"type": "catch", "target": exposed})
            assert isinstance(reply, Ok), reply
            await settle(players)
            caught = [e for e in catcher.events if e["kind"] == "caught"]
            assert caught[-1]["seat"] == exposed
            assert caught[-1]["penalty"] == 2
            assert catcher.view["counts"][exposed] == before + 2  # type: ignore[index]
            assert _exposed(players) == []
            assert leaks(players) == []
            nursery.cancel_scope.cancel()


async def test_a_catch_after_the_window_is_rejected_and_changes_nothing(
    uno_server: ServerProcess,
) -> None:
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            players = await _until_someone_is_exposed(uno_server.port, nursery)
            exposed = _exposed(players)[0]
            to_act = players[0].view["to_act"]  # type: ignore[index]
            next_player = next(p for p in players if p.seat == to_act)
            catcher = next(p for p in players if p.seat not in (exposed, to_act))
            # The next seat's first command closes the window (catch_grace_ms is 0).
            first = next(d for d in next_player.legal() if d["type"] not in ("catch", "call-uno"))
            assert isinstance(await next_player.game(first), Ok)
            await settle(players)
            before_count = catcher.view["counts"][exposed]  # type: ignore[index]
            before_events = len(catcher.events)
            reply = await catcher.game({"type": "catch", "target": exposed})
            assert isinstance(reply, Rejected)
            assert reply.code == "catch-too-late"
            assert len(catcher.events) == before_events
            assert catcher.view["counts"][exposed] == before_count  # type: ignore[index]
            assert "caught" not in catcher.event_kinds()
            nursery.cancel_scope.cancel()


def challenger_policy(player: Player, rng: random.Random) -> dict[str, Any] | None:
    """Plays a Wild Draw Four whenever it may, and always challenges one."""
    if _on_turn(player):
        legal = player.legal()
        for data in legal:
            if data["type"] == "challenge":
                return data
        draw_fours = [d for d in legal if d["type"] == "play" and d["card"] == "W+4"]
        if draw_fours:
            return rng.choice(draw_fours)
    return basic_policy(player, rng)


async def test_a_challenge_shows_the_hand_to_the_challenger_only_and_resolves_both_ways(
    uno_server: ServerProcess,
) -> None:
    def outcomes(players: list[Player]) -> set[bool]:
        return {e["guilty"] for e in players[0].events if e["kind"] == "challenged"}

    with trio.fail_after(90):
        async with trio.open_nursery() as nursery:
            players, spectators = await seat_table(
                uno_server.port,
                nursery,
                ["ann", "bob", "cat"],
                options={"target_score": 5000},
                spectators=1,
            )
            await drive(
                players,
                lambda: outcomes(players) == {True, False} or players[0].match_over,
                random.Random(9),
                challenger_policy,
            )
            await settle(players + spectators)
            assert outcomes(players) == {True, False}
            for player in players + spectators:
                for index, body in enumerate(player.events):
                    if body["kind"] != "challenged":
                        continue
                    assert ("hand" in body) == (body["seat"] == player.seat)
                    penalty = next(e for e in player.events[index:] if e["kind"] == "drew")
                    if body["guilty"]:
                        assert (penalty["seat"], penalty["count"]) == (body["target"], 4)
                    else:
                        assert (penalty["seat"], penalty["count"]) == (body["seat"], 6)
            assert leaks(players, spectators) == []
            nursery.cancel_scope.cancel()


async def test_a_silent_players_turn_clock_plays_for_them(uno_server: ServerProcess) -> None:
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            players, _ = await seat_table(
                uno_server.port, nursery, ["ann", "bob"], options={"turn_seconds": 1}
            )
            hub = players[0].hub
            silent = players[0].view["to_act"]  # type: ignore[index]
            # Nobody sends anything: the server's clock must move the game on.
            await hub.until(lambda: "timed-out" in players[0].event_kinds())
            await settle(players)
            kinds = players[0].events
            timed_out = next(i for i, e in enumerate(kinds) if e["kind"] == "timed-out")
            assert kinds[timed_out]["seat"] == silent
            after = kinds[timed_out + 1 :]
            acted_for = [e for e in after if e.get("seat") == silent and e["kind"] != "turn"]
            assert acted_for, after
            nursery.cancel_scope.cancel()


async def test_illegal_commands_are_rejected_with_the_right_code_and_change_nothing(
    uno_server: ServerProcess,
) -> None:
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            players, _ = await seat_table(uno_server.port, nursery, ["ann", "bob", "cat"])
            await settle(players)
            to_act = players[0].view["to_act"]  # type: ignore[index]
            actor = next(p for p in players if p.seat == to_act)
            idle = next(p for p in players[1:] if p.seat != to_act)  # not the host
            events_before = [len(p.events) for p in players]
            hand_before = sorted(actor.hand)

            not_yours = await idle.game({"type": "draw"})
            assert isinstance(not_yours, Rejected)
            assert not_yours.code == "not-your-turn"

            missing = next(
                code
                for code in ("R0", "Y0", "G0", "B0", "R9", "Y9", "G9", "B9")
                if code not in actor.hand
            )
            not_held = await actor.game({"type": "play", "card": missing})
            assert isinstance(not_held, Rejected)
            assert not_held.code == "card-not-in-hand"

            host_only = await idle.request(lambda id_: PauseTable(id=id_))
            assert isinstance(host_only, Rejected)
            assert host_only.code == "not-host"
            no_table = await idle.request(lambda id_: Join(id=id_, table_id="no-such-table"))
            assert isinstance(no_table, Rejected)
            assert no_table.code in ("table-not-found", "already-at-table")

            # A command after the rejections is served, and nothing had changed before it.
            assert [len(p.events) for p in players] == events_before
            assert sorted(actor.hand) == hand_before
            assert actor.view["to_act"] == to_act  # type: ignore[index]
            nursery.cancel_scope.cancel()
