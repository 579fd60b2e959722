"""Why the engine refused a command: stable kebab-case codes clients may switch on.

A rejection changes nothing in the match; the connection stays open. The human sentence
that travels with the code explains the particular case; the code names the kind of fault
and never changes meaning between versions.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["RejectCode"]


class RejectCode(StrEnum):
    """Every reason a well-formed command can be illegal right now."""

    NOT_YOUR_TURN = "not-your-turn"
    NOT_NOW = "not-now"
    CARD_NOT_IN_HAND = "card-not-in-hand"
    CARD_DOES_NOT_MATCH = "card-does-not-match"
    COLOUR_REQUIRED = "colour-required"
    COLOUR_NOT_ALLOWED = "colour-not-allowed"
    TARGET_REQUIRED = "target-required"
    INVALID_TARGET = "invalid-target"
    DANCE_REQUIRED = "dance-required"
    DANCE_NOT_ALLOWED = "dance-not-allowed"
    UNO_NOT_ALLOWED = "uno-not-allowed"
    ONLY_DRAWN_CARD = "only-drawn-card"
    ALREADY_DREW = "already-drew"
    NOTHING_TO_DRAW = "nothing-to-draw"
    CANNOT_PASS = "cannot-pass"
    MUST_ANSWER_DRAW_TWO = "must-answer-draw-two"
    NOT_EXPOSED = "not-exposed"
    CATCH_TOO_LATE = "catch-too-late"
    LOST_RACE = "lost-race"
    WILD_DRAW_FOUR_NOT_ALLOWED = "wild-draw-four-not-allowed"
    NOT_DUE = "not-due"
    INVALID_SEAT = "invalid-seat"
    ELIMINATED = "eliminated"
    TABLE_ONLY = "table-only"
    SEAT_ONLY = "seat-only"
    PAUSED = "paused"
    NOT_PAUSED = "not-paused"
    ROUND_OVER = "round-over"
    MATCH_OVER = "match-over"
