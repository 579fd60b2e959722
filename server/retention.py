"""What the journal keeps, and the cleaning that holds it to that, in small steps.

- Every open table and its current match, whole: a restart replays them.
- A match a person played in (``matches.people`` 1): its result for ``people_days`` (400
  by default, over a year); its command log for the latest ``people_logs`` such matches
  (1,000), the rest keep only the result.
- Matches go in the order they began (their ids): one goes once it and every match begun
  before it are due, so none goes sooner than its rule says, a few a little later.
- A match of bots only (no person played one of its moves; a seat the result calls a bot
  is a bot): the latest ``bot_matches`` (500) of them, none older than ``bot_days`` (1),
  with their logs.
- A finished match's public record (its replay, ``replay_parts``): for the latest
  ``people_replays`` (1,000) matches people played, and the latest ``bot_replays`` (50)
  of bots only; a record goes with its match at the latest. A record outlives its match's
  command log: it is events, which any later engine reads.
- A match a table left unfinished when it closed (everyone left, or nobody came back):
  dropped, log and all; the history never showed it.
- A closed table: its row, for the name its kept matches show, until none is left (the
  highest table id stays, so ids are never handed out twice); its seats go with it.
- The days of the standings (``player_days``) for eight days: the week adds up seven.

The standings themselves (``players``) keep every match ever counted, also once its
record is gone.

``clean_step`` does one bounded piece of that work in one short transaction, so a
table's next move never waits long for the file; ``keep_tidy`` runs the steps on the
event loop, a short pause between them. Freed pages go back to the file system
(``auto_vacuum=INCREMENTAL``) a few at a time once enough are free. Time is data: the
caller says what time it is.
"""

from __future__ import annotations

import argparse
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from server.ledger import DAY_SECONDS, WEEK_DAYS, day_of

if TYPE_CHECKING:
    import sqlite3

    from server.journal import Journal

__all__ = [
    "Retention",
    "RetentionError",
    "add_retention_flags",
    "clean_step",
    "finished_late",
    "give_pages_back",
    "keep_tidy",
    "retention_from_args",
]

log = logging.getLogger("uno.server.journal")

_Due = Callable[[int, float], bool]
"""Whether the match of this id, finished at this time, is past its keeping."""

MATCHES_PER_STEP = 4
"""Matches (with their logs) one step deletes at most: a few hundred rows, so that a step
stays well under a move's time (docs/performance.md, "The journal's cleaning")."""
ROWS_PER_STEP = 200
"""Other rows (closed tables, days of the standings) one step deletes at most."""
PAGES_PER_STEP = 16
"""Free pages one step gives back (64 KiB at SQLite's usual 4 KiB a page)."""
FREE_PAGES_KEPT = 256
"""Free pages left in the file for the next matches rather than given back."""
STEP_PAUSE = 0.01
"""Seconds between two steps of one round, for the tables' moves."""


class RetentionError(ValueError):
    """A retention below its minimums, or with a count or time below zero."""


@dataclass(frozen=True, slots=True)
class Retention:
    """How long the journal keeps what (see the module docstring)."""

    people_days: float = 400
    people_logs: int = 1_000
    bot_matches: int = 500
    bot_days: float = 1
    people_replays: int = 1_000
    bot_replays: int = 50
    every_seconds: float = 30.0
    """How often the server looks for something to clean."""

    def __post_init__(self) -> None:
        if self.people_days < 366 or self.people_logs < 1_000:
            raise RetentionError("the results of people's matches stay a year, 1,000 logs at least")
        if self.bot_matches < 0 or self.bot_days < 0 or self.every_seconds <= 0:
            raise RetentionError("--keep-bot-matches is 0 or more, --clean-seconds above 0")
        if self.people_replays < 0 or self.bot_replays < 0:
            raise RetentionError("--keep-replays and --keep-bot-replays are 0 or more")


def clean_step(db: sqlite3.Connection, retention: Retention, now: float) -> bool:
    """One bounded step of the cleaning as of Unix time ``now``, in one transaction; True
    if it found something to do (call again), False once everything is as kept."""
    with db:
        db.execute("BEGIN IMMEDIATE")
        done = (
            _drop_matches(db, _bot_matches_due(db, retention, now))
            or _drop_matches(db, _people_results_due(db, retention, now))
            or _drop_matches(db, _left_unfinished(db))
            or _drop_logs(db, retention)
            or _drop_replays(db, 0, retention.bot_replays)
            or _drop_replays(db, 1, retention.people_replays)
            or _drop_closed_tables(db)
            or _drop_old_days(db, now)
        )
    return done or give_pages_back(db, pages=PAGES_PER_STEP)


