"""What the journal keeps for bans: each open table's bans and where each seat last came
from, deleted with the table, and a schema 4 file migrated to hold them."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from journal_layouts import write_schema_4

from protocol.options import TableConfig
from server.journal import Journal, SavedBan, SavedSeat, token_hash


def _bans_on_disk(path: Path) -> list[tuple[str, str, str | None]]:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT table_id, name, address FROM bans ORDER BY rowid").fetchall()
    finally:
        db.close()


def test_bans_and_seat_addresses_come_back_and_go_with_their_table(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    journal = Journal.open(path)
    config = TableConfig(seats=3)
    seats = [
        SavedSeat(0, "Ann", None, token_hash("t0"), "192.0.2.1"),
        SavedSeat(1, "Eve", None, token_hash("t1"), "192.0.2.5"),
        SavedSeat(2, "Bot 1", "basic", None),
    ]
    try:
        for table_id in ("1", "2"):
            table = journal.for_table(table_id)
            table.opened("Den", config, None, "192.0.2.1")
            table.seats(seats, 0, config)
        one = journal.for_table("1")
        one.banned(SavedBan("mallory", "192.0.2.66"))
        one.banned(SavedBan("Eve", None))
        journal.for_table("2").banned(SavedBan("trent", "192.0.2.9"))
    finally:
        journal.close()

    again = Journal.open(path)
    try:
        first, second = again.open_tables()[0]
        assert first.seats == seats
        assert first.bans == [SavedBan("mallory", "192.0.2.66"), SavedBan("Eve", None)]
        assert second.bans == [SavedBan("trent", "192.0.2.9")]
        again.for_table("1").closed()
        again.close_unfinished("2", "closed for the test")
    finally:
        again.close()
    assert _bans_on_disk(path) == []


def _a_schema_4_file(path: Path) -> None:
    """A journal as the release before bans were kept left it: an open table, one seat."""
    config = json.dumps(TableConfig(seats=2).to_data())
    db = sqlite3.connect(path)
    with db:
        write_schema_4(db)
        db.execute(
            "INSERT INTO tables VALUES ('2', 'Open', ?, NULL, 'x', 0, 1, '1', NULL)", (config,)
        )
        db.execute("INSERT INTO seats VALUES ('2', 0, 'Bob', NULL, ?)", (token_hash("b"),))
    db.close()


def _columns(path: Path, table: str) -> list[tuple[str, str]]:
    db = sqlite3.connect(path)
    try:
        return [(row[1], row[2]) for row in db.execute(f"PRAGMA table_info({table})")]
    finally:
        db.close()


def _indexes(path: Path, table: str) -> list[str]:
    db = sqlite3.connect(path)
    try:
        return [row[1] for row in db.execute(f"PRAGMA index_list({table})")]
    finally:
        db.close()


def test_a_schema_4_file_gains_bans_and_seat_addresses(tmp_path: Path) -> None:
    old = tmp_path / "old.sqlite3"
    _a_schema_4_file(old)
    journal = Journal.open(old)
    try:
        assert journal.migrated == tmp_path / "old.sqlite3.schema-4.bak"
        (saved,) = journal.open_tables()[0]
        assert saved.seats == [SavedSeat(0, "Bob", None, token_hash("b"), None)]
        assert saved.bans == []
        journal.for_table("2").banned(SavedBan("mallory", "192.0.2.66"))
        assert journal.open_tables()[0][0].bans == [SavedBan("mallory", "192.0.2.66")]
    finally:
        journal.close()
    fresh = tmp_path / "fresh.sqlite3"
    Journal.open(fresh).close()
    for table in ("seats", "bans"):  # migrated, the layout is a fresh file's
        assert _columns(old, table) == _columns(fresh, table)
    assert _indexes(old, "bans") == _indexes(fresh, "bans") == ["bans_by_table"]
