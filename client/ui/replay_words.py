"""Every sentence the replay viewer says (``uno-client --replay``), in one place, read
from the catalogue (``client.i18n``) when it is said."""

from __future__ import annotations

from client.i18n import _, pgettext

__all__ = [
    "cannot_open",
    "help_lines",
    "help_title",
    "keys",
    "no_such_round",
    "status",
    "typing_round",
    "where",
]


def keys() -> str:
    """The keys line (cut at its ``·`` to fit the width)."""
    return pgettext(
        "replay", "←→ event · ,. turn · PgUp/PgDn round · Space play · -+ speed · ? help · q quit"
    )


def typing_round(typed: str) -> str:
    """The keys line while a round number is typed."""
    return pgettext("replay", "go to round: {typed}▏ · Enter go · Esc cancel").format(typed=typed)


def no_such_round(number: int, rounds: int) -> str:
    """The note for a round number the match never dealt."""
    return pgettext("replay", "no round {number}: this match dealt {rounds}").format(
        number=number, rounds=rounds
    )


def help_title() -> str:
    """The help page's title line."""
    return pgettext("replay", "Replay keys. ? or Esc to go back.")


def help_lines() -> tuple[str, ...]:
    """The help page, one key a line."""
    return (
        pgettext("replay", "→ or l      one event forward"),
        pgettext("replay", "← or h      one event back"),
        pgettext("replay", ". or ↓      to the next turn"),
        pgettext("replay", ", or ↑      back a turn"),
        pgettext("replay", "PgDn or ]   to the next round's deal"),
        pgettext("replay", "PgUp or [   back to this round's deal (again: the round before)"),
        pgettext("replay", "Home / End  the start / the end of the match"),
        pgettext("replay", "1-9 Enter   go to round N (type the number, then Enter)"),
        pgettext("replay", "Space or p  play / pause"),
        pgettext("replay", "- / +       slower / faster"),
        pgettext("replay", "?           this page"),
        pgettext("replay", "q           quit"),
    )


def status(
    *, round_no: int, rounds: int, event: int, events: int, playing: bool, per_second: float
) -> str:
    """The status line: where the replay stands and whether it plays."""
    pace = f"{per_second:g}"
    state = (
        pgettext("replay", "playing at {pace} events/s").format(pace=pace)
        if playing
        else pgettext("replay", "paused ({pace} events/s)").format(pace=pace)
    )
    return pgettext(
        "replay", "round {round} of {rounds} · event {event} of {events} · {state}"
    ).format(round=round_no, rounds=rounds, event=event, events=events, state=state)


def where(match_id: int) -> str:
    """What the header says in place of the server's address."""
    return pgettext("replay", "match {id}").format(id=match_id)


def cannot_open(path: str, reason: str) -> str:
    """The one line ``uno-client --replay`` prints for a file it cannot play."""
    return _("uno-client: cannot replay {path}: {reason}").format(path=path, reason=reason)
