"""Events: what happened in a match, numbered, with the secret parts addressed to seats.

The engine emits one ``Event`` per thing that happened: its number, its ``body`` (one
record per kind, below: what everyone at the table, spectators included, may know) and
``private``, which maps a seat to the ``EventSecret`` only that seat may know (the cards
it drew, the hand it was shown). Every seat receives every event, so the numbering is
gap-free for everybody; ``seen_by`` gives the ``SeenEvent`` one seat receives, which is
what ``event.body`` carries on the wire: ``seq``, ``kind``, the body's fields and that
seat's secret's fields in one map (docs/protocol.md section 13).

Why this module is long: it is the one description of every event kind, field by field,
and each record carries the docstrings that describe its fields; splitting the kinds
across files would only scatter that table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any, ClassVar

from protocol.cards import Card, Color
from protocol.commands import Arrow
from protocol.errors import ErrorCode, LocalProtocolError, RemoteProtocolError
from protocol.limits import MAX_ARRAY_ITEMS
from protocol.options import MAX_SEATS
from protocol.phase import Phase
from protocol.schema import Record, items, number, record_from_data, text, wire

__all__ = [
    "EVENT_TYPES",
    "Away",
    "AwayReason",
    "Back",
    "Caught",
    "Challenged",
    "ColorChosen",
    "CreeperRevealed",
    "DanceCalled",
    "DanceRefused",
    "DanceRefusedReason",
    "Danced",
    "DealerChosen",
    "DealerDraw",
    "DirectionChanged",
    "DrawFourAccepted",
    "Drew",
    "DrewReason",
    "Event",
    "EventBody",
    "EventKind",
    "EventSecret",
    "Exposed",
    "FalseCatch",
    "FalseCatchReason",
    "FirstCard",
    "FirstCardReturned",
    "HandsPassed",
    "HandsShuffled",
    "HandsSwapped",
    "InvalidEventError",
    "JumpedIn",
    "MatchOver",
    "Passed",
    "Paused",
    "Played",
    "Reshuffled",
    "Resumed",
    "RoundOver",
    "RoundOverReason",
    "RoundStarted",
    "SecretCards",
    "SecretHand",
    "SeenEvent",
    "SkipMarked",
    "SkipServed",
    "Skipped",
    "TimedOut",
    "Turn",
    "UnknownEvent",
    "UnoCalled",
]


class InvalidEventError(ValueError):
    """Plain data that does not describe an event."""


class EventKind(StrEnum):
    """What kind of thing happened: the ``kind`` of an event body on the wire. The
    record of each kind (``EVENT_TYPES``) lists its fields."""

    DEALER_CHOSEN = "dealer-chosen"
    ROUND_STARTED = "round-started"
    FIRST_CARD = "first-card"
    FIRST_CARD_RETURNED = "first-card-returned"
    TURN = "turn"
    PLAYED = "played"
    JUMPED_IN = "jumped-in"
    COLOR_CHOSEN = "color-chosen"
    DREW = "drew"
    PASSED = "passed"
    DIRECTION = "direction"
    SKIPPED = "skipped"
    UNO_CALLED = "uno-called"
    EXPOSED = "exposed"
    CAUGHT = "caught"
    FALSE_CATCH = "false-catch"
    CHALLENGED = "challenged"
    DRAW_FOUR_ACCEPTED = "draw-four-accepted"
    DANCE_CALLED = "dance-called"
    DANCED = "danced"
    DANCE_REFUSED = "dance-refused"
    CREEPER_REVEALED = "creeper-revealed"
    HANDS_SWAPPED = "hands-swapped"
    HANDS_SHUFFLED = "hands-shuffled"
    HANDS_PASSED = "hands-passed"
    SKIP_MARKED = "skip-marked"
    SKIP_SERVED = "skip-served"
    RESHUFFLED = "reshuffled"
    TIMED_OUT = "timed-out"
    AWAY = "away"
    BACK = "back"
    PAUSED = "paused"
    RESUMED = "resumed"
    ROUND_OVER = "round-over"
    MATCH_OVER = "match-over"


_SEAT = number(0, MAX_SEATS - 1)
_DIRECTION = number(-1, 1)
_COUNT = number(0, MAX_ARRAY_ITEMS)
_COUNTS = items(MAX_SEATS, item=_COUNT)
_SEATS = items(MAX_SEATS, item=_SEAT)
_POINTS = items(MAX_SEATS)
_CARDS = items(MAX_ARRAY_ITEMS)
_ROUND = number(1, 2**31 - 1)
_WORD = text(64)
"""A dance: a short lower-case word the engine chose."""


class DrewReason(StrEnum):
    """Why a seat drew (a ``drew`` event's ``reason``)."""

    DRAW = "draw"
    """The seat's own draw on its turn."""
    DRAW_TWO = "draw-two"
    """A Draw Two, or a stack of them, to answer."""
    WILD_DRAW_FOUR = "wild-draw-four"
    """A Wild Draw Four accepted (or a stack that ends with one)."""
    CHALLENGE = "challenge"
    """A challenge: the guilty player's 4 or the wrong challenger's 6."""
    CAUGHT = "caught"
    """Caught without UNO."""
    FALSE_CATCH = "false-catch"
    """A catch that missed, at a table with ``false_catch_penalty``."""
    DANCE = "dance"
    """A Dancing Wild not danced."""
    CREEPER = "creeper"
    """The three cards a revealed Creeper brings."""
    CUSTOM = "custom"
    """A Wild Customizable whose table rule is ``others-draw-two``."""
    SKIP = "skip"
    """A ``skip_any`` mark served."""


class FalseCatchReason(StrEnum):
    """Why a catch missed (a ``false-catch`` event's ``reason``): the rejection code it
    would have had at a table without ``false_catch_penalty``."""

    NOT_EXPOSED = "not-exposed"
    CATCH_TOO_LATE = "catch-too-late"


class DanceRefusedReason(StrEnum):
    """Why a dancer did not dance (a ``dance-refused`` event's ``reason``)."""

    REFUSED = "refused"
    """The dancer sent ``refuse-dance``."""
    WRONG_STEPS = "wrong-steps"
    """The steps sent were not the ones called."""
    TIMEOUT = "timeout"
    """The dance clock ran out."""


class AwayReason(StrEnum):
    """Why a bot plays a seat from now on (an ``away`` event's ``reason``)."""

    TIMEOUTS = "timeouts"
    """Three expired clocks in a row."""
    TABLE = "table"
    """The server marked it (a lost connection, a person who left)."""


class RoundOverReason(StrEnum):
    """How a round ended (a ``round-over`` event's ``reason``)."""

    OUT = "out"
    """The winner played their last card."""
    BLOCKED = "blocked"
    """Nobody could play or draw; the smallest hand won."""


# --- secrets -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EventSecret(Record):
    """Base of the part of an event only one seat sees; its fields join the body's."""


@dataclass(frozen=True, slots=True)
class SecretCards(EventSecret):
    """The cards a ``drew`` event shows its drawer."""

    cards: tuple[Card, ...] = field(metadata=_CARDS)
    """The cards drawn, in the order drawn."""


@dataclass(frozen=True, slots=True)
class SecretHand(EventSecret):
    """A hand shown to one seat: its own new hand, or the hand a challenge revealed."""

    hand: tuple[Card, ...] = field(metadata=_CARDS)
    """The cards of the hand."""


_NO_SECRETS: Mapping[int, EventSecret] = MappingProxyType({})


# --- bodies ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EventBody(Record):
    """Base of the public part of every event. ``KIND`` names it on the wire; ``SECRET``
    is the record of its private part, for the kinds that have one."""

    KIND: ClassVar[EventKind]
    SECRET: ClassVar[type[EventSecret] | None] = None

    @property
    def kind_name(self) -> str:
        """The ``kind`` sent on the wire."""
        return self.KIND.value


@dataclass(frozen=True, slots=True)
class DealerDraw(Record):
    """One card drawn to choose the dealer; sent as ``[seat, card]``."""

    AS_LIST: ClassVar[bool] = True
    seat: int = field(metadata=_SEAT)
    """Who drew."""
    card: Card
    """What they drew."""


@dataclass(frozen=True, slots=True)
class DealerChosen(EventBody):
    """The dealer was chosen by the highest number drawn (ties redraw among the tied)."""

    KIND: ClassVar[EventKind] = EventKind.DEALER_CHOSEN
    dealer: int = field(metadata=_SEAT)
    """The dealer's seat."""
    draws: tuple[tuple[DealerDraw, ...], ...] = field(metadata=items(MAX_ARRAY_ITEMS))
    """Every draw round, each the cards drawn by the seats still in contention."""


@dataclass(frozen=True, slots=True)
class RoundStarted(EventBody):
    """A round was dealt; each seat in play is shown its hand (``SecretHand``)."""

    KIND: ClassVar[EventKind] = EventKind.ROUND_STARTED
    SECRET: ClassVar[type[EventSecret] | None] = SecretHand
    round: int = field(metadata=_ROUND)
    """The round's number, from 1."""
    dealer: int = field(metadata=_SEAT)
    """The dealer's seat."""
    counts: tuple[int, ...] = field(metadata=_COUNTS)
    """Cards dealt to each seat (0 for an eliminated seat)."""


@dataclass(frozen=True, slots=True)
class FirstCard(EventBody):
    """The first card was turned up to start the discard pile."""

    KIND: ClassVar[EventKind] = EventKind.FIRST_CARD
    card: Card
    """The card."""
    color: Color | None = field(default=None, metadata=wire(nil=True))
    """Its colour; nil for a wild, whose colour the first player names."""


@dataclass(frozen=True, slots=True)
class FirstCardReturned(EventBody):
    """A Wild Draw Four turned up first goes back into the pile, which is reshuffled."""

    KIND: ClassVar[EventKind] = EventKind.FIRST_CARD_RETURNED
    card: Card
    """The card returned."""


@dataclass(frozen=True, slots=True)
class Turn(EventBody):
    """The match now waits on a seat."""

    KIND: ClassVar[EventKind] = EventKind.TURN
    seat: int = field(metadata=_SEAT)
    """The seat waited on."""
    direction: int = field(metadata=_DIRECTION)
    """1 clockwise, -1 the other way."""
    phase: Phase
    """What the seat is to do: turn, choose-color, challenge, dance or stack."""


@dataclass(frozen=True, slots=True)
class Played(EventBody):
    """A seat played a card."""

    KIND: ClassVar[EventKind] = EventKind.PLAYED
    seat: int = field(metadata=_SEAT)
    """Who played."""
    card: Card
    """The card played."""
    color: Color | None = field(metadata=wire(nil=True))
    """The colour in force after the play (nil only if none is yet)."""
    count: int = field(metadata=_COUNT)
    """Cards left in the player's hand."""
    target: int | None = field(default=None, metadata=_SEAT)
    """The seat a Swap Hands or a ``skip_any`` Skip names."""
    dance: str | None = field(default=None, metadata=_WORD)
    """The dance a Dancing Wild calls for."""
    uno: bool = field(default=False, metadata=wire(sparse=True))
    """UNO was declared with the play (sent only when true)."""


@dataclass(frozen=True, slots=True)
class JumpedIn(EventBody):
    """Ruling 37 (1.2, ``jump_in``): a seat played out of turn a card identical to the top
    card; its ``played`` follows, and play goes on from it."""

    KIND: ClassVar[EventKind] = EventKind.JUMPED_IN
    seat: int = field(metadata=_SEAT)
    """The seat that jumped in."""
    overtaken: int = field(metadata=_SEAT)
    """The seat whose move it was."""


@dataclass(frozen=True, slots=True)
class ColorChosen(EventBody):
    """The first player named the colour of a wild first card."""

    KIND: ClassVar[EventKind] = EventKind.COLOR_CHOSEN
    seat: int = field(metadata=_SEAT)
    """Who named it."""
    color: Color
    """The colour now in force."""


@dataclass(frozen=True, slots=True)
class Drew(EventBody):
    """A seat drew cards; only the drawer sees which (``SecretCards``)."""

    KIND: ClassVar[EventKind] = EventKind.DREW
    SECRET: ClassVar[type[EventSecret] | None] = SecretCards
    seat: int = field(metadata=_SEAT)
    """Who drew."""
    count: int = field(metadata=_COUNT)
    """How many cards (fewer than owed if both piles ran dry)."""
    reason: DrewReason
    """Why: draw, draw-two, wild-draw-four, challenge, caught, false-catch, dance, creeper,
    custom or skip."""


@dataclass(frozen=True, slots=True)
class Passed(EventBody):
    """A seat ended its turn without playing."""

    KIND: ClassVar[EventKind] = EventKind.PASSED
    seat: int = field(metadata=_SEAT)
    """Who passed."""
    stuck: bool
    """The seat could neither play nor draw."""


@dataclass(frozen=True, slots=True)
class DirectionChanged(EventBody):
    """A Reverse turned the direction of play."""

    KIND: ClassVar[EventKind] = EventKind.DIRECTION
    direction: int = field(metadata=_DIRECTION)
    """The direction now: 1 clockwise, -1 the other way."""


@dataclass(frozen=True, slots=True)
class Skipped(EventBody):
    """A seat loses its turn."""

    KIND: ClassVar[EventKind] = EventKind.SKIPPED
    seat: int = field(metadata=_SEAT)
    """The seat skipped."""


@dataclass(frozen=True, slots=True)
class UnoCalled(EventBody):
    """A seat declared UNO."""

    KIND: ClassVar[EventKind] = EventKind.UNO_CALLED
    seat: int = field(metadata=_SEAT)
    """Who declared."""
    early: bool
    """Declared before the play (holding two on its turn)."""


@dataclass(frozen=True, slots=True)
class Exposed(EventBody):
    """A seat left itself one card without declaring UNO: it may be caught now."""

    KIND: ClassVar[EventKind] = EventKind.EXPOSED
    seat: int = field(metadata=_SEAT)
    """The exposed seat."""


@dataclass(frozen=True, slots=True)
class Caught(EventBody):
    """An exposed seat was caught and draws the penalty."""

    KIND: ClassVar[EventKind] = EventKind.CAUGHT
    seat: int = field(metadata=_SEAT)
    """The seat caught."""
    by: int = field(metadata=_SEAT)
    """The catcher."""
    penalty: int = field(metadata=_COUNT)
    """Cards the caught seat draws."""


@dataclass(frozen=True, slots=True)
class FalseCatch(EventBody):
    """A catch of a seat that was not catchable; the catcher draws the penalty."""

    KIND: ClassVar[EventKind] = EventKind.FALSE_CATCH
    seat: int = field(metadata=_SEAT)
    """The catcher."""
    target: int = field(metadata=_SEAT)
    """The seat it tried to catch."""
    penalty: int = field(metadata=_COUNT)
    """Cards the catcher draws."""
    reason: FalseCatchReason
    """not-exposed or catch-too-late."""


@dataclass(frozen=True, slots=True)
class Challenged(EventBody):
    """A Wild Draw Four was challenged; the challenger sees the hand (``SecretHand``)."""

    KIND: ClassVar[EventKind] = EventKind.CHALLENGED
    SECRET: ClassVar[type[EventSecret] | None] = SecretHand
    seat: int = field(metadata=_SEAT)
    """The challenger."""
    target: int = field(metadata=_SEAT)
    """Who played the Wild Draw Four."""
    guilty: bool
    """It held a card of the colour in force."""


@dataclass(frozen=True, slots=True)
class DrawFourAccepted(EventBody):
    """The victim of a Wild Draw Four took it without a challenge."""

    KIND: ClassVar[EventKind] = EventKind.DRAW_FOUR_ACCEPTED
    seat: int = field(metadata=_SEAT)
    """The victim."""


@dataclass(frozen=True, slots=True)
class DanceCalled(EventBody):
    """A Dancing Wild calls on the next seat to dance."""

    KIND: ClassVar[EventKind] = EventKind.DANCE_CALLED
    seat: int = field(metadata=_SEAT)
    """The dancer."""
    by: int = field(metadata=_SEAT)
    """Who played the Dancing Wild."""
    dance: str = field(metadata=_WORD)
    """The dance named."""
    steps: tuple[Arrow, ...] | None = field(metadata=items(64, nil=True))
    """The steps to send; nil under ``dance_check: honour``."""


@dataclass(frozen=True, slots=True)
class Danced(EventBody):
    """The dancer danced."""

    KIND: ClassVar[EventKind] = EventKind.DANCED
    seat: int = field(metadata=_SEAT)
    """The dancer."""


@dataclass(frozen=True, slots=True)
class DanceRefused(EventBody):
    """The dancer did not dance and draws."""

    KIND: ClassVar[EventKind] = EventKind.DANCE_REFUSED
    seat: int = field(metadata=_SEAT)
    """The dancer."""
    reason: DanceRefusedReason
    """refused, wrong-steps or timeout."""


@dataclass(frozen=True, slots=True)
class CreeperRevealed(EventBody):
    """A Creeper drawn from the pile is shown to everyone; its owner draws three more."""

    KIND: ClassVar[EventKind] = EventKind.CREEPER_REVEALED
    seat: int = field(metadata=_SEAT)
    """Who drew it."""
    card: Card
    """The Creeper."""


@dataclass(frozen=True, slots=True)
class HandsSwapped(EventBody):
    """Swap Hands: two seats swapped hands; each sees its new one (``SecretHand``)."""

    KIND: ClassVar[EventKind] = EventKind.HANDS_SWAPPED
    SECRET: ClassVar[type[EventSecret] | None] = SecretHand
    seat: int = field(metadata=_SEAT)
    """Who played the card."""
    target: int = field(metadata=_SEAT)
    """The seat swapped with."""
    counts: tuple[int, ...] = field(metadata=_COUNTS)
    """Cards in each seat's hand now."""


@dataclass(frozen=True, slots=True)
class HandsShuffled(EventBody):
    """Shuffle Hands: every hand was gathered and dealt again (``SecretHand`` to each)."""

    KIND: ClassVar[EventKind] = EventKind.HANDS_SHUFFLED
    SECRET: ClassVar[type[EventSecret] | None] = SecretHand
    seat: int = field(metadata=_SEAT)
    """Who played the card."""
    counts: tuple[int, ...] = field(metadata=_COUNTS)
    """Cards in each seat's hand now."""


@dataclass(frozen=True, slots=True)
class HandsPassed(EventBody):
    """A 0 under ``seven_o``: every hand went to the next seat (``SecretHand`` to each)."""

    KIND: ClassVar[EventKind] = EventKind.HANDS_PASSED
    SECRET: ClassVar[type[EventSecret] | None] = SecretHand
    seat: int = field(metadata=_SEAT)
    """Who played the 0."""
    direction: int = field(metadata=_DIRECTION)
    """The way the hands went."""
    counts: tuple[int, ...] = field(metadata=_COUNTS)
    """Cards in each seat's hand now."""


@dataclass(frozen=True, slots=True)
class SkipMarked(EventBody):
    """A Skip under ``skip_any`` marked a seat, which serves it when its turn comes."""

    KIND: ClassVar[EventKind] = EventKind.SKIP_MARKED
    seat: int = field(metadata=_SEAT)
    """Who played the Skip."""
    target: int = field(metadata=_SEAT)
    """The seat marked."""


@dataclass(frozen=True, slots=True)
class SkipServed(EventBody):
    """A marked seat serves a mark: a ``drew`` with reason skip follows."""

    KIND: ClassVar[EventKind] = EventKind.SKIP_SERVED
    seat: int = field(metadata=_SEAT)
    """The marked seat."""


@dataclass(frozen=True, slots=True)
class Reshuffled(EventBody):
    """The discards under the top card became the draw pile."""

    KIND: ClassVar[EventKind] = EventKind.RESHUFFLED
    count: int = field(metadata=_COUNT)
    """Cards now in the draw pile."""


@dataclass(frozen=True, slots=True)
class TimedOut(EventBody):
    """A clock ran out; the table acted for the seat."""

    KIND: ClassVar[EventKind] = EventKind.TIMED_OUT
    seat: int = field(metadata=_SEAT)
    """The seat waited on."""
    phase: Phase
    """The phase whose clock ran out."""


@dataclass(frozen=True, slots=True)
class Away(EventBody):
    """A seat is played by a server bot from now on."""

    KIND: ClassVar[EventKind] = EventKind.AWAY
    seat: int = field(metadata=_SEAT)
    """The seat."""
    reason: AwayReason
    """timeouts (three expired clocks in a row) or table (the server marked it)."""


@dataclass(frozen=True, slots=True)
class Back(EventBody):
    """A seat's player is back."""

    KIND: ClassVar[EventKind] = EventKind.BACK
    seat: int = field(metadata=_SEAT)
    """The seat."""


@dataclass(frozen=True, slots=True)
class Paused(EventBody):
    """The host paused the table: every clock stopped."""

    KIND: ClassVar[EventKind] = EventKind.PAUSED


@dataclass(frozen=True, slots=True)
class Resumed(EventBody):
    """The host resumed the table."""

    KIND: ClassVar[EventKind] = EventKind.RESUMED


@dataclass(frozen=True, slots=True)
class RoundOver(EventBody):
    """A round ended and was scored (also a view's ``round_result``)."""

    KIND: ClassVar[EventKind] = EventKind.ROUND_OVER
    round: int = field(metadata=_ROUND)
    """The round's number."""
    winner: int = field(metadata=_SEAT)
    """Who won it."""
    reason: RoundOverReason
    """out, or blocked when nobody could play or draw."""
    hands: tuple[tuple[Card, ...], ...] = field(metadata=_CARDS)
    """Every hand as counted (the limit applies to each hand too)."""
    points: tuple[int, ...] = field(metadata=_POINTS)
    """Each hand's worth."""
    gained: tuple[int, ...] = field(metadata=_POINTS)
    """Points each seat scored this round."""
    scores: tuple[int, ...] = field(metadata=_POINTS)
    """Each seat's total."""
    eliminated: tuple[int, ...] = field(metadata=_SEATS)
    """Seats out of the match from this round on."""


@dataclass(frozen=True, slots=True)
class MatchOver(EventBody):
    """The match ended (also a view's ``match_result``)."""

    KIND: ClassVar[EventKind] = EventKind.MATCH_OVER
    winners: tuple[int, ...] = field(metadata=_SEATS)
    """The winning seats."""
    scores: tuple[int, ...] = field(metadata=_POINTS)
    """Each seat's total."""


@dataclass(frozen=True, slots=True)
class UnknownEvent(EventBody):
    """An event of a kind this release does not know (a later minor version's): a client
    counts its ``seq`` and skips the rest; the next view holds its effect. Never sent."""

    name: str = field(metadata=text(64))
    """The ``kind`` it was sent with."""

    @property
    def kind_name(self) -> str:
        """The ``kind`` it was sent with."""
        return self.name

    def to_data(self) -> dict[str, Any]:
        """Nothing: its fields were not read."""
        return {}


EVENT_TYPES: Mapping[EventKind, type[EventBody]] = MappingProxyType(
    {
        cls.KIND: cls
        for cls in (
            DealerChosen,
            RoundStarted,
            FirstCard,
            FirstCardReturned,
            Turn,
            Played,
            JumpedIn,
            ColorChosen,
            Drew,
            Passed,
            DirectionChanged,
            Skipped,
            UnoCalled,
            Exposed,
            Caught,
            FalseCatch,
            Challenged,
            DrawFourAccepted,
            DanceCalled,
            Danced,
            DanceRefused,
            CreeperRevealed,
            HandsSwapped,
            HandsShuffled,
            HandsPassed,
            SkipMarked,
            SkipServed,
            Reshuffled,
            TimedOut,
            Away,
            Back,
            Paused,
            Resumed,
            RoundOver,
            MatchOver,
        )
    }
)
"""The record of every event kind."""
assert len(EVENT_TYPES) == len(EventKind), "an event kind has no record"


_KIND_NAMES = frozenset(kind.value for kind in EventKind)


def body_from_data(data: Mapping[str, Any]) -> EventBody:
    """The body a received map describes, by its ``kind``; raises RemoteProtocolError."""
    kind = data.get("kind")
    try:
        cls = EVENT_TYPES[EventKind(kind if isinstance(kind, str) else "")]
    except ValueError:
        shown = str(kind)[:64]
        raise RemoteProtocolError(ErrorCode.BAD_MESSAGE, f"no event kind {shown!r}") from None
    return record_from_data(cls, data)


# --- what a seat receives ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeenEvent(Record):
    """One event as one seat receives it: ``event.body`` on the wire, one flat map of
    ``seq``, ``kind``, the body's fields and the seat's secret's fields."""

    seq: int = field(metadata=number(1, 2**63 - 1))
    """The table's number for the event."""
    body: EventBody
    """What everyone sees."""
    secret: EventSecret | None = None
    """What only this seat sees; None for every other seat and for spectators."""

    def __post_init__(self) -> None:
        Record.__post_init__(self)
        secret_type = self.body.SECRET
        if self.secret is not None and (
            secret_type is None or type(self.secret) is not secret_type
        ):
            raise LocalProtocolError(
                ErrorCode.BAD_MESSAGE, f"a {self.body.KIND.value} event has no such secret"
            )

    @property
    def kind(self) -> EventKind | None:
        """The event's kind; None for a kind this release does not know."""
        return None if isinstance(self.body, UnknownEvent) else self.body.KIND

    def to_data(self) -> dict[str, Any]:
        """The flat wire map (see the class docstring)."""
        data: dict[str, Any] = {"seq": self.seq, "kind": self.body.kind_name}
        data.update(self.body.to_data())
        if self.secret is not None:
            data.update(self.secret.to_data())
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> SeenEvent:
        """Read the flat wire map; raises RemoteProtocolError(bad-message). A secret is
        read when the kind has one and its fields are there; a kind this release does not
        know gives an ``UnknownEvent`` (docs/protocol.md section 13)."""
        kind = data.get("kind")
        body: EventBody
        if isinstance(kind, str) and kind not in _KIND_NAMES:
            body = record_from_data(UnknownEvent, {"name": kind})
        else:
            body = body_from_data(data)
        secret_type = body.SECRET
        secret: EventSecret | None = None
        if secret_type is not None and any(key in data for key in _field_names(secret_type)):
            secret = record_from_data(secret_type, data)
        try:
            return cls(data.get("seq"), body, secret)  # type: ignore[arg-type]
        except LocalProtocolError as error:
            raise RemoteProtocolError(ErrorCode.BAD_MESSAGE, error.message) from None


def _field_names(cls: type[Record]) -> tuple[str, ...]:
    return tuple(cls.__dataclass_fields__)


# --- the engine's events -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Event:
    """One numbered thing that happened, with its secrets.

    ``seq`` counts from 1 per match without gaps; ``body`` is shown to everyone;
    ``private[seat]`` only to that seat (a spectator is ``None`` and sees nothing private).
    """

    seq: int
    """The event's number in its match."""
    body: EventBody
    """The public part."""
    private: Mapping[int, EventSecret] = field(default_factory=lambda: _NO_SECRETS)
    """Each seat's secret part, for the seats that have one."""

    def __post_init__(self) -> None:
        if self.seq.__class__ is not int or self.seq < 1:
            raise InvalidEventError("seq must be a positive whole number")

    @property
    def kind(self) -> EventKind:
        """The event's kind."""
        return self.body.KIND

    @property
    def public(self) -> dict[str, Any]:
        """The body's plain fields, as every seat receives them (without ``seq``/``kind``)."""
        return self.body.to_data()

    def seen_by(self, seat: int | None, seq: int | None = None) -> SeenEvent:
        """The event as ``seat`` may see it, numbered ``seq`` (the table's number; the
        match's by default). Built unchecked: both parts were checked when made."""
        secret = self.private.get(seat) if seat is not None and self.private else None
        return SeenEvent.trusted(
            seq=self.seq if seq is None else seq, body=self.body, secret=secret
        )

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        """The plain wire map of ``seen_by(seat)``."""
        return self.seen_by(seat).to_data()

    def to_data(self) -> dict[str, Any]:
        """The full, unredacted plain form (for snapshots and logs, never for a client)."""
        return {
            "seq": self.seq,
            "kind": self.body.KIND.value,
            "public": self.body.to_data(),
            "private": [[seat, secret.to_data()] for seat, secret in self.private.items()],
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Event:
        """Rebuild an event from ``to_data`` output; raises InvalidEventError otherwise."""
        try:
            seq = data["seq"]
            public = dict(data.get("public", {}))
            body = body_from_data({**public, "kind": data["kind"]})
            secret_type = body.SECRET
            private: dict[int, EventSecret] = {}
            for seat, secret in data.get("private", []):
                if secret_type is None or not isinstance(seat, int):
                    raise InvalidEventError(f"{body.KIND.value} has no secret for {seat!r}")
                private[seat] = record_from_data(secret_type, secret)
        except (KeyError, ValueError, TypeError, RemoteProtocolError) as error:
            raise InvalidEventError(f"not an event: {error}") from None
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
            raise InvalidEventError("seq must be a positive whole number")
        return cls(seq, body, private)
