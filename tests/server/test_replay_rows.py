"""The journal's replays (server.replay_rows, schema 6) against a real file: a match's
stretches come back as one record, a record with a hole is none, the retention keeps the
latest records of each kind (bots' shortest), and an older file gains the table."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_journal import a_schema_4_file

from protocol.options import TableConfig
from protocol.replay_file import replay_lines
from server.journal import Journal, TableJournal
from server.journal_schema import SCHEMA_VERSION
from server.replay_rows import ReplayCursorError, replay_page
from server.retention import Retention

CONFIG = TableConfig(seats=2)


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    opened = Journal.open(tmp_path / "server.sqlite3")
    yield opened
    opened.close()


def line(seq: int, kind: str, **fields: object) -> str:
    return json.dumps({"seq": seq, "kind": kind, **fields})


STRETCHES = [
    [line(1, "dealer-chosen", dealer=0, draws=[[[0, "R9"], [1, "B2"]]])],
    [
        line(2, "round-started", round=1, dealer=0, counts=[7, 7]),
        line(3, "first-card", card="Y6", color="Y"),
        line(4, "turn", seat=1, direction=1, phase="turn"),
        line(5, "drew", seat=1, count=1, reason="draw"),
    ],
]


def finished(journal: Journal, table_id: str, *, people: bool, parts: int = 2) -> int:
    """A table's finished match with the first ``parts`` stretches written; its id."""
    table: TableJournal = journal.for_table(table_id)
    table.opened(f"table {table_id}", CONFIG, None, "10.0.0.2")
    table.match_started(1, 1, 0, 1, CONFIG)
    for part in range(parts):
        table.replay_part(part, STRETCHES[part])
    players = [{"name": "Ann", "bot": not people, "score": 5}, {"name": "Bot 1", "bot": True}]
    table.match_finished({"deck": "classic", "players": players, "winners": ["Ann"]}, people=people)
    return int(journal.connection.execute("SELECT max(match_id) FROM matches").fetchone()[0])


def test_the_stretches_of_a_match_come_back_as_its_record(journal: Journal) -> None:
    match_id = finished(journal, "1", people=True)
    replay = journal.replay(match_id)
    assert replay is not None
    assert [event.seq for event in replay.events] == [1, 2, 3, 4, 5]
    assert replay.table == "table 1" and replay.config == CONFIG
    assert [(p.name, p.bot, p.score) for p in replay.players] == [
        ("Ann", False, 5),
        ("Bot 1", True, 0),
    ]
    assert replay.winners == ("Ann",)
    assert journal.replay(match_id + 1) is None


def test_a_stretch_written_twice_is_kept_once(journal: Journal) -> None:
    table = journal.for_table("1")
    table.opened("t", CONFIG, None, "10.0.0.2")
    table.match_started(1, 1, 0, 1, CONFIG)
    for _ in range(2):  # a rebuilt match writes its stretches again
        table.replay_part(0, STRETCHES[0])
    table.match_finished({"deck": "classic", "players": [], "winners": []})
    replay = journal.replay(1)
    assert replay is not None and len(replay.events) == 1


def test_a_record_with_a_hole_or_unfinished_is_none(journal: Journal) -> None:
    holed = finished(journal, "1", people=True, parts=2)
    journal.connection.execute("DELETE FROM replay_parts WHERE match_id = ? AND part = 0", (holed,))
    assert journal.replay(holed) is None
    table = journal.for_table("2")
    table.opened("open", CONFIG, None, "10.0.0.2")
    table.match_started(1, 1, 0, 1, CONFIG)
    table.replay_part(0, STRETCHES[0])
    assert journal.replay(holed + 1) is None  # still being played


def test_the_retention_keeps_the_latest_records_of_each_kind(journal: Journal) -> None:
    bots = [finished(journal, str(n), people=False) for n in range(1, 8)]
    people = [finished(journal, str(n), people=True) for n in range(8, 12)]
    retention = Retention(bot_replays=2, people_replays=1_000)
    while journal.clean(retention, time.time()):
        pass
    with_record = {m for m in bots + people if journal.replay(m) is not None}
    assert with_record == {*bots[-2:], *people}
    assert len(journal.history()) == len(bots) + len(people)  # the results stay
    journal.forget_history()
    assert journal.connection.execute("SELECT COUNT(*) FROM replay_parts").fetchone() == (0,)


