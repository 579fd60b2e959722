"""The journal's tables, and bringing a file written by an older release up to date.

``SCHEMA_VERSION`` numbers the layout of the tables. ``prepare`` gives a fresh file every
table; a file of an older layout is first copied beside itself, whole
(``server.sqlite3.schema-1.bak``, never overwriting a copy already there), then migrated
in place, one step per version, in one transaction: the history survives every upgrade,
and the copy is there if anything still goes wrong. A layout newer than this release
knows is refused (the journal then keeps the file aside, unread).

A step is an SQL statement or, where SQL cannot do it, a Python function given the
connection (inside the same transaction). Schema 5 hashes the passwords that older
releases kept as written (``server.passwords``); then ``scrub_plaintext`` leaves none on
disk: the file is rebuilt (``VACUUM``, so no old bytes linger in free space), its WAL
truncated, and the copies made before migrations (``*.schema-N*.bak``) get the same
hashes in place of their passwords.

Every file gives freed pages back (``auto_vacuum=INCREMENTAL``; ``server.retention`` runs
``incremental_vacuum``); a file made before that needs one ``VACUUM`` to switch it on,
done here once, after its migration.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from server.passwords import hash_now, is_password_hash

__all__ = ["SCHEMA_VERSION", "backup_path", "prepare", "schema_of", "scrub_plaintext"]

SCHEMA_VERSION = 6

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE tables (
    table_id TEXT PRIMARY KEY, name TEXT NOT NULL, config TEXT NOT NULL,
    password TEXT, created_from TEXT NOT NULL, host INTEGER, open INTEGER NOT NULL DEFAULT 1,
    engine TEXT NOT NULL, bot_think_ms INTEGER, rebuildable INTEGER NOT NULL DEFAULT 1);
CREATE TABLE seats (
    table_id TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, strategy TEXT,
    token_hash TEXT, address TEXT, PRIMARY KEY (table_id, seat));
CREATE TABLE matches (
    match_id INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id TEXT NOT NULL, number INTEGER NOT NULL, seed TEXT NOT NULL,
    start_ms INTEGER NOT NULL, first_seq INTEGER NOT NULL, config TEXT NOT NULL,
    finished_at REAL, result TEXT, scores TEXT, people INTEGER, UNIQUE (table_id, number));
CREATE INDEX matches_kept ON matches (people, match_id) WHERE result IS NOT NULL;
CREATE INDEX matches_unfinished ON matches (table_id) WHERE result IS NULL;
CREATE TABLE commands (
    table_id TEXT NOT NULL, number INTEGER NOT NULL, position INTEGER NOT NULL,
    actor INTEGER, command TEXT NOT NULL, now_ms INTEGER NOT NULL,
    PRIMARY KEY (table_id, number, position)) WITHOUT ROWID;
CREATE TABLE bans (table_id TEXT NOT NULL, name TEXT NOT NULL, address TEXT);
CREATE INDEX bans_by_table ON bans (table_id);
CREATE TABLE players (
    player_id INTEGER PRIMARY KEY, name TEXT NOT NULL, fold TEXT NOT NULL,
    bot INTEGER NOT NULL, matches INTEGER NOT NULL DEFAULT 0, wins INTEGER NOT NULL DEFAULT 0,
    points INTEGER NOT NULL DEFAULT 0);
CREATE INDEX players_rank ON players (bot, wins DESC, points DESC, fold);
CREATE TABLE player_keys (
    kind INTEGER NOT NULL, key TEXT NOT NULL, player_id INTEGER NOT NULL,
    PRIMARY KEY (kind, key)) WITHOUT ROWID;
CREATE TABLE player_days (
    day INTEGER NOT NULL, player_id INTEGER NOT NULL, matches INTEGER NOT NULL,
    wins INTEGER NOT NULL, points INTEGER NOT NULL, PRIMARY KEY (day, player_id)) WITHOUT ROWID;
CREATE TABLE replay_parts (
    match_id INTEGER NOT NULL, part INTEGER NOT NULL, events BLOB NOT NULL,
    PRIMARY KEY (match_id, part)) WITHOUT ROWID;
"""
"""The tables as this release writes them.

``matches.scores``: the match's scores after its last finished round (JSON, one per seat),
what the history keeps of a match that cannot be played to its end. ``tables.bot_think_ms``:
the pace the host gave the table's server bots; NULL for the server's default.
``seats.address``: where a person's seat last came from, so that a ban of an away seat
still covers it after a restart. ``bans``: an open table's bans (the name as it was, the
address kept out or NULL), deleted when the table closes.
``tables.password``: the password's salted hash (``server.passwords``), NULL for a table
without one and once the table has closed. ``tables.rebuildable``: 0 once a write of the
journal failed while the table was open: its command log may stop short of what was
played, so it is closed into the history on start, never rebuilt (``server.journal``).
``commands`` is stored in its key's order (``WITHOUT ROWID``): a move's commit then writes
one page, not a row page and a key page (20 against 29 us a move at 200 tables,
server/journal.py ``TableJournal.command``).

``matches.match_id``: a match's stable id (``AUTOINCREMENT``: never handed out twice, so a
``list-matches`` cursor means the same match after any cleaning). ``matches.people``: 1 if
a person played a move of the finished match, 0 for a match of bots only (kept shortest,
``server.retention``), NULL while it is open. ``players``, ``player_keys`` and
``player_days`` are the standings kept as matches finish (``server.ledger``): each player's
totals, the name keys that find a person's row, and the totals of each UTC day (the week's
standings add up the last seven).

``replay_parts``: a match's public record (``server.replay_log``), one row per stretch of
it: the events before its first round, then each round from its ``round-started`` to the
next one's (the last to the match's end). ``events`` is the stretch's events as a
spectator received them, one JSON map a line, compressed with zlib; written as the next
stretch begins, so a long match is never held whole in memory."""

