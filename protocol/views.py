"""Views: everything one seat (or a spectator) may see of a match at one moment.

A ``View`` is the table as a seat sees it: a ``SharedView`` that every seat and spectator
sees alike (a server sending everyone's view of one moment builds it once), plus the
seat's own hand, the card it drew and the commands it may send now. On the wire
(``view.body``, docs/protocol.md section 13) it is one flat map: ``seat``, the shared
fields, then ``hand``, ``drawn`` and ``legal`` (a spectator gets ``legal`` only, empty).
Keys that every version has sent as nil still are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from protocol.cards import Card, Color
from protocol.commands import Arrow, SeatCommand
from protocol.events import MatchOver, RoundOver
from protocol.limits import MAX_ARRAY_ITEMS
from protocol.options import MAX_SEATS
from protocol.phase import Phase
from protocol.schema import Record, items, number, record_from_data, text, wire

__all__ = ["DanceState", "Pending", "SharedView", "View"]

_SEAT = number(0, MAX_SEATS - 1)
_NIL_SEAT = number(0, MAX_SEATS - 1, nil=True)
_COUNT = number(0, MAX_ARRAY_ITEMS)
_MS = number(0, 2**63 - 1, nil=True)
_SEATS = items(MAX_SEATS, item=_SEAT)
_PER_SEAT = items(MAX_SEATS)


@dataclass(frozen=True, slots=True)
class Pending(Record):
    """The decision the match waits for."""

    kind: Phase
    """The phase: what the seat is to do."""
    seat: int = field(metadata=_SEAT)
    """The seat waited on."""
    remaining_ms: int | None = field(default=None, metadata=_MS)
    """Milliseconds left on its clock; nil when no clock runs."""


@dataclass(frozen=True, slots=True)
class DanceState(Record):
    """The dance a Dancing Wild called for, while the dancer is waited on."""

    seat: int = field(metadata=_SEAT)
    """The dancer."""
    dance: str | None = field(default=None, metadata=text(64, nil=True))
    """The dance named."""
    steps: tuple[Arrow, ...] | None = field(default=None, metadata=items(64, nil=True))
    """The steps to send; nil under ``dance_check: honour``."""


@dataclass(frozen=True, slots=True)
class SharedView(Record):
    """The part of a view every seat and spectator sees alike."""

    phase: Phase
    """What the match waits for (``paused`` while paused)."""
    round: int = field(metadata=number(0, 2**31 - 1))
    """The round's number."""
    dealer: int = field(metadata=_SEAT)
    """The dealer's seat."""
    direction: int = field(metadata=number(-1, 1))
    """1 clockwise, -1 the other way."""
    to_act: int | None = field(metadata=_NIL_SEAT)
    """The seat the match waits on; nil between rounds, after the match and while paused."""
    top: Card | None = field(metadata=wire(nil=True))
    """The top card of the discard pile."""
    color: Color | None = field(metadata=wire(nil=True))
    """The colour in force (nil until a wild first card's colour is named)."""
    counts: tuple[int, ...] = field(metadata=items(MAX_SEATS, item=_COUNT))
    """Cards in each seat's hand."""
    draw_count: int = field(metadata=_COUNT)
    """Cards in the draw pile."""
    discard_count: int = field(metadata=_COUNT)
    """Cards in the discard pile."""
    scores: tuple[int, ...] = field(metadata=_PER_SEAT)
    """Each seat's total."""
    eliminated: tuple[int, ...] = field(metadata=_SEATS)
    """Seats out of the match."""
    away: tuple[int, ...] = field(metadata=_SEATS)
    """Seats a server bot plays."""
    exposed: tuple[int, ...] = field(metadata=_SEATS)
    """Seats catchable now."""
    pending: Pending | None = field(metadata=wire(nil=True))
    """The decision waited for; nil when none is."""
    remaining_ms: int | None = field(metadata=_MS)
    """Milliseconds left on the running clock; while paused, what was left when the
    pause began; nil when no clock runs."""
    pending_draw: int = field(metadata=_COUNT)
    """Cards a draw stack has piled up so far."""
    skip_marks: tuple[int, ...] = field(metadata=items(MAX_SEATS, item=_COUNT))
    """For each seat, the ``skip_any`` marks it has still to serve."""
    round_result: RoundOver | None = field(metadata=wire(nil=True))
    """After a round and until the next starts: how it was scored."""
    match_result: MatchOver | None = field(metadata=wire(nil=True))
    """After the match: its winners and scores."""
    last_seq: int = field(metadata=number(0, 2**63 - 1))
    """The number of the last event the view includes."""
    dance: DanceState | None = None
    """Only in the dance phase: the dance called for."""


@dataclass(frozen=True, slots=True)
class View(Record):
    """The table as one seat sees it (``seat`` None: a spectator, who has no hand)."""

    seat: int | None = field(metadata=_NIL_SEAT)
    """The viewer's seat; nil for a spectator."""
    shared: SharedView
    """What everyone sees."""
    hand: tuple[Card, ...] | None = field(default=None, metadata=items(MAX_ARRAY_ITEMS))
    """The seat's cards; None (left out) for a spectator."""
    drawn: Card | None = None
    """The card this seat drew this turn, while it is still its turn."""
    legal: tuple[SeatCommand, ...] = field(default=(), metadata=items(MAX_ARRAY_ITEMS))
    """The seat commands this seat may send now (wilds once per colour, targets filled
    in, ``uno`` never set); empty for a spectator."""
    hands: tuple[tuple[Card, ...], ...] | None = field(
        default=None, metadata=items(MAX_ARRAY_ITEMS)
    )
    """(1.3) Every seat's cards, in seat order: only in a spectator's view of a
    ``spectators_see_hands`` table; None (left out) otherwise."""

    def to_data(self) -> dict[str, Any]:
        """The flat wire map (see the module docstring)."""
        data: dict[str, Any] = {"seat": self.seat}
        data.update(self.shared.to_data())
        if self.hand is not None:
            data["hand"] = [card.code for card in self.hand]
            data["drawn"] = None if self.drawn is None else self.drawn.code
        data["legal"] = [command.to_data() for command in self.legal]
        if self.hands is not None:
            data["hands"] = [[card.code for card in hand] for hand in self.hands]
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> View:
        """Read the flat wire map; raises RemoteProtocolError(bad-message)."""
        return record_from_data(cls, {**data, "shared": SharedView.from_data(data)})
