"""Every sentence the replay viewer says (``uno-client --replay``), in one place."""

from __future__ import annotations

__all__ = [
    "HELP_LINES",
    "HELP_TITLE",
    "KEYS",
    "NO_SUCH_ROUND",
    "TYPING_ROUND",
    "cannot_open",
    "status",
    "where",
]

KEYS = "←→ event · ,. turn · PgUp/PgDn round · Space play · -+ speed · ? help · q quit"
"""The keys line (cut at its ``·`` to fit the width)."""

TYPING_ROUND = "go to round: {typed}▏ · Enter go · Esc cancel"
"""The keys line while a round number is typed."""

NO_SUCH_ROUND = "no round {number}: this match dealt {rounds}"

HELP_TITLE = "Replay keys. ? or Esc to go back."

HELP_LINES = (
    "→ or l      one event forward",
    "← or h      one event back",
    ". or ↓      to the next turn",
    ", or ↑      back a turn",
    "PgDn or ]   to the next round's deal",
    "PgUp or [   back to this round's deal (again: the round before)",
    "Home / End  the start / the end of the match",
    "1-9 Enter   go to round N (type the number, then Enter)",
    "Space or p  play / pause",
    "- / +       slower / faster",
    "?           this page",
    "q           quit",
)
"""The help page, one key a line."""


def status(
    *, round_no: int, rounds: int, event: int, events: int, playing: bool, per_second: float
) -> str:
    """The status line: where the replay stands and whether it plays."""
    pace = f"{per_second:g} events/s"
    state = f"playing at {pace}" if playing else f"paused ({pace})"
    return f"round {round_no} of {rounds} · event {event} of {events} · {state}"


def where(match_id: int) -> str:
    """What the header says in place of the server's address."""
    return f"match {match_id}"


def cannot_open(path: str, reason: str) -> str:
    """The one line ``uno-client --replay`` prints for a file it cannot play."""
    return f"uno-client: cannot replay {path}: {reason}"