Step = str | Callable[[sqlite3.Connection], None]
"""One step of a migration: a statement, or a function run on the connection."""


def hash_plain_passwords(db: sqlite3.Connection) -> None:
    """Every password an older release kept as written, as its salted hash (one already
    hashed, in a copy made before a migration and scrubbed since, is kept as it is)."""
    rows = db.execute("SELECT table_id, password FROM tables WHERE password IS NOT NULL")
    for table_id, password in rows.fetchall():
        if not is_password_hash(password):
            hashed = hash_now(password)
            db.execute("UPDATE tables SET password = ? WHERE table_id = ?", (hashed, table_id))


MIGRATIONS: dict[int, tuple[Step, ...]] = {
    1: ("ALTER TABLE matches ADD COLUMN scores TEXT",),
    2: ("ALTER TABLE tables ADD COLUMN bot_think_ms INTEGER",),
    3: (
        "ALTER TABLE commands RENAME TO commands_before_4",
        "CREATE TABLE commands ("
        " table_id TEXT NOT NULL, number INTEGER NOT NULL, position INTEGER NOT NULL,"
        " actor INTEGER, command TEXT NOT NULL, now_ms INTEGER NOT NULL,"
        " PRIMARY KEY (table_id, number, position)) WITHOUT ROWID",
        "INSERT INTO commands SELECT * FROM commands_before_4",
        "DROP TABLE commands_before_4",
    ),
    4: (
        # bans: a seat remembers where it last came from, across a restart
        "ALTER TABLE seats ADD COLUMN address TEXT",
        # bans: each open table's bans, kept for its life
        "CREATE TABLE bans (table_id TEXT NOT NULL, name TEXT NOT NULL, address TEXT)",
        "CREATE INDEX bans_by_table ON bans (table_id)",
        # Write failures: a table whose log may stop short is closed on start, not rebuilt.
        "ALTER TABLE tables ADD COLUMN rebuildable INTEGER NOT NULL DEFAULT 1",
        # Passwords: a closed table keeps none; an open one keeps its hash, not the words.
        "UPDATE tables SET password = NULL WHERE open = 0",
        hash_plain_passwords,
        # ... and no copy of the words is left in the file, its WAL or its backups.
        "INSERT OR REPLACE INTO meta VALUES ('scrub', 'pending')",
        # History and retention: matches get a stable id and say whether a person played.
        "ALTER TABLE matches RENAME TO matches_before_5",
        "CREATE TABLE matches ("
        " match_id INTEGER PRIMARY KEY AUTOINCREMENT,"
        " table_id TEXT NOT NULL, number INTEGER NOT NULL, seed TEXT NOT NULL,"
        " start_ms INTEGER NOT NULL, first_seq INTEGER NOT NULL, config TEXT NOT NULL,"
        " finished_at REAL, result TEXT, scores TEXT, people INTEGER,"
        " UNIQUE (table_id, number))",
        # Ids in the order the matches finished (open ones last); a finished match of an
        # older release counts as played by people (kept the longest).
        "INSERT INTO matches (table_id, number, seed, start_ms, first_seq, config,"
        " finished_at, result, scores, people)"
        " SELECT table_id, number, seed, start_ms, first_seq, config, finished_at, result,"
        " scores, CASE WHEN result IS NULL THEN NULL ELSE 1 END FROM matches_before_5"
        " ORDER BY result IS NULL, finished_at, rowid",
        "DROP TABLE matches_before_5",
        "CREATE INDEX matches_kept ON matches (people, match_id) WHERE result IS NOT NULL",
        # Retention: the unfinished matches, few, to find those a closed table left.
        "CREATE INDEX matches_unfinished ON matches (table_id) WHERE result IS NULL",
        # History and retention: the commands of matches an older reset dropped.
        "DELETE FROM commands WHERE NOT EXISTS (SELECT 1 FROM matches m"
        " WHERE m.table_id = commands.table_id AND m.number = commands.number)",
        # History: the standings kept as matches finish (filled from the old history on
        # the first open, server.journal ``Journal._connect``, asked for by the meta row).
        "CREATE TABLE players ("
        " player_id INTEGER PRIMARY KEY, name TEXT NOT NULL, fold TEXT NOT NULL,"
        " bot INTEGER NOT NULL, matches INTEGER NOT NULL DEFAULT 0,"
        " wins INTEGER NOT NULL DEFAULT 0, points INTEGER NOT NULL DEFAULT 0)",
        "CREATE INDEX players_rank ON players (bot, wins DESC, points DESC, fold)",
        "CREATE TABLE player_keys ("
        " kind INTEGER NOT NULL, key TEXT NOT NULL, player_id INTEGER NOT NULL,"
        " PRIMARY KEY (kind, key)) WITHOUT ROWID",
        "CREATE TABLE player_days ("
        " day INTEGER NOT NULL, player_id INTEGER NOT NULL, matches INTEGER NOT NULL,"
        " wins INTEGER NOT NULL, points INTEGER NOT NULL,"
        " PRIMARY KEY (day, player_id)) WITHOUT ROWID",
        "INSERT INTO meta VALUES ('standings', 'count the history')",
    ),
    5: (
        # Replays: each match's public record, a stretch (a round) a row.
        "CREATE TABLE replay_parts ("
        " match_id INTEGER NOT NULL, part INTEGER NOT NULL, events BLOB NOT NULL,"
        " PRIMARY KEY (match_id, part)) WITHOUT ROWID",
    ),
}
"""From each older version, the statements that bring it to the next."""


