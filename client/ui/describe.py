"""Events in plain words, for the table's log.

``describe_event(event, name_of)`` turns one event (as the server sent it to this seat)
into one line such as ``Ann played red 7`` or ``you drew 2 cards (penalty)``, by the
event's record type. ``name_of(seat)`` gives a seat's name (``you`` for one's own seat).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from client.ui.faces import card_label, card_name, color_name
from client.ui.sentences import SENTENCES, say, say_count
from protocol.cards import Card, Rank
from protocol.commands import Arrow
from protocol.events import (
    Away,
    Back,
    Caught,
    Challenged,
    ColorChosen,
    CreeperRevealed,
    DanceCalled,
    Danced,
    DanceRefused,
    DealerChosen,
    DirectionChanged,
    DrawFourAccepted,
    Drew,
    DrewReason,
    EventBody,
    Exposed,
    FalseCatch,
    FirstCard,
    FirstCardReturned,
    HandsPassed,
    HandsShuffled,
    HandsSwapped,
    JumpedIn,
    MatchOver,
    Passed,
    Paused,
    Played,
    Reshuffled,
    Resumed,
    RoundOver,
    RoundStarted,
    SecretCards,
    SecretHand,
    SeenEvent,
    SkipMarked,
    Skipped,
    SkipServed,
    TimedOut,
    Turn,
    UnknownEvent,
    UnoCalled,
)
from protocol.messages import HostReason, TableState

__all__ = ["describe_event", "describe_host", "describe_removal", "describe_seats", "stack_after"]

NameOf = Callable[[int | None], str]

_DRAW_CARDS = frozenset({Rank.DRAW_TWO, Rank.WILD_DRAW_FOUR})
_STACK_REASONS = frozenset({DrewReason.DRAW_TWO, DrewReason.WILD_DRAW_FOUR})


def _cards(count: int) -> str:
    return say_count("cards", count)


def _labels(cards: Sequence[Card]) -> str:
    return " ".join(card_label(card.code) for card in cards)


def _whose(name: str) -> str:
    """A name as an owner: ``your`` for ``you``, else ``Bob's``."""
    return say("whose.you") if name == say("you") else say("whose.other", player=name)


def _color(letter: str | None) -> str:
    return color_name(letter) if letter is not None else say("color.none")


def _number(count: int) -> str:
    key = f"number.{count}"
    return say(key) if key in SENTENCES else str(count)


def stack_after(stack: tuple[str, ...], body: EventBody) -> tuple[str, ...]:
    """The draw cards (Draw Two, Wild Draw Four) played in a row and not yet drawn for,
    after ``body``: the stack a penalty draw pays for (issue 26 item 8)."""
    match body:
        case Played() if body.card.rank in _DRAW_CARDS:
            return (*stack, body.card.code)
        case Played() | RoundStarted():
            return ()
        case Drew() if body.reason in _STACK_REASONS or body.reason is DrewReason.CHALLENGE:
            return ()
    return stack


def _stack(stack: Sequence[str]) -> str:
    """``three Draw Twos``: a stack by its cards."""
    if all(code == "W+4" for code in stack):
        key = "stack.wild-draw-four"
    elif all(code.endswith("+2") and code != "W+4" for code in stack):
        key = "stack.draw-two"
    else:
        key = "stack.mixed"
    return say(key, number=_number(len(stack)))


def _played(e: Played, name: NameOf) -> str:
    text = say("played", player=name(e.seat), card=card_name(e.card.code))
    if e.card.is_wild and e.color is not None:
        text += say("played.calling", color=_color(e.color.value))
    if e.target is not None:
        text += say("played.target", target=name(e.target))
    if e.dance:
        text += say("played.dance", dance=e.dance)
    if e.uno:
        text += say("played.uno")
    return text


def _drew(e: Drew, secret: SecretCards | None, name: NameOf, stack: Sequence[str]) -> str:
    shown = secret is not None and bool(secret.cards)
    if e.reason in _STACK_REASONS and len(stack) > 1:
        text = say("drew.stack", player=name(e.seat), count=e.count, stack=_stack(stack))
        if secret is not None and shown:
            text += say("drew.stack.cards", labels=_labels(secret.cards))
        return text
    text = say("drew", player=name(e.seat), cards=_cards(e.count))
    if secret is not None and shown:
        text += say("drew.cards", labels=_labels(secret.cards))
    if e.reason is not DrewReason.DRAW:
        text += say("drew.reason", reason=say(f"reason.{e.reason.value}"))
    return text


def _exposed(e: Exposed, name: NameOf) -> str:
    who = name(e.seat)
    return say("exposed.you") if who == say("you") else say("exposed.other", player=who)


def _round_over(e: RoundOver, name: NameOf) -> str:
    if e.winner < len(e.gained) and e.gained[e.winner]:
        return say("round-over.scored", player=name(e.winner), points=e.gained[e.winner])
    return say("round-over", player=name(e.winner))


def _match_over(e: MatchOver, name: NameOf) -> str:
    who = say("and").join(name(seat) for seat in e.winners) or say("nobody")
    return say("match-over", players=who)


def _challenged(e: Challenged, secret: SecretHand | None, name: NameOf) -> str:
    key = "challenged.guilty" if e.guilty else "challenged.legal"
    text = say(key, player=name(e.seat), whose=_whose(name(e.target)))
    if secret is not None and secret.hand:
        text += say("challenged.hand", labels=_labels(secret.hand))
    return text


