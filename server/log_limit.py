"""Log lines rate-limited per cause, so the log grows at the server's pace, not an attacker's.

A cause is where a line comes from: its logger, level and message template (the text
before ``%`` arguments are put in). Each cause may write ``burst`` lines at once and then
one every ``1 / rate`` seconds; the lines beyond are dropped and counted, and the next
line of that cause that is written says how many were dropped. A fuzzer sending bad
frames all day, or accept() failing for want of descriptors, costs a few lines a second.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["LogRateLimit"]

_MAX_CAUSES = 4096
"""Causes tracked before the quiet ones are forgotten (templates are few; this bounds it)."""


@dataclass(slots=True)
class _Cause:
    tokens: float
    last: float
    dropped: int = 0


class LogRateLimit(logging.Filter):
    """A logging filter: see the module docstring. Install it on the handlers."""

    def __init__(
        self,
        rate: float = 1.0,
        burst: float = 20.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._causes: dict[tuple[str, int, str], _Cause] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        now = self._clock()
        key = (record.name, record.levelno, str(record.msg))
        cause = self._causes.get(key)
        if cause is None:
            if len(self._causes) >= _MAX_CAUSES:
                self._forget_quiet(now)
            cause = self._causes[key] = _Cause(self.burst, now)
        cause.tokens = min(self.burst, cause.tokens + max(0.0, now - cause.last) * self.rate)
        cause.last = max(now, cause.last)
        if cause.tokens < 1:
            cause.dropped += 1
            return False
        cause.tokens -= 1
        if cause.dropped:
            record.msg = f"{record.msg} [{cause.dropped} more like this were not logged]"
            cause.dropped = 0
        return True

    def _forget_quiet(self, now: float) -> None:
        quiet = [
            key
            for key, cause in self._causes.items()
            if not cause.dropped and cause.tokens + (now - cause.last) * self.rate >= self.burst
        ]
        for key in quiet:
            del self._causes[key]
