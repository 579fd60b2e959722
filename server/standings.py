"""``uno-server history``: the finished matches in the journal, and who is winning.

Every finished match stays in the journal with its players, final scores and winners.
Standings count people by name as the tables compare names (``Ann`` and ``ANN`` are one
player); bots are listed apart, since a bot's name says nothing about who played it. It reads
the journal beside a running server (WAL lets a reader in while the server writes).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from server.journal import Journal, JournalLocked, JournalUnwritable
from server.table.names import name_keys

__all__ = ["Standing", "history_main", "standings"]

WEEK_SECONDS = 7 * 24 * 3600


@dataclass(slots=True)
class Standing:
    """One player's record over the matches counted."""

    name: str
    bot: bool
    matches: int = 0
    wins: int = 0
    points: int = 0


def standings(matches: Sequence[dict[str, Any]], since: float | None = None) -> list[Standing]:
    """Everyone who played the finished ``matches`` (those after ``since``, a Unix time, if
    given), people first, then by wins, points and name.

    People are one player when their names read alike, as ``name-taken`` compares them
    (``name_keys``); the name shown is the one of their latest match. A bot is counted by
    its name as written.
    """
    people: dict[tuple[int, str], Standing] = {}
    bots: dict[str, Standing] = {}
    board: list[Standing] = []
    for match in sorted(matches, key=lambda m: -(m.get("finished_at") or 0)):
        if since is not None and (match.get("finished_at") or 0) < since:
            continue
        winners = set(match.get("winners", []))
        for player in match.get("players", []):
            name = player["name"]
            if player.get("bot"):
                standing = bots.get(name)
                if standing is None:
                    standing = bots[name] = Standing(name, True)
                    board.append(standing)
            else:
                keys = name_keys(name)
                standing = next((people[key] for key in keys if key in people), None)
                if standing is None:
                    standing = Standing(name, False)
                    board.append(standing)
                for key in keys:
                    people.setdefault(key, standing)
            standing.matches += 1
            standing.points += int(player.get("score", 0))
            if name in winners:
                standing.wins += 1
    return sorted(board, key=lambda s: (s.bot, -s.wins, -s.points, s.name.casefold()))


def history_main(argv: Sequence[str], default_state: Path) -> int:
    """``uno-server history [--state PATH] [--week] [--json] [--reset] [--backup COPY]``."""
    parser = argparse.ArgumentParser(
        prog="uno-server history", description="finished matches and standings"
    )
    parser.add_argument("--state", type=Path, default=default_state, help="the journal file")
    parser.add_argument("--week", action="store_true", help="only the last seven days")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.add_argument("--reset", action="store_true", help="forget every finished match")
    parser.add_argument(
        "--backup",
        type=Path,
        metavar="COPY",
        help="copy the whole journal to COPY (a new file), safely while the server runs",
    )
    args = parser.parse_args(argv)
    if not args.state.exists():
        print(f"uno-server history: no journal at {args.state}", file=sys.stderr)
        return 1
    try:
        journal = Journal.for_reading(args.state)
    except (sqlite3.DatabaseError, JournalLocked, JournalUnwritable) as error:
        print(f"uno-server history: cannot read {args.state}: {error}", file=sys.stderr)
        return 1
    try:
        if args.backup is not None:
            return _backup(journal, args.backup)
        if args.reset:
            journal.forget_history()
            print("uno-server history: the standings start afresh")
            return 0
        matches = journal.history()
    finally:
        journal.close()
    since = time.time() - WEEK_SECONDS if args.week else None
    board = standings(matches, since)
    if args.json:
        shown = [m for m in matches if since is None or (m.get("finished_at") or 0) >= since]
        print(json.dumps({"standings": [asdict(s) for s in board], "matches": shown}))
        return 0
    print(f"{'player':<24} {'matches':>7} {'wins':>5} {'points':>7}")
    for standing in board:
        name = standing.name + (" (bot)" if standing.bot else "")
        print(f"{name:<24} {standing.matches:>7} {standing.wins:>5} {standing.points:>7}")
    return 0


def _backup(journal: Journal, copy: Path) -> int:
    if copy.exists():
        print(f"uno-server history: {copy} exists; give a new file", file=sys.stderr)
        return 1
    try:
        journal.backup(copy)
    except (OSError, sqlite3.Error) as error:
        print(f"uno-server history: cannot write {copy}: {error}", file=sys.stderr)
        return 1
    print(f"uno-server history: the journal is copied to {copy}")
    return 0
