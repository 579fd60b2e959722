"""The journal's replays: each match's public record as ``replay_parts`` rows, and the
record read back whole (docs/replays.md).

A row is one stretch of a match (``server.table.replay_log``): its events as a spectator
received them, one JSON map a line, compressed with zlib. The record's header comes from
the rows the history keeps anyway: the match's options and result, the table's name.
``replay_page`` reads a record a page at a time (``get-replay``, protocol 1.3): the header
row and the stretches the page reaches, never the whole match.

Like ``server.ledger``, every function takes the connection to use.
"""

from __future__ import annotations

import json
import re
import sqlite3
import zlib
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from protocol.options import TableConfig
from protocol.replay_file import Replay, ReplayPlayer, event_line, header_line, read_events
from server.engine import build_deck

__all__ = [
    "ReplayCursorError",
    "header_of",
    "latest_of_table",
    "packed",
    "page_of",
    "read_match_replay",
    "replay_page",
    "unpacked",
    "write_part",
]


def write_part(
    db: sqlite3.Connection, table_id: str, number: int, part: int, lines: list[str]
) -> None:
    """Stretch ``part`` of match ``number`` of the table (replacing one written before)."""
    db.execute(
        "INSERT OR REPLACE INTO replay_parts (match_id, part, events)"
        " SELECT match_id, ?, ? FROM matches WHERE table_id = ? AND number = ?",
        (part, packed(lines), table_id, number),
    )


def read_match_replay(db: sqlite3.Connection, match_id: int) -> Replay | None:
    """The public record of the finished match ``match_id``; None if the journal holds no
    such match, or no record of it (unfinished, or past the record's keeping)."""
    header = _header(db, match_id)
    if header is None or _stretches(db, match_id) == 0:
        return None
    lines: list[str] = []
    rows = db.execute(
        "SELECT events FROM replay_parts WHERE match_id = ? ORDER BY part", (match_id,)
    ).fetchall()
    for (stored,) in rows:
        lines.extend(unpacked(stored))
    return replace(header, events=read_events(lines))


class ReplayCursorError(ValueError):
    """A ``get-replay`` cursor that names no place in the record."""


_CURSOR = re.compile(r"([0-9]{1,9})\.([0-9]{1,9})")
"""A page cursor: the stretch, then the event within it, of the next line."""


def replay_page(
    db: sqlite3.Connection, match_id: int, cursor: str | None, *, max_lines: int, max_bytes: int
) -> tuple[list[str], str | None] | None:
    """The lines of match ``match_id``'s replay file from ``cursor`` (``page_of``); None if
    no record of it is kept; raises ReplayCursorError."""
    header = _header(db, match_id)
    stretches = _stretches(db, match_id)
    if header is None or stretches == 0:
        return None

    def stretch(part: int) -> list[str]:
        row = db.execute(
            "SELECT events FROM replay_parts WHERE match_id = ? AND part = ?", (match_id, part)
        ).fetchone()
        return unpacked(row[0])

    return page_of(header, stretches, stretch, cursor, max_lines=max_lines, max_bytes=max_bytes)


def latest_of_table(db: sqlite3.Connection, table_id: str) -> int | None:
    """The id of the table's latest finished match; None if it has none."""
    row = db.execute(
        "SELECT match_id FROM matches WHERE table_id = ? AND result IS NOT NULL"
        " ORDER BY number DESC LIMIT 1",
        (table_id,),
    ).fetchone()
    return None if row is None else int(row[0])


def page_of(
    header: Replay,
    stretches: int,
    stretch: Callable[[int], list[str]],
    cursor: str | None,
    *,
    max_lines: int,
    max_bytes: int,
) -> tuple[list[str], str | None]:
    """The lines of a record's file from ``cursor`` (None: from the header) on, without
    their newlines, at most ``max_lines`` of at most ``max_bytes`` (UTF-8) together (at
    least one line, so each page moves on), and the cursor of the next page (None after the
    last line). ``stretch(part)`` reads one of the record's ``stretches`` stored stretches,
    only those the page reaches. Raises ReplayCursorError."""
    if cursor is None:
        part, index = 0, 0
    else:
        found = _CURSOR.fullmatch(cursor)
        if found is None:
            raise ReplayCursorError(cursor)
        part, index = int(found[1]), int(found[2])
    if part >= stretches:
        raise ReplayCursorError(cursor)
    lines = [header_line(header)] if cursor is None else []
    size = len(lines[0].encode("utf-8")) if lines else 0
    while part < stretches:
        events = read_events(stretch(part))
        if index > len(events):
            raise ReplayCursorError(cursor)
        for event in events[index:]:
            line = event_line(event)
            length = len(line.encode("utf-8"))
            if lines and (len(lines) >= max_lines or size + length > max_bytes):
                return lines, f"{part}.{index}"
            lines.append(line)
            size += length
            index += 1
        part, index = part + 1, 0
    return lines, None


def _header(db: sqlite3.Connection, match_id: int) -> Replay | None:
    """The record's header (no events yet); None if no such match finished."""
    found = db.execute(
        "SELECT m.config, m.result, m.finished_at, t.name FROM matches m"
        " LEFT JOIN tables t ON t.table_id = m.table_id"
        " WHERE m.match_id = ? AND m.result IS NOT NULL",
        (match_id,),
    ).fetchone()
    if found is None:
        return None
    config_text, result_text, finished_at, table_name = found
    config = TableConfig.from_data(json.loads(config_text))
    return header_of(match_id, str(table_name or ""), config, json.loads(result_text), finished_at)


def header_of(
    match_id: int, table: str, config: TableConfig, result: dict[str, Any], finished_at: float
) -> Replay:
    """A record's header (no events) from the match's result as the history keeps it."""
    return Replay(
        match_id=match_id,
        table=table,
        config=config,
        players=tuple(
            ReplayPlayer(
                str(p["name"]),
                bool(p.get("bot")),
                int(p.get("score", 0)),
                int(p.get("stand_in_turns", 0)),
            )
            for p in result.get("players", [])
        ),
        winners=tuple(str(name) for name in result.get("winners", [])),
        events=(),
        finished_at=finished_at,
        note=result.get("note"),
        deck_size=len(build_deck(config)),
    )


def _stretches(db: sqlite3.Connection, match_id: int) -> int:
    """How many stretches the match's record has; 0 if none is kept, or one is missing (a
    stretch the file could not take leaves a hole: no record)."""
    count, last = db.execute(
        "SELECT count(*), max(part) FROM replay_parts WHERE match_id = ?", (match_id,)
    ).fetchone()
    return int(count) if count and last == count - 1 else 0


def packed(lines: list[str]) -> bytes:
    """A stretch's lines as stored: joined by newlines, compressed."""
    return zlib.compress("\n".join(lines).encode("utf-8"))


def unpacked(packed: bytes) -> list[str]:
    """A stored stretch's lines."""
    text = zlib.decompress(packed).decode("utf-8")
    return text.split("\n") if text else []