_ARROWS: dict[Arrow, str] = {Arrow.UP: "↑", Arrow.DOWN: "↓", Arrow.LEFT: "←", Arrow.RIGHT: "→"}


def _line(body: EventBody, n: NameOf) -> str:  # noqa: C901 (one case per event kind)
    """The line of an event without secrets (``describe_event`` handles those with)."""
    match body:
        case DealerChosen():
            return say("dealer-chosen", dealer=n(body.dealer))
        case RoundStarted():
            return say("round-started", round=body.round, dealer=n(body.dealer))
        case FirstCard():
            return say("first-card", card=card_name(body.card.code))
        case FirstCardReturned():
            return say("first-card-returned")
        case Turn():
            return ""
        case Played():
            return _played(body, n)
        case JumpedIn():
            return say("jumped-in", player=n(body.seat), overtaken=n(body.overtaken))
        case ColorChosen():
            return say("color-chosen", player=n(body.seat), color=_color(body.color.value))
        case Passed():
            return say("passed.stuck" if body.stuck else "passed", player=n(body.seat))
        case DirectionChanged():
            direction = say("direction.1" if body.direction == 1 else "direction.-1")
            return say("direction", direction=direction)
        case Caught():
            return say("caught", by=n(body.by), player=n(body.seat), penalty=body.penalty)
        case FalseCatch():
            return say(
                "false-catch", player=n(body.seat), target=n(body.target), penalty=body.penalty
            )
        case DanceCalled():
            steps = " ".join(_ARROWS[step] for step in body.steps or ())
            return say("dance-called", player=n(body.seat), dance=body.dance, steps=steps)
        case HandsSwapped() | SkipMarked():
            return say(body.kind_name, player=n(body.seat), target=n(body.target))
        case Exposed():
            return _exposed(body, n)
        case RoundOver():
            return _round_over(body, n)
        case MatchOver():
            return _match_over(body, n)
        case (
            Skipped()
            | UnoCalled()
            | DrawFourAccepted()
            | Danced()
            | DanceRefused()
            | CreeperRevealed()
            | HandsShuffled()
            | HandsPassed()
            | SkipServed()
            | TimedOut()
            | Away()
            | Back()
        ):
            return say(body.kind_name, player=n(body.seat))
        case Reshuffled() | Paused() | Resumed():
            return say(body.kind_name)
    return body.kind_name.replace("-", " ")  # a kind newer than this client


def describe_event(
    event: SeenEvent,
    name_of: NameOf,
    previous: SeenEvent | None = None,
    stack: Sequence[str] = (),
) -> str:
    """One log line for an event; empty for events not worth a line (turns).

    ``previous`` is the event before it: a UNO said with a play is already in the play's
    line, so the call that follows it adds none. ``stack`` is the draw cards played in a
    row before it (``stack_after``): a penalty draw for two or more names the stack.
    """
    body, secret = event.body, event.secret
    match body:
        case UnoCalled() if (
            previous is not None
            and isinstance(previous.body, Played)
            and previous.body.uno
            and previous.body.seat == body.seat
        ):
            return ""
        case Drew():
            cards = secret if isinstance(secret, SecretCards) else None
            return _drew(body, cards, name_of, stack)
        case Challenged():
            hand = secret if isinstance(secret, SecretHand) else None
            return _challenged(body, hand, name_of)
        case UnknownEvent():
            return body.name.replace("-", " ")
    return _line(body, name_of)


def describe_seats(
    before: Sequence[tuple[str, bool]], after: Sequence[tuple[str, bool]]
) -> list[str]:
    """Log lines for the seats that changed between two table states: who joined, who
    left, whose seat someone else took. Each seat is (name, is a bot); "" is empty."""
    lines = []
    for (old, _), (new, bot) in zip(before, after, strict=False):
        if old == new:
            continue
        joined = say("seat.bot", player=new) if bot else new
        if not old:
            lines.append(say("seat.joined", player=joined))
        elif not new:
            lines.append(say("seat.left", player=old))
        else:
            lines.append(say("seat.taken", player=joined, old=old))
    return lines


def describe_removal(name: str, after: TableState, name_of: NameOf) -> str:
    """The log line for the person ``name`` whom the host just kicked or banned
    (``table-state.removed_seat``, 1.3), as everyone at the table reads it."""
    host = name_of(after.host_seat) if after.host_seat is not None else say("host.the-host")
    who = name or say("removed.someone")
    seat = after.removed_seat
    bot = seat is not None and seat < len(after.seats) and after.seats[seat].bot
    line = say(
        "removed.banned" if after.removed_banned else "removed.kicked", host=host, player=who
    )
    return say("removed.bot-plays", line=line) if bot else line


def describe_host(before: TableState, after: TableState, name_of: NameOf) -> str | None:
    """The log line for the host role moving between two states of one table, saying
    why (``host_reason``, 1.3); None when it stayed where it was."""
    if (before.host_seat, before.owner_seat) == (after.host_seat, after.owner_seat):
        return None
    if after.host_seat is None:
        return say("host.nobody")
    host = name_of(after.host_seat)
    match after.host_reason:
        case HostReason.OWNER_AWAY:
            return say("host.lent", host=host, owner=name_of(after.owner_seat))
        case HostReason.OWNER if before.owner_seat == after.owner_seat:
            return say("host.back", host=host)
        case HostReason.OWNER_LEFT:
            gone = before.owner_seat
            seats = before.seats
            left = seats[gone].name if gone is not None and gone < len(seats) else None
            return say("host.handed", host=host, owner=left or say("host.the-owner"))
    return say("host.moved", host=host)
