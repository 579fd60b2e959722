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

from server.limits import MessageAllowance

__all__ = ["LogRateLimit"]

_MAX_CAUSES = 4096
"""Causes tracked before the quiet ones are forgotten (templates are few; this bounds it)."""


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
        self._causes: dict[tuple[str, int, str], MessageAllowance] = {}
        self._dropped: dict[tuple[str, int, str], int] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        now = self._clock()
        key = (record.name, record.levelno, str(record.msg))
        allowance = self._causes.get(key)
        if allowance is None:
            if len(self._causes) >= _MAX_CAUSES:
                self._forget_quiet(now)
            allowance = self._causes[key] = MessageAllowance(self.rate, self.burst, now)
        if not allowance.take(now):
            self._dropped[key] = self._dropped.get(key, 0) + 1
            return False
        dropped = self._dropped.pop(key, 0)
        if dropped:
            record.msg = f"{record.msg} [{dropped} more like this were not logged]"
        return True

    def _forget_quiet(self, now: float) -> None:
        quiet = [
            key
            for key, allowance in self._causes.items()
            if key not in self._dropped and allowance.full_by(now)
        ]
        for key in quiet:
            del self._causes[key]
