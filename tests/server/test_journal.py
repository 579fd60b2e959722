"""The journal file: private, held by one server, and never overwritten when damaged."""

from __future__ import annotations

import json
import sqlite3
import stat
from pathlib import Path

import pytest

from protocol.cards import Card
from protocol.commands import Draw, Play, Timeout
from protocol.options import TableConfig
from server.journal import Journal, JournalLocked, SavedSeat, token_hash
from server.journal_schema import MIGRATIONS
from server.ledger import standings_page
from server.passwords import hash_now


def test_the_file_and_its_folder_are_private(tmp_path: Path) -> None:
    path = tmp_path / "state" / "server.sqlite3"
    journal = Journal.open(path)
    try:
        journal.for_table("1").opened("Kitchen", TableConfig(seats=2), None, "10.0.0.2")
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
        # The journal and every file SQLite keeps beside it (the WAL, its index, the lock).
        beside = sorted(path.parent.iterdir())
        assert {file.name for file in beside} >= {
            "server.sqlite3",
            "server.sqlite3-wal",
            "server.sqlite3-shm",
            "server.sqlite3.lock",
        }
        for file in beside:
            assert stat.S_IMODE(file.stat().st_mode) == 0o600, file.name
    finally:
        journal.close()


def test_a_second_server_on_the_same_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    first = Journal.open(path)
    try:
        with pytest.raises(JournalLocked):
            Journal.open(path)
    finally:
        first.close()
    Journal.open(path).close()  # free again once the first has closed it


