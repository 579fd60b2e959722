"""A scripted bot reads the typed view over a real ``uno-server`` process: its hand as
cards, its legal commands as the records it sends, the events its plays caused."""

from __future__ import annotations

import random

import pytest
import trio

from client.bots.api import connect_bot
from client.bots.command import spawn_server
from client.bots.strategies import choose
from protocol.cards import Card
from protocol.commands import Play, SeatCommand
from protocol.events import Played
from protocol.phase import Phase
from protocol.views import View

pytestmark = pytest.mark.e2e

TURNS = 4
"""Commands Ada sends: fewer than a seven-card hand needs to go out, so the round runs on."""


async def test_a_scripted_bot_reads_its_hand_as_cards_and_sends_typed_commands() -> None:
    with trio.fail_after(60):
        async with (
            spawn_server(("--bot-think-ms", "20"), seed=3) as (host, port),
            connect_bot(host, port, "Ada") as ada,
        ):
            assert ada.view is None and ada.hand == [] and ada.legal == []
            await ada.create_table("typed", {"seats": 2, "turn_seconds": 30})
            await ada.add_bot("basic")
            await ada.wait_seated(2)
            await ada.start()
            rng = random.Random(1)
            for _ in range(TURNS):
                view = await ada.wait_turn()
                assert isinstance(view, View) and view is ada.view and ada.seat is not None
                assert view.seat == ada.seat and view.shared.phase == Phase.TURN
                # The hand is cards, as many as the table counts for this seat.
                assert view.hand is not None and ada.hand == list(view.hand)
                assert ada.hand and all(isinstance(card, Card) for card in ada.hand)
                assert len(ada.hand) == view.shared.counts[ada.seat]
                # The legal commands are records, and every card they play is in hand.
                assert ada.legal and all(isinstance(c, SeatCommand) for c in ada.legal)
                assert all(c.card in ada.hand for c in ada.legal if isinstance(c, Play))
                command = choose(view, rng, "basic")
                assert command is not None and command in view.legal
                mark = ada.session.last_seq
                reply = await ada.send(command)
                assert reply.ok, reply.code
                if isinstance(command, Play):
                    played = (await ada.wait_event("played", mark)).body
                    assert isinstance(played, Played) and played.seat == ada.seat
                    assert played.card == command.card
                await ada.wait_for(lambda v, seen=view: v is not seen)
