"""Server bots are protocol clients: real sessions over memory streams, seated through the
lobby by a stand-in token; an away seat's stand-in goes when its owner comes back. Also
the ``left`` message to the kicked, the leaving and everyone at a closing table."""

from __future__ import annotations

from typing import Any

import trio
import trio.testing
from test_table_rig import FakePeer, create, ok, open_lobby, play, rigged, settle

from client.bots.strategies import choose as real_choose
from protocol.cards import Card
from protocol.commands import Play
from protocol.messages import (
    AddBot,
    Join,
    Kick,
    Leave,
    Left,
    LeftCause,
    LeftReason,
    RemoveBot,
    ResumeSeat,
    Spectate,
)
from protocol.messages import Start as StartMatch
from server.autoplay import BOT_ADDRESS
from server.lobby import Lobby
from server.session import Session
from server.table import Table


def stand_in_session(table: Table, seat: int) -> Session:
    chair = table.seating[seat]
    assert chair is not None and chair.stand_in is not None
    peer = chair.stand_in.peer
    assert isinstance(peer, Session), peer
    return peer


async def test_a_bot_seat_is_a_protocol_session_seated_through_the_lobby(
    nursery: trio.Nursery,
) -> None:
    lobby = await open_lobby(nursery)
    ann = FakePeer("Ann")
    table = await create(lobby, ann, seats=2, turn_seconds=0)
    await ok(lobby, ann, lambda i: AddBot(id=i, strategy="random"))
    await settle()
    bot = stand_in_session(table, 1)
    assert bot.welcomed and bot.address == BOT_ADDRESS and bot.peer_id < 0
    assert lobby.location(bot) is table
    chair = table.seating[1]
    assert chair is not None and chair.is_bot and chair.token is None
    assert chair.stand_in is not None and table.holds_token(chair.stand_in.token)
    assert not ann.state.seats[1].away and ann.state.seats[1].bot


