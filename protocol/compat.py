"""What a connection that negotiated an older minor version is sent instead.

A minor version only adds to the one before it, so a peer of 1.0 or 1.1 is sent the same
messages less what its version lacks (docs/protocol.md section 4):

- an ``event`` of a kind its version does not have is withheld; the ``view`` that follows
  every change covers it (section 8 lets a view move a client's count past events);
- a ``view``'s ``legal`` list holds only commands its version knows: no jump-in (a play
  by a seat that is not to act);
- ``table-state.options`` holds only its version's options (``stack_draw_two`` says
  whether a Draw Two answers a Draw Two);
- an ``error`` whose code its version lacks carries the older code that means the
  nearest thing (``ERROR_CODES_SINCE``).

``for_version`` is pure and leaves a message of the current version untouched.
"""

from __future__ import annotations

from dataclasses import replace

from protocol.commands import Play
from protocol.errors import ErrorCode
from protocol.events import EventKind
from protocol.messages import Error, GameEvent, GameView, Message, TableState
from protocol.version import Version
from protocol.views import View

__all__ = [
    "CURRENT",
    "ERROR_CODES_SINCE",
    "EVENTS_SINCE",
    "JUMP_IN_SINCE",
    "OPTIONS_SINCE",
    "for_version",
]

CURRENT: Version = (1, 3)

JUMP_IN_SINCE: Version = (1, 2)
"""The version that lets a seat not to act play (a jump-in)."""

EVENTS_SINCE: dict[EventKind | None, Version] = {
    EventKind.HANDS_PASSED: (1, 2),
    EventKind.JUMPED_IN: (1, 2),
}
"""Event kinds added after 1.0, with the version that added them."""

OPTIONS_SINCE: dict[str, Version] = {
    "stack": (1, 2),
    "seven_o": (1, 2),
    "jump_in": (1, 2),
    "draw_until_playable": (1, 2),
    "force_play": (1, 2),
}
"""Table options added after 1.0, with the version that added them."""

ERROR_CODES_SINCE: dict[str, tuple[Version, ErrorCode]] = {
    ErrorCode.TOO_MANY_REFUSALS: ((1, 3), ErrorCode.RATE_LIMITED),
}
"""Error codes added after 1.0: the version that added each, and the code an older peer
is sent instead."""


def for_version(message: Message, version: Version) -> Message | None:
    """``message`` as a peer of ``version`` is sent it; None when it is withheld (a message
    newer than ``version``, such as ``left`` to 1.0, or a 1.2 event kind to 1.1)."""
    if version >= CURRENT:
        return message
    if version < message.SINCE:
        return None
    if isinstance(message, GameEvent):
        since = EVENTS_SINCE.get(message.body.kind)
        return None if since is not None and version < since else message
    if isinstance(message, GameView):
        return _view_for(message, version)
    if isinstance(message, Error):
        added = ERROR_CODES_SINCE.get(message.code)
        if added is None or version >= added[0]:
            return message
        return replace(message, code=added[1].value)
    if isinstance(message, TableState):
        newer = {name: None for name, since in OPTIONS_SINCE.items() if version < since}
        if not newer:
            return message
        return replace(message, options=replace(message.options, **newer))
    return message


def _view_for(view: GameView, version: Version) -> GameView:
    """Before 1.2 nobody plays out of turn: a seat not to act is offered no play."""
    body = view.body
    legal = body.legal
    if version >= JUMP_IN_SINCE or not legal or body.seat == body.shared.to_act:
        return view
    kept = tuple(command for command in legal if not isinstance(command, Play))
    if len(kept) == len(legal):
        return view
    fewer = View.trusted(
        seat=body.seat, shared=body.shared, hand=body.hand, drawn=body.drawn, legal=kept
    )
    return GameView.trusted(seq=view.seq, body=fewer)
