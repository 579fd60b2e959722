"""Scenarios over a real ``uno-server`` process, written with the bot API.

Each test starts a private server (``--seed`` fixed), seats bots, plays forward with the
scenario driver until the situation it is about arises, then scripts that moment by hand.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
import scenario_driver as drv
import trio

from client.bots.api import Bot, connect_bot
from client.bots.strategies import Knobs, choose
from protocol.cards import Card, Rank
from protocol.commands import Catch, Challenge, Dance, Draw, Play
from protocol.events import (
    Away,
    Caught,
    Challenged,
    CreeperRevealed,
    DanceCalled,
    DanceRefused,
    Drew,
    Exposed,
    SecretCards,
    SecretHand,
    SeenEvent,
)
from protocol.phase import Phase

pytestmark = pytest.mark.e2e

LIMIT = 90


def forgetful_number_play(table: drv.Table) -> tuple[Bot, Play] | None:
    """A seat about to leave itself one card with a number, without calling UNO."""
    bot = table.acting()
    view = drv.turn_of(bot)
    if bot is None or view is None or len(bot.hand) != 2:
        return None
    command = choose(view, random.Random(0), "basic", Knobs(forget_uno=1.0, catch=False))
    if not isinstance(command, Play) or command.card.rank.number is None:
        return None
    return bot, command


async def test_a_forgetful_bot_is_caught_inside_the_window() -> None:
    with trio.fail_after(LIMIT):
        async with drv.table_of(2, {"hand_size": 2}) as table:
            forgetful, play = await table.drive_until(forgetful_number_play)
            reply = await forgetful.send(play)
            assert reply.ok
            assert forgetful.seat is not None
            exposed = (await forgetful.wait_event("exposed")).body
            assert isinstance(exposed, Exposed) and exposed.seat == forgetful.seat
            catcher = next(bot for bot in table.bots if bot is not forgetful)
            catch = Catch(target=forgetful.seat)
            view = await catcher.wait_for(lambda v: catch in v.legal)
            command = choose(view, random.Random(0), "basic")
            assert command == catch
            assert (await catcher.send(command)).ok
            caught = (await catcher.wait_event("caught")).body
            assert isinstance(caught, Caught)
            assert caught.seat == forgetful.seat and caught.penalty == 2
            await table.settle()
            assert table.view.counts[forgetful.seat] == 3


async def test_a_catch_after_the_window_is_rejected() -> None:
    with trio.fail_after(LIMIT):
        async with drv.table_of(3, {"hand_size": 2, "catch_grace_ms": 0}) as table:
            forgetful, play = await table.drive_until(forgetful_number_play)
            assert (await forgetful.send(play)).ok
            await forgetful.wait_event("exposed")
            await table.settle()
            nxt = table.acting()
            assert nxt is not None and nxt is not forgetful
            assert (await nxt.send(Draw())).ok
            await table.settle()
            catcher = next(bot for bot in table.bots if bot not in (forgetful, nxt))
            assert forgetful.seat is not None
            assert Catch(target=forgetful.seat) not in catcher.legal
            reply = await catcher.send(Catch(target=forgetful.seat))
            assert not reply.ok and reply.code == "catch-too-late"
            await table.settle()
            assert table.view.counts[forgetful.seat] == 1


def draw_four_chance(bluff: bool) -> Any:
    def condition(table: drv.Table) -> tuple[Bot, Play] | None:
        bot = table.acting()
        view = drv.turn_of(bot)
        if bot is None or view is None:
            return None
        plays = drv.plays_of(bot, "W+4")
        colour = view.shared.color
        holds = any(card.color == colour for card in bot.hand if card.color is not None)
        if plays and colour is not None and holds == bluff and len(bot.hand) > 2:
            return bot, plays[0]
        return None

    return condition


@pytest.mark.parametrize("bluff", [True, False], ids=["guilty", "innocent"])
async def test_a_challenged_wild_draw_four(bluff: bool) -> None:
    with trio.fail_after(LIMIT):
        async with drv.table_of(3, {"hand_size": 9}, seed=3) as table:
            player, play = await table.drive_until(draw_four_chance(bluff))
            victim = table.seat(table.next_seat(player.seat or 0))
            bystander = next(bot for bot in table.bots if bot not in (player, victim))
            before = table.view.counts
            rest = Counter(player.hand)
            rest[Card(None, Rank.WILD_DRAW_FOUR)] -= 1
            assert (await player.send(play)).ok
            await victim.wait_for(lambda v: v.shared.phase == Phase.CHALLENGE)
            assert (await victim.send(Challenge())).ok
            await table.settle()
            seen = victim.events_of("challenged")[-1]
            assert isinstance(seen.body, Challenged) and seen.body.guilty is bluff
            # The challenged hand goes to the challenger alone.
            assert isinstance(seen.secret, SecretHand)
            assert Counter(seen.secret.hand) == +rest
            assert bystander.events_of("challenged")[-1].secret is None
            assert player.events_of("challenged")[-1].secret is None
            counts = table.view.counts
            mine, theirs = player.seat, victim.seat
            assert mine is not None and theirs is not None
            if bluff:
                assert counts[mine] == before[mine] - 1 + 4
                assert counts[theirs] == before[theirs]
                assert table.view.to_act == theirs
            else:
                assert counts[mine] == before[mine] - 1
                assert counts[theirs] == before[theirs] + 6
                assert table.view.to_act != theirs


def can_play(card: str) -> Any:
    """The acting seat holds ``card`` and may play it now (not as its last card)."""

    def condition(table: drv.Table) -> tuple[Bot, list[Play]] | None:
        bot = table.acting()
        if bot is None or drv.turn_of(bot) is None or len(bot.hand) < 3:
            return None
        plays = drv.plays_of(bot, card)
        return (bot, plays) if plays else None

    return condition


@pytest.mark.parametrize("answer", ["dance", "refuse-dance"])
async def test_a_dancing_wild_is_danced_or_refused(answer: str) -> None:
    with trio.fail_after(LIMIT):
        async with drv.table_of(3, {"deck": "bts", "hand_size": 9}, seed=5) as table:
            dancer, plays = await table.drive_until(can_play("WDANCE"))
            play = next(p for p in plays if p.dance == "butter")
            victim = table.seat(table.next_seat(dancer.seat or 0))
            assert victim.seat is not None
            before = table.view.counts[victim.seat]
            assert (await dancer.send(play)).ok
            view = await victim.wait_for(lambda v: v.shared.phase == Phase.DANCE)
            called = victim.events_of("dance-called")[-1]
            body = called.body
            assert isinstance(body, DanceCalled) and body.steps is not None
            assert body.dance == "butter" and 4 <= len(body.steps) <= 8
            knobs = Knobs(dance="correct" if answer == "dance" else "refuse")
            command = choose(view, random.Random(0), "basic", knobs)
            assert command is not None and answer == command.TYPE
            if answer == "dance":
                assert command == Dance(steps=body.steps)
            assert (await victim.send(command)).ok
            await table.settle()
            after = table.view.counts[victim.seat]
            if answer == "dance":
                assert victim.events_of("danced", called.seq)
                assert after == before
            else:
                assert victim.events_of("dance-refused", called.seq)
                assert after == before + 3


async def test_a_wrong_dance_counts_as_refusing() -> None:
    with trio.fail_after(LIMIT):
        async with drv.table_of(2, {"deck": "bts", "hand_size": 9}, seed=5) as table:
            dancer, plays = await table.drive_until(can_play("WDANCE"))
            victim = next(bot for bot in table.bots if bot is not dancer)
            assert (await dancer.send(plays[0])).ok
            view = await victim.wait_for(lambda v: v.shared.phase == Phase.DANCE)
            command = choose(view, random.Random(0), "basic", Knobs(dance="wrong"))
            assert view.shared.dance is not None
            assert isinstance(command, Dance) and command.steps != view.shared.dance.steps
            assert (await victim.send(command)).ok
            refused = (await victim.wait_event("dance-refused")).body
            assert isinstance(refused, DanceRefused) and refused.seat == victim.seat


def creeper_revealed(table: drv.Table) -> SeenEvent | None:
    events = table.bots[0].events_of("creeper-revealed")
    return events[0] if events else None


async def test_a_creeper_drawn_is_shown_and_costs_three_more() -> None:
    with trio.fail_after(LIMIT):
        async with drv.table_of(3, {"deck": "minecraft"}, seed=2) as table:
            revealed = await table.drive_until(creeper_revealed)
            creeper = revealed.body
            assert isinstance(creeper, CreeperRevealed) and creeper.card.code == "WCREEP"
            for bot in table.bots:
                # Everyone sees the Creeper, with the same number.
                assert bot.events_of("creeper-revealed")[0].seq == revealed.seq
            owner = table.seat(creeper.seat)
            extra = [
                event
                for event in owner.events_of("drew", revealed.seq)
                if isinstance(event.body, Drew)
                and event.body.seat == owner.seat
                and event.seq == revealed.seq + 1
            ]
            assert extra and isinstance(extra[0].body, Drew) and extra[0].body.count == 3
            secret = extra[0].secret
            assert isinstance(secret, SecretCards) and len(secret.cards) == 3


async def test_swap_hands_exchanges_exactly_the_two_hands() -> None:
    with trio.fail_after(LIMIT):
        async with drv.table_of(3, {"deck": "modern-swap", "hand_size": 9}, seed=4) as table:
            player, plays = await table.drive_until(can_play("WSWAP"))
            play = plays[0]
            assert play.target is not None
            target = table.seat(play.target)
            mine = Counter(player.hand)
            mine[Card(None, Rank.SWAP_HANDS)] -= 1
            theirs = Counter(target.hand)
            assert (await player.send(play)).ok
            await player.wait_event("hands-swapped")
            await table.settle()
            assert Counter(player.hand) == theirs
            assert +Counter(target.hand) == +mine


async def test_shuffle_hands_deals_the_same_cards_out_again() -> None:
    with trio.fail_after(LIMIT):
        async with drv.table_of(3, {"deck": "modern-shuffle", "hand_size": 9}, seed=4) as table:
            player, plays = await table.drive_until(can_play("WSHUF"))
            everything = sum((Counter(bot.hand) for bot in table.bots), Counter())
            everything[Card(None, Rank.SHUFFLE_HANDS)] -= 1
            total = sum(everything.values())
            assert (await player.send(plays[0])).ok
            await player.wait_event("hands-shuffled")
            await table.settle()
            after = sum((Counter(bot.hand) for bot in table.bots), Counter())
            assert after == +everything
            counts = sorted(table.view.counts)
            assert sum(counts) == total and counts[-1] - counts[0] <= 1


def draw_two_chain(table: drv.Table) -> tuple[Bot, Play, Bot] | None:
    bot = table.acting()
    if bot is None or drv.turn_of(bot) is None or len(bot.hand) < 3:
        return None
    plays = [p for p in bot.legal if isinstance(p, Play) and p.card.rank == Rank.DRAW_TWO]
    victim = table.seat(table.next_seat(bot.seat or 0))
    if plays and any(card.rank == Rank.DRAW_TWO for card in victim.hand):
        return bot, plays[0], victim
    return None


async def test_stacked_draw_twos_pass_on_the_total() -> None:
    options = {"stack_draw_two": True, "hand_size": 12}
    with trio.fail_after(LIMIT):
        async with drv.table_of(3, options, seed=6) as table:
            first, play, second = await table.drive_until(draw_two_chain)
            assert (await first.send(play)).ok
            view = await second.wait_for(lambda v: v.shared.phase == Phase.STACK)
            answer = next(c for c in view.legal if isinstance(c, Play))
            assert (await second.send(answer)).ok
            await table.settle()
            assert table.view.pending_draw == 4
            third = table.acting()
            assert third is not None and third is not second and third.seat is not None
            before = table.view.counts[third.seat]
            mark = third.session.last_seq
            assert (await third.send(Draw())).ok
            await table.settle()
            drew = [e.body for e in third.events_of("drew", mark)]
            assert sum(e.count for e in drew if isinstance(e, Drew) and e.seat == third.seat) >= 4
            assert table.view.counts[third.seat] >= before + 4


def seat_one_to_act(table: drv.Table) -> Bot | None:
    bot = table.acting()
    if bot is not None and bot.seat == 1 and drv.turn_of(bot) is not None:
        return bot
    return None


async def test_a_disconnect_mid_turn_and_a_resume() -> None:
    with trio.fail_after(LIMIT):
        async with drv.table_of(3, {}, seed=8) as table:
            lost = await table.drive_until(seat_one_to_act)
            state = lost.session.resume_state()
            assert state is not None
            await lost.drop()
            watcher = table.bots[0]
            # The seat goes away and the server's bot plays the turn for it.
            away = await watcher.wait_event("away", state.last_seq)
            assert isinstance(away.body, Away) and away.body.seat == 1
            await watcher.wait_for(lambda v: v.shared.to_act != 1)
            async with connect_bot(table.host, table.port, "p2", resume=state) as back:
                assert back.session.welcome is not None and back.session.welcome.resumed
                await back.wait_event("back", state.last_seq)
                view = await back.wait_for(lambda v: 1 not in v.shared.away)
                assert back.seat == 1 and not back.session.gaps
                seqs = [event.seq for event in back.events]
                assert seqs == list(range(state.last_seq + 1, state.last_seq + 1 + len(seqs)))
                assert view.hand is not None and len(view.hand) == view.shared.counts[1]
                # The resumed seat plays on.
                table.bots[1] = back
                for _ in range(6):
                    await table.settle()
                    await table.step()
