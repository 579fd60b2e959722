"""What a connection that negotiated an older minor version is sent instead.

A minor version only adds to the one before it, so a peer of 1.0 or 1.1 is sent the same
messages less what its version lacks (docs/protocol.md section 4):

- an ``event`` of a kind its version does not have is withheld; the ``view`` that follows
  every change covers it (section 8 lets a view move a client's count past events);
- a ``view``'s ``legal`` list holds only commands its version knows: no jump-in (a play
  by a seat that is not to act);
- ``table-state.options`` holds only its version's options (``stack_draw_two`` says
  whether a Draw Two answers a Draw Two), and before 1.3 it names no owner, no
  ``host_reason`` and no ``removed_seat`` (a kick or ban reads as the seat emptied);
- before 1.3 a ``match-list``'s records carry no ``match_id`` and no ``note_code``
  (only the note's words), and their players no ``stand_in_turns``;
- a ``rejected`` whose code is newer than its version carries the older code that means
  the most nearly the same (``REJECTIONS_SINCE``), and before 1.3 none of its per-case
  fields (``option``, ``card``, ``limit``): only its words;
- before 1.3 a spectator's ``view`` holds no ``hands`` and a ``table-list`` entry no
  ``spectators_see_hands``; a 1.0-1.2 ``create-table`` asking for an option newer than
  its version is refused ``bad-options`` (``server.lobby``);
- a ``welcome`` says no ``web_port`` and no ``table_defaults`` before 1.3, and a
  ``table-list`` no ``banned``;
- a ``left`` carries no ``cause``, ``by`` or ``banned`` before 1.3: only its words;
- an ``error`` whose code its version lacks carries the older code that means the
  nearest thing (``ERROR_CODES_SINCE``).
- a message newer than its version (``replay-page``, 1.3) is never sent: such a peer
  cannot ask for one.

``for_version`` is pure and leaves a message of the current version untouched.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from enum import StrEnum
from typing import TypeVar

from protocol.commands import Play
from protocol.errors import ErrorCode, LobbyRejectCode
from protocol.events import EventKind
from protocol.messages import (
    Error,
    GameEvent,
    GameView,
    Left,
    MatchList,
    Message,
    Rejected,
    TableList,
    TableState,
    Welcome,
)
from protocol.version import Version
from protocol.views import View

__all__ = [
    "BANNED_SUMMARY_SINCE",
    "CATCH_UP_SINCE",
    "CURRENT",
    "ERROR_CODES_SINCE",
    "EVENTS_SINCE",
    "HOST_OWNER_SINCE",
    "JUMP_IN_SINCE",
    "LEFT_CAUSE_SINCE",
    "MATCH_RECORD_SINCE",
    "OPTIONS_SINCE",
    "REJECTIONS_SINCE",
    "REJECTION_FIELDS_SINCE",
    "REMATCH_ASKED_SINCE",
    "REMOVED_SEAT_SINCE",
    "SPECTATORS_SEE_HANDS_SINCE",
    "WEB_PORT_SINCE",
    "for_version",
]

CURRENT: Version = (1, 3)

_Coded = TypeVar("_Coded", Rejected, Error)

WEB_PORT_SINCE: Version = (1, 3)
"""The version whose ``welcome`` says the web port."""
BANNED_SUMMARY_SINCE: Version = (1, 3)
"""``table-list``'s ``banned`` (an older peer is refused when it tries the table)."""
REMATCH_ASKED_SINCE: Version = (1, 3)
"""A table state's ``rematch_asked``: before it, a rematch is not shown until it starts."""
REMOVED_SEAT_SINCE: Version = (1, 3)
"""``table-state.removed_seat`` and ``removed_banned``: who the host just kicked or banned
(an older peer sees only the seat emptied or given to a bot)."""
CATCH_UP_SINCE: Version = (1, 3)
"""The version whose spectator, arriving mid-round, is first sent the round's public events
from its ``round-started`` (an older one gets the view alone)."""

SPECTATORS_SEE_HANDS_SINCE: Version = (1, 3)
"""The table option ``spectators_see_hands``, a spectator's ``view.hands`` and
``table-list``'s ``spectators_see_hands`` (an older peer gets none of them)."""

LEFT_CAUSE_SINCE: Version = (1, 3)
"""``left``'s ``cause``, ``by`` and ``banned``: what happened as a code and fields (an
older peer reads only ``message``)."""

REJECTION_FIELDS_SINCE: Version = (1, 3)
"""``rejected``'s ``option``, ``card`` and ``limit``: the case in fields (an older peer
reads only ``message``)."""

JUMP_IN_SINCE: Version = (1, 2)
"""The version that lets a seat not to act play (a jump-in)."""

