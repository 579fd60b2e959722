"""The journal's tables, and bringing a file written by an older release up to date.

``SCHEMA_VERSION`` numbers the layout of the tables. ``prepare`` gives a fresh file every
table; a file of an older layout is first copied beside itself, whole
(``server.sqlite3.schema-1.bak``, never overwriting a copy already there), then migrated
in place, one step per version, in one transaction: the history survives every upgrade,
and the copy is there if anything still goes wrong. A layout newer than this release
knows is refused (the journal then keeps the file aside, unread).

Every file gives freed pages back (``auto_vacuum=INCREMENTAL``; ``server.retention`` runs
``incremental_vacuum``); a file made before that needs one ``VACUUM`` to switch it on,
done here once, after its migration.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

__all__ = ["SCHEMA_VERSION", "backup_path", "prepare", "schema_of"]

SCHEMA_VERSION = 5

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE tables (
    table_id TEXT PRIMARY KEY, name TEXT NOT NULL, config TEXT NOT NULL,
    password TEXT, created_from TEXT NOT NULL, host INTEGER, open INTEGER NOT NULL DEFAULT 1,
    engine TEXT NOT NULL, bot_think_ms INTEGER);
CREATE TABLE seats (
    table_id TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, strategy TEXT,
    token_hash TEXT, PRIMARY KEY (table_id, seat));
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
"""
"""The tables as this release writes them.

``matches.scores``: the match's scores after its last finished round (JSON, one per seat),
what the history keeps of a match that cannot be played to its end. ``tables.bot_think_ms``:
the pace the host gave the table's server bots; NULL for the server's default.
``commands`` is stored in its key's order (``WITHOUT ROWID``): a move's commit then writes
one page, not a row page and a key page (20 against 29 us a move at 200 tables,
server/journal.py ``TableJournal.command``).

``matches.match_id``: a match's stable id (``AUTOINCREMENT``: never handed out twice, so a
``list-matches`` cursor means the same match after any cleaning). ``matches.people``: 1 if
a person played a move of the finished match, 0 for a match of bots only (kept shortest,
``server.retention``), NULL while it is open. ``players``, ``player_keys`` and
``player_days`` are the standings kept as matches finish (``server.ledger``): each player's
totals, the name keys that find a person's row, and the totals of each UTC day (the week's
standings add up the last seven)."""

MIGRATIONS: dict[int, tuple[str, ...]] = {
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
            for statement in MIGRATIONS[version]:
                db.execute(statement)
            version += 1
        db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(version),))
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
    _give_pages_back(db)
    return copy


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
