"""The records a server without a journal keeps in memory (server.recent_replays): the
latest few, each no larger than its bound, paged as the journal's are, and listed as
matches (``list-matches`` of a ``--no-state`` server)."""

from __future__ import annotations

import json

import pytest

from protocol.messages import ListMatches
from protocol.options import TableConfig
from protocol.replay_file import read_replay
from server.recent_replays import KEPT_REPLAYS, RecentReplays, TableReplays
from server.records import RecordsRefused, recent_match_list
from server.replay_rows import ReplayCursorError

CONFIG = TableConfig(seats=2, target_score=100)
RESULT = {
    "deck": "classic",
    "players": [
        {"name": "Ann", "bot": False, "score": 120, "stand_in_turns": 4},
        {"name": "Bot 1", "bot": True},
    ],
    "winners": ["Ann"],
}


def line(seq: int, kind: str, **fields: object) -> str:
    return json.dumps({"seq": seq, "kind": kind, **fields})


def play(table: TableReplays, *, turns: int = 3) -> None:
    """One match's stretches as a table writes them: the result before the last one."""
    table.replay_part(0, [line(1, "dealer-chosen", dealer=0, draws=[[[0, "R9"], [1, "B2"]]])])
    events = [line(2, "round-started", round=1, dealer=0, counts=[7, 7])]
    events += [line(3 + n, "drew", seat=n % 2, count=1, reason="draw") for n in range(turns)]
    table.match_finished(RESULT, CONFIG)
    table.replay_part(1, events)


def whole(recent: RecentReplays, match_id: int, max_lines: int) -> list[str]:
    lines: list[str] = []
    cursor = None
    while True:
        found = recent.page(match_id, cursor, max_lines=max_lines, max_bytes=48_000)
        assert found is not None
        page, cursor = found
        lines += page
        if cursor is None:
            return lines


def test_a_finished_match_is_kept_and_pages_into_its_file() -> None:
    recent = RecentReplays()
    table = recent.for_table("1", "Friday")
    play(table)
    (match_id,) = recent.ids()
    assert recent.latest_of_table("1") == match_id and recent.latest_of_table("2") is None
    lines = whole(recent, match_id, max_lines=2)
    assert lines == whole(recent, match_id, max_lines=1000)
    replay = read_replay(lines)
    assert replay.match_id == match_id and replay.table == "Friday"
    assert [(p.name, p.score) for p in replay.players] == [("Ann", 120), ("Bot 1", 0)]
    assert replay.config == CONFIG and replay.winners == ("Ann",)
    assert [event.seq for event in replay.events] == [1, 2, 3, 4, 5]
    with pytest.raises(ReplayCursorError):
        recent.page(match_id, "5.0", max_lines=10, max_bytes=48_000)
    assert recent.page(match_id + 1, None, max_lines=10, max_bytes=48_000) is None


def test_only_the_latest_matches_are_kept() -> None:
    recent = RecentReplays()
    table = recent.for_table("1", "Friday")
    for _ in range(KEPT_REPLAYS + 5):
        play(table)
    assert recent.ids() == list(range(6, KEPT_REPLAYS + 6))
    assert recent.page(1, None, max_lines=10, max_bytes=48_000) is None


def test_a_record_past_its_bound_is_not_kept() -> None:
    recent = RecentReplays(max_bytes=2_000)
    table = recent.for_table("1", "Long")
    play(table, turns=2_000)  # far past 2,000 bytes even compressed
    assert recent.ids() == []
    play(table)  # the next match starts afresh
    assert len(recent.ids()) == 1


def test_a_match_left_unfinished_leaves_no_record() -> None:
    recent = RecentReplays()
    table = recent.for_table("1", "Friday")
    table.replay_part(0, [line(1, "dealer-chosen", dealer=0, draws=[[[0, "R9"], [1, "B2"]]])])
    table.replay_part(1, [line(2, "round-started", round=1, dealer=0, counts=[7, 7])])
    assert recent.ids() == []
    play(table)
    replay = read_replay(whole(recent, recent.ids()[0], max_lines=10))
    assert replay.events[0].seq == 1 and len(replay.events) == 5


def test_the_kept_records_are_listed_as_matches_the_latest_first_by_their_ids() -> None:
    recent = RecentReplays(kept=3)
    for table_id in ("1", "2", "1", "3"):  # four matches: the first is no longer kept
        play(recent.for_table(table_id, f"table {table_id}"))
    first = recent_match_list(recent, ListMatches(id=1, limit=2))
    assert [m.match_id for m in first.matches] == [4, 3]
    assert [m.table_id for m in first.matches] == ["3", "1"]
    assert first.next_cursor == "3"
    rest = recent_match_list(recent, ListMatches(id=2, limit=2, cursor=first.next_cursor))
    assert [m.match_id for m in rest.matches] == [2] and rest.next_cursor is None
    (match,) = rest.matches
    assert (match.table, match.deck, match.winners) == ("table 2", "classic", ("Ann",))
    assert [(p.name, p.bot, p.score, p.stand_in_turns) for p in match.players] == [
        ("Ann", False, 120, 4),  # a bot stood in for Ann 4 turns: the list says so
        ("Bot 1", True, 0, 0),
    ]
    with pytest.raises(RecordsRefused) as refused:
        recent_match_list(recent, ListMatches(id=3, cursor="x"))
    assert refused.value.code == "bad-cursor"
