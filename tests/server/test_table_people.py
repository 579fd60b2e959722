"""Whether a person played a match, as the journal records it for the retention: a move
from the seat's own player makes it a match of people; a match the server's bots played
alone (its person away from the first move to the last) is one of bots only."""

from __future__ import annotations

import trio
import trio.testing
from test_table_rig import FakePeer, create, ok, play, rigged, settle

from protocol.cards import Card
from protocol.commands import Play
from protocol.messages import AddBot
from protocol.messages import Start as StartMatch
from server.journal import Journal
from server.lobby import Lobby
from server.settings import LobbySettings

HANDS = [["R1"], ["Y4", "Y5", "R6"]]
"""Seat 0 goes out with its one card, and the match (to 10 points) is over."""


async def _table(nursery: trio.Nursery) -> tuple[Journal, Lobby, FakePeer]:
    journal = Journal.in_memory()
    lobby = Lobby(LobbySettings(seed=1), journal=journal)
    await nursery.start(lobby.run)
    ann = FakePeer("Ann")
    await create(lobby, ann, seats=2, turn_seconds=0, target_score=10)
    await ok(lobby, ann, lambda i: AddBot(id=i, strategy="basic"))
    await ok(lobby, ann, lambda i: StartMatch(id=i))
    await settle()
    return journal, lobby, ann


def _people(journal: Journal) -> list[int | None]:
    rows = journal.connection.execute("SELECT people FROM matches ORDER BY match_id")
    return [row[0] for row in rows]


async def test_a_match_a_person_moved_in_is_kept_as_a_match_of_people(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    journal, lobby, ann = await _table(nursery)
    table = lobby.location(ann)
    assert table is not None
    rigged(table, hands=HANDS, top="R9", current=0)
    assert _people(journal) == [None]  # open
    await play(lobby, ann, Play(Card.parse("R1")))
    await ann.wait_for(lambda: bool(ann.view.get("match_result")))
    assert _people(journal) == [1]


async def test_a_match_the_bots_played_alone_is_kept_as_one_of_bots(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    journal, lobby, ann = await _table(nursery)
    table = lobby.location(ann)
    assert table is not None
    rigged(table, hands=HANDS, top="R9", current=0)
    lobby.disconnected(ann)  # Ann walks away: a server bot plays her seat, and goes out
    with trio.fail_after(60):
        while table.game.match is None or not table.game.match.is_over:
            await trio.sleep(0.5)
    (match,) = journal.history()
    assert [p["bot"] for p in match["players"]] == [False, True]  # her seat is a person's
    assert match["winners"] == ["Ann"]
    assert _people(journal) == [0]
