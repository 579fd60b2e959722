"""The journal file: private, held by one server, and never overwritten when damaged."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from protocol.cards import Card
from protocol.commands import Draw, Play, Timeout
from protocol.options import TableConfig
from server.journal import Journal, JournalLocked, SavedSeat, token_hash


def test_the_file_and_its_folder_are_private(tmp_path: Path) -> None:
    path = tmp_path / "state" / "server.sqlite3"
    journal = Journal.open(path)
    try:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
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
    table.opened("Kitchen", config, "secret", "10.0.0.2")
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
        assert (saved.table_id, saved.name, saved.password, saved.created_from) == (
            "7",
            "Kitchen",
            "secret",
            "10.0.0.2",
        )
        assert saved.seats == seats and saved.host == 0 and saved.config == config
        assert saved.match is not None and saved.match.seed == 12345
        assert saved.match.commands == commands
        assert again.next_table_number() == 7
        again.for_table("7").closed()
        assert again.open_tables() == ([], [])
    finally:
        again.close()