def give_pages_back(db: sqlite3.Connection, *, pages: int | None) -> bool:
    """Give up to ``pages`` free pages (None: every one) back to the file system, if more
    than ``FREE_PAGES_KEPT`` are free (or any, for None); True if it gave some."""
    free = int(db.execute("PRAGMA freelist_count").fetchone()[0])
    if free == 0 or (pages is not None and free <= FREE_PAGES_KEPT):
        return False
    # executescript steps the pragma to its end; execute would free one page a call.
    limit = "" if pages is None else f"({pages})"
    db.executescript(f"PRAGMA incremental_vacuum{limit}")
    return True


def _newest_beyond(db: sqlite3.Connection, people: int, kept: int) -> int:
    """The id of the newest finished match of the kind ``people`` that is not among the
    latest ``kept``; 0 if there are no more than that."""
    row = db.execute(
        "SELECT match_id FROM matches WHERE result IS NOT NULL AND people = ?"
        " ORDER BY match_id DESC LIMIT 1 OFFSET ?",
        (people, kept),
    ).fetchone()
    return int(row[0]) if row is not None else 0


def _oldest(db: sqlite3.Connection, people: int) -> list[tuple[int, str, int, float]]:
    return db.execute(
        "SELECT match_id, table_id, number, finished_at FROM matches"
        " WHERE result IS NOT NULL AND people = ? ORDER BY match_id LIMIT ?",
        (people, MATCHES_PER_STEP),
    ).fetchall()


def _bot_matches_due(
    db: sqlite3.Connection, retention: Retention, now: float
) -> list[tuple[str, int, int]]:
    """The oldest matches of bots only that are past their keeping, a step's worth."""
    beyond = _newest_beyond(db, 0, retention.bot_matches)
    oldest = now - retention.bot_days * DAY_SECONDS
    return _while_due(_oldest(db, 0), lambda match_id, at: match_id <= beyond or at < oldest)


def _people_results_due(
    db: sqlite3.Connection, retention: Retention, now: float
) -> list[tuple[str, int, int]]:
    oldest = now - retention.people_days * DAY_SECONDS
    return _while_due(_oldest(db, 1), lambda _, at: at < oldest)


def _left_unfinished(db: sqlite3.Connection) -> list[tuple[str, int, int]]:
    """Unfinished matches of closed tables, a step's worth."""
    return db.execute(
        "SELECT table_id, number, match_id FROM matches m WHERE result IS NULL"
        " AND EXISTS (SELECT 1 FROM tables t WHERE t.table_id = m.table_id AND t.open = 0)"
        " LIMIT ?",
        (MATCHES_PER_STEP,),
    ).fetchall()


def _while_due(rows: list[tuple[int, str, int, float]], due: _Due) -> list[tuple[str, int, int]]:
    """The leading ``rows`` (oldest first) that are due, as (table, number, id)."""
    found = []
    for match_id, table_id, number, finished_at in rows:
        if not due(match_id, finished_at or 0.0):
            break
        found.append((table_id, number, match_id))
    return found


def _drop_matches(db: sqlite3.Connection, matches: list[tuple[str, int, int]]) -> bool:
    for table_id, number, match_id in matches:
        db.execute("DELETE FROM commands WHERE table_id = ? AND number = ?", (table_id, number))
        db.execute("DELETE FROM replay_parts WHERE match_id = ?", (match_id,))
        db.execute("DELETE FROM matches WHERE match_id = ?", (match_id,))
    return bool(matches)


_REPLAYS_FROM = {0: "replays_from_bots", 1: "replays_from_people"}
"""``meta`` keys: for each kind of match, the id from which its records may still be kept
(below it, every finished match's record of that kind has been dropped)."""


def _drop_replays(db: sqlite3.Connection, people: int, kept: int) -> bool:
    """Drop the records of finished matches of the kind ``people`` older than the latest
    ``kept``, a step's worth, walking that kind's matches up from where the last step
    stopped (``_REPLAYS_FROM``): the kept records are never read again."""
    beyond = _newest_beyond(db, people, kept)
    key = _REPLAYS_FROM[people]
    row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    start = int(row[0]) if row is not None else 0
    if beyond < start:
        return False
    rows = db.execute(
        "SELECT match_id FROM matches WHERE result IS NOT NULL AND people = ?"
        " AND match_id >= ? AND match_id <= ? ORDER BY match_id LIMIT ?",
        (people, start, beyond, MATCHES_PER_STEP),
    ).fetchall()
    for (match_id,) in rows:
        db.execute("DELETE FROM replay_parts WHERE match_id = ?", (match_id,))
    last = rows[-1][0] if len(rows) == MATCHES_PER_STEP else beyond
    db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, str(last + 1)))
    return True


