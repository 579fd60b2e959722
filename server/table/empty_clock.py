"""How long a table may go on with nobody connected before it is removed.

The clock runs only while no person is connected to the table. When someone comes back it
stops where it was, and goes on from there when they are gone again: resuming now and then
cannot keep an abandoned table alive for ever. Only a move by a person (``wind_back``)
gives it its full time again.
"""

from __future__ import annotations

__all__ = ["EmptyTableClock"]


class EmptyTableClock:
    """The empty-table clock of one table; times are Trio seconds."""

    def __init__(self, seconds: float) -> None:
        self._full = seconds
        self._left = seconds
        self.deadline: float | None = None
        """When the table is removed, while the clock runs; None while it is stopped."""

    def wind_back(self) -> None:
        """A person made a move: the full time again."""
        self._left = self._full

    def update(self, anyone_connected: bool, now: float) -> None:
        """Stop the clock while someone is connected; run it while nobody is."""
        if anyone_connected:
            if self.deadline is not None:
                self._left = max(0.0, self.deadline - now)
                self.deadline = None
        elif self.deadline is None:
            self.deadline = now + self._left

    def expired(self, now: float) -> bool:
        return self.deadline is not None and now >= self.deadline
