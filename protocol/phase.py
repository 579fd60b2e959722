"""What a match waits for: the ``phase`` of every view and of a decision's ``turn`` event."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Phase"]


class Phase(StrEnum):
    """What the match is waiting for; the values are the strings on the wire.

    ``TURN``: the seat to act plays a card, draws or passes. ``CHOOSE_COLOR``: a wild was
    turned up as the first card and the first player names the colour (and for Swap Hands
    the seat to swap with). ``CHALLENGE``: the victim of a Wild Draw Four accepts or
    challenges. ``DANCE``: the victim of a Dancing Wild dances or refuses. ``STACK``: with
    ``stack_draw_two`` the victim of a Draw Two answers with a Draw Two or draws the total.
    ``ROUND_OVER``: scores are shown until the table's NextRound (or its Timeout).
    ``MATCH_OVER``: final. ``PAUSED``: the host stopped every clock; only Resume and
    SetAway are legal.
    """

    TURN = "turn"
    CHOOSE_COLOR = "choose-color"
    CHALLENGE = "challenge"
    DANCE = "dance"
    STACK = "stack"
    ROUND_OVER = "round-over"
    MATCH_OVER = "match-over"
    PAUSED = "paused"
