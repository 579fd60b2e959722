"""Events in plain words, for the table's log.

``describe_event(body, name_of)`` turns one event body (as the server sent it to this
seat) into one line such as ``Ann played red 7`` or ``you drew 2 cards (penalty)``.
``name_of(seat)`` gives a seat's name (``you`` for one's own seat).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from client.ui.faces import card_label, card_name, color_name
from protocol.commands import Arrow
from protocol.events import EventKind

__all__ = ["describe_event", "describe_seats"]

NameOf = Callable[[int | None], str]


def _cards(count: int) -> str:
    return "1 card" if count == 1 else f"{count} cards"


def _whose(name: str) -> str:
    """A name as an owner: ``your`` for ``you``, else ``Bob's``."""
    return "your" if name == "you" else f"{name}'s"


def _direction(value: Any) -> str:
    return "clockwise" if value == 1 else "counter-clockwise"


def _played(e: Mapping[str, Any], name: NameOf) -> str:
    text = f"{name(e.get('seat'))} played {card_name(str(e.get('card')))}"
    card = str(e.get("card", ""))
    if card.startswith("W") and e.get("color"):
        text += f", calling {color_name(e.get('color'))}"
    if e.get("target") is not None:
        text += f" on {name(e.get('target'))}"
    if e.get("dance"):
        text += f" (dance: {e.get('dance')})"
    if e.get("uno"):
        text += " and said UNO!"
    return text


def _drew(e: Mapping[str, Any], name: NameOf) -> str:
    who = name(e.get("seat"))
    text = f"{who} drew {_cards(int(e.get('count', 0)))}"
    cards = e.get("cards")
    if cards:
        text += ": " + " ".join(card_label(str(card)) for card in cards)
    reason = str(e.get("reason") or "")
    if reason and reason != "draw":
        text += f" ({_DRAW_REASONS.get(reason, reason.replace('-', ' '))})"
    return text


_DRAW_REASONS = {
    "draw-two": "Draw Two",
    "wild-draw-four": "Wild Draw Four",
    "caught": "caught without UNO",
    "false-catch": "a wrong catch",
    "challenge": "the challenge",
    "custom": "Customizable wild",
    "dance": "no dance",
    "skip": "skip",
    "creeper": "Creeper",
}
"""Why cards were drawn, in words (the engine's reasons; an unknown one is shown plainly)."""


def _exposed(e: Mapping[str, Any], name: NameOf) -> str:
    who = name(e.get("seat"))
    if who == "you":
        return "you forgot to say UNO! press u before someone catches you"
    return f"{who} forgot to say UNO! (c to catch)"


def _round_over(e: Mapping[str, Any], name: NameOf) -> str:
    winner = e.get("winner")
    gained = e.get("gained") or []
    text = f"round over: {name(winner)} won" if winner is not None else "round over"
    if isinstance(winner, int) and winner < len(gained) and gained[winner]:
        text += f" and scored {gained[winner]}"
    return text


def _match_over(e: Mapping[str, Any], name: NameOf) -> str:
    winners = e.get("winners") or []
    who = " and ".join(name(seat) for seat in winners) or "nobody"
    return f"match over: {who} won the match"


_ARROWS: dict[str, str] = {Arrow.UP: "↑", Arrow.DOWN: "↓", Arrow.LEFT: "←", Arrow.RIGHT: "→"}