HOST_OWNER_SINCE: Version = (1, 3)
"""The version whose ``table-state`` names the owner and why the host holds the role."""

MATCH_RECORD_SINCE: Version = (1, 3)
"""The version whose match records name the match's id and count the turns a stand-in
played for each person."""

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
    "spectators_see_hands": (1, 3),
}
"""Table options added after 1.0, with the version that added them."""

REJECTIONS_SINCE: dict[str, tuple[Version, LobbyRejectCode]] = {
    LobbyRejectCode.JOURNAL_UNAVAILABLE: ((1, 3), LobbyRejectCode.INTERNAL_ERROR),
    LobbyRejectCode.WATCHED_HANDS: ((1, 3), LobbyRejectCode.WRONG_TABLE_STATE),
}
"""Rejection codes added after 1.0 that an older peer is sent as another: the version
that added each, and the code an older peer gets instead (one that leaves the
connection open and says as much: the server failed on this command)."""

ERROR_CODES_SINCE: dict[str, tuple[Version, ErrorCode]] = {
    ErrorCode.TOO_MANY_REFUSALS: ((1, 3), ErrorCode.RATE_LIMITED),
}
"""Error codes added after 1.0: the version that added each, and the code an older peer
is sent instead."""


_NEWER_FIELDS: dict[type[Message], tuple[Version, dict[str, object]]] = {
    Welcome: (WEB_PORT_SINCE, {"web_port": None, "table_defaults": None}),
    Left: (LEFT_CAUSE_SINCE, {"cause": None, "by": None, "banned": False}),
    Rejected: (REJECTION_FIELDS_SINCE, {"option": None, "card": None, "limit": None}),
}
"""Messages whose newer fields an older peer is sent empty: the version that added them,
and each field's empty value."""


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
    since, cleared = _NEWER_FIELDS.get(type(message), (version, {}))
    if version < since and any(getattr(message, name) != empty for name, empty in cleared.items()):
        # Cleared, then on to what else the version lacks (a rejection's newer code); a
        # message with nothing to clear is sent as it is.
        message = replace(message, **cleared)
    if isinstance(message, GameView):
        return _view_for(message, version)
    if isinstance(message, Rejected):
        return _with_code(message, REJECTIONS_SINCE, version)
    if isinstance(message, Error):
        return _with_code(message, ERROR_CODES_SINCE, version)
    if isinstance(message, TableState):
        return _table_state_for(message, version)
    if isinstance(message, TableList) and version < BANNED_SUMMARY_SINCE:
        tables = tuple(
            replace(table, banned=False, spectators_see_hands=False) for table in message.tables
        )
        return replace(message, tables=tables)
    if isinstance(message, MatchList) and version < MATCH_RECORD_SINCE:
        return _matches_for(message)
    return message


def _with_code(
    message: _Coded, added: Mapping[str, tuple[Version, StrEnum]], version: Version
) -> _Coded:
    """``message`` with the older code ``added`` names, if its code is newer than
    ``version`` (``REJECTIONS_SINCE``, ``ERROR_CODES_SINCE``); else ``message`` itself."""
    since, instead = added.get(message.code, (version, None))
    return message if instead is None or version >= since else replace(message, code=str(instead))


def _table_state_for(state: TableState, version: Version) -> TableState:
    """Before 1.3 a table state names no owner and no reason for the host (its
    ``host_seat`` is still the host's, lent or not); before 1.2 it has fewer options."""
    named = state.owner_seat is not None or state.host_reason is not None
    if version < HOST_OWNER_SINCE and named:
        state = replace(state, owner_seat=None, host_reason=None)
    if version < REMOVED_SEAT_SINCE and state.removed_seat is not None:
        state = replace(state, removed_seat=None, removed_banned=False)
    if version < REMATCH_ASKED_SINCE and state.rematch_asked:
        state = replace(state, rematch_asked=False)  # it cannot say ready: the clock decides
    newer = {name: None for name, since in OPTIONS_SINCE.items() if version < since}
    if not newer:
        return state
    return replace(state, options=replace(state.options, **newer))


def _matches_for(page: MatchList) -> MatchList:
    """Before 1.3 a match record names no id and no note code, and its players carry no
    count of the turns a stand-in played."""
    matches = tuple(
        replace(
            match,
            match_id=None,
            note_code=None,
            players=tuple(replace(player, stand_in_turns=0) for player in match.players),
        )
        for match in page.matches
    )
    return replace(page, matches=matches)


def _view_for(view: GameView, version: Version) -> GameView:
    """Before 1.3 a spectator's view holds no other hands; before 1.2 nobody plays out of
    turn: a seat not to act is offered no play."""
    if version < SPECTATORS_SEE_HANDS_SINCE and view.body.hands is not None:
        view = replace(view, body=replace(view.body, hands=None))
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
