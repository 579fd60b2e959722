"""Seats and identity: lost connections, away seats played by the server, resume by token."""

from __future__ import annotations

from typing import Any

import trio
import trio.testing
from test_table_rig import (
    FakePeer,
    create,
    ok,
    open_lobby,
    play,
    refused,
    rigged,
    settle,
    two_players,
)

from protocol.cards import Card
from protocol.commands import Draw, Pass, Play
from protocol.errors import ErrorCode, LobbyRejectCode
from protocol.messages import (
    AddBot,
    GameView,
    Join,
    Joined,
    Ok,
    OkResult,
    PauseTable,
    Rejected,
    ResumeSeat,
    ResumeTable,
    Start,
    TableState,
    TakeBotSeat,
)
from server.limits import SessionLimits
from server.peer import Peer
from server.table import Table


def hand_of(table: Table, seat: int) -> list[str]:
    match = table.game.match
    assert match is not None
    return [card.code for card in match.hand(seat)]


async def test_resume_gives_the_same_hand_and_every_missed_event(
    nursery: trio.Nursery,
) -> None:
    lobby, table, ann, bob = await two_players(nursery, turn_seconds=0)
    rigged(table, hands=[["R1", "G2", "B3"], ["Y4", "Y5", "Y6"]], top="R9", current=0)
    await settle()
    seen = bob.events[-1].seq
    hand = hand_of(table, 1)
    token = bob.token
    assert token is not None

    lobby.disconnected(bob)
    await ann.wait_for(lambda: ann.state.seats[1].away)
    await play(lobby, ann, Play(Card.parse("R1")))  # seat 1 misses this

    again = FakePeer("Bob")
    reply = await ok(lobby, again, lambda i: ResumeSeat(id=i, token=token, last_seq=seen))
    assert reply.result == OkResult(seat=1)
    assert again.last(Joined).seat == 1 and again.last(Joined).resume_token == token
    missed = [event.seq for event in again.events]
    assert missed == list(range(seen + 1, table.broadcast.last_seq + 1))
    kinds = [event.body.kind for event in again.events]
    assert "away" in kinds and "played" in kinds and kinds[-1] == "back"
    # Order: who and where first, then the missed events, then the view, then the reply.
    assert isinstance(again.received[0], Joined) and isinstance(again.received[1], TableState)
    assert isinstance(again.received[-2], GameView) and isinstance(again.received[-1], Ok)
    assert again.view["hand"] == hand == hand_of(table, 1) == ["Y4", "Y5", "Y6"]
    assert not ann.state.seats[1].away
    assert lobby.location(again) is table


async def test_a_wrong_token_gets_a_rejection_and_nothing_else(nursery: trio.Nursery) -> None:
    lobby, _table, _ann, bob = await two_players(nursery, turn_seconds=0)
    lobby.disconnected(bob)
    thief = FakePeer("Eve")
    assert bob.token is not None
    forged = bob.token[:-1] + ("A" if bob.token[-1] != "A" else "B")

    code = await refused(lobby, thief, lambda i: ResumeSeat(id=i, token=forged, last_seq=0))
    assert code == LobbyRejectCode.BAD_TOKEN
    assert len(thief.received) == 1 and isinstance(thief.received[0], Rejected)
    assert lobby.location(thief) is None and not lobby.can_resume(forged)


