"""Reads of the history off the event loop: a worker thread, on a connection of its own.

A page of the standings or of the match list is a short indexed read (``server.ledger``),
but the week's standings add up days, and a file on a slow disk can take its time: none
of that may hold up a table's move. ``JournalReader.read`` runs the read in a worker
thread (``trio.to_thread.run_sync``) on a read-only connection to the file, one read at a
time (``READERS``); WAL lets it read while the server writes. A journal without a file
(``Journal.in_memory``, for tests) is read on the loop, through the server's connection.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TypeVar

import trio

from server.journal import Journal, tune

__all__ = ["READERS", "JournalReader"]

READERS = 1
"""Reads at once: more would only share the same disk, and leave the loop fewer threads."""

_T = TypeVar("_T")


class JournalReader:
    """The history's reads of one journal (see the module docstring)."""

    def __init__(self, journal: Journal) -> None:
        self._journal = journal
        self._limiter = trio.CapacityLimiter(READERS)
        self._db: sqlite3.Connection | None = None

    async def read(self, reading: Callable[[sqlite3.Connection], _T]) -> _T:
        """``reading(connection)``, in a worker thread (on the loop for a journal in memory)."""
        path = self._journal.path
        if path is None:
            return reading(self._journal.connection)
        return await trio.to_thread.run_sync(self._run, reading, limiter=self._limiter)

    def _run(self, reading: Callable[[sqlite3.Connection], _T]) -> _T:
        if self._db is None:
            path = self._journal.path
            assert path is not None
            # One thread at a time uses it (the limiter), but not always the same one.
            db = sqlite3.connect(
                f"file:{path}?mode=ro", uri=True, timeout=2.0, check_same_thread=False
            )
            tune(db)
            self._db = db
        return reading(self._db)

    def close(self) -> None:
        """Close the reading connection (the lobby does, when it stops), unless a read is
        under way in its thread; a later read opens it again."""
        if self._db is not None and not self._limiter.borrowed_tokens:
            self._db.close()
            self._db = None
