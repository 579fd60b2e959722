"""Events in plain words, for the table's log.

``describe_event(event, name_of)`` turns one event (as the server sent it to this seat)
into one line such as ``Ann played red 7`` or ``you drew 2 cards (penalty)``, by the
event's record type. ``name_of(seat)`` gives a seat's name (``you`` for one's own seat).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from client.ui.faces import card_label, card_name, color_name
from protocol.cards import Card
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

__all__ = ["describe_event", "describe_host", "describe_removal", "describe_seats"]

NameOf = Callable[[int | None], str]


def _cards(count: int) -> str:
    return "1 card" if count == 1 else f"{count} cards"


def _labels(cards: Sequence[Card]) -> str:
    return " ".join(card_label(card.code) for card in cards)


def _whose(name: str) -> str:
    """A name as an owner: ``your`` for ``you``, else ``Bob's``."""
    return "your" if name == "you" else f"{name}'s"


def _played(e: Played, name: NameOf) -> str:
    text = f"{name(e.seat)} played {card_name(e.card.code)}"
    if e.card.is_wild and e.color is not None:
        text += f", calling {color_name(e.color.value)}"
    if e.target is not None:
        text += f" on {name(e.target)}"
    if e.dance:
        text += f" (dance: {e.dance})"
    if e.uno:
        text += " and said UNO!"
    return text


def _drew(e: Drew, secret: SecretCards | None, name: NameOf) -> str:
    text = f"{name(e.seat)} drew {_cards(e.count)}"
    if secret is not None and secret.cards:
        text += ": " + _labels(secret.cards)
    if e.reason is not DrewReason.DRAW:
        text += f" ({_DRAW_REASONS[e.reason]})"
    return text


_DRAW_REASONS: dict[DrewReason, str] = {
    DrewReason.DRAW_TWO: "Draw Two",
    DrewReason.WILD_DRAW_FOUR: "Wild Draw Four",
    DrewReason.CAUGHT: "caught without UNO",
    DrewReason.FALSE_CATCH: "a wrong catch",
    DrewReason.CHALLENGE: "the challenge",
    DrewReason.CUSTOM: "Customizable wild",
    DrewReason.DANCE: "no dance",
    DrewReason.SKIP: "skip",
    DrewReason.CREEPER: "Creeper",
}
"""Why cards were drawn, in words: every reason but a turn's own draw, which needs none."""


def _exposed(e: Exposed, name: NameOf) -> str:
    who = name(e.seat)
    if who == "you":
        return "you forgot to say UNO! press u before someone catches you"
    return f"{who} forgot to say UNO! (c to catch)"


def _round_over(e: RoundOver, name: NameOf) -> str:
    text = f"round over: {name(e.winner)} won"
    if e.winner < len(e.gained) and e.gained[e.winner]:
        text += f" and scored {e.gained[e.winner]}"
    return text


def _match_over(e: MatchOver, name: NameOf) -> str:
    who = " and ".join(name(seat) for seat in e.winners) or "nobody"
    return f"match over: {who} won the match"


def _challenged(e: Challenged, secret: SecretHand | None, name: NameOf) -> str:
    text = f"{name(e.seat)} challenged {_whose(name(e.target))} Wild Draw Four: "
    text += "guilty!" if e.guilty else "it was legal"
    if secret is not None and secret.hand:
        text += f" (hand: {_labels(secret.hand)})"
    return text


_ARROWS: dict[Arrow, str] = {Arrow.UP: "↑", Arrow.DOWN: "↓", Arrow.LEFT: "←", Arrow.RIGHT: "→"}


def _direction(value: int) -> str:
    return "clockwise" if value == 1 else "counter-clockwise"


