"""A late-comer's seat: a person who arrives while the match runs takes a bot's seat at
any turn, with the hand and score the bot left; the table list says how many bot seats
there are to take."""

from __future__ import annotations

import trio
from test_table_rig import FakePeer, create, ok, open_lobby, play, refused, rigged, settle

from protocol.cards import Card
from protocol.commands import Play, SetAway
from protocol.errors import LobbyRejectCode
from protocol.messages import AddBot, ListTables, Spectate, Start, TableList, TakeBotSeat
from server.lobby import Lobby


async def bot_seats_listed(lobby: Lobby, reader: FakePeer) -> int:
    await ok(lobby, reader, lambda i: ListTables(id=i))
    return reader.last(TableList).tables[0].bot_seats


async def test_a_late_comer_takes_a_bots_seat_on_the_bots_own_turn(
    nursery: trio.Nursery,
) -> None:
    # The bots think for a minute of real time: the seat is taken in the middle of a turn.
    lobby = await open_lobby(nursery, bot_think_ms=60_000)
    ann, cat, dan = FakePeer("Ann"), FakePeer("Cat"), FakePeer("Dan")
    table = await create(lobby, ann, seats=3, turn_seconds=0)
    await ok(lobby, ann, lambda i: AddBot(id=i, strategy="basic"))
    await ok(lobby, ann, lambda i: AddBot(id=i, strategy="easy"))
    assert await bot_seats_listed(lobby, cat) == 2
    assert [seat.level for seat in ann.state.seats] == [None, "normal", "easy"]  # basic: normal
    await ok(lobby, ann, lambda i: Start(id=i))
    rigged(table, hands=[["R1", "G2"], ["Y4", "Y5", "R6"], ["B1", "B2"]], top="R9", current=1)
    await settle()
    match = table.game.match
    assert match is not None
    scores_before = list(match.scores)
    tid = table.table_id

    code = await refused(lobby, cat, lambda i: TakeBotSeat(id=i, table_id=tid, seat=0))
    assert code == LobbyRejectCode.NOT_A_BOT
    await ok(lobby, cat, lambda i: TakeBotSeat(id=i, table_id=tid, seat=1))
    await settle()
    assert cat.seat == 1 and cat.token is not None
    assert sorted(cat.view["hand"]) == ["R6", "Y4", "Y5"] and cat.view["to_act"] == 1
    assert cat.view["scores"] == scores_before
    chair = table.seating[1]
    assert chair is not None and not chair.is_bot and chair.stand_in is None
    assert ann.state.seats[1].name == "Cat" and not ann.state.seats[1].away
    assert ann.state.seats[1].level is None
    assert await bot_seats_listed(lobby, dan) == 1
    await play(lobby, cat, Play(Card.parse("R6")))
    assert [e.body.to_data() for e in ann.events if e.body.kind == "played"][-1]["seat"] == 1


async def test_a_spectator_takes_a_bots_seat_the_clock_had_marked_away(
    nursery: trio.Nursery,
) -> None:
    lobby = await open_lobby(nursery, bot_think_ms=60_000)
    ann, dan = FakePeer("Ann"), FakePeer("Dan")
    table = await create(lobby, ann, seats=2, turn_seconds=0)
    await ok(lobby, ann, lambda i: AddBot(id=i, strategy="basic"))
    await ok(lobby, ann, lambda i: Start(id=i))
    tid = table.table_id
    await ok(lobby, dan, lambda i: Spectate(id=i, table_id=tid))
    # Three expiries in a row mark a seat away, a bot's seat as well as a person's.
    assert table.game.apply_table(SetAway(1, True))
    await ok(lobby, dan, lambda i: TakeBotSeat(id=i, table_id=tid, seat=1))
    await settle()
    assert dan.seat == 1 and dan.view["seat"] == 1
    assert not table.game.is_away(1)
    chair = table.seating[1]
    assert chair is not None and chair.peer is not None and chair.stand_in is None
    assert not table.seating.spectators and not ann.state.seats[1].away
    assert await bot_seats_listed(lobby, FakePeer("Eve")) == 0