def schema_of(db: sqlite3.Connection) -> int | None:
    """The layout version of the file ``db`` opened; None for a file without tables."""
    has_meta = db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'"
    ).fetchone()
    if has_meta is None:
        return None
    found = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    if found is None or not str(found[0]).isdecimal():
        raise sqlite3.DatabaseError("the journal names no schema version")
    return int(found[0])


def prepare(db: sqlite3.Connection, path: Path | None) -> Path | None:
    """Bring the file ``db`` opened (at ``path``; None in memory) to ``SCHEMA_VERSION``;
    the backup copy made before a migration, if one was. Raises DatabaseError for a
    layout this release does not know."""
    db.execute("PRAGMA auto_vacuum=INCREMENTAL")  # takes effect now in a file without tables
    db.execute("BEGIN IMMEDIATE")
    try:
        version = schema_of(db)
        if version is None:
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        elif version > SCHEMA_VERSION or (version not in MIGRATIONS and version != SCHEMA_VERSION):
            raise sqlite3.DatabaseError(f"unknown journal schema {version}")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
    if version is None or version == SCHEMA_VERSION:
        _give_pages_back(db)
        return None
    copy = _backup(db, path, version) if path is not None else None
    db.execute("BEGIN IMMEDIATE")
    try:
        while version < SCHEMA_VERSION:
            for step in MIGRATIONS[version]:
                if isinstance(step, str):
                    db.execute(step)
                else:
                    step(db)
            version += 1
        db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(version),))
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
    _give_pages_back(db)
    return copy


