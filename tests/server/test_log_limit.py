"""Log lines rate-limited per cause, with a count of what was dropped."""

from __future__ import annotations

import logging

from server.log_limit import LogRateLimit


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _record(message: str, *args: object, name: str = "uno.server") -> logging.LogRecord:
    return logging.LogRecord(name, logging.INFO, __file__, 1, message, args, None)


def test_one_cause_is_cut_to_its_burst_and_the_next_line_counts_the_dropped() -> None:
    clock = Clock()
    limit = LogRateLimit(rate=1.0, burst=3.0, clock=clock)
    passed = [limit.filter(_record("bad frame from %s", f"10.0.0.{n}")) for n in range(10)]
    assert passed == [True, True, True] + [False] * 7
    # Another cause is not held back by the first one.
    assert limit.filter(_record("a table closed"))
    clock.now = 1.0
    later = _record("bad frame from %s", "10.0.0.99")
    assert limit.filter(later)
    assert later.getMessage() == "bad frame from 10.0.0.99 [7 more like this were not logged]"
    again = _record("bad frame from %s", "10.0.0.100")
    clock.now = 2.0
    assert limit.filter(again) and "not logged" not in again.getMessage()


def test_a_real_logger_with_the_filter_writes_a_bounded_number_of_lines() -> None:
    clock = Clock()
    seen: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record.getMessage())

    handler = Keep()
    handler.addFilter(LogRateLimit(rate=2.0, burst=5.0, clock=clock))
    logger = logging.getLogger("uno.test.log_limit")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        for second in range(10):
            clock.now = float(second)
            for _ in range(1000):
                logger.warning("flood %d", second)
    finally:
        logger.removeHandler(handler)
    assert 5 + 2 * 9 >= len(seen) >= 5 + 2 * 8
    assert all(line.startswith("flood") for line in seen)