async def test_a_bot_seat_plays_its_turns_over_the_protocol(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    lobby = await open_lobby(nursery)
    ann = FakePeer("Ann")
    table = await create(lobby, ann, seats=2, turn_seconds=0)
    await ok(lobby, ann, lambda i: AddBot(id=i, strategy="basic"))
    await ok(lobby, ann, lambda i: StartMatch(id=i))
    await settle()
    rigged(table, hands=[["R1", "G2", "B3"], ["Y4", "Y5", "R6"]], top="R9", current=0)
    await play(lobby, ann, Play(Card.parse("R1")))
    await ann.wait_for(lambda: ann.view["to_act"] == 0)
    played = [e.body.to_data() for e in ann.events if e.body.kind == "played"]
    assert played[-1]["seat"] == 1 and played[-1]["card"] == "R6"
    # The bot's command came through its own session: the event names no cause for Ann.
    assert ann.events[-1].cause is None


async def test_an_away_seats_stand_in_goes_when_the_owner_resumes(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    lobby = await open_lobby(nursery)
    ann, bob = FakePeer("Ann"), FakePeer("Bob")
    table = await create(lobby, ann, seats=2, turn_seconds=0)
    await ok(lobby, bob, lambda i: Join(id=i, table_id=table.table_id))
    await ok(lobby, ann, lambda i: StartMatch(id=i))
    rigged(table, hands=[["R1", "G2", "B3"], ["Y4", "Y5", "R6"]], top="R9", current=0)
    token = bob.token
    assert token is not None
    lobby.disconnected(bob)
    await ann.wait_for(lambda: ann.state.seats[1].away)
    await settle()
    stand_in = stand_in_session(table, 1)
    chair = table.seating[1]
    assert chair is not None and chair.token == token  # the owner's token is untouched
    assert chair.stand_in is not None and chair.stand_in.token != token

    again = FakePeer("Bob")
    await ok(lobby, again, lambda i: ResumeSeat(id=i, token=token, last_seq=0))
    await stand_in.done.wait()
    assert chair.stand_in is None and chair.peer is again
    assert lobby.location(stand_in) is None


async def test_the_lobby_routes_a_bots_stand_in_token_to_its_table(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    lobby = await open_lobby(nursery, bot_think_ms=60_000)
    ann = FakePeer("Ann")
    table = await create(lobby, ann, seats=2, turn_seconds=0)
    await ok(lobby, ann, lambda i: AddBot(id=i, strategy="basic"))
    await settle()
    chair = table.seating[1]
    assert chair is not None and chair.stand_in is not None
    bot_token = chair.stand_in.token
    assert lobby.can_resume(bot_token) and not lobby.can_resume("not-a-token")
    await ok(lobby, ann, lambda i: RemoveBot(id=i, seat=1))
    await settle()
    assert table.seating[1] is None and not lobby.can_resume(bot_token)


async def test_the_kicked_the_leaving_and_a_closing_tables_watchers_are_told_left(
    nursery: trio.Nursery,
) -> None:
    lobby: Lobby = await open_lobby(nursery)
    ann, bob, cat, sue = FakePeer("Ann"), FakePeer("Bob"), FakePeer("Cat"), FakePeer("Sue")
    table = await create(lobby, ann, seats=3)
    for peer in (bob, cat):
        await ok(lobby, peer, lambda i: Join(id=i, table_id=table.table_id))
    await ok(lobby, sue, lambda i: Spectate(id=i, table_id=table.table_id))

    await ok(lobby, ann, lambda i: Kick(id=i, seat=1))
    assert bob.last(Left) == Left(
        table_id=table.table_id,
        reason=LeftReason.KICKED,
        message="Ann asked you to leave",
        cause=LeftCause.ASKED_TO_LEAVE,
        by="Ann",
    )
    reply = await ok(lobby, cat, lambda i: Leave(id=i))
    assert cat.last(Left).reason is LeftReason.LEFT and cat.last(Left).cause == LeftCause.LEFT
    assert cat.received.index(cat.last(Left)) < cat.received.index(reply)  # Left, then ok

    await ok(lobby, ann, lambda i: Leave(id=i))  # the last player leaves: the table closes
    await sue.wait_for(lambda: bool(sue.of(Left)))
    assert sue.last(Left).reason is LeftReason.TABLE_CLOSED
    assert sue.last(Left).cause == LeftCause.TABLE_CLOSED
    assert ann.last(Left).reason is LeftReason.LEFT
    assert lobby.location(sue) is None and not ann.of(Left)[1:]


async def test_a_server_bot_forgets_uno_at_its_strategys_rate(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock, monkeypatch: Any
) -> None:
    from client.bots import strategies

    monkeypatch.setitem(strategies.FORGET_UNO, "basic", 1.0)  # always, for the test
    lobby = await open_lobby(nursery)
    ann = FakePeer("Ann")
    table = await create(lobby, ann, seats=2, turn_seconds=0)
    await ok(lobby, ann, lambda i: AddBot(id=i, strategy="basic"))
    await ok(lobby, ann, lambda i: StartMatch(id=i))
    await settle()
    rigged(table, hands=[["R1", "G2", "B3"], ["Y4", "R6"]], top="R9", current=0)
    await play(lobby, ann, Play(Card.parse("R1")))
    await ann.wait_for(lambda: ann.view["to_act"] == 0)
    kinds = [e.body.kind for e in ann.events]
    assert "exposed" in kinds and "uno-called" not in kinds
    assert [e.body.to_data()["seat"] for e in ann.events if e.body.kind == "exposed"] == [1]


async def test_a_hard_server_bot_remembers_the_round_from_its_own_events(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock, monkeypatch: Any
) -> None:
    # The search itself is the bots' tests' business: here it is normal's choice, and the
    # round memory the server handed it is what is looked at.
    remembered: list[tuple[int, int]] = []

    def choose_and_note(view: Any, rng: Any, strategy: str, knobs: Any, memory: Any = None):
        if strategy == "hard":
            assert memory is not None
            remembered.append((memory.seq, len(memory.discard or ())))
        return real_choose(view, rng, "normal", knobs)

    monkeypatch.setattr("client.bots.hosted.choose", choose_and_note)
    lobby = await open_lobby(nursery)
    ann = FakePeer("Ann")
    table = await create(lobby, ann, seats=2, turn_seconds=0)
    await ok(lobby, ann, lambda i: AddBot(id=i, strategy="hard"))
    await ok(lobby, ann, lambda i: StartMatch(id=i))
    await settle()
    rigged(table, hands=[["R1", "R2", "B3"], ["R4", "R5", "G6"]], top="R9", current=0)
    await play(lobby, ann, Play(Card.parse("R1")))
    await ann.wait_for(lambda: ann.view["to_act"] == 0)
    await play(lobby, ann, Play(Card.parse("R2")))
    await ann.wait_for(lambda: ann.view["to_act"] == 0)
    # Its memory followed the events its seat was sent: it knows the cards played since.
    assert remembered and remembered[-1][0] > remembered[0][0] > 0
    assert remembered[-1][1] > remembered[0][1]