async def test_a_lost_seat_is_played_by_a_server_bot_until_its_owner_returns(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    lobby, table, ann, bob = await two_players(nursery, turn_seconds=0)
    rigged(table, hands=[["R1", "G2", "B3"], ["Y4", "Y5", "R6"]], top="R9", current=0)
    lobby.disconnected(bob)
    await play(lobby, ann, Play(Card.parse("R1")))
    # Nobody answers for seat 1 but the server's bot, after its think delay.
    await ann.wait_for(lambda: ann.view["to_act"] == 0)
    played = [e.body.to_data() for e in ann.events if e.body.kind == "played"]
    assert played[-1]["seat"] == 1 and played[-1]["card"] == "R6"

    token = bob.token
    assert token is not None
    again = FakePeer("Bob")
    await ok(lobby, again, lambda i: ResumeSeat(id=i, token=token, last_seq=0))
    assert again.events[0].seq == 1  # from the start: the whole stream, gap-free
    assert [e.seq for e in again.events] == list(range(1, table.broadcast.last_seq + 1))
    assert again.events[-1].body.kind == "back"

    await play(lobby, ann, Draw())
    await play(lobby, ann, Pass())
    before = table.broadcast.last_seq
    autojump_clock.jump(60.0)
    await settle()
    assert table.broadcast.last_seq == before  # the bot no longer plays seat 1
    assert again.view["to_act"] == 1 and again.view["legal"]


async def test_resume_at_hello_sends_no_reply(nursery: trio.Nursery) -> None:
    lobby, table, _ann, bob = await two_players(nursery, turn_seconds=0)
    token = bob.token
    assert token is not None
    lobby.disconnected(bob)
    again = FakePeer("Bob")

    assert lobby.can_resume(token)
    assert lobby.resume(again, token, 0)
    await again.wait_for(lambda: bool(again.of(GameView)))
    await settle()
    assert again.seat == 1 and again.view["hand"] == hand_of(table, 1)
    assert not again.of(Ok) and not again.of(Rejected)
    assert not lobby.resume(FakePeer("Eve"), "not-a-token", 0)


async def test_resume_moves_the_seat_off_a_stale_connection(nursery: trio.Nursery) -> None:
    lobby, table, ann, bob = await two_players(nursery, turn_seconds=0)
    rigged(table, hands=[["R1", "G2", "B3"], ["Y4", "Y5", "Y6"]], top="R9", current=0)
    token = bob.token
    assert token is not None
    again = FakePeer("Bob")
    await ok(lobby, again, lambda i: ResumeSeat(id=i, token=token, last_seq=0))
    assert lobby.location(bob) is None and lobby.location(again) is table
    heard = len(bob.received)

    await play(lobby, ann, Draw())
    assert len(bob.received) == heard and again.events[-1].seq == table.broadcast.last_seq
    # The stale connection's late goodbye changes nothing.
    lobby.disconnected(bob)
    await settle()
    assert not ann.state.seats[1].away


async def test_a_seat_lost_before_the_start_waits_for_its_owner(nursery: trio.Nursery) -> None:
    lobby = await open_lobby(nursery)
    ann, bob = FakePeer("Ann"), FakePeer("Bob")
    table = await create(lobby, ann, seats=2)
    await ok(lobby, bob, lambda i: Join(id=i, table_id=table.table_id))
    token = bob.token
    assert token is not None
    lobby.disconnected(bob)
    await ann.wait_for(lambda: ann.state.seats[1].away)

    again = FakePeer("Bob")
    await ok(lobby, again, lambda i: ResumeSeat(id=i, token=token, last_seq=0))
    assert again.seat == 1 and not again.of(GameView)
    assert not ann.state.seats[1].away


async def test_an_owner_marked_away_by_the_clock_takes_back_the_seat_by_playing(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    lobby = await open_lobby(nursery, bot_think_ms=60_000)
    ann, bob = FakePeer("Ann"), FakePeer("Bob")
    table = await create(lobby, ann, seats=2, turn_seconds=1)
    await ok(lobby, bob, lambda i: Join(id=i, table_id=table.table_id))
    await ok(lobby, ann, lambda i: Start(id=i))
    rigged(table, hands=[["R1", "G2", "B3"], ["Y4", "Y5", "Y6"]], top="R9", current=1)
    # Bob stays silent for three turns; Ann (connected) plays hers.
    await bob.wait_for(lambda: bob.state.seats[1].away)
    match = table.game.match
    assert match is not None and match.away[1]

    await bob.wait_for(lambda: bob.view["to_act"] == 1 and bob.view["phase"] == "turn")
    last = table.broadcast.last_seq
    await play(lobby, bob, Draw())
    kinds = [e.body.kind for e in bob.events if e.seq > last]
    assert kinds[:2] == ["back", "drew"]
    assert not bob.state.seats[1].away and not match.away[1]


async def test_a_resume_after_a_long_absence_gets_the_view_as_a_fresh_base(
    nursery: trio.Nursery,
) -> None:
    lobby, table, ann, bob = await two_players(nursery, turn_seconds=0)
    rigged(table, hands=[["R1", "G2", "B3"], ["Y4", "Y5", "Y6"]], top="R9", current=0)
    await settle()
    seen = bob.events[-1].seq
    token = bob.token
    assert token is not None
    lobby.disconnected(bob)
    await ann.wait_for(lambda: ann.state.seats[1].away)
    while table.broadcast.last_seq < seen + 600:  # Bob misses 600 events
        await ok(lobby, ann, lambda i: PauseTable(id=i))
        await ok(lobby, ann, lambda i: ResumeTable(id=i))

    again = FakePeer("Bob")
    reply = await ok(lobby, again, lambda i: ResumeSeat(id=i, token=token, last_seq=seen))
    assert reply.result == OkResult(seat=1)
    # Far fewer messages than a session's outbox holds: the view alone, no replay.
    assert len(again.received) < SessionLimits().outbox_size // 2
    assert again.events == [] or again.events[0].seq > table.broadcast.last_seq - 5
    view = again.last(GameView)
    assert view.seq == table.broadcast.last_seq == view.body.to_data()["last_seq"]
    assert again.view["hand"] == ["Y4", "Y5", "Y6"] == hand_of(table, 1)


async def test_a_resume_from_before_the_kept_history_gets_the_view_alone(
    nursery: trio.Nursery,
) -> None:
    lobby = await open_lobby(nursery, history_limit=4)
    ann, bob = FakePeer("Ann"), FakePeer("Bob")
    table = await create(lobby, ann, seats=2, turn_seconds=0)
    await ok(lobby, bob, lambda i: Join(id=i, table_id=table.table_id))
    await ok(lobby, ann, lambda i: Start(id=i))
    seen = bob.events[-1].seq
    token = bob.token
    assert token is not None
    lobby.disconnected(bob)
    await ann.wait_for(lambda: ann.state.seats[1].away)
    for _ in range(4):
        await ok(lobby, ann, lambda i: PauseTable(id=i))
        await ok(lobby, ann, lambda i: ResumeTable(id=i))

    again = FakePeer("Bob")
    await ok(lobby, again, lambda i: ResumeSeat(id=i, token=token, last_seq=seen))
    # Never a stream with a hole in it: the events kept do not reach back to ``seen``.
    assert [e.seq for e in again.events if e.seq <= table.broadcast.last_seq - 4] == []
    replayed = [e.seq for e in again.events]
    assert replayed == [] or replayed[0] > table.broadcast.last_seq - 2
    assert again.last(GameView).seq == table.broadcast.last_seq


async def test_a_second_connection_resuming_the_seat_closes_the_first_with_replaced(
    nursery: trio.Nursery,
) -> None:
    lobby, table, _ann, bob = await two_players(nursery, turn_seconds=0)
    token = bob.token
    assert token is not None
    again = FakePeer("Bob")
    await ok(lobby, again, lambda i: ResumeSeat(id=i, token=token, last_seq=0))
    assert bob.closed is not None and bob.closed[0] == ErrorCode.REPLACED
    assert again.closed is None and lobby.location(again) is table


async def test_a_newcomer_in_a_bots_seat_never_gets_the_bots_earlier_secrets(
    nursery: trio.Nursery,
) -> None:
    lobby = await open_lobby(nursery)
    ann, cat = FakePeer("Ann"), FakePeer("Cat")
    table = await create(lobby, ann, seats=2, turn_seconds=0, round_pause_seconds=3600)
    await ok(lobby, ann, lambda i: AddBot(id=i, strategy="basic"))
    await ok(lobby, ann, lambda i: Start(id=i))
    rigged(table, hands=[["R1"], ["Y4", "Y5", "Y6"]], top="R9", current=0)
    await play(lobby, ann, Play(Card.parse("R1")))
    await ok(lobby, cat, lambda i: TakeBotSeat(id=i, table_id=table.table_id, seat=1))
    sat_at = table.broadcast.last_seq
    token = cat.token
    assert token is not None

    again = FakePeer("Cat")
    await ok(lobby, again, lambda i: ResumeSeat(id=i, token=token, last_seq=0))
    assert again.seat == 1
    assert [event.seq for event in again.events if event.seq <= sat_at] == []
    assert again.last(GameView).seq == table.broadcast.last_seq


async def test_a_connection_lost_while_the_table_sends_views_is_noticed(
    nursery: trio.Nursery,
) -> None:
    lobby, table, ann, bob = await two_players(nursery, turn_seconds=0)
    await settle()
    send_view = table.broadcast.send_view
    lost_meanwhile: list[bool] = []

    def losing_bob_meanwhile(peer: Peer, *args: Any, **options: Any) -> None:
        # The views owed for Ann's loss are being sent: Bob's connection drops now.
        if not lost_meanwhile:
            lost_meanwhile.append(True)
            lobby.disconnected(bob)
        send_view(peer, *args, **options)

    table.broadcast.send_view = losing_bob_meanwhile  # type: ignore[method-assign]
    # No server bots take the seats here: their joining would wake the table by itself.
    table.stand_ins.reconcile = lambda: None  # type: ignore[method-assign]
    lobby.disconnected(ann)
    await settle()
    assert lost_meanwhile, "no view was sent after Ann's loss"
    seat = table.seating[1]
    assert seat is not None and seat.peer is None, "Bob's lost connection went unnoticed"
    assert table.closes_at is not None  # nobody is left: the table will be removed