def scrub_plaintext(db: sqlite3.Connection, path: Path | None) -> None:
    """If a migration asked for it, leave no password as written on disk (module
    docstring): the file rebuilt and its WAL emptied, then every backup beside it hashed
    likewise. Asked for until done, so a scrub cut short is done on the next start."""
    pending = db.execute("SELECT 1 FROM meta WHERE key = 'scrub'").fetchone()
    if pending is None:
        return
    if path is not None:
        db.execute("VACUUM")  # every page rebuilt: no old bytes left in free space
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        for copy in sorted(path.parent.glob(f"{path.name}.schema-*.bak")):
            _scrub_copy(copy)
    db.execute("DELETE FROM meta WHERE key = 'scrub'")
    if path is not None:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def _scrub_copy(copy: Path) -> None:
    """A backup made before a migration, its passwords as they are in the journal now:
    hashed for open tables, none for closed ones; rebuilt so no old bytes remain."""
    db = sqlite3.connect(str(copy), isolation_level=None)
    try:
        db.execute("PRAGMA secure_delete=ON")
        columns = {row[1] for row in db.execute("PRAGMA table_info(tables)")}
        if "password" not in columns:
            return
        db.execute("BEGIN IMMEDIATE")
        try:
            if "open" in columns:
                db.execute("UPDATE tables SET password = NULL WHERE open = 0")
            hash_plain_passwords(db)
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        db.execute("VACUUM")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        db.close()


_INCREMENTAL = 2
"""What ``PRAGMA auto_vacuum`` reads for INCREMENTAL."""


def _give_pages_back(db: sqlite3.Connection) -> None:
    """Switch on ``auto_vacuum=INCREMENTAL`` in a file made without it (one ``VACUUM``)."""
    if db.execute("PRAGMA auto_vacuum").fetchone()[0] != _INCREMENTAL:
        db.execute("PRAGMA auto_vacuum=INCREMENTAL")
        db.execute("VACUUM")


def backup_path(path: Path, version: int) -> Path:
    """Where the copy of ``path`` made before migrating it from ``version`` goes: beside it,
    never onto an earlier copy."""
    copy = path.with_name(f"{path.name}.schema-{version}.bak")
    if copy.exists():
        copy = path.with_name(f"{path.name}.schema-{version}-{int(time.time())}.bak")
    return copy


def _backup(db: sqlite3.Connection, path: Path, version: int) -> Path:
    copy_path = backup_path(path, version)
    copy = sqlite3.connect(str(copy_path))
    try:
        db.backup(copy)  # whole and consistent, with what the WAL holds too
    finally:
        copy.close()
    copy_path.chmod(0o600)
    return copy_path
