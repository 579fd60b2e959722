"""Room kept on the journal's disk for the one write that must land when the disk fills.

When the disk is full, the journal must still note in its file which tables it can no
longer rebuild (``tables.rebuildable``). So the server keeps a small file beside the
journal (``server.sqlite3.reserve``, ``RESERVE_BYTES`` of zeros, written, not sparse), and
gives it back the moment a write fails: the note then has room. Once writes succeed again
the reserve is made anew before any new table is journaled.

Its absence is a note too, one that needs no room at all: a journal whose reserve is gone
at start was left by a server whose writes failed and never came back (``Journal.open``
then closes every open table into the history instead of rebuilding it).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

__all__ = ["RESERVE_BYTES", "JournalReserve"]

RESERVE_BYTES = 64 * 1024
"""Room for the note and a little more: a few WAL frames of a 4 KiB page."""


class JournalReserve:
    """The reserve file beside the journal at ``journal``."""

    def __init__(self, journal: Path) -> None:
        self.path = journal.with_name(journal.name + ".reserve")

    def exists(self) -> bool:
        return self.path.is_file() and self.path.stat().st_size >= RESERVE_BYTES

    def make(self) -> bool:
        """Write the reserve (private to this user) if it is not whole; False when the
        disk has no room for it (nothing is left behind then)."""
        if self.exists():
            return True
        try:
            with open(self.path, "wb", opener=_private) as file:
                file.write(bytes(RESERVE_BYTES))
                file.flush()
                os.fsync(file.fileno())
        except OSError:
            self.spend()
            return False
        return True

    def spend(self) -> None:
        """Give the room back to the disk."""
        with contextlib.suppress(OSError):
            self.path.unlink()


def _private(path: str, flags: int) -> int:
    """Open ``path`` as ``open`` asks, readable by this user only if it is created."""
    return os.open(path, flags, 0o600)
