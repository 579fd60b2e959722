"""Jump-in races at a real table (ruling 37): settled by the order the commands arrive in,
a late jump-in judged by the last view its seat had been sent when it arrived."""

from __future__ import annotations

import trio
from test_table_rig import FakePeer, create, ok, open_lobby, play, rigged, settle

from protocol.cards import Card
from protocol.commands import Play
from protocol.messages import Game, Join, Ok, Rejected, Start
from protocol.rejections import RejectCode
from server.lobby import Lobby


async def four_at_a_jump_in_table(nursery: trio.Nursery) -> tuple[Lobby, list[FakePeer]]:
    """Ann, Bob, Cy and Di at a started ``jump_in`` table; Ann has just played a red 5, Bob
    is to act with a red 8 and Di (not next after Bob: her card would then simply be her
    turn's play) holds the other red 5; everyone has been sent that view."""
    lobby = await open_lobby(nursery)
    people = [FakePeer("Ann"), FakePeer("Bob"), FakePeer("Cy"), FakePeer("Di")]
    table = await create(lobby, people[0], seats=4, jump_in=True, turn_seconds=0)
    for person in people[1:]:
        await ok(lobby, person, lambda i: Join(id=i, table_id=table.table_id))
    await ok(lobby, people[0], lambda i: Start(id=i))
    hands = [["R5", "G2", "B3"], ["R8", "Y5", "Y6"], ["Y7", "Y8", "G9"], ["R5", "B7", "B8"]]
    rigged(table, hands=hands, top="R4", current=0)
    assert isinstance(await play(lobby, people[0], Play(Card.parse("R5"))), Ok)
    await settle()
    assert (
        people[3].view["top"] == "R5" and {"type": "play", "card": "R5"} in people[3].view["legal"]
    )
    return lobby, people


async def send_now(lobby: Lobby, peer: FakePeer, command: Play) -> int:
    """Hand a game command to the server without waiting for its reply."""
    request = Game(id=peer.next_id(), command=command)
    await lobby.handle(peer, request)
    return request.id


async def test_a_jump_in_that_arrived_before_its_seat_saw_the_new_top_lost_the_race(
    nursery: trio.Nursery,
) -> None:
    lobby, (_ann, bob, _cy, di) = await four_at_a_jump_in_table(nursery)
    move = await send_now(lobby, bob, Play(Card.parse("R8")))
    jump = await send_now(lobby, di, Play(Card.parse("R5")))  # before any view went out
    await settle()
    assert isinstance(bob.reply(move), Ok)
    refused = di.reply(jump)
    assert isinstance(refused, Rejected) and refused.code == RejectCode.LOST_RACE


async def test_a_jump_in_sent_after_its_seat_saw_the_new_top_does_not_match(
    nursery: trio.Nursery,
) -> None:
    lobby, (_ann, bob, _cy, di) = await four_at_a_jump_in_table(nursery)
    assert isinstance(await play(lobby, bob, Play(Card.parse("R8"))), Ok)
    await settle()
    assert di.view["top"] == "R8"
    reply = await play(lobby, di, Play(Card.parse("R5")))
    assert isinstance(reply, Rejected) and reply.code == RejectCode.CARD_DOES_NOT_MATCH


async def test_the_jump_in_that_arrives_first_wins_and_the_overtaken_move_lost_the_race(
    nursery: trio.Nursery,
) -> None:
    lobby, (ann, bob, _cy, di) = await four_at_a_jump_in_table(nursery)
    jump = await send_now(lobby, di, Play(Card.parse("R5")))
    move = await send_now(lobby, bob, Play(Card.parse("R8")))
    await settle()
    assert isinstance(di.reply(jump), Ok)
    refused = bob.reply(move)
    assert isinstance(refused, Rejected) and refused.code == RejectCode.LOST_RACE
    assert "jumped-in" in ann.event_kinds() and ann.view["to_act"] == 0  # on from Di