def _line(body: EventBody, n: NameOf) -> str:  # noqa: C901 (one case per event kind)
    """The line of an event without secrets (``describe_event`` handles those with)."""
    match body:
        case DealerChosen():
            return f"the dealer is {n(body.dealer)}"
        case RoundStarted():
            return f"round {body.round} begins (dealer: {n(body.dealer)})"
        case FirstCard():
            return f"first card: {card_name(body.card.code)}"
        case FirstCardReturned():
            return "a Wild Draw Four turned up; it goes back"
        case Turn():
            return ""
        case Played():
            return _played(body, n)
        case JumpedIn():
            return f"{n(body.seat)} jumped in ahead of {n(body.overtaken)}!"
        case ColorChosen():
            return f"{n(body.seat)} chose {color_name(body.color.value)}"
        case Passed():
            return f"{n(body.seat)} passed" + (" (stuck)" if body.stuck else "")
        case DirectionChanged():
            return f"play now goes {_direction(body.direction)}"
        case Skipped():
            return f"{n(body.seat)} skipped"
        case UnoCalled():
            return f"{n(body.seat)} said UNO!"
        case Exposed():
            return _exposed(body, n)
        case Caught():
            return f"{n(body.by)} caught {n(body.seat)}: draws {body.penalty}"
        case FalseCatch():
            return f"{n(body.seat)} wrongly caught {n(body.target)}: draws {body.penalty}"
        case DrawFourAccepted():
            return f"{n(body.seat)} took the Wild Draw Four"
        case DanceCalled():
            steps = " ".join(_ARROWS[step] for step in body.steps or ())
            return f"{n(body.seat)} must dance {body.dance}: {steps}"
        case Danced():
            return f"{n(body.seat)} danced!"
        case DanceRefused():
            return f"{n(body.seat)} did not dance and draws 3"
        case CreeperRevealed():
            return f"{n(body.seat)} drew a Creeper! 3 more cards"
        case HandsSwapped():
            return f"{n(body.seat)} swapped hands with {n(body.target)}"
        case HandsShuffled():
            return f"{n(body.seat)} shuffled everyone's hands"
        case HandsPassed():
            return f"{n(body.seat)} played a 0: every hand moves on to the next player"
        case SkipMarked():
            return f"{n(body.seat)} will skip {n(body.target)}"
        case SkipServed():
            return f"{n(body.seat)} draws 1 and loses the turn (skip)"
        case Reshuffled():
            return "the discards were shuffled into a new draw pile"
        case TimedOut():
            return f"{n(body.seat)} ran out of time"
        case Away():
            return f"{n(body.seat)} is away; a bot plays for now"
        case Back():
            return f"{n(body.seat)} is back"
        case Paused():
            return "the game is paused"
        case Resumed():
            return "the game goes on"
        case RoundOver():
            return _round_over(body, n)
        case MatchOver():
            return _match_over(body, n)
    return body.kind_name.replace("-", " ")  # a kind newer than this client


def describe_event(event: SeenEvent, name_of: NameOf, previous: SeenEvent | None = None) -> str:
    """One log line for an event; empty for events not worth a line (turns).

    ``previous`` is the event before it: a UNO said with a play is already in the play's
    line, so the call that follows it adds none.
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
            return _drew(body, secret if isinstance(secret, SecretCards) else None, name_of)
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
        joined = f"{new} (a bot)" if bot else new
        if not old:
            lines.append(f"{joined} joined the table")
        elif not new:
            lines.append(f"{old} left the table")
        else:
            lines.append(f"{joined} took {old}'s seat")
    return lines


def describe_removal(name: str, after: TableState, name_of: NameOf) -> str:
    """The log line for the person ``name`` whom the host just kicked or banned
    (``table-state.removed_seat``, 1.3), as everyone at the table reads it."""
    host = name_of(after.host_seat) if after.host_seat is not None else "the host"
    who = name or "a player"
    seat = after.removed_seat
    bot = seat is not None and seat < len(after.seats) and after.seats[seat].bot
    if after.removed_banned:
        line = f"{host} banned {who} from the table"
    else:
        line = f"{host} removed {who} from the table"
    return line + ("; a bot plays the seat" if bot else "")


def describe_host(before: TableState, after: TableState, name_of: NameOf) -> str | None:
    """The log line for the host role moving between two states of one table, saying
    why (``host_reason``, 1.3); None when it stayed where it was."""
    if (before.host_seat, before.owner_seat) == (after.host_seat, after.owner_seat):
        return None
    if after.host_seat is None:
        return "Nobody holds the host role now"
    host = name_of(after.host_seat)
    match after.host_reason:
        case HostReason.OWNER_AWAY:
            return f"Host role lent to {host} while {name_of(after.owner_seat)} is away"
        case HostReason.OWNER if before.owner_seat == after.owner_seat:
            return f"Host role back with {host}, the table's owner"
        case HostReason.OWNER_LEFT:
            gone = before.owner_seat
            seats = before.seats
            left = seats[gone].name if gone is not None and gone < len(seats) else None
            return f"Host role handed to {host} for good ({left or 'the owner'} left)"
    return f"{host} is the host now"
