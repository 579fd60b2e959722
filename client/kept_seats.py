"""The seats this machine keeps between runs of ``uno-client``, so that a seat outlives the
client as it outlives the server.

One small SQLite file in the state directory (``seats.sqlite3`` under
``platformdirs.user_state_dir("uno-lan")``, private: 0600 in a 0700 folder) holds one
resume token per server id, player name and slot, with the table it opens. A client
claims a slot when it meets a server: the first slot for its name there that no other
client on this machine holds. It holds the slot's lock (an OS lock on a small file, which
the system drops when the process ends however it ends) for as long as it talks to that
server, so two clients of the same name on one machine each have a slot of their own and
never resume each other's seat::

    claim = SeatClaim.claim(welcome.server_id, "Ann")
    if claim is not None:
        kept = claim.kept()          # the seat the last client in this slot held, if any
        claim.keep(KeptSeat(token, table_id))
        claim.forget()               # the seat is gone (kicked, closed, a dead token)
        claim.release()

Nothing here speaks to the network; ``client.ui.network`` decides when to keep and forget.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path

import platformdirs

if sys.platform == "win32":
    import msvcrt
else:
    import fcntl

__all__ = ["MAX_SLOTS", "KeptSeat", "SeatClaim", "seats_dir"]

log = logging.getLogger(__name__)

MAX_SLOTS = 8
"""Clients of one name at one server that can each keep a seat on one machine."""
STORE_NAME = "seats.sqlite3"
LOCKS_NAME = "seat-locks"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS seats (
    server_id TEXT NOT NULL, name TEXT NOT NULL, slot INTEGER NOT NULL,
    token TEXT NOT NULL, table_id TEXT NOT NULL, PRIMARY KEY (server_id, name, slot))
"""


def seats_dir() -> Path:
    """Where the kept seats live: the platform's state directory (on Linux
    ``$XDG_STATE_HOME/uno-lan``, by default ``~/.local/state/uno-lan``)."""
    return Path(platformdirs.user_state_dir("uno-lan"))


@dataclass(frozen=True, slots=True)
class KeptSeat:
    """A seat kept for a later run: its resume token and the table it opens."""

    token: str
    table_id: str


class SeatClaim:
    """One client's slot for its name at one server; see the module docstring."""

    def __init__(self, directory: Path, server_id: str, name: str, slot: int, lock: int) -> None:
        self.directory = directory
        self.server_id = server_id
        self.name = name
        self.slot = slot
        self._lock: int | None = lock

    @classmethod
    def claim(cls, server_id: str, name: str, directory: Path | None = None) -> SeatClaim | None:
        """The first free slot for ``name`` at ``server_id``, locked for this process; None
        when every slot is held or the state directory cannot be used (the log says why):
        the client then plays on, keeping its seat only while it runs."""
        where = directory if directory is not None else seats_dir()
        try:
            where.mkdir(parents=True, exist_ok=True, mode=0o700)
            if where.stat().st_uid == os.getuid():
                where.chmod(0o700)  # the folder of the tokens, whatever the umask made it
            locks = where / LOCKS_NAME
            locks.mkdir(exist_ok=True, mode=0o700)
            for slot in range(MAX_SLOTS):
                descriptor = _lock_file(locks / f"{_slot_key(server_id, name, slot)}.lock")
                if descriptor is not None:
                    return cls(where, server_id, name, slot, descriptor)
        except OSError as error:
            log.warning("cannot keep seats in %s: %s", where, error)
            return None
        log.info("every slot for %r at server %s is held by another client", name, server_id)
        return None

    def kept(self) -> KeptSeat | None:
        """The seat this slot keeps, if any."""
        row = self._run(
            "SELECT token, table_id FROM seats WHERE server_id = ? AND name = ? AND slot = ?",
            (self.server_id, self.name, self.slot),
        )
        return None if row is None else KeptSeat(str(row[0]), str(row[1]))

    def keep(self, seat: KeptSeat) -> None:
        """Keep ``seat`` in this slot (in place of any seat kept before)."""
        self._run(
            "INSERT OR REPLACE INTO seats VALUES (?, ?, ?, ?, ?)",
            (self.server_id, self.name, self.slot, seat.token, seat.table_id),
        )

    def forget(self) -> None:
        """Drop this slot's seat: it opens nothing any more."""
        self._run(
            "DELETE FROM seats WHERE server_id = ? AND name = ? AND slot = ?",
            (self.server_id, self.name, self.slot),
        )

    def release(self) -> None:
        """Let another client have the slot (what it keeps stays)."""
        if self._lock is not None:
            os.close(self._lock)  # closing the file drops its lock
            self._lock = None

    def _run(self, sql: str, row: tuple[object, ...]) -> tuple[object, ...] | None:
        """One statement on the file, committed; a file that cannot be used is logged and
        changes nothing (the seat then lasts only as long as this client)."""
        path = self.directory / STORE_NAME
        try:
            if not path.exists():
                os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
            # Short: the UI waits on it, and another client holds the file for a moment only.
            db = sqlite3.connect(str(path), timeout=0.5)
            try:
                with db:
                    db.execute(_SCHEMA)
                    found: tuple[object, ...] | None = db.execute(sql, row).fetchone()
            finally:
                db.close()
        except (OSError, sqlite3.Error) as error:
            log.warning("cannot use the kept seats in %s: %s", path, error)
            return None
        return found


def _slot_key(server_id: str, name: str, slot: int) -> str:
    """The lock file's name for a slot: a hash, so that no name needs escaping."""
    text = f"{server_id}\0{name}\0{slot}".encode()
    return hashlib.blake2b(text, digest_size=12).hexdigest()


def _lock_file(path: Path) -> int | None:
    """The open, locked file at ``path``; None when another process holds its lock."""
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    if _try_lock(descriptor):
        return descriptor
    os.close(descriptor)
    return None


def _try_lock(descriptor: int) -> bool:
    """Take the file's lock without waiting; False when another process holds it."""
    if sys.platform == "win32":
        with contextlib.suppress(OSError):
            msvcrt.locking(descriptor, msvcrt.LK_NBLCK, 1)
            return True
        return False
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True
