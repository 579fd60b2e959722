"""What one seat (or a spectator) may see of a match: the ``View`` records of a moment.

Views are built with ``trusted`` (no checks): every value comes from the engine's own
state. Checking them cost the soak of ``tests/bench/engine.py`` half its speed (110
mixed rounds a second against 208 before views were typed); ``tests/engine/
test_event_codec.py`` builds the same records through their constructors and holds them
equal, and every client decodes them strictly.
"""

from __future__ import annotations

from protocol.phase import Phase
from protocol.views import DanceState, Pending, SharedView, View
from server.engine.legal import legal_seat_commands
from server.engine.state import MatchState

__all__ = ["build_view", "seat_view", "shared_view"]

_WAITING_NOT = (Phase.ROUND_OVER, Phase.MATCH_OVER, Phase.PAUSED)


def build_view(state: MatchState, seat: int | None, now_ms: int) -> View:
    """The table as ``seat`` sees it; ``None`` is a spectator, who sees no hand.

    Deadlines are sent as milliseconds remaining (ruling 17), never as clock times.
    """
    return seat_view(state, shared_view(state, now_ms), seat)


def shared_view(state: MatchState, now_ms: int) -> SharedView:
    """The part of a view every seat and spectator sees alike, at ``now_ms``.

    A server sending everyone's view of one moment builds this once (``seat_view``).
    """
    phase = Phase.PAUSED if state.paused else state.phase
    top = state.discard[-1] if state.discard else None
    waiting = phase not in _WAITING_NOT
    remaining: int | None = None
    if state.paused:
        paused = state.paused_remaining  # negative if the pause came after the deadline
        remaining = None if paused is None else max(paused, 0)
    elif state.deadline is not None:
        remaining = max(state.deadline - now_ms, 0)
    pending = None
    if waiting:
        pending = Pending.trusted(kind=phase, seat=state.current, remaining_ms=remaining)
    dance = None
    if phase is Phase.DANCE:
        dance = DanceState.trusted(
            seat=state.current, dance=state.dance_name, steps=state.dance_steps
        )
    seats = range(state.seats)
    return SharedView.trusted(
        phase=phase,
        round=state.round_no,
        dealer=state.dealer,
        direction=state.direction,
        to_act=state.current if waiting else None,
        top=top,
        color=state.color,
        counts=tuple(map(len, state.hands)),
        draw_count=len(state.draw_pile),
        discard_count=len(state.discard),
        scores=tuple(state.scores),
        eliminated=tuple(s for s in seats if state.eliminated[s]),
        away=tuple(s for s in seats if state.away[s]),
        exposed=tuple(
            s
            for s, record in state.exposures.items()
            if record.status == "open" and state.window_open(record, now_ms)
        ),
        pending=pending,
        remaining_ms=remaining,
        pending_draw=state.pending_draw,
        skip_marks=tuple(state.skip_marks),
        round_result=state.round_result,
        match_result=state.result,
        last_seq=state.event_count(),
        dance=dance,
    )


def seat_view(state: MatchState, shared: SharedView, seat: int | None) -> View:
    """``shared`` (from ``shared_view``) completed for ``seat``: its hand, the card it
    drew and its legal commands."""
    if seat is None and state.config.spectators_see_hands:
        hands = tuple(tuple(hand) for hand in state.hands)
        return View.trusted(seat=None, shared=shared, hands=hands)
    if seat is None or not 0 <= seat < state.seats:
        return View.trusted(seat=seat, shared=shared)
    drawn = state.drawn if seat == state.current and state.has_drawn else None
    return View.trusted(
        seat=seat,
        shared=shared,
        hand=tuple(state.hands[seat]),
        drawn=drawn,
        legal=tuple(legal_seat_commands(state, seat)),
    )
