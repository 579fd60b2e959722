"""The journal: every open table on disk, so a server that restarts carries on its matches.

One SQLite file (the standard library's ``sqlite3``, WAL mode) holds each open table's
settings and seats, each match's seed and every command the engine accepted, with its
server time. The engine is deterministic, so that is enough: a restart replays each open
match from its seed (``server.table.restore``). Finished matches stay in the same file as
the history, with the standings counted as each one finishes (``server.ledger``), for as
long as the retention keeps them (``server.retention``). Resume tokens and table passwords
are kept only as hashes; a closed table keeps no password.

A command is written (and committed) before any event of it leaves the server, so a crash
loses only moves nobody was told about. ``synchronous=NORMAL`` with WAL: a commit survives
the process being killed; a power cut may lose the last commits (those since the last
checkpoint), never the file's consistency.

One server holds the file: it keeps a lock file beside it (``server.journal_lock``), and a second
server on the same file gets ``JournalLocked``; ``uno-server history`` reads the file
beside the running server (``Journal.for_reading``). A file that cannot be read as a
journal is moved aside (never overwritten) and a fresh one started; one that can be read
but not written (a read-only or immutable file, a read-only folder, a full disk) raises
``JournalUnwritable`` at start. The layout of the tables, and its migration from older
releases, is ``server.journal_schema``.

A write that fails once the server runs (the disk full, an I/O error) costs no table and
no connection. Every table open at that moment plays on in memory but is no longer
journaled move by move: its log would have a hole, and a log with a hole would rebuild a
wrong table. So no command of such a table is written again, and the file is told, in one
statement, that its open tables are no longer rebuildable (``tables.rebuildable = 0``;
``server.journal_reserve`` keeps room for that note on a full disk, and its absence at
start says the same when even the note could not be written). On start such a table is
closed into the history with the scores of its last round written, never rebuilt. Until a
write succeeds again (``open_table`` tries one), new tables are refused; the lobby is
told of the failure through ``on_failure``.

Why this module is long: it is every read and write of the file, each one SQL statement
or a few beside the record it fills; the lock and the schema are modules of their own.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import secrets
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from protocol.commands import Command, command_from_data
from protocol.messages import MatchNote
from protocol.options import TableConfig
from protocol.replay_file import Replay
from server.defaults import default_state_path
from server.journal_lock import JournalLocked, create_private, hold_lock
from server.journal_reserve import JournalReserve
from server.journal_schema import SCHEMA_VERSION, prepare, schema_of, scrub_plaintext
from server.ledger import count_history, count_match, forget_standings, match_page
from server.match_notes import NOTE_WORDS
from server.replay_rows import read_match_replay, write_part
from server.retention import Retention, clean_step, give_pages_back

__all__ = [
    "ENGINE_VERSION",
    "Journal",
    "JournalLocked",
    "JournalUnwritable",
    "SavedBan",
    "SavedMatch",
    "SavedSeat",
    "SavedTable",
    "TableJournal",
    "default_state_path",
    "token_hash",
]

log = logging.getLogger("uno.server.journal")

ENGINE_VERSION = "1"
"""Bump when a change to the engine would replay an old command log differently: open
matches written by another engine version are closed on start, not replayed."""


UNWRITTEN_NOTE = (
    NOTE_WORDS[MatchNote.JOURNAL_UNWRITTEN]
    + " (a full disk?); the scores are those after the last finished round it wrote"
)
"""The history's note on a table closed on start because its journal writes failed."""


class JournalUnwritable(Exception):
    """The journal can be read but not written (read-only, immutable, or no room)."""


_FILE_FAILURES = frozenset(
    {
        sqlite3.SQLITE_FULL,
        sqlite3.SQLITE_IOERR,
        sqlite3.SQLITE_READONLY,
        sqlite3.SQLITE_BUSY,
        sqlite3.SQLITE_LOCKED,
        sqlite3.SQLITE_CANTOPEN,
        sqlite3.SQLITE_CORRUPT,
        sqlite3.SQLITE_NOTADB,
        sqlite3.SQLITE_PERM,
        sqlite3.SQLITE_NOMEM,
        sqlite3.SQLITE_PROTOCOL,
    }
)
"""SQLite's primary result codes for the file (or the machine) failing a write."""


