"""Where a replay stands, and how the viewer's keys move it (``uno-client --replay``).

A position counts the events shown: 0 is the table before its first event, ``len(events)``
the match's end. Moving by a turn stops just after the next (or the last) ``turn`` event,
by a round just after a ``round-started``. Playing steps one event at a time, at one of
``SPEEDS`` (events a second). Pure: the viewer (``client.ui.replay_app``) owns the clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from protocol.events import EventKind, SeenEvent
from protocol.replay_file import Replay

__all__ = ["DEFAULT_SPEED", "SPEEDS", "ReplayCursor"]

SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0)
"""The playing speeds, in events a second, slowest first."""
DEFAULT_SPEED = 2
"""The index in ``SPEEDS`` a replay starts playing at (2 events a second)."""


@dataclass(slots=True)
class ReplayCursor:
    """A position in one replay, the play/pause state and the speed."""

    replay: Replay
    position: int = 0
    playing: bool = False
    speed: int = DEFAULT_SPEED
    """An index in ``SPEEDS``."""
    turn_stops: tuple[int, ...] = field(init=False)
    """The positions just after each ``turn`` event."""
    round_stops: tuple[int, ...] = field(init=False)
    """The positions just after each ``round-started``, round 1 first."""

    def __post_init__(self) -> None:
        events = self.replay.events
        self.turn_stops = _after(events, EventKind.TURN)
        self.round_stops = _after(events, EventKind.ROUND_STARTED)

    @property
    def end(self) -> int:
        """The last position: every event shown."""
        return len(self.replay.events)

    @property
    def rounds(self) -> int:
        """How many rounds the match dealt."""
        return len(self.round_stops)

    @property
    def round(self) -> int:
        """The round shown (0 before the first deal)."""
        return sum(1 for stop in self.round_stops if stop <= self.position)

    @property
    def per_second(self) -> float:
        """The playing speed in events a second."""
        return SPEEDS[self.speed]

    def step(self, events: int) -> None:
        """Move ``events`` forward (back when negative), within the match."""
        self.position = max(0, min(self.end, self.position + events))

    def next_turn(self) -> None:
        self.position = _next(self.turn_stops, self.position, self.end)

    def previous_turn(self) -> None:
        self.position = _previous(self.turn_stops, self.position)

    def next_round(self) -> None:
        self.position = _next(self.round_stops, self.position, self.end)

    def previous_round(self) -> None:
        """Back to this round's deal; from its deal, to the last round's."""
        self.position = _previous(self.round_stops, self.position)

    def go_to_round(self, number: int) -> bool:
        """Jump to round ``number``'s deal; False (and no move) for a round not dealt."""
        if not 1 <= number <= self.rounds:
            return False
        self.position = self.round_stops[number - 1]
        return True

    def go_to_start(self) -> None:
        self.position = 0

    def go_to_end(self) -> None:
        self.position = self.end
        self.playing = False

    def toggle_play(self) -> None:
        """Play or pause; playing from the end starts again from the start."""
        if not self.playing and self.position >= self.end:
            self.position = 0
        self.playing = not self.playing

    def faster(self) -> None:
        self.speed = min(len(SPEEDS) - 1, self.speed + 1)

    def slower(self) -> None:
        self.speed = max(0, self.speed - 1)

    def tick(self) -> None:
        """One beat of play: one event forward; the end pauses."""
        if not self.playing:
            return
        self.step(1)
        if self.position >= self.end:
            self.playing = False


def _after(events: tuple[SeenEvent, ...], kind: EventKind) -> tuple[int, ...]:
    return tuple(index + 1 for index, event in enumerate(events) if event.kind is kind)


def _next(stops: tuple[int, ...], position: int, end: int) -> int:
    return next((stop for stop in stops if stop > position), end)


def _previous(stops: tuple[int, ...], position: int) -> int:
    return next((stop for stop in reversed(stops) if stop < position), 0)