def test_a_schema_4_file_gains_the_replays(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    a_schema_4_file(path)
    journal = Journal.open(path)
    try:
        db = journal.connection
        assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == (
            str(SCHEMA_VERSION),
        )
        assert SCHEMA_VERSION == 6
        match_id = finished(journal, "40", people=True)
        assert journal.replay(match_id) is not None
    finally:
        journal.close()


def test_the_pages_of_a_record_are_its_file_line_by_line(journal: Journal) -> None:
    """Pages of every size, from the first to the last, join into ``replay_lines``."""
    match_id = finished(journal, "1", people=True)
    replay = journal.replay(match_id)
    assert replay is not None
    whole = list(replay_lines(replay))
    assert len(whole) == 6  # the header and five events
    for max_lines in range(1, 8):
        lines: list[str] = []
        cursor: str | None = None
        pages = 0
        while True:
            found = replay_page(
                journal.connection, match_id, cursor, max_lines=max_lines, max_bytes=48_000
            )
            assert found is not None
            page, cursor = found
            assert 1 <= len(page) <= max_lines
            lines.extend(page)
            pages += 1
            if cursor is None:
                break
        assert lines == whole
        assert pages == -(-len(whole) // max_lines)


def test_a_page_stops_before_its_bytes_run_over(journal: Journal) -> None:
    match_id = finished(journal, "1", people=True)
    found = replay_page(journal.connection, match_id, None, max_lines=100, max_bytes=1)
    assert found is not None
    page, cursor = found
    assert len(page) == 1 and page[0].startswith('{"format":"uno-lan-replay"')
    assert cursor == "0.0"
    found = replay_page(journal.connection, match_id, cursor, max_lines=100, max_bytes=1)
    assert found is not None and found[1] == "1.0"  # the single event of stretch 0


def test_a_bad_cursor_or_an_unkept_match_reads_no_page(journal: Journal) -> None:
    match_id = finished(journal, "1", people=True)
    db = journal.connection
    for cursor in ("x", "2.0", "1.5", "0.-1", "1", "٣.0"):
        with pytest.raises(ReplayCursorError):
            replay_page(db, match_id, cursor, max_lines=10, max_bytes=48_000)
    assert replay_page(db, match_id + 1, None, max_lines=10, max_bytes=48_000) is None
    db.execute("DELETE FROM replay_parts WHERE match_id = ? AND part = 0", (match_id,))
    assert replay_page(db, match_id, None, max_lines=10, max_bytes=48_000) is None


def test_a_long_match_that_finishes_late_loses_its_record_like_the_others(
    journal: Journal,
) -> None:
    """A match begun first and finished after the cleaning passed its id still goes."""
    long = journal.for_table("1")
    long.opened("long", CONFIG, None, "10.0.0.2")
    long.match_started(1, 1, 0, 1, CONFIG)
    long.replay_part(0, STRETCHES[0])
    later = [finished(journal, str(n), people=False) for n in range(2, 6)]
    retention = Retention(bot_replays=2, people_replays=1_000)
    while journal.clean(retention, time.time()):
        pass
    long.match_finished({"deck": "classic", "players": [], "winners": []}, people=False)
    (long_id,) = journal.connection.execute(
        "SELECT match_id FROM matches WHERE table_id = '1'"
    ).fetchone()
    assert journal.replay(long_id) is not None
    while journal.clean(retention, time.time()):
        pass
    with_record = {m for m in [long_id, *later] if journal.replay(m) is not None}
    assert with_record == set(later[-2:])


def test_a_clean_journal_reads_no_kept_record_again(journal: Journal) -> None:
    """Once the cleaning is done, a step does not walk the records it keeps."""
    for n in range(1, 6):
        finished(journal, str(n), people=True)
    retention = Retention(bot_replays=2, people_replays=3)
    while journal.clean(retention, time.time()):
        pass
    statements: list[str] = []
    journal.connection.set_trace_callback(statements.append)
    try:
        assert not journal.clean(retention, time.time())
    finally:
        journal.connection.set_trace_callback(None)
    assert statements, "the trace saw nothing: the check would prove nothing"
    assert not [sql for sql in statements if "replay_parts" in sql]
