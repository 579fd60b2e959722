"""Table passwords: salted scrypt hashes, compared in constant time, gone with their table,
and after the upgrade no password left as written anywhere on disk."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import trio
from journal_layouts import write_schema_4
from test_table_rig import FakePeer, create, journaled_lobby, ok, open_lobby, refused

from protocol.messages import Join, ResumeSeat, TakeBotSeat
from protocol.options import TableConfig
from server.journal import Journal
from server.journal_schema import backup_path
from server.passwords import N, P, R, check_now, hash_now, is_password_hash
from server.settings import LobbySettings

SECRET = "correct-horse-battery-7731"
OTHER = "closed-table-words-0412"
CONFIG = TableConfig(seats=2)


def test_a_hash_names_its_parameters_and_salt_and_checks_only_its_password() -> None:
    first, second = hash_now(SECRET), hash_now(SECRET)
    scheme, n, r, p, _salt, _key = first.split("$")
    assert (scheme, int(n), int(r), int(p)) == ("scrypt", N, R, P) == ("scrypt", 2**14, 8, 1)
    assert first != second  # a fresh salt each time
    assert SECRET not in first
    assert check_now(SECRET, first) and check_now(SECRET, second)
    assert not check_now(SECRET[:-1], first) and not check_now("", first)
    assert is_password_hash(first) and not is_password_hash(SECRET)
    assert not check_now(SECRET, SECRET)  # a stored form it cannot read matches nothing


async def test_a_table_holds_only_the_hash_and_the_lobby_checks_guesses_against_it(
    nursery: trio.Nursery,
) -> None:
    lobby = await open_lobby(nursery)
    table = await create(lobby, FakePeer("Ann"), password=SECRET, seats=3)
    stored = table.seating.password_hash
    assert stored is not None and SECRET not in stored and check_now(SECRET, stored)
    tid = table.table_id
    eve = FakePeer("Eve")
    for guess in (None, SECRET.upper(), SECRET[:-1], SECRET + "x"):

        def join(i: int, g: str | None = guess) -> Join:
            return Join(id=i, table_id=tid, password=g)

        assert await refused(lobby, eve, join) == "wrong-password"
    take = await refused(
        lobby, eve, lambda i: TakeBotSeat(id=i, table_id=tid, seat=2, password="no")
    )
    assert take == "wrong-password"
    await ok(lobby, FakePeer("Bob"), lambda i: Join(id=i, table_id=tid, password=SECRET))


async def test_a_rebuilt_table_still_needs_its_password(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    async with journaled_lobby(path, LobbySettings(seed=1)) as lobby:
        ann = FakePeer("Ann")
        table_id = (await create(lobby, ann, password=SECRET, seats=3)).table_id
        token = ann.token
        assert token is not None
    assert SECRET.encode() not in _every_byte(tmp_path)
    async with journaled_lobby(path, LobbySettings(seed=1)) as lobby:
        await ok(lobby, FakePeer("Ann"), lambda i: ResumeSeat(id=i, token=token, last_seq=0))
        guess = await refused(
            lobby, FakePeer("Eve"), lambda i: Join(id=i, table_id=table_id, password="no")
        )
        assert guess == "wrong-password"
        await ok(lobby, FakePeer("Bob"), lambda i: Join(id=i, table_id=table_id, password=SECRET))


def test_a_closed_table_keeps_no_password(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    journal = Journal.open(path)
    try:
        hashed = hash_now(SECRET)
        table = journal.open_table("1", "Den", CONFIG, password_hash=hashed, created_from="x")
        assert table is not None
        ((saved,), _) = journal.open_tables()
        assert saved.password_hash == hashed and check_now(SECRET, saved.password_hash)
        table.closed()
    finally:
        journal.close()
    db = sqlite3.connect(path)
    try:
        assert db.execute("SELECT password FROM tables").fetchall() == [(None,)]
    finally:
        db.close()
    assert hashed.encode() not in _every_byte(tmp_path)


def a_schema_4_file(path: Path) -> None:
    """A journal as the release before hashed passwords left it: an open table and a
    closed one, both with their passwords as written, a third row deleted (its bytes linger
    in the file's free space), and a backup from an earlier upgrade."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA secure_delete = OFF")  # as SQLite is built on many systems
    with db:
        write_schema_4(db)
        config = '{"seats": 2}'
        for table_id, words, is_open in (("1", SECRET, 1), ("2", OTHER, 0)):
            db.execute(
                "INSERT INTO tables (table_id, name, config, password, created_from, open,"
                " engine) VALUES (?, 'T', ?, ?, 'x', ?, '1')",
                (table_id, config, words, is_open),
            )
        # A row replaced, as the old release's INSERT OR REPLACE did: its bytes stay behind.
        db.execute(
            "INSERT INTO tables (table_id, name, config, password, created_from, open, engine)"
            " VALUES ('9', 'Gone', ?, ?, 'x', 1, '1')",
            (config, SECRET),
        )
        db.execute("DELETE FROM tables WHERE table_id = '9'")
    db.close()
    older = sqlite3.connect(backup_path(path, 2))  # an earlier upgrade's copy
    sqlite3.connect(path).backup(older)
    with older:
        older.execute("UPDATE meta SET value = '2' WHERE key = 'schema'")
    older.close()


def _every_byte(folder: Path) -> bytes:
    return b"".join(file.read_bytes() for file in sorted(folder.iterdir()) if file.is_file())


def test_after_the_upgrade_no_password_is_left_as_written_on_disk(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    a_schema_4_file(path)
    assert SECRET.encode() in _every_byte(tmp_path)  # the test is not vacuous
    journal = Journal.open(path)
    try:
        assert journal.migrated == tmp_path / "server.sqlite3.schema-4.bak"
        ((saved,), _) = journal.open_tables()
        assert saved.password_hash is not None and check_now(SECRET, saved.password_hash)
        # The file, its -wal, the copy this upgrade made and the older one: all read raw.
        beside = {file.name for file in tmp_path.iterdir()}
        assert {"server.sqlite3", "server.sqlite3-wal", "server.sqlite3.schema-2.bak"} <= beside
        raw = _every_byte(tmp_path)
        assert SECRET.encode() not in raw and OTHER.encode() not in raw
    finally:
        journal.close()
    raw = _every_byte(tmp_path)
    assert SECRET.encode() not in raw and OTHER.encode() not in raw
    for copy in (
        tmp_path / "server.sqlite3.schema-4.bak",
        tmp_path / "server.sqlite3.schema-2.bak",
    ):
        db = sqlite3.connect(copy)
        try:
            rows = dict(db.execute("SELECT table_id, password FROM tables").fetchall())
        finally:
            db.close()
        assert rows["2"] is None and check_now(SECRET, rows["1"]), copy.name
    again = Journal.open(path)  # the copies, restored, migrate to the same hashes
    try:
        assert again.migrated is None
    finally:
        again.close()