def finished_late(db: sqlite3.Connection, match_id: int, people: bool) -> None:
    """Match ``match_id`` just finished: if it began before the matches of its kind whose
    records the cleaning has dropped up to (a long match), the cleaning walks back to it,
    so its record goes like the others' (inside the caller's transaction)."""
    db.execute(
        "UPDATE meta SET value = ? WHERE key = ? AND CAST(value AS INTEGER) > ?",
        (str(match_id), _REPLAYS_FROM[int(people)], match_id),
    )


def _drop_logs(db: sqlite3.Connection, retention: Retention) -> bool:
    """Drop the command logs of people's matches older than the latest ``people_logs``
    (``meta.logs_from``: the id from which logs may still be kept)."""
    beyond = _newest_beyond(db, 1, retention.people_logs)
    row = db.execute("SELECT value FROM meta WHERE key = 'logs_from'").fetchone()
    start = int(row[0]) if row is not None else 0
    if beyond < start:
        return False
    rows = db.execute(
        "SELECT match_id, table_id, number FROM matches WHERE result IS NOT NULL AND people = 1"
        " AND match_id >= ? AND match_id <= ? ORDER BY match_id LIMIT ?",
        (start, beyond, MATCHES_PER_STEP),
    ).fetchall()
    for _, table_id, number in rows:
        db.execute("DELETE FROM commands WHERE table_id = ? AND number = ?", (table_id, number))
    last = rows[-1][0] if len(rows) == MATCHES_PER_STEP else beyond
    db.execute("INSERT OR REPLACE INTO meta VALUES ('logs_from', ?)", (str(last + 1),))
    return True


def _drop_closed_tables(db: sqlite3.Connection) -> bool:
    """Closed tables with no kept match left, and their seats (never the highest id)."""
    rows = db.execute(
        "SELECT table_id FROM tables t WHERE open = 0"
        " AND CAST(table_id AS INTEGER) < (SELECT MAX(CAST(table_id AS INTEGER)) FROM tables)"
        " AND NOT EXISTS (SELECT 1 FROM matches m WHERE m.table_id = t.table_id) LIMIT ?",
        (ROWS_PER_STEP,),
    ).fetchall()
    for (table_id,) in rows:
        db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
        db.execute("DELETE FROM tables WHERE table_id = ?", (table_id,))
    return bool(rows)


def _drop_old_days(db: sqlite3.Connection, now: float) -> bool:
    """Days of the standings the week no longer adds up (one spare day kept)."""
    cursor = db.execute(
        "DELETE FROM player_days WHERE (day, player_id) IN"
        " (SELECT day, player_id FROM player_days WHERE day < ? LIMIT ?)",
        (day_of(now) - WEEK_DAYS - 1, ROWS_PER_STEP),
    )
    return cursor.rowcount > 0


async def keep_tidy(journal: Journal, retention: Retention) -> None:
    """Clean the journal every ``retention.every_seconds``, step by step, until cancelled
    (the lobby runs it for the server's life)."""
    import trio  # noqa: PLC0415 (the retention flags are read by --help, which needs no Trio)

    while True:
        steps = 0
        began = time.monotonic()
        while journal.clean(retention, time.time()):
            steps += 1
            await trio.sleep(STEP_PAUSE)
        if steps:
            log.debug("journal cleaned in %d steps, %.1f s", steps, time.monotonic() - began)
        await trio.sleep(retention.every_seconds)


def add_retention_flags(group: argparse._ArgumentGroup) -> None:
    """``uno-server``'s flags for the retention, in the command line's ``group``."""
    defaults = Retention()
    group.add_argument(
        "--keep-bot-matches",
        type=int,
        default=defaults.bot_matches,
        metavar="N",
        help="matches of bots only the journal keeps (the latest, for a day at most)",
    )
    group.add_argument(
        "--keep-replays",
        type=int,
        default=defaults.people_replays,
        metavar="N",
        help="finished matches of people whose replay the journal keeps (the latest)",
    )
    group.add_argument(
        "--keep-bot-replays",
        type=int,
        default=defaults.bot_replays,
        metavar="N",
        help="finished matches of bots only whose replay the journal keeps (the latest)",
    )
    group.add_argument(
        "--clean-seconds",
        type=float,
        default=defaults.every_seconds,
        help="how often the journal drops what it no longer keeps",
    )


def retention_from_args(args: argparse.Namespace) -> Retention:
    """The retention the command line asks for; raises RetentionError if it makes no sense."""
    return Retention(
        bot_matches=args.keep_bot_matches,
        people_replays=args.keep_replays,
        bot_replays=args.keep_bot_replays,
        every_seconds=args.clean_seconds,
    )
