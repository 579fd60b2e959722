"""A long history in a journal file, written straight into it, and a client that notes
when each answer arrived.

- ``seed_history``: a journal as the release before this one (schema 4) wrote it, with
  ``count`` finished matches of closed tables over the last two weeks: what a server that
  has hosted a hostile evening or two holds. The server this test starts migrates it (ids,
  the kept standings) before it listens, as an upgraded server does. Returns the
  standings it must then show, counted here the plain way.
- ``bot_table_loop``: a guest's table of bots only that makes and finishes matches as fast
  as it can, the load that once grew the journal by 34 MB an hour.
- ``journal_bytes``, ``kept_matches``: the file's size, and what it keeps.
"""

from __future__ import annotations

import contextlib
import json
import random
import sqlite3
from collections.abc import Callable
from pathlib import Path

import trio
from e2e_client import FAST_OPTIONS
from reliability_guests import TimedPlayer, connect_from

from protocol.messages import (
    AddBot,
    CreateTable,
    ListTables,
    Rematch,
    Start,
    TableList,
    TableStatus,
)
from protocol.options import TableConfig, TableOptions

__all__ = ["PEOPLE", "bot_table_loop", "journal_bytes", "kept_matches", "seed_history"]

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


async def bot_table_loop(
    port: int, source: str, name: str, keep_going: Callable[[], bool], started: list[int]
) -> None:
    """A guest's table of bots that plays match after match, as fast as its bots go, while
    ``keep_going()``: the guest makes a table of itself and three bots, starts it and
    hangs up (a server bot plays its seat; the guest never moves, so every match is of
    bots only). A second connection watches the table list; when the match is over the
    guest comes back only to start the next one and hangs up again. Each match started
    adds one to ``started[0]``."""
    guest = await connect_from(port, source, name)
    watcher = await connect_from(port, source, f"{name}-eye")
    async with trio.open_nursery() as nursery:
        nursery.start_soon(guest.read_forever)
        nursery.start_soon(watcher.read_forever)
        options = {**FAST_OPTIONS, "seats": 4, "target_score": 20}
        created = await guest.ok(
            lambda id_: CreateTable(id=id_, name=name, options=TableOptions.parse(options))
        )
        for _ in range(3):
            await guest.ok(lambda id_: AddBot(id=id_, strategy="basic"))
        await guest.ok(lambda id_: Start(id=id_))
        started[0] += 1
        await guest.hub.until(lambda: guest.view is not None)
        await guest.close()
        token = guest.token
        while keep_going():
            await trio.sleep(POLL_SECONDS)
            if await _state_of(watcher, created["table_id"]) is not TableStatus.OVER:
                continue
            back = await connect_from(port, source, name, resume_token=token)
            assert back.welcome is not None and back.welcome.resumed, back.error
            nursery.start_soon(back.read_forever)
            await back.ok(lambda id_: Rematch(id=id_))
            started[0] += 1
            await back.close()
        nursery.cancel_scope.cancel()


POLL_SECONDS = 0.1
"""How often a guest's watcher looks at the table list."""


async def _state_of(watcher: TimedPlayer, table_id: str) -> TableStatus | None:
    """The state the table list gives ``table_id`` now (None if it is not listed)."""
    cursor: str | None = None
    while True:
        before = len(watcher.frames)
        await watcher.ok(lambda id_, c=cursor: ListTables(id=id_, cursor=c))  # type: ignore[misc]
        page = [f for f in watcher.frames[before:] if isinstance(f, TableList)][-1]
        for table in page.tables:
            if table.table_id == table_id:
                return table.state
        if page.next_cursor is None:
            return None
        cursor = page.next_cursor


def journal_bytes(state: Path) -> int:
    """The journal's size on disk: the file and its write-ahead log."""
    wal = state.with_name(state.name + "-wal")
    return state.stat().st_size + (wal.stat().st_size if wal.exists() else 0)


def kept_matches(state: Path) -> dict[str, int]:
    """Finished matches a stopped server's journal keeps, by kind, and their commands."""
    with contextlib.closing(sqlite3.connect(f"file:{state}?mode=ro", uri=True)) as db:
        bots, people = (
            db.execute(
                "SELECT COUNT(*) FROM matches WHERE result IS NOT NULL AND people = ?", (kind,)
            ).fetchone()[0]
            for kind in (0, 1)
        )
        commands = db.execute("SELECT COUNT(*) FROM commands").fetchone()[0]
    return {"bots_only": bots, "people": people, "commands": commands}
