"""Typed views and commands for the bots' unit tests, written with card codes.

A strategy reads a ``protocol.views.View``; these build one of a hand-made position with
only the fields a test is about, the others at a plain turn's values.
"""

from __future__ import annotations

from collections.abc import Sequence

from protocol.cards import Card, Color
from protocol.commands import Play, SeatCommand
from protocol.phase import Phase
from protocol.views import DanceState, SharedView, View


def cards(codes: Sequence[str]) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in codes)


def play(code: str, color: str | None = None, target: int | None = None, uno: bool = False) -> Play:
    """The play of the card ``code`` (``color`` a colour code for a wild)."""
    return Play(
        Card.parse(code), color=None if color is None else Color(color), target=target, uno=uno
    )


def wild_variants(code: str) -> list[Play]:
    """A wild's plays, one per colour."""
    return [play(code, color=colour) for colour in "RYGB"]


def view(
    hand: Sequence[str],
    colour: str | None,
    legal: Sequence[SeatCommand],
    *,
    top: str | None = None,
    counts: Sequence[int] | None = None,
    seat: int = 0,
    to_act: int | None = 0,
    direction: int = 1,
    phase: Phase = Phase.TURN,
    eliminated: Sequence[int] = (),
    draw_count: int | None = None,
    discard_count: int = 5,
    dance: DanceState | None = None,
) -> View:
    """Seat ``seat``'s view holding ``hand`` under ``colour``, with ``legal`` to choose from;
    ``counts`` defaults to the hand's size for this seat and 7 for three others."""
    if counts is None:
        counts = [7] * 4
        counts[seat] = len(hand)
    shared = SharedView(
        phase=phase,
        round=1,
        dealer=len(counts) - 1,
        direction=direction,
        to_act=to_act,
        top=None if top is None else Card.parse(top),
        color=None if colour is None else Color(colour),
        counts=tuple(counts),
        draw_count=108 - sum(counts) - discard_count if draw_count is None else draw_count,
        discard_count=discard_count,
        scores=(0,) * len(counts),
        eliminated=tuple(eliminated),
        away=(),
        exposed=(),
        pending=None,
        remaining_ms=None,
        pending_draw=0,
        skip_marks=(0,) * len(counts),
        round_result=None,
        match_result=None,
        last_seq=1,
        dance=dance,
    )
    return View(seat=seat, shared=shared, hand=cards(hand), legal=tuple(legal))
