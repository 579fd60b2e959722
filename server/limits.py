"""The limits that keep a LAN party alive: who may connect, how much each may say, how long.

Everything here is plain bookkeeping with time passed in, so it is tested without a clock:

- ``SessionLimits``: the per-connection numbers (handshake deadline, keepalive, idle
  timeout, outbox size in messages and in bytes, message allowance, the grace given to a
  last write).
- ``MessageAllowance``: a token bucket. Each message costs one token; tokens come back at
  ``rate`` per second up to ``burst``. A client that sends faster than that for longer than
  the burst lasts is over its allowance (lichess lila-ws keeps the same per-connection limit).
- ``ConnectionGate``: the connection cap and the per-address share, so one machine cannot
  fill the server.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from protocol.framing import HEADER_SIZE
from protocol.limits import MAX_FRAME_BODY

__all__ = [
    "MAX_REPLAYED_EVENTS",
    "OUTBOX_BYTES",
    "OUTBOX_SIZE",
    "ConnectionGate",
    "GateRefusal",
    "LimitsError",
    "MessageAllowance",
    "SessionLimits",
]

OUTBOX_SIZE = 256
"""Messages queued for one client before it counts as too slow (``SessionLimits``)."""

MAX_FRAME = HEADER_SIZE + MAX_FRAME_BODY
"""The largest frame the protocol allows, header included."""

OUTBOX_BYTES = 4 * MAX_FRAME
"""Bytes queued for one client before it counts as too slow (``SessionLimits``): four of
the largest frames, about 256 KiB. What the kernel's socket buffer holds comes on top; a
client that reads keeps its outbox near empty. At the default connection cap the outboxes
of clients that never read stay under about 64 MiB in all."""

MAX_REPLAYED_EVENTS = OUTBOX_SIZE // 2
"""The most missed events a resume replays. A client that missed more gets the full view
alone, its fresh base: queued all at once, a longer replay would fill the outbox and close
the resuming connection as too slow, and every retry from the same point would fail too."""


class LimitsError(ValueError):
    """Limits that make no sense (the operator's mistake): the message says which and why."""


@dataclass(frozen=True, slots=True)
class SessionLimits:
    """The numbers every session lives by. Times are in seconds."""

    handshake_seconds: float = 10.0
    """How long a new connection has to send its hello."""
    ping_interval_seconds: float = 15.0
    """How often the server pings a connection that has said its hello."""
    idle_timeout_seconds: float = 45.0
    """No whole message (a pong counts) for this long closes the connection; bytes that
    never make a message do not keep it open."""
    frame_seconds: float = 10.0
    """A frame must be complete this long after its first byte arrived; one sent a byte
    at a time to hold a connection slot closes the connection."""
    outbox_size: int = OUTBOX_SIZE
    """Messages queued for one client before it counts as too slow."""
    outbox_bytes: int = OUTBOX_BYTES
    """Bytes queued for one client before it counts as too slow (at least one largest frame)."""
    allowance_rate: float = 50.0
    """Messages per second a client may send on average (a fast bot stays well under)."""
    allowance_burst: float = 100.0
    """Messages a client may send at once before the average applies."""
    last_write_seconds: float = 2.0
    """How long the final error (or closing notice) may take to write before the socket closes."""

    def __post_init__(self) -> None:
        for name in (
            "handshake_seconds",
            "ping_interval_seconds",
            "idle_timeout_seconds",
            "frame_seconds",
            "allowance_rate",
            "last_write_seconds",
        ):
            if not getattr(self, name) > 0:
                raise LimitsError(f"{name} must be above 0, not {getattr(self, name)!r}")
        if self.allowance_burst < 1:
            raise LimitsError(f"allowance_burst must be at least 1, not {self.allowance_burst!r}")
        if self.outbox_size < 1:
            raise LimitsError(f"outbox_size must be at least 1, not {self.outbox_size!r}")
        if self.outbox_bytes < MAX_FRAME:
            raise LimitsError(
                f"outbox_bytes must be at least {MAX_FRAME} (the largest frame), or a frame "
                f"the protocol allows could never be sent; not {self.outbox_bytes!r}"
            )
        if self.idle_timeout_seconds <= self.ping_interval_seconds:
            raise LimitsError(
                "idle_timeout_seconds must be longer than ping_interval_seconds, or a quiet "
                "but healthy client is dropped before it is even asked to answer a ping"
            )


class MessageAllowance:
    """A token bucket: ``burst`` tokens, refilled at ``rate`` per second, one per message."""

    __slots__ = ("_last", "_tokens", "burst", "rate")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        if rate <= 0 or burst < 1:
            raise LimitsError(f"an allowance needs rate > 0 and burst >= 1, not {rate}/{burst}")
        self.rate = rate
        self.burst = burst
        self._tokens = burst
        self._last = now

    def take(self, now: float, cost: float = 1) -> bool:
        """Spend ``cost`` tokens (one per message) at ``now``; False when they are not
        there. A refusal spends nothing, so the bucket says the same thing if asked again.
        """
        # A clock that seems to go backwards (it should not) never mints tokens.
        elapsed = max(0.0, now - self._last)
        self._last = max(now, self._last)
        self._tokens = min(self.burst, self._tokens + elapsed * self.rate)
        if self._tokens < cost:
            return False
        self._tokens -= cost
        return True

    def full_by(self, now: float) -> bool:
        """Whether the bucket would be full at ``now``: forgetting it would change nothing."""
        return self._tokens + max(0.0, now - self._last) * self.rate >= self.burst

    @property
    def tokens(self) -> float:
        """Tokens left at the last ``take`` (for logs and tests)."""
        return self._tokens


@dataclass(frozen=True, slots=True)
class GateRefusal:
    """Why a connection was turned away; ``reason`` is a sentence for the client and the log."""

    reason: str


class ConnectionGate:
    """Counts open connections in total and per remote address.

    ``admit`` either counts a new connection in (returning None) or says why not; every
    admitted connection must later be ``release``-d exactly once.

    The last ``reserve`` slots (an eighth of the cap) are kept for addresses with no
    connection yet: an address that already holds one cannot take them. So however few
    addresses fill the server, a newcomer's first connection still gets in; to take the
    reserve too, an attacker needs that many more addresses.
    """

    __slots__ = ("_by_address", "_total", "max_connections", "max_per_address", "reserve")

    def __init__(self, max_connections: int, max_per_address: int) -> None:
        if max_connections < 1 or max_per_address < 1:
            raise LimitsError("the connection cap and the per-address share must be at least 1")
        self.max_connections = max_connections
        self.max_per_address = min(max_per_address, max_connections)
        self.reserve = max_connections // 8
        self._total = 0
        self._by_address: Counter[str] = Counter()

    @property
    def open_connections(self) -> int:
        """How many connections are counted in right now."""
        return self._total

    def count_for(self, address: str) -> int:
        """How many connections from ``address`` are counted in right now."""
        return self._by_address[address]

    def admit(self, address: str) -> GateRefusal | None:
        """Count a connection from ``address`` in, or say why it is refused."""
        if self._total >= self.max_connections:
            return GateRefusal(
                f"the server is full ({self.max_connections} connections); try again later"
            )
        if self._by_address[address] >= self.max_per_address:
            return GateRefusal(
                f"too many connections from {address} (at most {self.max_per_address} each)"
            )
        if self._by_address[address] and self._total >= self.max_connections - self.reserve:
            return GateRefusal(
                f"the server is nearly full; its last {self.reserve} connections are kept "
                "for people not yet connected"
            )
        self._total += 1
        self._by_address[address] += 1
        return None

    def release(self, address: str) -> None:
        """Count out one connection from ``address`` that ``admit`` let in."""
        if self._by_address[address] <= 0:
            raise RuntimeError(f"released a connection from {address} that was never admitted")
        self._by_address[address] -= 1
        if not self._by_address[address]:
            del self._by_address[address]
        self._total -= 1