_SIMPLE: dict[EventKind, Callable[[Mapping[str, Any], NameOf], str]] = {
    EventKind.DEALER_CHOSEN: lambda e, n: f"the dealer is {n(e.get('dealer'))}",
    EventKind.ROUND_STARTED: lambda e, n: (
        f"round {e.get('round')} begins (dealer: {n(e.get('dealer'))})"
    ),
    EventKind.FIRST_CARD: lambda e, n: f"first card: {card_name(str(e.get('card')))}",
    EventKind.FIRST_CARD_RETURNED: lambda e, n: "a Wild Draw Four turned up; it goes back",
    EventKind.TURN: lambda e, n: "",
    EventKind.PLAYED: _played,
    EventKind.COLOR_CHOSEN: lambda e, n: f"{n(e.get('seat'))} chose {color_name(e.get('color'))}",
    EventKind.DREW: _drew,
    EventKind.PASSED: lambda e, n: (
        f"{n(e.get('seat'))} passed" + (" (stuck)" if e.get("stuck") else "")
    ),
    EventKind.DIRECTION: lambda e, n: f"play now goes {_direction(e.get('direction'))}",
    EventKind.SKIPPED: lambda e, n: f"{n(e.get('seat'))} skipped",
    EventKind.UNO_CALLED: lambda e, n: f"{n(e.get('seat'))} said UNO!",
    EventKind.EXPOSED: _exposed,
    EventKind.CAUGHT: lambda e, n: (
        f"{n(e.get('by'))} caught {n(e.get('seat'))}: draws {e.get('penalty', 2)}"
    ),
    EventKind.FALSE_CATCH: lambda e, n: (
        f"{n(e.get('seat'))} wrongly caught {n(e.get('target'))}: draws {e.get('penalty')}"
    ),
    EventKind.CHALLENGED: lambda e, n: (
        f"{n(e.get('seat'))} challenged {_whose(n(e.get('target')))} Wild Draw Four: "
        + ("guilty!" if e.get("guilty") else "it was legal")
        + (
            " (hand: " + " ".join(card_label(str(c)) for c in e.get("hand") or ()) + ")"
            if e.get("hand")
            else ""
        )
    ),
    EventKind.DRAW_FOUR_ACCEPTED: lambda e, n: f"{n(e.get('seat'))} took the Wild Draw Four",
    EventKind.DANCE_CALLED: lambda e, n: (
        f"{n(e.get('seat'))} must dance {e.get('dance')}: "
        + " ".join(_ARROWS.get(str(s), str(s)) for s in e.get("steps") or ())
    ),
    EventKind.DANCED: lambda e, n: f"{n(e.get('seat'))} danced!",
    EventKind.DANCE_REFUSED: lambda e, n: f"{n(e.get('seat'))} did not dance and draws 3",
    EventKind.CREEPER_REVEALED: lambda e, n: f"{n(e.get('seat'))} drew a Creeper! 3 more cards",
    EventKind.HANDS_SWAPPED: lambda e, n: (
        f"{n(e.get('seat'))} swapped hands with {n(e.get('target'))}"
    ),
    EventKind.HANDS_SHUFFLED: lambda e, n: f"{n(e.get('seat'))} shuffled everyone's hands",
    EventKind.HANDS_PASSED: lambda e, n: (
        f"{n(e.get('seat'))} played a 0: every hand moves on to the next player"
    ),
    EventKind.JUMPED_IN: lambda e, n: (
        f"{n(e.get('seat'))} jumped in ahead of {n(e.get('overtaken'))}!"
    ),
    EventKind.SKIP_MARKED: lambda e, n: f"{n(e.get('seat'))} will skip {n(e.get('target'))}",
    EventKind.SKIP_SERVED: lambda e, n: f"{n(e.get('seat'))} draws 1 and loses the turn (skip)",
    EventKind.RESHUFFLED: lambda e, n: "the discards were shuffled into a new draw pile",
    EventKind.TIMED_OUT: lambda e, n: f"{n(e.get('seat'))} ran out of time",
    EventKind.AWAY: lambda e, n: f"{n(e.get('seat'))} is away; a bot plays for now",
    EventKind.BACK: lambda e, n: f"{n(e.get('seat'))} is back",
    EventKind.PAUSED: lambda e, n: "the game is paused",
    EventKind.RESUMED: lambda e, n: "the game goes on",
    EventKind.ROUND_OVER: _round_over,
    EventKind.MATCH_OVER: _match_over,
}


def describe_event(
    body: Mapping[str, Any], name_of: NameOf, previous: Mapping[str, Any] | None = None
) -> str:
    """One log line for an event body; empty for events not worth a line (turns).

    ``previous`` is the event before it: a UNO said with a play is already in the play's
    line, so the call that follows it adds none.
    """
    kind = str(body.get("kind", ""))
    if (
        kind == EventKind.UNO_CALLED
        and previous is not None
        and previous.get("kind") == EventKind.PLAYED
        and previous.get("uno")
        and previous.get("seat") == body.get("seat")
    ):
        return ""
    try:
        describe = _SIMPLE[EventKind(kind)]
    except (ValueError, KeyError):  # a kind newer than this client
        return kind.replace("-", " ")
    return describe(body, name_of)


def describe_seats(
    before: Sequence[tuple[str, bool]], after: Sequence[tuple[str, bool]]
) -> list[str]:
    """Log lines for the seats that changed between two table states: who joined, who
    left, whose seat someone else took. Each seat is (name, is a bot); "" is empty."""
    lines = []
    for (old, _), (new, bot) in zip(before, after, strict=False):
        if old == new:
            continue
        joined = f"{new} (a bot)" if bot else new
        if not old:
            lines.append(f"{joined} joined the table")
        elif not new:
            lines.append(f"{old} left the table")
        else:
            lines.append(f"{joined} took {old}'s seat")
    return lines
