"""A long history in a journal file, written straight into it, and a client that notes
when each answer arrived.

- ``seed_history``: a journal as the release before this one (schema 4) wrote it, with
  ``count`` finished matches of closed tables over the last two weeks: what a server that
  has hosted a hostile evening or two holds. The server this test starts migrates it (ids,
  the kept standings) before it listens, as an upgraded server does. Returns the
  standings it must then show, counted here the plain way.
"""

from __future__ import annotations

import contextlib
import json
import random
import sqlite3
from pathlib import Path

from protocol.options import TableConfig

__all__ = ["PEOPLE", "seed_history"]

SCHEMA_4 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE tables (
    table_id TEXT PRIMARY KEY, name TEXT NOT NULL, config TEXT NOT NULL,
    password TEXT, created_from TEXT NOT NULL, host INTEGER, open INTEGER NOT NULL DEFAULT 1,
    engine TEXT NOT NULL, bot_think_ms INTEGER);
CREATE TABLE seats (
    table_id TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, strategy TEXT,
    token_hash TEXT, PRIMARY KEY (table_id, seat));
CREATE TABLE matches (
    table_id TEXT NOT NULL, number INTEGER NOT NULL, seed TEXT NOT NULL,
    start_ms INTEGER NOT NULL, first_seq INTEGER NOT NULL, config TEXT NOT NULL,
    finished_at REAL, result TEXT, scores TEXT, PRIMARY KEY (table_id, number));
CREATE TABLE commands (
    table_id TEXT NOT NULL, number INTEGER NOT NULL, position INTEGER NOT NULL,
    actor INTEGER, command TEXT NOT NULL, now_ms INTEGER NOT NULL,
    PRIMARY KEY (table_id, number, position)) WITHOUT ROWID;
INSERT INTO meta VALUES ('schema', '4');
"""
"""The layout of the release before stable match ids (server/journal_schema.py, 4)."""

PEOPLE = tuple(f"guest{n}" for n in range(40))
BOTS = ("Bot 1", "Bot 2", "Bot 3")
MATCHES_PER_TABLE = 10
DAY = 24 * 3600


def seed_history(
    path: Path, count: int, now: float, rng: random.Random
) -> dict[str, tuple[int, int, int]]:
    """Write ``count`` finished matches into a new schema-4 journal at ``path``; the
    people's standings over every match, by name: (matches, wins, points)."""
    config = json.dumps(TableConfig(seats=4).to_data())
    tables = []
    matches = []
    standings: dict[str, tuple[int, int, int]] = {}
    for index in range(count):
        table_id = str(index // MATCHES_PER_TABLE + 1)
        if index % MATCHES_PER_TABLE == 0:
            tables.append((table_id, f"evening {table_id}", config, "10.0.0.9", 0, "1"))
        players = [*rng.sample(PEOPLE, 3), rng.choice(BOTS)]
        scores = [rng.randrange(0, 300) for _ in players]
        winner = players[rng.randrange(len(players))]
        result = {
            "deck": "classic",
            "players": [
                {"name": name, "bot": name in BOTS, "score": score}
                for name, score in zip(players, scores, strict=True)
            ],
            "winners": [winner],
        }
        at = now - rng.uniform(0, 14 * DAY)
        number = index % MATCHES_PER_TABLE + 1
        matches.append((table_id, number, "1", 0, 1, config, at, json.dumps(result)))
        for name, score in zip(players, scores, strict=True):
            if name not in BOTS:
                played, won, points = standings.get(name, (0, 0, 0))
                standings[name] = (played + 1, won + (name == winner), points + score)
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.executescript(SCHEMA_4)
        db.executemany(
            "INSERT INTO tables (table_id, name, config, created_from, open, engine)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            tables,
        )
        db.executemany(
            "INSERT INTO matches (table_id, number, seed, start_ms, first_seq, config,"
            " finished_at, result) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            matches,
        )
    return standings

