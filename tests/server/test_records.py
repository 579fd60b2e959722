"""The lobby's history answers (``server.records``) over a real journal: pages that neither
repeat nor hide a match when another finishes between them, cursors that outlive the
retention, read in a worker thread from a file, and a clear refusal when the history
cannot be given."""

from __future__ import annotations

from pathlib import Path

from test_table_rig import FakePeer

from protocol.messages import GetStandings, ListMatches, MatchList, Ok, Rejected, Standings
from protocol.options import TableConfig
from server.journal import Journal
from server.journal_reader import JournalReader
from server.records import answer_records
from server.retention import Retention


def finish(journal: Journal, table_id: str, player: str, *, bot: bool = False) -> None:
    config = TableConfig(seats=2)
    table = journal.for_table(table_id)
    table.opened(f"table {table_id}", config, None, "10.0.0.1")
    table.match_started(1, 1, 0, 1, config)
    players = [{"name": player, "bot": bot, "score": 1}]
    result = {"deck": "classic", "players": players, "winners": [player]}
    table.match_finished(result, people=not bot)


async def page(reader: JournalReader, peer: FakePeer, cursor: str | None, limit: int) -> MatchList:
    peer.received.clear()
    await answer_records(reader, peer, ListMatches(id=1, cursor=cursor, limit=limit))
    listing, reply = peer.received
    assert isinstance(listing, MatchList) and isinstance(reply, Ok)
    return listing


async def test_a_match_finishing_between_two_pages_neither_repeats_nor_hides_one() -> None:
    journal = Journal.in_memory()
    reader = JournalReader(journal)
    peer = FakePeer("Ann")
    for number in range(1, 4):
        finish(journal, str(number), f"p{number}")
    first = await page(reader, peer, None, 2)
    assert [m.winners for m in first.matches] == [("p3",), ("p2",)]
    finish(journal, "4", "p4")  # the latest now, on no page asked for yet
    rest = await page(reader, peer, first.next_cursor, 2)
    assert [m.winners for m in rest.matches] == [("p1",)] and rest.next_cursor is None
    assert [m.winners for m in (await page(reader, peer, None, 1)).matches] == [("p4",)]


async def test_a_cursor_outlives_the_retention_and_a_file_is_read_off_the_loop(
    tmp_path: Path,
) -> None:
    journal = Journal.open(tmp_path / "server.sqlite3")
    reader = JournalReader(journal)
    peer = FakePeer("Ann")
    try:
        for number in range(1, 6):
            finish(journal, str(number), f"bot{number}", bot=True)
        first = await page(reader, peer, None, 2)
        assert [m.match_id for m in first.matches] == [5, 4] and first.next_cursor == "4"
        while journal.clean(Retention(bot_matches=1), now=0.0):
            pass  # keeps the latest bot match only: the cursor's own match is gone
        rest = await page(reader, peer, first.next_cursor, 2)
        assert rest.matches == () and rest.next_cursor is None
        peer.received.clear()
        await answer_records(reader, peer, GetStandings(id=2, limit=3))
        standings, ok = peer.received
        assert isinstance(standings, Standings) and isinstance(ok, Ok)
        assert [(s.name, s.matches) for s in standings.players] == [
            ("bot1", 1),
            ("bot2", 1),
            ("bot3", 1),
        ]
        assert standings.next_cursor == "3"
    finally:
        reader.close()
        journal.close()


async def test_a_history_the_protocol_cannot_carry_is_refused_not_a_crash() -> None:
    journal = Journal.in_memory()
    peer = FakePeer("Ann")
    finish(journal, "1", "x" * 100)  # longer than any name the protocol carries
    await answer_records(JournalReader(journal), peer, ListMatches(id=7))
    (reply,) = peer.received
    assert isinstance(reply, Rejected) and reply.code == "internal-error" and reply.id == 7
