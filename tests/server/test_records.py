"""The lobby's history answers (``server.records``) over a real journal: pages that neither
repeat nor hide a match when another finishes between them, and a clear refusal when the
history cannot be given."""

from __future__ import annotations

from test_table_rig import FakePeer

from protocol.messages import ListMatches, MatchList, Ok, Rejected
from protocol.options import TableConfig
from server.journal import Journal
from server.records import answer_records


def finish(journal: Journal, table_id: str, player: str) -> None:
    config = TableConfig(seats=2)
    table = journal.for_table(table_id)
    table.opened(f"table {table_id}", config, None, "10.0.0.1")
    table.match_started(1, 1, 0, 1, config)
    players = [{"name": player, "bot": False, "score": 1}]
    table.match_finished({"deck": "classic", "players": players, "winners": [player]})


def page(journal: Journal, peer: FakePeer, cursor: str | None, limit: int) -> MatchList:
    peer.received.clear()
    answer_records(journal, peer, ListMatches(id=1, cursor=cursor, limit=limit))
    listing, reply = peer.received
    assert isinstance(listing, MatchList) and isinstance(reply, Ok)
    return listing


def test_a_match_finishing_between_two_pages_neither_repeats_nor_hides_one() -> None:
    journal = Journal.in_memory()
    peer = FakePeer("Ann")
    for number in range(1, 4):
        finish(journal, str(number), f"p{number}")
    first = page(journal, peer, None, 2)
    assert [m.winners for m in first.matches] == [("p3",), ("p2",)]
    finish(journal, "4", "p4")  # the latest now, on no page asked for yet
    rest = page(journal, peer, first.next_cursor, 2)
    assert [m.winners for m in rest.matches] == [("p1",)] and rest.next_cursor is None
    assert [m.winners for m in page(journal, peer, None, 1).matches] == [("p4",)]


def test_a_history_the_protocol_cannot_carry_is_refused_not_a_crash() -> None:
    journal = Journal.in_memory()
    peer = FakePeer("Ann")
    finish(journal, "1", "x" * 100)  # longer than any name the protocol carries
    answer_records(journal, peer, ListMatches(id=7))
    (reply,) = peer.received
    assert isinstance(reply, Rejected) and reply.code == "internal-error" and reply.id == 7
