"""Journal writes that fail: a real ``SQLITE_FULL`` (``PRAGMA max_page_count`` keeps the
file from growing), a journal left by a server that never wrote again, and a file that
cannot be written at start. No table is lost for it and none is ever rebuilt from a log
that stops short."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from pathlib import Path

import pytest

from protocol.commands import Draw
from protocol.options import TableConfig
from server.journal import UNWRITTEN_NOTE, Journal, JournalUnwritable, SavedSeat
from server.journal_reserve import JournalReserve

CONFIG = TableConfig(seats=2)
SEATS = [SavedSeat(0, "Ann", None, None), SavedSeat(1, "Bot 1", "basic", None)]


def with_filler(path: Path, pages: int) -> None:
    """A journal with ``pages`` pages of someone else's data in it, to be freed later
    (as a file deleted from a full disk frees room)."""
    Journal.open(path).close()
    db = sqlite3.connect(path)
    with db:
        db.execute("CREATE TABLE filler (data BLOB)")
        db.executemany("INSERT INTO filler VALUES (?)", [(bytes(3000),)] * pages)
    db.close()


def free_filler(path: Path) -> None:
    db = sqlite3.connect(path, isolation_level=None, timeout=5)
    db.execute("DROP TABLE filler")  # its pages go on the free list, for the journal to reuse
    db.close()


def fill_until_it_fails(journal: Journal, table_id: str) -> int:
    """Open a table and play draws until a write fails; the commands written."""
    table = journal.open_table(table_id, "Kitchen", CONFIG, password_hash=None, created_from="x")
    assert table is not None
    table.seats(SEATS, 0, CONFIG)
    table.match_started(1, 42, 0, 1, CONFIG)
    table.round_scores([10, 20])
    written = 0
    while table.rebuildable:
        table.command(0, Draw(), written)
        written += 1
        assert written < 100_000, "the journal never filled"
    return written - 1


def test_a_full_journal_stops_writing_the_table_and_marks_it_not_rebuildable(
    tmp_path: Path,
) -> None:
    path = tmp_path / "server.sqlite3"
    with_filler(path, 20)
    journal = Journal.open(path, page_limit=1)  # the file may not grow past its size now
    told: list[bool] = []
    journal.on_failure = lambda: told.append(journal.writable)
    try:
        written = fill_until_it_fails(journal, "1")
        assert told == [False]  # told once, as it happened
        assert not journal.writable
        table = journal.for_table("1")
        table.command(0, Draw(), 0)  # a table that failed writes no command again
    finally:
        journal.close()
    db = sqlite3.connect(path)
    try:
        rows = db.execute("SELECT table_id, rebuildable FROM tables").fetchall()
        assert rows == [("1", 0)]  # the mark made it into the file at once
        assert db.execute("SELECT COUNT(*) FROM commands").fetchone() == (written,)
    finally:
        db.close()

    again = Journal.open(path)
    try:
        assert again.open_tables() == ([], ["1"])  # closed, not rebuilt from a short log
        (match,) = again.history()
        assert match["note"] == UNWRITTEN_NOTE and match["winners"] == []
        assert [p["score"] for p in match["players"]] == [10, 20]
    finally:
        again.close()


def test_new_tables_are_refused_while_writes_fail_and_journaled_once_there_is_room(
    tmp_path: Path,
) -> None:
    path = tmp_path / "server.sqlite3"
    with_filler(path, 20)
    journal = Journal.open(path, page_limit=1)
    try:
        opened = 0
        while journal.writable:  # tables until the file has no room for one more
            opened += 1
            assert opened < 10_000, "the journal never filled"
            journal.open_table(str(opened), "T" * 30, CONFIG, password_hash=None, created_from="x")
        refused = str(opened + 1)
        assert (
            journal.open_table(refused, "B", CONFIG, password_hash=None, created_from="x") is None
        )
        assert not journal.writable
        free_filler(path)
        table = journal.open_table(refused, "B", CONFIG, password_hash=None, created_from="x")
        assert table is not None and table.rebuildable and journal.writable
        table.match_started(1, 7, 0, 1, CONFIG)
        table.command(0, Draw(), 5)
    finally:
        journal.close()
    again = Journal.open(path)
    try:
        tables, closed = again.open_tables()
        # Only the table made once writes worked again is rebuilt; the rest are closed.
        assert [saved.table_id for saved in tables] == [refused]
        assert len(closed) == opened - 1  # the one whose own write failed was never made
        assert tables[0].match is not None and tables[0].match.commands == [(0, Draw(), 5)]
    finally:
        again.close()


def test_a_journal_whose_reserve_is_gone_closes_its_tables_on_start(tmp_path: Path) -> None:
    """The server's writes failed and it stopped before it could note which tables it can
    no longer rebuild: the missing reserve says so."""
    path = tmp_path / "server.sqlite3"
    journal = Journal.open(path)
    table = journal.open_table("4", "Den", CONFIG, password_hash=None, created_from="x")
    assert table is not None
    table.seats(SEATS, 0, CONFIG)
    table.match_started(1, 9, 0, 1, CONFIG)
    table.command(0, Draw(), 1)
    journal.close()
    reserve = JournalReserve(path)
    assert reserve.exists()
    reserve.spend()  # as a failed write does, before the process died
    again = Journal.open(path)
    try:
        assert again.open_tables() == ([], ["4"])
        assert reserve.exists()  # made again for the next time
    finally:
        again.close()


def _immutable(path: Path) -> bool:
    result = subprocess.run(["chattr", "+i", str(path)], capture_output=True, check=False)
    return result.returncode == 0


def test_an_immutable_journal_is_refused_at_start(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    Journal.open(path).close()
    if os.geteuid() != 0 or not _immutable(path):
        pytest.skip("making a file immutable (chattr +i) needs root and a file system for it")
    try:
        with pytest.raises(JournalUnwritable, match="readonly"):
            Journal.open(path)
        assert not list(tmp_path.glob("*.damaged-*"))  # not taken for a damaged file
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)