def test_the_history_is_read_while_the_server_holds_the_file(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    server = Journal.open(path)
    try:
        table = server.for_table("1")
        table.opened("Kitchen", TableConfig(seats=2), None, "10.0.0.2")
        table.match_started(1, 99, 0, 1, TableConfig(seats=2))
        reader = Journal.for_reading(path)
        try:
            assert reader.history() == []
            table.match_finished({"deck": "classic", "players": [], "winners": []})
            (match,) = reader.history()
            assert match["table"] == "Kitchen"
            reader.forget_history()  # a reset beside the server
            assert server.history() == []
            table.closed()  # and the server writes on
        finally:
            reader.close()
        with pytest.raises(JournalLocked):
            Journal.open(path)
    finally:
        server.close()


def test_a_damaged_file_is_kept_aside_and_a_fresh_one_started(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    path.write_bytes(b"this is not a database at all, but it is someone's file" * 100)
    journal = Journal.open(path)
    try:
        assert journal.damaged is not None and journal.damaged.read_bytes().startswith(b"this")
        assert journal.open_tables() == ([], [])
    finally:
        journal.close()


def test_what_a_table_writes_is_what_comes_back(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    journal = Journal.open(path)
    config = TableConfig(seats=2)
    table = journal.for_table("7")
    hashed = hash_now("secret")
    table.opened("Kitchen", config, hashed, "10.0.0.2", bot_think_ms=250)
    seats = [SavedSeat(0, "Ann", None, token_hash("t0")), SavedSeat(1, "Bot 1", "basic", None)]
    table.seats(seats, 0, config)
    table.match_started(1, 12345, 1000, 1, config)
    commands = [(0, Draw(), 1100), (None, Timeout(), 2000), (1, Play(Card.parse("R5")), 2100)]
    for actor, command, now_ms in commands:
        table.command(actor, command, now_ms)
    journal.close()

    again = Journal.open(path)
    try:
        (saved,), stale = again.open_tables()
        assert stale == []
        assert (saved.table_id, saved.name, saved.password_hash, saved.created_from) == (
            "7",
            "Kitchen",
            hashed,
            "10.0.0.2",
        )
        assert saved.seats == seats and saved.host == 0 and saved.config == config
        assert saved.bot_think_ms == 250
        assert saved.match is not None and saved.match.seed == 12345
        assert saved.match.commands == commands
        assert again.next_table_number() == 7
        again.for_table("7").closed()
        assert again.open_tables() == ([], [])
    finally:
        again.close()


SCHEMA_1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE tables (
    table_id TEXT PRIMARY KEY, name TEXT NOT NULL, config TEXT NOT NULL,
    password TEXT, created_from TEXT NOT NULL, host INTEGER, open INTEGER NOT NULL DEFAULT 1,
    engine TEXT NOT NULL);
CREATE TABLE seats (
    table_id TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, strategy TEXT,
    token_hash TEXT, PRIMARY KEY (table_id, seat));
CREATE TABLE matches (
    table_id TEXT NOT NULL, number INTEGER NOT NULL, seed TEXT NOT NULL,
    start_ms INTEGER NOT NULL, first_seq INTEGER NOT NULL, config TEXT NOT NULL,
    finished_at REAL, result TEXT, PRIMARY KEY (table_id, number));
CREATE TABLE commands (
    table_id TEXT NOT NULL, number INTEGER NOT NULL, position INTEGER NOT NULL,
    actor INTEGER, command TEXT NOT NULL, now_ms INTEGER NOT NULL,
    PRIMARY KEY (table_id, number, position));
INSERT INTO meta VALUES ('schema', '1');
"""
"""The layout the first release with a journal wrote."""


def a_schema_1_file(path: Path) -> None:
    """A journal as the first release left it: a finished match and an open table."""
    config = json.dumps(TableConfig(seats=2).to_data())
    result = {"deck": "classic", "players": [{"name": "Ann", "bot": False, "score": 520}]}
    result["winners"] = ["Ann"]
    db = sqlite3.connect(path)
    with db:
        db.executescript(SCHEMA_1)
        db.execute("INSERT INTO tables VALUES ('1', 'Old', ?, NULL, 'x', 0, 0, ?)", (config, "1"))
        db.execute(
            "INSERT INTO matches VALUES ('1', 1, '5', 0, 1, ?, 1000.0, ?)",
            (config, json.dumps(result)),
        )
        db.execute("INSERT INTO tables VALUES ('2', 'Open', ?, NULL, 'x', 0, 1, ?)", (config, "1"))
        db.execute("INSERT INTO seats VALUES ('2', 0, 'Bob', NULL, NULL)")
        db.execute("INSERT INTO matches VALUES ('2', 1, '9', 0, 1, ?, NULL, NULL)", (config,))
    db.close()


def test_an_older_file_is_copied_then_migrated_in_place(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    a_schema_1_file(path)
    journal = Journal.open(path)
    try:
        assert journal.migrated == tmp_path / "server.sqlite3.schema-1.bak"
        ((match,), (saved,)) = journal.history(), journal.open_tables()[0]
        assert match["winners"] == ["Ann"] and match["table"] == "Old"
        assert saved.table_id == "2" and saved.match is not None and saved.match.seed == 9
        assert saved.bot_think_ms is None  # a table of before the pace: the server's own
        table = journal.for_table("2")
        table.resumed_match(1, 0)
        table.round_scores([40, 0])  # the new layout's column is there
    finally:
        journal.close()
    copy = sqlite3.connect(tmp_path / "server.sqlite3.schema-1.bak")
    try:
        assert copy.execute("SELECT value FROM meta").fetchone() == ("1",)
        assert copy.execute("SELECT COUNT(*) FROM matches").fetchone() == (2,)
    finally:
        copy.close()
    again = Journal.open(path)  # migrated once: no second copy
    try:
        assert again.migrated is None and len(again.history()) == 1
    finally:
        again.close()


def test_a_schema_2_file_gains_the_bot_pace_and_keeps_its_tables(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    a_schema_1_file(path)
    db = sqlite3.connect(path)
    with db:  # as the release with match scores (schema 2) left it
        db.execute("ALTER TABLE matches ADD COLUMN scores TEXT")
        db.execute("UPDATE meta SET value = '2' WHERE key = 'schema'")
    db.close()
    journal = Journal.open(path)
    try:
        assert journal.migrated == tmp_path / "server.sqlite3.schema-2.bak"
        (saved,) = journal.open_tables()[0]
        assert saved.table_id == "2" and saved.bot_think_ms is None
        journal.for_table("3").opened("New", TableConfig(seats=2), None, "x", bot_think_ms=40)
        assert journal.open_tables()[0][1].bot_think_ms == 40
    finally:
        journal.close()


def test_a_schema_3_file_keeps_its_commands_in_key_order(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    a_schema_1_file(path)
    db = sqlite3.connect(path)
    with db:  # as the release with the bot pace (schema 3) left it, a move played
        db.execute("ALTER TABLE matches ADD COLUMN scores TEXT")
        db.execute("ALTER TABLE tables ADD COLUMN bot_think_ms INTEGER")
        db.execute(
            "INSERT INTO commands VALUES ('2', 1, 1, 0, ?, 250)", (json.dumps({"type": "draw"}),)
        )
        db.execute("UPDATE meta SET value = '3' WHERE key = 'schema'")
    db.close()
    journal = Journal.open(path)
    try:
        assert journal.migrated == tmp_path / "server.sqlite3.schema-3.bak"
        (saved,) = journal.open_tables()[0]
        assert saved.match is not None and saved.match.commands == [(0, Draw(), 250)]
        table = journal.for_table("2")
        table.resumed_match(1, 1)
        table.command(1, Draw(), 400)  # written after the one the old file held
    finally:
        journal.close()
    db = sqlite3.connect(path)
    try:
        (layout,) = db.execute("SELECT sql FROM sqlite_master WHERE name = 'commands'").fetchone()
        assert "WITHOUT ROWID" in layout
        assert db.execute("SELECT position, now_ms FROM commands").fetchall() == [
            (1, 250),
            (2, 400),
        ]
    finally:
        db.close()


def test_an_open_match_of_another_engine_is_closed_with_its_scores_kept(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    journal = Journal.open(path)
    config = TableConfig(seats=2)
    table = journal.for_table("3")
    table.opened("Kitchen", config, None, "10.0.0.2")
    table.seats(
        [SavedSeat(0, "Ann", None, token_hash("t")), SavedSeat(1, "Bot 1", "basic", None)],
        0,
        config,
    )
    table.match_started(1, 77, 0, 1, config)
    table.command(0, Draw(), 100)
    table.round_scores([0, 35])
    journal.close()
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE tables SET engine = '0'")  # as an older release wrote it
    db.close()

    again = Journal.open(path)
    try:
        assert again.open_tables() == ([], ["3"])
        (match,) = again.history()
        assert match["winners"] == [] and "upgraded" in match["note"]
        assert match["players"] == [
            {"name": "Ann", "bot": False, "score": 0},
            {"name": "Bot 1", "bot": True, "score": 35},
        ]
        assert again.open_tables() == ([], [])  # closed for good
    finally:
        again.close()


def test_uno_server_history_migrates_an_older_file_no_server_holds(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    a_schema_1_file(path)
    reader = Journal.for_reading(path)
    try:
        assert reader.migrated is not None and reader.migrated.exists()
        assert [match["table"] for match in reader.history()] == ["Old"]
    finally:
        reader.close()


def a_schema_4_file(path: Path) -> None:
    """A journal as the release before stable match ids left it: the schema-1 file moved on
    to schema 4 (scores, bot pace, commands in key order), a second finished match
    (José, not Jose), a move of the open match, and the orphan commands an old
    ``history --reset`` left behind."""
    a_schema_1_file(path)
    config = json.dumps(TableConfig(seats=2).to_data())
    result = {
        "deck": "classic",
        "players": [
            {"name": "Jos\u00e9", "bot": False, "score": 80},
            {"name": "ann", "bot": False, "score": 0},
        ],
        "winners": ["Jos\u00e9"],
    }
    db = sqlite3.connect(path)
    with db:
        db.execute("ALTER TABLE matches ADD COLUMN scores TEXT")
        db.execute("ALTER TABLE tables ADD COLUMN bot_think_ms INTEGER")
        for statement in MIGRATIONS[3]:
            assert isinstance(statement, str)
            db.execute(statement)
        db.execute(
            "INSERT INTO matches VALUES ('1', 2, '6', 0, 1, ?, 2000.0, ?, NULL)",
            (config, json.dumps(result)),
        )
        draw = json.dumps({"type": "draw"})
        db.execute("INSERT INTO commands VALUES ('2', 1, 1, 0, ?, 250)", (draw,))
        db.execute("INSERT INTO commands VALUES ('9', 1, 1, 0, ?, 250)", (draw,))  # orphan
        db.execute("UPDATE meta SET value = '4' WHERE key = 'schema'")
    db.close()


def test_a_schema_4_file_gains_match_ids_and_standings_with_its_history_intact(
    tmp_path: Path,
) -> None:
    path = tmp_path / "server.sqlite3"
    a_schema_4_file(path)
    journal = Journal.open(path)
    try:
        assert journal.migrated == tmp_path / "server.sqlite3.schema-4.bak"
        history = journal.history()
        # Ids in the order the matches finished; the open match after them.
        assert [(m["match_id"], m["winners"]) for m in history] == [
            (2, ["Jos\u00e9"]),
            (1, ["Ann"]),
        ]
        (saved,) = journal.open_tables()[0]
        assert saved.match is not None and saved.match.commands == [(0, Draw(), 250)]
        db = journal.connection
        board, _ = standings_page(db, week_of=None, offset=0, limit=-1)
        assert [(s.name, s.matches, s.wins, s.points) for s in board] == [
            ("ann", 2, 1, 520),  # Ann and ann are one person, shown by the latest name
            ("Jos\u00e9", 1, 1, 80),
        ]
        assert db.execute("SELECT COUNT(*) FROM commands").fetchone() == (1,)  # no orphan
        assert db.execute("PRAGMA auto_vacuum").fetchone() == (2,)  # INCREMENTAL
        # The next match gets a fresh id, above every id given before.
        table = journal.for_table("2")
        table.resumed_match(1, 1)
        table.match_finished({"deck": "classic", "players": [], "winners": []})
        assert journal.history()[0]["match_id"] == 3
    finally:
        journal.close()
    again = Journal.open(path)  # counted once: opening again counts nothing twice
    try:
        board, _ = standings_page(again.connection, week_of=None, offset=0, limit=-1)
        assert [s.matches for s in board] == [2, 1]
    finally:
        again.close()


def test_a_fresh_file_gives_pages_back_and_a_reset_empties_and_shrinks_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "server.sqlite3"
    journal = Journal.open(path)
    try:
        assert journal.connection.execute("PRAGMA auto_vacuum").fetchone() == (2,)
        config = TableConfig(seats=2)
        players = [{"name": f"p{n}", "bot": False, "score": n} for n in range(2)]
        for number in range(1, 301):
            table = journal.for_table(str(number))
            table.opened("Den", config, None, "10.0.0.2")
            table.match_started(1, number, 0, 1, config)
            for position in range(40):
                table.command(position % 2, Draw(), position)
            table.match_finished({"deck": "classic", "players": players, "winners": ["p1"]})
            table.closed()
        open_table = journal.for_table("301")
        open_table.opened("Open", config, None, "10.0.0.2")
        open_table.match_started(1, 5, 0, 1, config)
        open_table.command(0, Draw(), 10)
        journal.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        full = path.stat().st_size
        reader = Journal.for_reading(path)  # beside the server, as the command line does
        try:
            reader.forget_history()
        finally:
            reader.close()
        db = journal.connection
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        assert journal.history() == []
        assert standings_page(db, week_of=None, offset=0, limit=-1) == ([], False)
        for table_name in ("players", "player_keys", "player_days"):
            assert db.execute(f"SELECT COUNT(*) FROM {table_name}").fetchone() == (0,)
        # The open table's match is whole; every other command went with its match.
        assert db.execute("SELECT table_id, number FROM commands").fetchall() == [("301", 1)]
        assert journal.open_tables()[0][0].match is not None
        assert path.stat().st_size < full / 4, (path.stat().st_size, full)
    finally:
        journal.close()
