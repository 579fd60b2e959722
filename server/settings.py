"""The numbers the lobby and its tables live by, and the summary the lobby gives of itself.

``LobbySettings`` is built once by the command line (server/cli.py) and handed to the
``Lobby``; every table reads the same frozen value. ``LobbySummary`` is what the lobby tells
the outside world about itself (for the mDNS advertisement and the logs).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field

from protocol.limits import MAX_BOT_THINK_MS
from protocol.options import TableConfig
from server.limits import MAX_REPLAYED_EVENTS
from server.retention import Retention

__all__ = ["LobbySettings", "LobbySummary", "SettingsError"]


class SettingsError(ValueError):
    """Settings that make no sense (the operator's mistake); the message says which."""


@dataclass(frozen=True, slots=True)
class LobbySettings:
    """Everything the lobby and its tables need to know from whoever started the server."""

    server_name: str = "uno-lan"
    """The server's display name."""
    seed: int | None = None
    """None: every match is shuffled from the OS's secure random source (ruling 19). An
    int: every table's matches (and its bots' choices) follow from it, for tests."""
    table_defaults: TableConfig = field(default_factory=TableConfig)
    """The options a new table starts from (the server's default clocks); a create-table's
    options override them field by field."""
    max_tables: int = 64
    """Tables open at once; one more create-table is refused."""
    max_tables_per_address: int = 4
    """Tables created from one address that may be open at once, so that one guest can
    never take the last of ``max_tables``. The last eighth of ``max_tables``
    (``table_reserve``) is kept for addresses that hold no table yet."""
    max_spectators: int = 32
    """Spectators per table."""
    inbox_size: int = 64
    """Requests waiting for one table; one more is refused as busy."""
    bot_think_ms: int = 800
    """How long a server bot waits before it acts, so people can follow the game."""
    guest_bot_think_ms: int = 250
    """The fastest pace of a table made from a guest's address (any but the server's own,
    server/own_addresses.py): a create-table asking for faster bots, or a server default
    that is faster, gets this instead. A bot table at no pace plays as fast as the machine
    allows, and a dozen of them slow every other table."""
    bot_jump_in_ms: tuple[int, int] = (600, 1200)
    """The range of a server bot's reaction before a jump-in (ruling 37), drawn afresh
    each time: human-scale, so that people at the table can win a race."""
    bot_strategy: str = "basic"
    """The strategy a server bot uses for an away seat (client/bots/strategies.py)."""
    empty_table_seconds: float = 60.0
    """A table with nobody connected (everyone away, or created and never joined) is
    removed once it has been so for this long; a table whose last person leaves is removed
    at once. The clock stops while someone is connected and goes on from where it stopped
    when they are gone again; only a move by a person (joining, ready, start, a play)
    winds it back to the full time, so resuming alone cannot keep a table for ever."""
    idle_table_seconds: float = 300.0
    """When every table is taken, a create-table from an address that holds none makes
    the table with no person's move for longest close for it, if that was at least this
    long ago (never a table rebuilt after a restart within its restart grace)."""
    restart_grace_seconds: float = 60.0
    """A table rebuilt from the journal after a restart stays paused until every person's
    seat is back, or this long; then the seats still empty are played by server bots."""
    history_limit: int = MAX_REPLAYED_EVENTS
    """Events a table keeps for resuming clients: as many as a resume ever replays. Older
    ones are dropped; a resume from before them gets the full view alone, which is the
    whole state anyway (docs/protocol.md section 8)."""
    page_size: int = 20
    """Tables per page of a table list when the client does not ask for fewer."""
    retention: Retention = field(default_factory=Retention)
    """What the journal keeps, and how often the lobby cleans it (``server.retention``)."""

    def __post_init__(self) -> None:
        for name in (
            "max_tables",
            "max_tables_per_address",
            "max_spectators",
            "inbox_size",
            "history_limit",
            "page_size",
        ):
            if getattr(self, name) < 1:
                raise SettingsError(f"{name} must be at least 1, not {getattr(self, name)!r}")
        if not 0 <= self.bot_think_ms <= MAX_BOT_THINK_MS:
            raise SettingsError(f"bot_think_ms must be 0 to {MAX_BOT_THINK_MS}")
        if not 0 <= self.guest_bot_think_ms <= MAX_BOT_THINK_MS:
            raise SettingsError(f"guest_bot_think_ms must be 0 to {MAX_BOT_THINK_MS}")
        low, high = self.bot_jump_in_ms
        if not 0 <= low <= high:
            raise SettingsError("bot_jump_in_ms must be a range 0 <= LOW <= HIGH")
        if not self.empty_table_seconds > 0:
            raise SettingsError("empty_table_seconds must be above 0")
        if not self.idle_table_seconds > 0:
            raise SettingsError("idle_table_seconds must be above 0")

    @property
    def table_reserve(self) -> int:
        """The last tables of ``max_tables`` that only an address holding none may make."""
        return self.max_tables // 8

    def match_seed(self, table_id: str, match_number: int) -> int:
        """The seed of one match: fresh from the OS, or derived from the fixed seed.

        Derivation hashes (seed, table, match) so that tables and rematches never share
        a shuffle, and the same server seed replays the same tables exactly.
        """
        if self.seed is None:
            return secrets.randbits(64)
        return derive_seed(self.seed, f"match:{table_id}:{match_number}")

    def bot_seed(self, table_id: str) -> int:
        """The seed of a table's bot choices, derived like ``match_seed``."""
        if self.seed is None:
            return secrets.randbits(64)
        return derive_seed(self.seed, f"bots:{table_id}")

    def bot_pace(self, asked: int | None, *, guest: bool) -> int | None:
        """The pace of a table's server bots, in milliseconds a move: ``asked`` (None: the
        server's ``bot_think_ms``), but never faster than ``guest_bot_think_ms`` for a
        table a guest made."""
        if not guest:
            return asked
        return max(self.bot_think_ms if asked is None else asked, self.guest_bot_think_ms)


def derive_seed(seed: int, label: str) -> int:
    """A 64-bit seed that depends on ``seed`` and ``label`` only."""
    digest = hashlib.blake2b(f"{seed}:{label}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


@dataclass(frozen=True, slots=True)
class LobbySummary:
    """The lobby in a few numbers (the mDNS advertisement and the logs use these)."""

    tables: int
    """Tables open, playing or not."""
    open_tables: int
    """Tables not yet started that have a free seat."""
    seats_free: int
    """Free seats over all tables not yet started."""
    open_tables_with_password: int
    """Of the open tables, those that need a password to join."""

    @property
    def password_needed(self) -> bool:
        """Whether every open table needs a password (none is open to everyone)."""
        return self.open_tables > 0 and self.open_tables_with_password == self.open_tables
