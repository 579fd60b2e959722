"""``uno-server history``: who is winning, and the finished matches the journal keeps.

It reads the standings the journal keeps as matches finish (``server.ledger``: people by
name as the tables compare names, ``Ann`` and ``ANN`` one player; bots apart, since a
bot's name says nothing about who played it) and the matches the retention has kept
(``server.retention``), each with its id. It reads the journal beside a running server
(WAL lets a reader in while the server writes); ``--reset`` empties the history and gives
its space back, only while no server holds the journal.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from server.journal import Journal, JournalLocked, JournalUnwritable
from server.ledger import in_week, match_page, standings_page

__all__ = ["history_main"]

SHOWN_MATCHES = 10
"""The latest matches the plain (not ``--json``) output lists under the standings."""


def history_main(argv: Sequence[str], default_state: Path) -> int:
    """``uno-server history [--state PATH] [--week] [--json] [--reset] [--backup COPY]``."""
    parser = argparse.ArgumentParser(
        prog="uno-server history", description="finished matches and standings"
    )
    parser.add_argument("--state", type=Path, default=default_state, help="the journal file")
    parser.add_argument("--week", action="store_true", help="only the last seven days")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.add_argument(
        "--reset",
        action="store_true",
        help="forget every finished match and the standings, and shrink the file",
    )
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
    if args.reset:
        return _reset(args.state)
    try:
        journal = Journal.for_reading(args.state)
    except (sqlite3.DatabaseError, JournalLocked, JournalUnwritable) as error:
        print(f"uno-server history: cannot read {args.state}: {error}", file=sys.stderr)
        return 1
    try:
        if args.backup is not None:
            return _backup(journal, args.backup)
        db = journal.connection
        now = time.time()
        board, _ = standings_page(db, week_of=now if args.week else None, offset=0, limit=-1)
        matches = match_page(db, limit=-1 if args.json else SHOWN_MATCHES)
    finally:
        journal.close()
    if args.week:
        matches = [m for m in matches if in_week(m.get("finished_at") or 0, now)]
    if args.json:
        print(json.dumps({"standings": [asdict(s) for s in board], "matches": matches}))
        return 0
    print(f"{'player':<24} {'matches':>7} {'wins':>5} {'points':>7}")
    for standing in board:
        name = standing.name + (" (bot)" if standing.bot else "")
        print(f"{name:<24} {standing.matches:>7} {standing.wins:>5} {standing.points:>7}")
    if matches:
        print(f"\n{'match':>8}  {'finished (UTC)':<16}  {'table':<20} winners")
    for match in matches:
        at = time.strftime("%Y-%m-%d %H:%M", time.gmtime(match.get("finished_at") or 0))
        winners = ", ".join(match.get("winners", [])) or "-"
        print(f"{match['match_id']:>8}  {at:<16}  {match['table'][:20]:<20} {winners}")
    return 0


def _reset(state: Path) -> int:
    """Empty the history, holding the journal as a server would: never beside a running
    server, whose every move would wait on the reset's long write and then count as a
    failed one (its tables no longer rebuildable)."""
    try:
        journal = Journal.open(state)
    except JournalLocked as error:
        print(f"uno-server history: {error}; stop it first to reset", file=sys.stderr)
        return 1
    except (sqlite3.DatabaseError, JournalUnwritable) as error:
        print(f"uno-server history: cannot reset {state}: {error}", file=sys.stderr)
        return 1
    try:
        journal.forget_history()
    finally:
        journal.close()
    print("uno-server history: the standings start afresh")
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
