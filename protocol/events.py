"""Events: what happened in a match, numbered, with the secret parts addressed to seats.

The engine emits one ``Event`` per thing that happened. ``public`` is what everyone at the
table (spectators included) may know; ``private`` maps a seat to what only that seat may
know (the cards it drew, the hand it was shown). Every seat receives every event, so the
numbering is gap-free for everybody; ``for_seat`` gives the redacted form one seat sees.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

__all__ = ["Event", "EventKind", "InvalidEventError"]


class InvalidEventError(ValueError):
    """Plain data that does not describe an event."""


class EventKind(StrEnum):
    """What kind of thing happened. Fields each kind carries are listed in docs/protocol.md."""

    DEALER_CHOSEN = "dealer-chosen"  # draws: [[[seat, card], ...], ...] per draw, dealer
    ROUND_STARTED = "round-started"  # round, dealer, counts; private: hand
    FIRST_CARD = "first-card"  # card, color (None for a wild)
    FIRST_CARD_RETURNED = "first-card-returned"  # card (a Wild Draw Four goes back)
    TURN = "turn"  # seat, direction, phase
    PLAYED = "played"  # seat, card, color, target, dance, uno, count
    JUMPED_IN = "jumped-in"  # seat (the jumper), overtaken (the seat that was to act)
    COLOR_CHOSEN = "color-chosen"  # seat, color (first card wild)
    DREW = "drew"  # seat, count, reason; private: cards
    PASSED = "passed"  # seat, stuck
    DIRECTION = "direction"  # direction after a Reverse
    SKIPPED = "skipped"  # seat that loses its turn
    UNO_CALLED = "uno-called"  # seat, early
    EXPOSED = "exposed"  # seat that left itself one card without a call
    CAUGHT = "caught"  # seat, by, penalty
    FALSE_CATCH = "false-catch"  # seat (the catcher), target, penalty, reason
    CHALLENGED = "challenged"  # seat (challenger), target, guilty; private: hand
    DRAW_FOUR_ACCEPTED = "draw-four-accepted"  # seat
    DANCE_CALLED = "dance-called"  # seat (dancer), by, dance, steps
    DANCED = "danced"  # seat
    DANCE_REFUSED = "dance-refused"  # seat, reason
    CREEPER_REVEALED = "creeper-revealed"  # seat, card
    HANDS_SWAPPED = "hands-swapped"  # seat, target, counts; private: hand
    HANDS_SHUFFLED = "hands-shuffled"  # seat, counts; private: hand
    HANDS_PASSED = "hands-passed"  # seat (who played the 0), direction, counts; private: hand
    SKIP_MARKED = "skip-marked"  # seat (who played), target
    SKIP_SERVED = "skip-served"  # seat
    RESHUFFLED = "reshuffled"  # count now in the draw pile
    TIMED_OUT = "timed-out"  # seat, phase
    AWAY = "away"  # seat, reason
    BACK = "back"  # seat
    PAUSED = "paused"
    RESUMED = "resumed"
    ROUND_OVER = "round-over"  # round, winner, reason, hands, points, gained, scores,
    # eliminated
    MATCH_OVER = "match-over"  # winners, scores


@dataclass(frozen=True, slots=True)
class Event:
    """One numbered thing that happened.

    ``seq`` counts from 1 per match without gaps; ``public`` is shown to everyone;
    ``private[seat]`` only to that seat (a spectator is ``None`` and sees nothing private).
    """

    seq: int
    kind: EventKind
    public: Mapping[str, Any] = field(default_factory=dict)
    private: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        """The event as ``seat`` may see it: public fields plus that seat's secrets."""
        data: dict[str, Any] = {"seq": self.seq, "kind": self.kind.value}
        data.update(self.public)
        if seat is not None and self.private:
            secret = self.private.get(seat)
            if secret:
                data.update(secret)
        return data

    def to_data(self) -> dict[str, Any]:
        """The full, unredacted plain form (for snapshots and logs, never for a client)."""
        return {
            "seq": self.seq,
            "kind": self.kind.value,
            "public": dict(self.public),
            "private": [[seat, dict(secret)] for seat, secret in self.private.items()],
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Event:
        """Rebuild an event from ``to_data`` output; raises InvalidEventError otherwise."""
        try:
            seq = data["seq"]
            kind = EventKind(data["kind"])
            public = dict(data.get("public", {}))
            private = {int(seat): dict(secret) for seat, secret in data.get("private", [])}
        except (KeyError, ValueError, TypeError) as error:
            raise InvalidEventError(f"not an event: {error}") from None
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
            raise InvalidEventError("seq must be a positive whole number")
        return cls(seq, kind, public, private)
