"""Journal files as older releases left them, for the migration tests."""

from __future__ import annotations

import sqlite3

SCHEMA_4 = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE tables (table_id TEXT PRIMARY KEY, name TEXT NOT NULL,"
    " config TEXT NOT NULL, password TEXT, created_from TEXT NOT NULL, host INTEGER,"
    " open INTEGER NOT NULL DEFAULT 1, engine TEXT NOT NULL, bot_think_ms INTEGER);"
    "CREATE TABLE seats (table_id TEXT NOT NULL, seat INTEGER NOT NULL,"
    " name TEXT NOT NULL, strategy TEXT, token_hash TEXT, PRIMARY KEY (table_id, seat));"
    "CREATE TABLE matches (table_id TEXT NOT NULL, number INTEGER NOT NULL,"
    " seed TEXT NOT NULL, start_ms INTEGER NOT NULL, first_seq INTEGER NOT NULL,"
    " config TEXT NOT NULL, finished_at REAL, result TEXT, scores TEXT,"
    " PRIMARY KEY (table_id, number));"
    "CREATE TABLE commands (table_id TEXT NOT NULL, number INTEGER NOT NULL,"
    " position INTEGER NOT NULL, actor INTEGER, command TEXT NOT NULL,"
    " now_ms INTEGER NOT NULL, PRIMARY KEY (table_id, number, position)) WITHOUT ROWID;"
    "INSERT INTO meta VALUES ('schema', '4');"
)
"""The layout of release 1.2 (schema 4), every table empty."""


def write_schema_4(db: sqlite3.Connection) -> None:
    """Give the empty file ``db`` opened the layout of schema 4."""
    db.executescript(SCHEMA_4)
