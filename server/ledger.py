"""The history as the journal keeps it: the standings, counted as each match finishes, and
the finished matches page by page.

A finished match adds its players to ``players`` (each player's totals) and to
``player_days`` (their totals of that UTC day) in the transaction that records it, so a
page of the standings is a read of an index, never a count over the history. The week's
standings add up the player's last seven days (today, UTC, and the six before).

People are one player when their names read alike, as ``name-taken`` compares them
(``server.table.names.name_keys``: ``Ann`` and ``ANN`` are one player, ``José`` and
``Jose`` two); ``player_keys`` holds every key of a person's row. The name shown is the one
of their latest match. A bot is counted by its name as written, apart from the people.

Every function takes the connection to use, so a page can be read from a worker thread on
a connection of its own (``server.journal_reader``); those that write run inside the
caller's transaction.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import sqlite3  # the functions are handed a connection; none opens one

__all__ = [
    "DAY_SECONDS",
    "WEEK_DAYS",
    "Standing",
    "count_history",
    "count_match",
    "day_of",
    "forget_standings",
    "in_week",
    "match_page",
    "standings_page",
]

DAY_SECONDS = 24 * 3600
WEEK_DAYS = 7

_BOT_KEY = 2
"""The ``player_keys.kind`` of a bot's name; 0 and 1 are the kinds of ``name_keys``."""


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's record over the matches counted."""

    name: str
    bot: bool
    matches: int = 0
    wins: int = 0
    points: int = 0


def day_of(at: float) -> int:
    """The UTC day (days since 1970-01-01) of the Unix time ``at``."""
    return int(at // DAY_SECONDS)


def in_week(at: float, week_of: float) -> bool:
    """Whether Unix time ``at`` falls in the week that ends on the day of ``week_of``."""
    return day_of(week_of) - WEEK_DAYS < day_of(at) <= day_of(week_of)


def count_match(db: sqlite3.Connection, result: dict[str, Any], finished_at: float) -> None:
    """Add the players of a match that finished at ``finished_at`` to the standings."""
    day = day_of(finished_at)
    winners = set(result.get("winners", []))
    for player in result.get("players", []):
        name = str(player["name"])
        bot = bool(player.get("bot"))
        player_id = _player_id(db, name, bot)
        won = int(name in winners)
        points = int(player.get("score", 0))
        db.execute(
            "UPDATE players SET name = ?, fold = ?, matches = matches + 1, wins = wins + ?,"
            " points = points + ? WHERE player_id = ?",
            (name, name.casefold(), won, points, player_id),
        )
        db.execute(
            "INSERT INTO player_days VALUES (?, ?, 1, ?, ?) ON CONFLICT (day, player_id)"
            " DO UPDATE SET matches = matches + 1, wins = wins + excluded.wins,"
            " points = points + excluded.points",
            (day, player_id, won, points),
        )


def _player_id(db: sqlite3.Connection, name: str, bot: bool) -> int:
    """The row of the player ``name`` names (a new one if none does)."""
    keys = [(_BOT_KEY, name)] if bot else sorted(_name_keys(name))
    found = [
        int(row[0])
        for kind, key in keys
        for row in db.execute(
            "SELECT player_id FROM player_keys WHERE kind = ? AND key = ?", (kind, key)
        )
    ]
    if found:
        player_id = min(found)
    else:
        cursor = db.execute(
            "INSERT INTO players (name, fold, bot) VALUES (?, ?, ?)",
            (name, name.casefold(), int(bot)),
        )
        assert cursor.lastrowid is not None
        player_id = cursor.lastrowid
    db.executemany(
        "INSERT OR IGNORE INTO player_keys VALUES (?, ?, ?)",
        [(kind, key, player_id) for kind, key in keys],
    )
    return player_id


def _name_keys(name: str) -> frozenset[tuple[int, str]]:
    # Imported on first use: the package server.table imports the journal, which imports
    # this module, so a module-level import would be a cycle whichever loads first.
    from server.table.names import name_keys  # noqa: PLC0415

    return name_keys(name)


def count_history(db: sqlite3.Connection) -> int:
    """Count every finished match the journal holds into empty standings (a file of an
    older release, which kept none), oldest first; the number of matches counted."""
    rows = db.execute(
        "SELECT result, finished_at FROM matches WHERE result IS NOT NULL"
        " ORDER BY finished_at, match_id"
    ).fetchall()
    for result, finished_at in rows:
        count_match(db, json.loads(result), finished_at or 0.0)
    return len(rows)


def forget_standings(db: sqlite3.Connection) -> None:
    """Empty the standings (with the finished matches, ``history --reset``)."""
    for table in ("players", "player_keys", "player_days"):
        db.execute(f"DELETE FROM {table}")


def standings_page(
    db: sqlite3.Connection, *, week_of: float | None, offset: int, limit: int
) -> tuple[list[Standing], bool]:
    """``limit`` players from position ``offset`` of the standings, people first, then by
    wins, points and name; and whether more follow. ``week_of`` a Unix time: the week
    that ends that day (``in_week``); None: every match counted. ``limit`` -1: all."""
    fetch = -1 if limit < 0 else limit + 1
    if week_of is None:
        rows = db.execute(
            "SELECT name, bot, matches, wins, points FROM players"
            " ORDER BY bot, wins DESC, points DESC, fold LIMIT ? OFFSET ?",
            (fetch, offset),
        ).fetchall()
    else:
        rows = db.execute(
            "SELECT p.name, p.bot, SUM(d.matches), SUM(d.wins) AS w, SUM(d.points) AS s"
            " FROM player_days d JOIN players p USING (player_id) WHERE d.day > ?"
            " GROUP BY d.player_id ORDER BY p.bot, w DESC, s DESC, p.fold LIMIT ? OFFSET ?",
            (day_of(week_of) - WEEK_DAYS, fetch, offset),
        ).fetchall()
    board = [Standing(name, bool(bot), *totals) for name, bot, *totals in rows]
    if limit < 0:
        return board, False
    return board[:limit], len(board) > limit


def match_page(
    db: sqlite3.Connection, *, before: int | None = None, limit: int = -1
) -> list[dict[str, Any]]:
    """Finished matches, the latest first (by ``match_id``, the order they were begun),
    each with its id, table, options and result. ``before`` an id: the matches before that
    one, whether or not it is still kept. ``limit`` -1: every one."""
    rows = db.execute(
        "SELECT m.match_id, m.table_id, t.name, m.number, m.finished_at, m.config, m.result"
        " FROM matches m LEFT JOIN tables t USING (table_id)"
        " WHERE m.result IS NOT NULL AND m.match_id < ? ORDER BY m.match_id DESC LIMIT ?",
        (before if before is not None else 2**63 - 1, limit),
    )
    return [
        {
            "match_id": match_id,
            "table_id": table_id,
            "table": name or "",
            "match": number,
            "finished_at": at,
            "options": json.loads(config),
            **json.loads(result),
        }
        for match_id, table_id, name, number, at, config, result in rows
    ]
