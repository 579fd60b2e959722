"""A budget per address for what the server repeats on someone's behalf: chat lines.

One chat line costs a frame for every listener, so a guest who chats fast in a full lobby
makes the server write hundreds of frames a second for them. Each address has a bucket of
deliveries: a line costs one delivery per listener (at least one), the bucket refills at
``rate`` deliveries a second up to ``burst``, and a line that the bucket cannot pay for is
refused (``slow-down``) and repeated to nobody. Ten people chatting in a lobby of ten stay
far below it.
"""

from __future__ import annotations

from server.limits import MessageAllowance

__all__ = ["ChatBudget"]

_KEEP_ADDRESSES = 1024
"""Buckets kept before the full ones (addresses that have been quiet) are forgotten."""


class ChatBudget:
    """Deliveries of chat each address may cause; see the module docstring."""

    def __init__(self, rate: float = 100.0, burst: float = 400.0) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError(f"a chat budget needs rate > 0 and burst >= 1, not {rate}/{burst}")
        self.rate = rate
        self.burst = burst
        self._buckets: dict[str, MessageAllowance] = {}

    def spend(self, address: str, listeners: int, now: float) -> bool:
        """Pay for one line heard by ``listeners`` at ``now`` (seconds); False, and nothing
        spent, when ``address`` cannot afford it."""
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) >= _KEEP_ADDRESSES:
                self._forget_quiet(now)
            bucket = self._buckets[address] = MessageAllowance(self.rate, self.burst, now)
        return bucket.take(now, cost=max(1, listeners))

    def _forget_quiet(self, now: float) -> None:
        """Drop the buckets that would be full by now: forgetting them changes nothing."""
        for address in [a for a, bucket in self._buckets.items() if bucket.full_by(now)]:
            del self._buckets[address]
