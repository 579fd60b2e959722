"""The journal's replays: each match's public record as ``replay_parts`` rows, and the
record read back whole (docs/replays.md).

A row is one stretch of a match (``server.table.replay_log``): its events as a spectator
received them, one JSON map a line, compressed with zlib (a round of four players, about
1.5 KB of lines a hundred events, keeps about a fifth of that). The record's header comes
from the rows the history keeps anyway: the match's options and result, the table's name.

Like ``server.ledger``, every function takes the connection to use.
"""

from __future__ import annotations

import json
import sqlite3
import zlib

from protocol.options import TableConfig
from protocol.replay_file import Replay, ReplayPlayer, read_events

__all__ = ["drop_replays_of", "read_match_replay", "write_part"]


def write_part(
    db: sqlite3.Connection, table_id: str, number: int, part: int, lines: list[str]
) -> None:
    """Stretch ``part`` of match ``number`` of the table (replacing one written before)."""
    packed = zlib.compress("\n".join(lines).encode("utf-8"))
    db.execute(
        "INSERT OR REPLACE INTO replay_parts (match_id, part, events)"
        " SELECT match_id, ?, ? FROM matches WHERE table_id = ? AND number = ?",
        (part, packed, table_id, number),
    )


def drop_replays_of(db: sqlite3.Connection, match_id: int) -> None:
    """Every stretch of the match."""
    db.execute("DELETE FROM replay_parts WHERE match_id = ?", (match_id,))


def read_match_replay(db: sqlite3.Connection, match_id: int) -> Replay | None:
    """The public record of the finished match ``match_id``; None if the journal holds no
    such match, or no record of it (unfinished, or past the record's keeping)."""
    row = db.execute(
        "SELECT m.config, m.result, m.finished_at, t.name FROM matches m"
        " LEFT JOIN tables t ON t.table_id = m.table_id"
        " WHERE m.match_id = ? AND m.result IS NOT NULL",
        (match_id,),
    ).fetchone()
    if row is None:
        return None
    config_text, result_text, finished_at, table_name = row
    parts = db.execute(
        "SELECT part, events FROM replay_parts WHERE match_id = ? ORDER BY part", (match_id,)
    ).fetchall()
    if not parts or [number for number, _ in parts] != list(range(len(parts))):
        return None  # none kept, or a stretch the file could not take (a hole)
    lines: list[str] = []
    for _, packed in parts:
        text = zlib.decompress(packed).decode("utf-8")
        if text:
            lines.extend(text.split("\n"))
    result = json.loads(result_text)
    return Replay(
        match_id=match_id,
        table=str(table_name or ""),
        config=TableConfig.from_data(json.loads(config_text)),
        players=tuple(
            ReplayPlayer(str(p["name"]), bool(p.get("bot")), int(p.get("score", 0)))
            for p in result.get("players", [])
        ),
        winners=tuple(str(name) for name in result.get("winners", [])),
        events=read_events(lines),
        finished_at=finished_at,
        note=result.get("note"),
    )