def _is_write_failure(error: sqlite3.Error) -> bool:
    """Whether ``error`` is the file failing (full, read-only, I/O, busy, damaged) rather
    than a statement of ours being wrong (no such table, a syntax error, a constraint:
    those stay bugs and are raised)."""
    code = getattr(error, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in _FILE_FAILURES


def _is_damage(error: sqlite3.DatabaseError) -> bool:
    """Whether opening failed because the file is no journal: not a database, damaged, or
    a layout this release does not know (raised by the schema, with no SQLite code)."""
    code = getattr(error, "sqlite_errorcode", None)
    return code is None or code & 0xFF in (sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT)


CACHE_KIB = 2048
"""The page cache of each connection to the file (``PRAGMA cache_size``), in KiB: SQLite's
default size, set so that the server's memory does not follow the file's size."""

WAL_LIMIT_BYTES = 4 * 1024 * 1024
"""What the write-ahead log is cut back to after a checkpoint (``journal_size_limit``)."""


def tune(db: sqlite3.Connection) -> None:
    """The settings every connection to the journal uses: a bounded page cache, a
    bounded log."""
    db.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
    db.execute(f"PRAGMA journal_size_limit={WAL_LIMIT_BYTES}")


def token_hash(token: str) -> str:
    """What the journal (and a seat) keeps of a resume token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class SavedSeat:
    """One occupied chair as the journal holds it."""

    seat: int
    name: str
    strategy: str | None
    token_hash: str | None
    address: str | None = None
    """Where a person's seat last came from (a ban of the seat covers it)."""


@dataclass(frozen=True, slots=True)
class SavedBan:
    """One ban of an open table: the name as it was, and the address kept out (None: the
    name alone)."""

    name: str
    address: str | None


@dataclass(frozen=True, slots=True)
class SavedMatch:
    """One match: what replays it."""

    number: int
    seed: int
    start_ms: int
    first_seq: int
    """The table's number of the match's first event."""
    config: TableConfig
    commands: list[tuple[int | None, Command, int]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class SavedTable:
    """An open table as the journal holds it."""

    table_id: str
    name: str
    config: TableConfig
    password_hash: str | None
    """The password's stored hash (``server.passwords``); None for an open table."""
    created_from: str
    host: int | None
    """The owner's seat (who holds the host role for good; a role lent is not kept)."""
    seats: list[SavedSeat]
    matches_played: int
    match: SavedMatch | None
    """The latest match, if it is still to be replayed."""
    bot_think_ms: int | None = None
    """The host's pace for the server bots; None for the server's default."""
    bans: list[SavedBan] = field(default_factory=list)
    """The table's bans, in the order they were given."""


class Journal:
    """The journal file; see the module docstring. Every call commits before it returns."""

    def __init__(self, connection: sqlite3.Connection, path: Path | None) -> None:
        self._db = connection
        self.path = path
        self._reserve = JournalReserve(path) if path is not None else None
        self.writable = True
        """False from a failed write until ``open_table`` finds writes work again."""
        self.failures = 0
        """How many times writes have begun to fail (a table journaled before the latest
        is no longer rebuildable)."""
        self._mark_owed = False  # the open tables' rebuildable = 0 is not in the file yet
        self.on_failure: Callable[[], None] | None = None
        """Called once each time writes begin to fail (the lobby tells its tables)."""

    @classmethod
    def open(cls, path: Path, *, page_limit: int | None = None) -> Journal:
        """The journal at ``path`` (created with its folder, private to this user), held by
        this server; raises JournalLocked if another server holds it, JournalUnwritable if
        it cannot be written. ``page_limit`` caps the file at that many pages (SQLite's
        ``max_page_count``): for tests, which fill the journal with it."""
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        lock = hold_lock(path)
        try:
            journal = cls._open_held(path)
            journal._start_writing(page_limit)
        except BaseException:
            lock.close()
            raise
        journal._lock = lock
        return journal

    @classmethod
    def _open_held(cls, path: Path) -> Journal:
        create_private(path)
        try:
            journal = cls._connect(path)
        except sqlite3.DatabaseError as error:
            if "locked" in str(error):  # someone resetting the history this very moment
                raise JournalLocked(f"{path} is busy; try again") from None
            if not _is_damage(error):
                raise JournalUnwritable(str(error)) from None
            aside = path.with_name(f"{path.name}.damaged-{int(time.time())}")
            path.rename(aside)
            create_private(path)
            journal = cls._connect(path)
            journal.damaged = aside
        return journal

    def _start_writing(self, page_limit: int | None) -> None:
        """Make sure the file can be written, before any table counts on it: if the last
        server's writes failed for good (its reserve is gone), close its open tables
        instead of rebuilding them; make the reserve; write once."""
        reserve = self._reserve
        assert reserve is not None
        db = self._db
        try:
            kept = db.execute("SELECT 1 FROM meta WHERE key = 'reserve'").fetchone()
            if kept is not None and not reserve.exists():
                log.warning("the last server could not write its journal: its tables are closed")
                db.execute("UPDATE tables SET rebuildable = 0 WHERE open = 1")
            if not reserve.make():
                raise JournalUnwritable(f"no room on its disk for {reserve.path.name}")
            db.execute("INSERT OR REPLACE INTO meta VALUES ('reserve', ?)", (str(time.time()),))
        except sqlite3.Error as error:
            if not _is_write_failure(error):
                raise
            raise JournalUnwritable(str(error)) from None
        if page_limit is not None:
            db.execute(f"PRAGMA max_page_count = {int(page_limit)}")

    @classmethod
    def for_reading(cls, path: Path) -> Journal:
        """The journal at ``path`` (which exists) for ``uno-server history``, beside the
        server that may hold it: no lock is taken, and WAL lets this connection read (or
        reset the history) while the server writes."""
        db = sqlite3.connect(str(path), isolation_level=None, timeout=5.0)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            version = schema_of(db)
        except BaseException:
            db.close()
            raise
        db.close()
        if version is not None and version < SCHEMA_VERSION:
            return cls.open(path)  # no server runs on it (it would have migrated it)
        if version != SCHEMA_VERSION:
            raise sqlite3.DatabaseError(f"{path} holds no journal this release can read")
        db = sqlite3.connect(str(path), isolation_level=None, timeout=5.0)
        tune(db)
        return cls(db, path)

    @classmethod
    def in_memory(cls) -> Journal:
        """A journal that lives only as long as the process (for tests)."""
        return cls._connect(None)

    @classmethod
    def _connect(cls, path: Path | None) -> Journal:
        where = str(path) if path is not None else ":memory:"
        db = sqlite3.connect(where, isolation_level=None, timeout=2.0)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            tune(db)
            # What a statement deletes (a closed table's password hash) is zeroed, not
            # left in the file's free space (many builds of SQLite do not by default).
            db.execute("PRAGMA secure_delete=ON")
            migrated = prepare(db, path)
            scrub_plaintext(db, path)
            _count_old_history(db)
        except BaseException:
            db.close()
            raise
        journal = cls(db, path)
        journal.migrated = migrated
        return journal

    damaged: Path | None = None
    """Where a damaged file was moved aside when this journal was opened, if one was."""
    migrated: Path | None = None
    """The copy made before an older file was migrated when it was opened, if one was."""

    _lock: sqlite3.Connection | None = None

    def close(self) -> None:
        if self._mark_owed:
            self._write_mark()
        self._db.close()
        if self._lock is not None:
            self._lock.close()

    def for_table(self, table_id: str) -> TableJournal:
        """What table ``table_id`` writes; a rebuilt table's, or one just ``opened``."""
        return TableJournal(self, table_id)

    def open_table(
        self,
        table_id: str,
        name: str,
        config: TableConfig,
        *,
        password_hash: str | None,
        created_from: str,
        bot_think_ms: int | None = None,
    ) -> TableJournal | None:
        """A new table, written; None if the journal cannot take one now (writes fail).
        After a failure this is the probe: the note on the open tables, the reserve and
        the new table's row must all be written before writes count as working again."""
        if not self.writable:
            if self._mark_owed and not self._write_mark():
                return None
            if self._reserve is not None and not self._reserve.make():
                return None
        table = self.for_table(table_id)
        if not table.opened(name, config, password_hash, created_from, bot_think_ms):
            return None
        if not self.writable:
            self.writable = True
            log.warning("the journal is written again: new tables are kept in it")
        return table

    def _write(self, sql: str, row: tuple[Any, ...]) -> None:
        """One statement, committed on its own (the connection is in autocommit mode)."""
        self._db.execute(sql, row)

    def _attempt(self, write: Callable[[], object]) -> bool:
        """Carry out a table's ``write``; False, with the failure handled (module
        docstring), when the file refuses it."""
        if self._mark_owed:
            self._write_mark()
        try:
            write()
        except sqlite3.Error as error:
            if not _is_write_failure(error):
                raise
            self._failed(error)
            return False
        return True

    def _failed(self, error: sqlite3.Error) -> None:
        if not self.writable:
            return  # failing already: the open tables are marked, or will be
        self.writable = False
        self.failures += 1
        self._mark_owed = True
        log.warning(
            "the journal cannot be written (%s): the open tables play on but will not "
            "survive a restart, and new tables are refused until it can",
            error,
        )
        if self._reserve is not None:
            self._reserve.spend()  # room for the note on a full disk, and a note of its own
        self._write_mark()
        if self.on_failure is not None:
            self.on_failure()

    def _write_mark(self) -> bool:
        """Note in the file that every open table is no longer rebuildable; an UPDATE in
        place, so it needs no new page even when the file may not grow."""
        try:
            self._db.execute("UPDATE tables SET rebuildable = 0 WHERE open = 1 AND rebuildable")
        except sqlite3.Error as error:
            if not _is_write_failure(error):
                raise
            return False
        self._mark_owed = False
        return True

    # ------------------------------------------------------------------ reading back

    def open_tables(self) -> tuple[list[SavedTable], list[str]]:
        """Every open table to rebuild, and the ids of those that cannot be replayed
        faithfully, closed now into the history: written by another engine version, or
        no longer rebuildable (a write of theirs failed)."""
        db = self._db
        tables: list[SavedTable] = []
        stale: list[str] = []
        unwritten: list[str] = []
        rows = db.execute(
            "SELECT table_id, name, config, password, created_from, host, engine, bot_think_ms,"
            " rebuildable FROM tables WHERE open = 1 ORDER BY CAST(table_id AS INTEGER)"
        ).fetchall()
        for table_id, name, config, password, created_from, host, engine, think_ms, whole in rows:
            if engine != ENGINE_VERSION:
                stale.append(table_id)
                continue
            if not whole:
                unwritten.append(table_id)
                continue
            seats = [
                SavedSeat(*row)
                for row in db.execute(
                    "SELECT seat, name, strategy, token_hash, address FROM seats"
                    " WHERE table_id = ? ORDER BY seat",
                    (table_id,),
                )
            ]
            bans = [
                SavedBan(*row)
                for row in db.execute(
                    "SELECT name, address FROM bans WHERE table_id = ? ORDER BY rowid",
                    (table_id,),
                )
            ]
            played, match = self._latest_match(table_id)
            tables.append(
                SavedTable(
                    table_id=table_id,
                    name=name,
                    config=TableConfig.from_data(json.loads(config)),
                    password_hash=password,
                    created_from=created_from,
                    host=host,
                    seats=seats,
                    matches_played=played,
                    match=match,
                    bot_think_ms=think_ms,
                    bans=bans,
                )
            )
        for table_id in stale:
            self._close_stale(table_id)
        for table_id in unwritten:
            self.close_unfinished(table_id, UNWRITTEN_NOTE)
        return tables, stale + unwritten

    def _close_stale(self, table_id: str) -> None:
        """Close a table written by another engine version (see ``close_unfinished``)."""
        engine = self._db.execute(
            "SELECT engine FROM tables WHERE table_id = ?", (table_id,)
        ).fetchone()[0]
        note = (
            f"{NOTE_WORDS[MatchNote.SERVER_UPGRADED]} (engine {engine} to {ENGINE_VERSION});"
            " the scores are those after the last finished round"
        )
        self.close_unfinished(table_id, note)

    def close_unfinished(self, table_id: str, note: str) -> None:
        """Close a table for good: its unfinished match goes into the history with the
        scores of its last finished round, no winner, and ``note`` saying why."""
        db = self._db
        (config,) = db.execute(
            "SELECT config FROM tables WHERE table_id = ?", (table_id,)
        ).fetchone()
        row = db.execute(
            "SELECT number, scores FROM matches WHERE table_id = ? AND result IS NULL"
            " ORDER BY number DESC LIMIT 1",
            (table_id,),
        ).fetchone()
        with db:
            db.execute("BEGIN")
            if row is not None:
                number, scores_text = row
                scores = json.loads(scores_text) if scores_text else []
                seats = db.execute(
                    "SELECT seat, name, strategy FROM seats WHERE table_id = ? ORDER BY seat",
                    (table_id,),
                ).fetchall()
                finished_at = time.time()
                result = {
                    "deck": json.loads(config).get("deck", "classic"),
                    "players": [
                        {
                            "name": name,
                            "bot": strategy is not None,
                            "score": scores[seat] if seat < len(scores) else 0,
                        }
                        for seat, name, strategy in seats
                    ],
                    "winners": [],
                    "note": note,
                }
                # Nobody can tell now who played its moves: kept as a match of people.
                people = any(strategy is None for _, _, strategy in seats)
                db.execute(
                    "UPDATE matches SET finished_at = ?, result = ?, people = ?"
                    " WHERE table_id = ? AND number = ?",
                    (finished_at, json.dumps(result), int(people), table_id, number),
                )
                count_match(db, result, finished_at)
            _close_table(db, table_id)

    def _latest_match(self, table_id: str) -> tuple[int, SavedMatch | None]:
        row = self._db.execute(
            "SELECT number, seed, start_ms, first_seq, config FROM matches"
            " WHERE table_id = ? ORDER BY number DESC LIMIT 1",
            (table_id,),
        ).fetchone()
        if row is None:
            return 0, None
        number, seed, start_ms, first_seq, config = row
        commands = [
            (actor, command_from_data(json.loads(command)), now_ms)
            for actor, command, now_ms in self._db.execute(
                "SELECT actor, command, now_ms FROM commands"
                " WHERE table_id = ? AND number = ? ORDER BY position",
                (table_id, number),
            )
        ]
        saved = SavedMatch(
            number=number,
            seed=int(seed),
            start_ms=start_ms,
            first_seq=first_seq,
            config=TableConfig.from_data(json.loads(config)),
            commands=commands,
        )
        return number, saved

    def history(self, *, before: int | None = None, limit: int = -1) -> list[dict[str, Any]]:
        """Finished matches, the latest first (``server.ledger.match_page``)."""
        return match_page(self._db, before=before, limit=limit)

    def replay(self, match_id: int) -> Replay | None:
        """The public record of finished match ``match_id`` (``server.replay_rows``);
        None if none is kept."""
        return read_match_replay(self._db, match_id)

    @property
    def connection(self) -> sqlite3.Connection:
        """This journal's own connection: for the command line's reads of the ledger, and a
        journal in memory's (``server.journal_reader``)."""
        return self._db

    def backup(self, copy: Path) -> None:
        """Copy the whole journal to the new file ``copy`` (private to this user), consistent
        even while a server writes: SQLite's online backup, what the WAL holds included."""
        target = sqlite3.connect(str(copy))
        try:
            os.chmod(copy, 0o600)
            self._db.backup(target)
        finally:
            target.close()

    def forget_history(self) -> None:
        """Drop every finished match (and those closed tables left unfinished), their
        commands and the standings (which start afresh), and give the space back to the
        file system; open tables stay."""
        db = self._db
        with db:
            db.execute("BEGIN IMMEDIATE")
            gone = "result IS NOT NULL OR table_id IN (SELECT table_id FROM tables WHERE open = 0)"
            db.execute(
                f"DELETE FROM replay_parts WHERE match_id IN (SELECT match_id FROM matches"
                f" WHERE {gone})"
            )
            db.execute(
                "DELETE FROM commands WHERE (table_id, number) IN"
                f" (SELECT table_id, number FROM matches WHERE {gone})"
            )
            db.execute(f"DELETE FROM matches WHERE {gone}")
            db.execute(
                "DELETE FROM seats WHERE table_id IN (SELECT table_id FROM tables WHERE open = 0)"
            )
            highest = str(self.next_table_number())  # stays: ids are never handed out twice
            db.execute("DELETE FROM tables WHERE open = 0 AND table_id != ?", (highest,))
            forget_standings(db)
        give_pages_back(db, pages=None)
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def clean(self, retention: Retention, now: float) -> bool:
        """One small step of the retention (``server.retention.clean_step``) as of the Unix
        time ``now``; True if it did something (there may be more to do). A step the
        file refuses (full, busy) is left for the next round: cleaning never fails a
        table or the server."""
        try:
            return clean_step(self._db, retention, now)
        except sqlite3.Error as error:
            if not _is_write_failure(error):
                raise
            log.warning("the journal could not be cleaned this time (%s)", error)
            return False

    def server_id(self) -> str:
        """The server's stable id (``welcome.server_id``): made once, on the file's first
        start, and kept in ``meta`` under ``server_id``, so it stays the same across
        restarts, ports and mDNS settings as long as the journal does. A file that
        cannot take it (full) gives a fresh id for this run only."""
        fresh = secrets.token_hex(8)
        try:
            self._write("INSERT OR IGNORE INTO meta VALUES ('server_id', ?)", (fresh,))
        except sqlite3.Error as error:
            if not _is_write_failure(error):
                raise
        row = self._db.execute("SELECT value FROM meta WHERE key = 'server_id'").fetchone()
        return fresh if row is None else str(row[0])

    def next_table_number(self) -> int:
        row = self._db.execute("SELECT MAX(CAST(table_id AS INTEGER)) FROM tables").fetchone()
        return int(row[0] or 0)


class TableJournal:
    """What one table writes to the journal. A write that fails is handled by the journal
    (its module docstring); from then on the table is not ``rebuildable`` and writes no
    command again, but still what the history keeps (scores, results, its closing)."""

    def __init__(self, journal: Journal, table_id: str) -> None:
        self._journal = journal
        self._table_id = table_id
        self._position = 0
        self._match = 0
        self._born = journal.failures

    @property
    def rebuildable(self) -> bool:
        """Whether every write of this table has landed, so a restart could rebuild it."""
        return self._journal.failures == self._born

    def opened(
        self,
        name: str,
        config: TableConfig,
        password_hash: str | None,
        created_from: str,
        bot_think_ms: int | None = None,
    ) -> bool:
        """A new table; ``password_hash`` is its password's stored hash
        (``server.passwords``), ``bot_think_ms`` the host's pace for its bots, if they set
        one. False if it could not be written."""
        return self._journal._attempt(
            lambda: self._journal._write(
                "INSERT OR REPLACE INTO tables (table_id, name, config, password, created_from,"
                " host, open, engine, bot_think_ms) VALUES (?, ?, ?, ?, ?, NULL, 1, ?, ?)",
                (
                    self._table_id,
                    name,
                    json.dumps(config.to_data()),
                    password_hash,
                    created_from,
                    ENGINE_VERSION,
                    bot_think_ms,
                ),
            )
        )

    def seats(self, seats: list[SavedSeat], host: int | None, config: TableConfig) -> None:
        """The table's seats, owner (``host``: the seat holding the host role for good) and
        options as they are now (replacing the last)."""
        table_id = self._table_id
        db = self._journal._db

        def write() -> None:
            with db:
                db.execute("BEGIN")
                db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
                db.executemany(
                    "INSERT INTO seats (table_id, seat, name, strategy, token_hash, address)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        (table_id, s.seat, s.name, s.strategy, s.token_hash, s.address)
                        for s in seats
                    ],
                )
                db.execute(
                    "UPDATE tables SET host = ?, config = ? WHERE table_id = ?",
                    (host, json.dumps(config.to_data()), table_id),
                )

        self._journal._attempt(write)

    def match_started(
        self, number: int, seed: int, start_ms: int, first_seq: int, config: TableConfig
    ) -> None:
        self._match = number
        self._position = 0
        self._write(
            "INSERT OR REPLACE INTO matches (table_id, number, seed, start_ms, first_seq, config)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (
                self._table_id,
                number,
                str(seed),
                start_ms,
                first_seq,
                json.dumps(config.to_data()),
            ),
        )

    def resumed_match(self, number: int, commands: int) -> None:
        """Go on writing the commands of a match rebuilt from the journal."""
        self._match = number
        self._position = commands

    def command(self, actor: int | None, command: Command, now_ms: int) -> None:
        """One accepted command of the current match, committed before its events leave;
        none once the table is not rebuildable (a log with a hole would rebuild a wrong
        table)."""
        if not self.rebuildable:
            return
        self._position += 1
        self._write(
            "INSERT INTO commands VALUES (?, ?, ?, ?, ?, ?)",
            (
                self._table_id,
                self._match,
                self._position,
                actor,
                json.dumps(command.to_data()),
                now_ms,
            ),
        )

    def replay_part(self, part: int, lines: list[str]) -> None:
        """A stretch of the current match's public record (``server.table.replay_log``);
        written also when the table is no longer rebuildable (the record is the history's,
        not the restart's)."""
        journal = self._journal
        table_id, number = self._table_id, self._match
        journal._attempt(lambda: write_part(journal._db, table_id, number, part, lines))

    def round_scores(self, scores: list[int]) -> None:
        """The match's scores after a round: what the history keeps of the match if it
        cannot be played to its end (written by another engine version, or a table whose
        journal writes failed)."""
        self._write(
            "UPDATE matches SET scores = ? WHERE table_id = ? AND number = ?",
            (json.dumps(scores), self._table_id, self._match),
        )

    def match_finished(self, result: dict[str, Any], *, people: bool = True) -> None:
        """The match's result; ``people``: whether a person played one of its moves (False
        for a match of bots only, which the retention keeps shortest). The standings count
        it in the same transaction."""
        finished_at = time.time()
        db = self._journal._db
        table_id, number = self._table_id, self._match

        def write() -> None:
            with db:
                db.execute("BEGIN")
                db.execute(
                    "UPDATE matches SET finished_at = ?, result = ?, people = ?"
                    " WHERE table_id = ? AND number = ?",
                    (finished_at, json.dumps(result), int(people), table_id, number),
                )
                count_match(db, result, finished_at)

        self._journal._attempt(write)

    def abandoned(self, note: str) -> None:
        """The table closes before its match ended: the match goes into the history as it
        stood after its last finished round, with ``note``."""
        self._journal._attempt(lambda: self._journal.close_unfinished(self._table_id, note))

    def banned(self, ban: SavedBan) -> None:
        """The host banned someone: kept until the table closes."""
        self._write(
            "INSERT INTO bans (table_id, name, address) VALUES (?, ?, ?)",
            (self._table_id, ban.name, ban.address),
        )

    def closed(self) -> None:
        """The table is gone for good (not a shutdown: those tables come back); its
        password and its bans go with it."""
        db = self._journal._db
        table_id = self._table_id

        def write() -> None:
            with db:
                db.execute("BEGIN")
                _close_table(db, table_id)

        self._journal._attempt(write)

    def _write(self, sql: str, row: tuple[Any, ...]) -> None:
        journal = self._journal
        journal._attempt(lambda: journal._write(sql, row))


def _close_table(db: sqlite3.Connection, table_id: str) -> None:
    """Mark a table closed for good, inside the caller's transaction: only its name stays
    (for the matches it leaves), not its password or its bans."""
    db.execute("UPDATE tables SET open = 0, password = NULL WHERE table_id = ?", (table_id,))
    db.execute("DELETE FROM bans WHERE table_id = ?", (table_id,))


def _count_old_history(db: sqlite3.Connection) -> None:
    """Fill the standings from the finished matches of a file migrated from a release that
    kept none (its migration asks for it in ``meta``); once, in one transaction."""
    asked = db.execute("SELECT 1 FROM meta WHERE key = 'standings'").fetchone()
    if asked is None:
        return
    with db:
        db.execute("BEGIN IMMEDIATE")
        count_history(db)
        db.execute("DELETE FROM meta WHERE key = 'standings'")
