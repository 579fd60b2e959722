"""``uno-server replay MATCH_ID --out FILE [--html]``: a finished match's replay file (or,
with ``--html``, its self-contained HTML page), read from the journal (beside a running
server, as ``uno-server history`` reads it; docs/replays.md)."""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

from protocol.replay_file import replay_lines
from server.journal import Journal, JournalLocked, JournalUnwritable
from server.replay_page import replay_page

__all__ = ["replay_main"]


def replay_main(argv: Sequence[str], default_state: Path) -> int:
    """``uno-server replay MATCH_ID --out FILE [--html] [--state PATH]``; the exit status."""
    parser = argparse.ArgumentParser(
        prog="uno-server replay", description="write a finished match's replay file"
    )
    parser.add_argument("match_id", type=int, help="the match's id (uno-server history)")
    parser.add_argument("--out", type=Path, required=True, help="the file to write (a new one)")
    parser.add_argument(
        "--html", action="store_true", help="write one self-contained HTML page that plays it"
    )
    parser.add_argument("--state", type=Path, default=default_state, help="the journal file")
    args = parser.parse_args(argv)
    if args.out.exists():
        print(f"uno-server replay: {args.out} exists; give a new file", file=sys.stderr)
        return 1
    if not args.state.exists():
        print(f"uno-server replay: no journal at {args.state}", file=sys.stderr)
        return 1
    try:
        journal = Journal.for_reading(args.state)
    except (sqlite3.DatabaseError, JournalLocked, JournalUnwritable) as error:
        print(f"uno-server replay: cannot read {args.state}: {error}", file=sys.stderr)
        return 1
    try:
        replay = journal.replay(args.match_id)
    finally:
        journal.close()
    if replay is None:
        print(
            f"uno-server replay: the journal keeps no replay of match {args.match_id}"
            " (not finished, or past its keeping)",
            file=sys.stderr,
        )
        return 1
    try:
        with args.out.open("x", encoding="utf-8") as file:
            if args.html:
                file.write(replay_page(replay_lines(replay)))
            else:
                for line in replay_lines(replay):
                    file.write(line + "\n")
    except OSError as error:
        print(f"uno-server replay: cannot write {args.out}: {error}", file=sys.stderr)
        return 1
    page = " (an HTML page)" if args.html else ""
    events = len(replay.events)
    print(f"uno-server replay: match {args.match_id}, {events} events, in {args.out}{page}")
    return 0
