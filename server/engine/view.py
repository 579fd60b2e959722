"""What one seat (or a spectator) may see of a match, as plain msgpack-able data."""

from __future__ import annotations

from typing import Any

from protocol.phase import Phase
from server.engine.legal import legal_seat_commands
from server.engine.state import MatchState

__all__ = ["build_view", "seat_view", "shared_view"]


def build_view(state: MatchState, seat: int | None, now_ms: int) -> dict[str, Any]:
    """The table as ``seat`` sees it; ``None`` is a spectator, who sees no hand.

    Deadlines are sent as milliseconds remaining (ruling 17), never as clock times.
    """
    return seat_view(state, shared_view(state, now_ms), seat)


def shared_view(state: MatchState, now_ms: int) -> dict[str, Any]:
    """The part of a view every seat and spectator sees alike, at ``now_ms``.

    A server sending everyone's view of one moment builds this once (``seat_view``).
    """
    phase = Phase.PAUSED if state.paused else state.phase
    top = state.discard[-1] if state.discard else None
    waiting = phase not in (Phase.ROUND_OVER, Phase.MATCH_OVER, Phase.PAUSED)
    pending: dict[str, Any] | None = None
    if waiting:
        pending = {"kind": phase.value, "seat": state.current}
    remaining: int | None = None
    if state.paused:
        remaining = state.paused_remaining
    elif state.deadline is not None:
        remaining = max(state.deadline - now_ms, 0)
    if pending is not None:
        pending["remaining_ms"] = remaining
    view: dict[str, Any] = {
        "phase": phase.value,
        "round": state.round_no,
        "dealer": state.dealer,
        "direction": state.direction,
        "to_act": state.current if waiting else None,
        "top": None if top is None else top.code,
        "color": None if state.color is None else state.color.value,
        "counts": [len(hand) for hand in state.hands],
        "draw_count": len(state.draw_pile),
        "discard_count": len(state.discard),
        "scores": list(state.scores),
        "eliminated": [s for s in range(state.seats) if state.eliminated[s]],
        "away": [s for s in range(state.seats) if state.away[s]],
        "exposed": [
            s
            for s, record in state.exposures.items()
            if record.status == "open" and state.window_open(record, now_ms)
        ],
        "pending": pending,
        "remaining_ms": remaining,
        "pending_draw": state.pending_draw,
        "skip_marks": list(state.skip_marks),
        "round_result": state.round_result,
        "match_result": state.result,
        "last_seq": state.event_count(),
    }
    if phase is Phase.DANCE:
        steps = state.dance_steps
        view["dance"] = {
            "seat": state.current,
            "dance": state.dance_name,
            "steps": None if steps is None else [step.value for step in steps],
        }
    return view


def seat_view(state: MatchState, shared: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """``shared`` (from ``shared_view``) completed for ``seat``: its hand, the card it
    drew and its legal commands. A new map, whose nested lists and maps are those of
    ``shared``: views are for sending, not for changing."""
    view = {"seat": seat, **shared}
    if seat is not None and 0 <= seat < state.seats:
        view["hand"] = [card.code for card in state.hands[seat]]
        drawn = state.drawn if seat == state.current and state.has_drawn else None
        view["drawn"] = None if drawn is None else drawn.code
        view["legal"] = [command.to_data() for command in legal_seat_commands(state, seat)]
    else:
        view["legal"] = []
    return view
