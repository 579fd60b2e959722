"""A table's public record of its match, written a stretch at a time (issue 28).

Every event the table publishes also goes here, as a spectator sees it. The log holds the
current stretch only: the events since the latest ``round-started`` (before the first
round, those since the match began). When the next round starts, and when the match
ends, the stretch goes to the record's store (``ReplayStore``: the journal, or the
memory of a ``--no-state`` server) and the log starts the next one. So a long match is
never held whole, and the round being played is always at hand, from its
``round-started`` on (what a spectator who arrives mid-round is sent first).

A stretch holds at most ``MAX_STRETCH_EVENTS`` events. The engine puts no bound on a round
(players who draw and pass, at a table without a turn clock, can make it last forever), so a
round that reaches it is written in pieces: the log goes on with a stretch that does not
begin with ``round-started``, and a spectator arriving in it gets the view alone. The
record reads the same: its stretches follow one another, wherever they were cut.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Protocol

from protocol.events import EventKind
from server.table.history import NumberedEvent

__all__ = ["MAX_STRETCH_EVENTS", "ReplayLog", "ReplayStore", "public_line"]

MAX_STRETCH_EVENTS = 4096
"""The most events the log holds at once (what they cost in memory: docs/performance.md,
"The size of a match's record")."""


class ReplayStore(Protocol):
    """Where a table's finished stretches go."""

    def replay_part(self, part: int, lines: list[str]) -> None:
        """Stretch number ``part`` (0, 1, ... within the current match) of the match's
        record: one JSON map a line (``public_line``). Written again with the same lines
        when a rebuilt match replays it."""


def public_line(item: NumberedEvent) -> str:
    """One event as a spectator receives it: the flat wire map, as one JSON line."""
    data = item.event.seen_by(None, item.seq).to_data()
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


class ReplayLog:
    """The stretch being played of a table's match, and where finished ones go."""

    def __init__(self, store: ReplayStore | None) -> None:
        self._store = store
        self._part = 0
        self.stretch: list[NumberedEvent] = []
        """The events since the latest ``round-started`` (or the match's start)."""

    def match_started(self) -> None:
        """A new match: its first stretch is number 0."""
        self._part = 0
        self.stretch = []

    def add(self, numbered: Sequence[NumberedEvent]) -> None:
        """Events just published, in order."""
        for item in numbered:
            kind = item.event.kind
            if self.stretch and (
                kind is EventKind.ROUND_STARTED or len(self.stretch) >= MAX_STRETCH_EVENTS
            ):
                self._write()
            self.stretch.append(item)
            if kind is EventKind.MATCH_OVER:
                self._write()

    def round_so_far(self) -> list[NumberedEvent]:
        """The round being played from its ``round-started`` on; empty outside a round's
        stretch (before the first round, after the match)."""
        stretch = self.stretch
        if stretch and stretch[0].event.kind is EventKind.ROUND_STARTED:
            return list(stretch)
        return []

    def _write(self) -> None:
        if self._store is not None:
            self._store.replay_part(self._part, [public_line(item) for item in self.stretch])
        self._part += 1
        self.stretch = []
