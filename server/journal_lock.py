"""One server per journal: a lock held for the server's life on a file beside it.

The lock is a small SQLite file beside the journal (``server.sqlite3.lock``) opened in
exclusive locking mode: SQLite takes the operating system's file lock on every platform,
and the system drops it when the process ends, however it ends. The journal itself is
left to WAL's ordinary locks, so ``uno-server history`` can read it while the server runs.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

__all__ = ["JournalLocked", "create_private", "hold_lock"]


class JournalLocked(Exception):
    """Another server holds the journal file."""


def create_private(path: Path) -> None:
    """Create the empty file ``path`` readable by this user only, unless it exists. SQLite
    gives the files it makes beside a database (``-wal``, ``-shm``, ``-journal``) the
    database's own permissions, so they are private from their first byte too."""
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))


def hold_lock(path: Path) -> sqlite3.Connection:
    """Hold the lock that makes this process the only server of the journal at ``path``,
    for as long as the connection returned stays open; raises JournalLocked if another
    server holds it."""
    lock_path = path.with_name(path.name + ".lock")
    create_private(lock_path)
    lock = sqlite3.connect(str(lock_path), isolation_level=None, timeout=0.2)
    try:
        lock.execute("PRAGMA locking_mode=EXCLUSIVE")
        lock.execute("BEGIN EXCLUSIVE")  # the first write keeps the lock for good
        lock.execute("CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL)")
        lock.execute("DELETE FROM holder")
        lock.execute("INSERT INTO holder VALUES (?)", (os.getpid(),))
        lock.execute("COMMIT")
    except sqlite3.OperationalError as error:
        lock.close()
        if "locked" in str(error):
            raise JournalLocked(f"another uno-server is using {path}") from None
        raise
    return lock
