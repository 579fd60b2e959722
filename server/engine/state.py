"""The mutable state of a match and the low-level mechanics every rule uses.

``MatchState`` holds every field of a match (hands, piles, colour in force, direction,
whose move, the pending decision, scores, clocks, exposures, the event record) and the
mechanics that do not depend on which card was played: turn order, drawing with
reshuffles and Creepers, recording events. ``server.engine.rules`` builds the rules on it.

Turn order: seats are numbered clockwise, ``direction`` is +1 (clockwise, to the left) or
-1, and ``next_seat`` skips eliminated seats. ``current`` is always the seat the match
waits on: the player in ``TURN``/``CHOOSE_COLOR``/``STACK``, the victim in ``CHALLENGE``
and ``DANCE``.

UNO exposures (ruling 12): a play that leaves one card without a call records an
``Exposure`` holding the ms stamp of the play and the seat to act next (``watch``). Its
window is open while that seat has not yet sent a command, and in any case until
``catch_grace_ms`` after the play. The record stays after a call or a catch (status
``called``/``caught``) so that a command that lost the race can be told so; it goes when
its seat's hand changes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from functools import partial as _partial
from itertools import repeat as _repeat
from itertools import starmap as _starmap
from types import MappingProxyType
from typing import Any

from protocol.cards import Card, Color, Rank
from protocol.commands import Arrow
from protocol.events import Event, EventKind
from protocol.options import DeckName, TableConfig
from server.engine.deck import CODE, CODE_BY_ID, build_deck
from server.engine.outcome import LogEntry, Phase

__all__ = [
    "DREW_RECORD",
    "NO_SECRETS",
    "PASSED_RECORD",
    "PLAYED_RECORD",
    "TURN_RECORD",
    "Exposure",
    "MatchState",
]

_new_object = object.__new__
_set_seq = vars(Event)["seq"].__set__
_set_kind = vars(Event)["kind"].__set__
_set_public = vars(Event)["public"].__set__
_set_private = vars(Event)["private"].__set__
NO_SECRETS: Mapping[int, Mapping[str, Any]] = MappingProxyType({})
"""The ``private`` part of an event that has no secret (shared: it is read-only)."""
_CREEPER, _DRAW_TWO, _WILD_DRAW_FOUR = Rank.CREEPER, Rank.DRAW_TWO, Rank.WILD_DRAW_FOUR
_TURN, _STACK = Phase.TURN, Phase.STACK
_TURN_EVENT = EventKind.TURN
_DREW = EventKind.DREW


_Public = dict[str, Any]
_Private = Mapping[int, Mapping[str, Any]]
_Record = tuple[Any, ...]
"""An event not yet built: ``(kind, public, private)``; or, for the events of the hot
path, ``(code, *values)`` with a small int ``code`` (see ``_BUILDERS``). One flat tuple
per event, so a command leaves few objects behind for the garbage collector."""

TURN_RECORD, PLAYED_RECORD, DREW_RECORD, PASSED_RECORD = 0, 1, 2, 3
"""Codes of the compact records: ``(TURN_RECORD, seat, direction)``, ``(PLAYED_RECORD,
seat, card, colour, cards left, uno)``, ``(DREW_RECORD, seat, cards, reason)``,
``(PASSED_RECORD, seat, stuck)``."""


def _turn_event(record: _Record) -> tuple[EventKind, _Public, _Private]:
    _, seat, direction = record
    return _TURN_EVENT, {"seat": seat, "direction": direction, "phase": "turn"}, NO_SECRETS


def _played_event(record: _Record) -> tuple[EventKind, _Public, _Private]:
    _, seat, card, color, count, uno = record
    public = {
        "seat": seat,
        "card": CODE_BY_ID.get(id(card)) or card.code,
        "color": None if color is None else color._value_,
        "count": count,
    }
    if uno:
        public["uno"] = True
    return EventKind.PLAYED, public, NO_SECRETS


def _drew_event(record: _Record) -> tuple[EventKind, _Public, _Private]:
    _, seat, cards, reason = record
    by_id = CODE_BY_ID
    return (
        _DREW,
        {"seat": seat, "count": len(cards), "reason": reason},
        {seat: {"cards": [by_id.get(id(card)) or card.code for card in cards]}},
    )


def _passed_event(record: _Record) -> tuple[EventKind, _Public, _Private]:
    _, seat, stuck = record
    return EventKind.PASSED, {"seat": seat, "stuck": stuck}, NO_SECRETS


_BUILDERS: tuple[Callable[[_Record], tuple[EventKind, _Public, _Private]], ...] = (
    _turn_event,
    _played_event,
    _drew_event,
    _passed_event,
)
"""How to build the events the hot path records as bare values (a turn, a plain play, a
draw, a pass), by record code: once per event, and only when somebody reads the events."""


class Exposure:
    """A seat that left itself one card without declaring UNO (see the module docstring)."""

    __slots__ = ("acted", "seq", "since_ms", "status", "watch")

    def __init__(self, since_ms: int, seq: int, watch: int = -1) -> None:
        self.since_ms = since_ms
        self.seq = seq
        self.watch = watch
        self.acted = False
        self.status = "open"


class MatchState:
    """Every field of a match plus the mechanics shared by all rules."""

    def __init__(self, config: TableConfig, seed: int, now_ms: int) -> None:
        self.config = config
        self.seed = seed
        self.start_ms = now_ms
        self.rng = random.Random(seed)
        self.seats = config.seats
        self.deck_size = len(build_deck(config))
        self.turn_ms = config.turn_seconds * 1000
        self.creepers = config.deck is DeckName.MINECRAFT
        self.skip_any = config.skip_any
        self._records: list[Event | _Record] = []
        self._built = 0
        self._log: list[LogEntry] = []
        self._log_flat: list[Any] = []
        self.scores = [0] * self.seats
        self.eliminated = [False] * self.seats
        self.away = [False] * self.seats
        self.expiries = [0] * self.seats
        self.dealer = 0
        self.round_no = 0
        self.phase_ = Phase.TURN
        self.paused = False
        self.paused_remaining: int | None = None
        self.deadline: int | None = None
        self.hands: list[list[Card]] = [[] for _ in range(self.seats)]
        self.draw_pile: list[Card] = []
        self.discard: list[Card] = []
        self.color: Color | None = None
        self.direction = 1
        self.current = 0
        self.two_player = self.seats == 2
        self.drawn: Card | None = None
        self.has_drawn = False
        self.early_uno = False
        self.stuck_passes = 0
        self.pending_draw = 0
        self.wd4_player = -1
        self.wd4_guilty = False
        self.wd4_hand: tuple[Card, ...] = ()
        self.dance_name: str | None = None
        self.dance_steps: tuple[Arrow, ...] | None = None
        self.skip_marks = [0] * self.seats
        self.exposures: dict[int, Exposure] = {}
        self.round_result: dict[str, Any] | None = None
        self.result: dict[str, Any] | None = None

    # ------------------------------------------------------------------ small helpers

    @property
    def events(self) -> list[Event]:
        """Every event of the match so far, ``seq`` 1..N.

        Events are recorded as plain tuples while commands run (``_records``) and built
        into ``Event`` objects, in place, only when someone reads them: most commands'
        events are read once, by the server, and a benchmark or a bot reads none.
        """
        if self._built < len(self._records):
            self._build_events()
        return self._records  # type: ignore[return-value]

    @events.setter
    def events(self, events: list[Event]) -> None:
        self._records = list(events)
        self._built = len(self._records)

    @property
    def log(self) -> list[LogEntry]:
        """Every accepted command, in order.

        Recorded flat while commands run (``_log_flat``: actor, command, now_ms, actor,
        ...; no object per command) and typed when read.
        """
        log, flat = self._log, self._log_flat
        built = len(log)
        if 3 * built < len(flat):
            log.extend(
                map(
                    LogEntry,
                    flat[3 * built :: 3],
                    flat[3 * built + 1 :: 3],
                    flat[3 * built + 2 :: 3],
                )
            )
        return log

    @log.setter
    def log(self, log: list[LogEntry]) -> None:
        self._log = [LogEntry(*entry) for entry in log]
        self._log_flat = [item for entry in self._log for item in entry]

    def event_count(self) -> int:
        """How many events the match has produced (the ``seq`` of the last one)."""
        return len(self._records)

    def _build_events(self) -> None:
        records = self._records
        builders = _BUILDERS
        for index in range(self._built, len(records)):
            record: _Record = records[index]  # type: ignore[assignment]
            head = record[0]
            if head.__class__ is int:  # a compact record of the hot path
                kind, public, private = builders[head](record)
            else:
                kind, public, private = record
            # Same result as Event(...) at half the cost: the frozen dataclass's __init__
            # goes through object.__setattr__ per field; the slot descriptors are direct.
            event = _new_object(Event)
            _set_seq(event, index + 1)
            _set_kind(event, kind)
            _set_public(event, public)
            _set_private(event, private)
            records[index] = event
        self._built = len(records)

    def _emit(
        self,
        kind: EventKind,
        public: dict[str, Any],
        private: dict[int, dict[str, Any]] | None = None,
    ) -> None:
        self._records.append((kind, public, private or NO_SECRETS))

    def next_seat(self, seat: int) -> int:
        """The seat after ``seat`` in the current direction, skipping eliminated seats."""
        seats, step, out = self.seats, self.direction, self.eliminated
        seat = (seat + step) % seats
        while out[seat]:
            seat = (seat + step) % seats
        return seat

    def left_of(self, seat: int) -> int:
        """The next seat clockwise (to the left), whatever the direction of play."""
        seat = (seat + 1) % self.seats
        while self.eliminated[seat]:
            seat = (seat + 1) % self.seats
        return seat

    def seats_in_play(self) -> list[int]:
        return [seat for seat in range(self.seats) if not self.eliminated[seat]]

    def can_draw(self) -> bool:
        """Whether a card can come from the draw pile (reshuffling the discards if needed)."""
        return bool(self.draw_pile) or len(self.discard) > 1

    def playable(self, card: Card) -> bool:
        """Whether ``card`` matches the colour in force or the top card (wilds always do)."""
        return card.color is None or card.color is self.color or card.rank is self.discard[-1].rank

    def has_playable(self, seat: int) -> bool:
        color, rank = self.color, self.discard[-1].rank
        return any(
            card.color is None or card.color is color or card.rank is rank
            for card in self.hands[seat]
        )

    def may_play(self, seat: int) -> bool:
        """Whether ``seat``, to act now, has a card it may play (ruling 5: after a draw
        only the drawn card; in a stack only a Draw Two; ruling 23: no bluffed Draw Four)."""
        hand = self.hands[seat]
        if self.phase_ is _STACK:
            return any(card.rank is _DRAW_TWO for card in hand)
        if self.phase_ is not _TURN:
            return False
        drawn = self.drawn
        candidates = hand if not self.has_drawn else [] if drawn is None else [drawn]
        bluff_ok = self.config.wd4_bluff
        for card in candidates:
            if not self.playable(card):
                continue
            if (
                card.rank is _WILD_DRAW_FOUR
                and not bluff_ok
                and self._holds_color(hand, self.color)
            ):
                continue
            return True
        return False

    @staticmethod
    def _holds_color(hand: list[Card], color: Color | None) -> bool:
        return color is not None and any(card.color is color for card in hand)

    def window_open(self, record: Exposure, now_ms: int) -> bool:
        """Ruling 12: open until the later of the watched seat's command and the grace."""
        return not record.acted or now_ms < record.since_ms + self.config.catch_grace_ms

    def _seat_acted(self, seat: int, start: int) -> None:
        """``seat`` sent its first command since older exposures were made."""
        for record in self.exposures.values():
            if record.watch == seat and record.seq <= start:
                record.acted = True

    def _shuffle(self, cards: list[Card]) -> None:
        """Shuffle in place: a stable sort by one random key per card, the keys drawn in
        list order (``list.sort`` computes each item's key once, first to last). No Python
        code runs per card, unlike ``random.shuffle``; equal float keys are vanishingly
        rare and keep their order."""
        cards.sort(key=_partial(next, _starmap(self.rng.random, _repeat((), len(cards)))))

    # ------------------------------------------------------------------ turns

    def _start_turn(self, seat: int, now_ms: int) -> None:
        """``seat``'s turn comes; ruling 16: a seat marked by a Skip draws one and passes."""
        if self.skip_any and self.skip_marks[seat]:  # only skip_any marks seats
            seat = self._serve_marks(seat)
        self.current = seat
        self.phase_ = _TURN
        self.drawn = None
        self.has_drawn = False
        self.early_uno = False
        # _emit inlined and the event kept compact: this runs once per command.
        self._records.append((TURN_RECORD, seat, self.direction))
        turn_ms = self.turn_ms
        self.deadline = now_ms + turn_ms if turn_ms else None

    def _serve_marks(self, seat: int) -> int:
        """Ruling 24: a marked seat whose turn comes serves one mark (draws one card and
        passes); the next seat may be marked too. Returns the seat that plays."""
        marks = self.skip_marks
        while marks[seat]:
            marks[seat] -= 1
            self._emit(EventKind.SKIP_SERVED, {"seat": seat})
            self.draw_cards(seat, 1, "skip")
            seat = self.next_seat(seat)
        return seat

    def _wait_on(self, seat: int, phase: Phase, deadline: int | None) -> None:
        """The match waits on ``seat`` for a decision (stack, challenge, dance)."""
        self.current = seat
        self.phase_ = phase
        self.deadline = deadline
        self.early_uno = False  # an early call belongs to the seat that made it
        self._emit(
            EventKind.TURN, {"seat": seat, "direction": self.direction, "phase": phase.value}
        )

    def _following(self, seat: int) -> int:
        """``next_seat`` for the common case of no eliminated seat in the way."""
        following = (seat + self.direction) % self.seats
        return self.next_seat(seat) if self.eliminated[following] else following

    # ------------------------------------------------------------------ drawing

    def _reshuffle(self) -> bool:
        """Ruling 14: the discards under the top card become the draw pile."""
        if len(self.discard) <= 1:
            return False
        top = self.discard.pop()
        pile = self.discard
        self._shuffle(pile)
        self.draw_pile = pile + self.draw_pile
        self.discard = [top]
        self._emit(EventKind.RESHUFFLED, {"count": len(self.draw_pile)})
        return True

    def _take(self, count: int) -> list[Card]:
        pile = self.draw_pile
        if len(pile) >= count:  # the common case: no reshuffle needed
            taken = pile[-count:]
            del pile[-count:]
            taken.reverse()
            return taken
        taken = []
        while len(taken) < count:
            pile = self.draw_pile
            if not pile and not self._reshuffle():
                break
            pile = self.draw_pile
            need = min(count - len(taken), len(pile))
            chunk = pile[-need:]
            del pile[-need:]
            chunk.reverse()
            taken.extend(chunk)
        return taken

    def draw_cards(self, seat: int, count: int, reason: str, trigger: bool = True) -> list[Card]:
        """``seat`` draws ``count`` cards (fewer if both piles run dry), Creepers included.

        Ruling 10: each Creeper drawn from the pile with ``trigger`` is shown to everyone
        and its owner draws three more, which never trigger.
        """
        cards = self._take(count)
        self.hands[seat].extend(cards)
        if self.exposures:
            self.exposures.pop(seat, None)
        self._records.append((DREW_RECORD, seat, cards, reason))
        if trigger and self.creepers:
            for card in cards:
                if card.rank is _CREEPER:
                    self._emit(EventKind.CREEPER_REVEALED, {"seat": seat, "card": CODE[card]})
                    self.draw_cards(seat, 3, "creeper", trigger=False)
        return cards
