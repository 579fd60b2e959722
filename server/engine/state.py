"""The mutable state of a match and the mechanics every rule uses.

``MatchState`` holds every field of a match (hands, piles, colour in force, direction,
whose move, the pending decision, scores, clocks, exposures, the events, the command
log) and the mechanics that do not depend on which card was played: recording events,
turn order, starting a turn, drawing with reshuffles and Creepers. The modules
``checks`` (is a command legal now?), ``effects`` and ``actions`` (what an accepted command
does) and ``rounds`` (the deal and a round's end) are functions over one ``MatchState``.

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

Events and the quiet mode: every event is counted in ``seq`` (the number of the last
one), then kept as a ``protocol.events.Event`` unless the match is ``quiet``. A quiet
match (a bot's playout) keeps no events and no log and never builds an event's body, yet
counts its events, so that the rules which compare event numbers (the UNO window, the
jump-in races) play exactly as in a match that records. So every place that makes an
event reads::

    state.seq += 1
    if not state.quiet:
        state.emit(Body(...))
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import partial
from itertools import repeat, starmap
from types import MappingProxyType

from protocol.cards import Card, Color, Rank
from protocol.commands import Arrow
from protocol.events import (
    CreeperRevealed,
    Drew,
    DrewReason,
    Event,
    EventBody,
    EventSecret,
    MatchOver,
    Reshuffled,
    RoundOver,
    SecretCards,
    SkipServed,
    Turn,
)
from protocol.options import DeckName, Stack, TableConfig
from protocol.phase import Phase
from server.engine.deck import build_deck
from server.engine.outcome import LogEntry

__all__ = ["NO_SECRETS", "Exposure", "MatchState"]

NO_SECRETS: Mapping[int, EventSecret] = MappingProxyType({})
"""The ``private`` part of an event that has no secret (shared: it is read-only)."""

# Enum members bound once: reading one from its class costs ten times a global's read.
_TURN = Phase.TURN
_CREEPER = Rank.CREEPER


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

    def __init__(self, config: TableConfig, seed: int, now_ms: int, quiet: bool = False) -> None:
        self.config = config
        self.seed = seed
        self.start_ms = now_ms
        self.rng = random.Random(seed)
        self.seats = config.seats
        self.deck_size = len(build_deck(config))
        self.turn_ms = config.turn_seconds * 1000
        self.creepers = config.deck is DeckName.MINECRAFT
        self.skip_any = config.skip_any
        self.seven_o = config.seven_o
        self.jump_in = config.jump_in
        self.stack_d2 = config.stack in (Stack.DRAW_TWO, Stack.PROGRESSIVE)
        """A Draw Two answers a Draw Two."""
        self.stack_wd4 = config.stack in (Stack.DRAW_FOUR, Stack.PROGRESSIVE)
        """A Wild Draw Four answers a Wild Draw Four (and, progressive, a Draw Two)."""
        self.quiet = quiet
        """Keep no events and no log (see the module docstring)."""
        self.seq = 0
        """How many events the match has produced: the number of the last one."""
        self.events: list[Event] = []
        """The events kept since ``forget_history`` (none in a quiet match), numbered on
        from the ones let go."""
        self.log: list[LogEntry] = []
        """Every accepted command since ``forget_history`` (none in a quiet match)."""
        self.scores = [0] * self.seats
        self.eliminated = [False] * self.seats
        self.away = [False] * self.seats
        self.expiries = [0] * self.seats
        self.dealer = 0
        self.round_no = 0
        self.phase = _TURN
        """What the match waits for, not counting a pause (``paused`` says that)."""
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
        self.top_played = False
        """Whether a player put the top card there (a first card turned up was not)."""
        self.overtaken = -1
        """Ruling 37: the seat a jump-in overtook, until the next turn or decision starts
        (the seat's own turn too, when the jump-in handed it straight back)."""
        self.seen = [0] * self.seats
        """Ruling 37: per seat, the event count of the last view the table sent it."""
        self.jump_tops: list[tuple[int, Card | None]] = []
        """Ruling 37: this round's latest positions as (event count, the card a jump-in
        could match then, or None), for telling a lost race from a card that never matched."""
        self.exposures: dict[int, Exposure] = {}
        self.round_result: RoundOver | None = None
        self.result: MatchOver | None = None

    # ------------------------------------------------------------------ events and log

    def emit(self, body: EventBody, private: Mapping[int, EventSecret] = NO_SECRETS) -> None:
        """Keep event number ``seq``, which the caller has just counted; ``private`` maps a
        seat to what only that seat may see. Never called in a quiet match."""
        self.events.append(Event(self.seq, body, private))

    def events_between(self, start: int, stop: int) -> list[Event]:
        """The events numbered ``start + 1`` to ``stop``; they must not be forgotten yet."""
        first = self.seq - len(self.events)
        if start < first:
            raise ValueError(f"events after {start} were forgotten (up to {first})")
        return self.events[start - first : stop - first]

    def event_count(self) -> int:
        """How many events the match has produced (the ``seq`` of the last one)."""
        return self.seq

    def forget_history(self) -> None:
        """Let go of the events and commands recorded so far; the match plays on exactly
        as before and its next event takes the next number."""
        self.events = []
        self.log = []

    # ------------------------------------------------------------------ turn order

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

    def opponents(self, seat: int) -> list[int]:
        """The seats in play other than ``seat``, in seat order."""
        return [other for other in self.seats_in_play() if other != seat]

    def start_turn(self, seat: int, now_ms: int) -> None:
        """``seat``'s turn comes; ruling 16: a seat marked by a Skip draws one and passes."""
        if self.skip_any and self.skip_marks[seat]:  # only skip_any marks seats
            seat = self._serve_marks(seat)
        self.current = seat
        self.phase = _TURN
        self.drawn = None
        self.has_drawn = False
        self.early_uno = False
        self.seq += 1
        if not self.quiet:
            self.emit(Turn.trusted(seat=seat, direction=self.direction, phase=_TURN))
        turn_ms = self.turn_ms
        self.deadline = now_ms + turn_ms if turn_ms else None
        if self.jump_in:
            self.overtaken = -1
            top = self.discard[-1]
            self.note_jump_top(top if self.top_played and top.color is not None else None)

    def _serve_marks(self, seat: int) -> int:
        """Ruling 24: a marked seat whose turn comes serves one mark (draws one card and
        passes); the next seat may be marked too. Returns the seat that plays."""
        marks = self.skip_marks
        while marks[seat]:
            marks[seat] -= 1
            self.seq += 1
            if not self.quiet:
                self.emit(SkipServed(seat))
            self.draw_cards(seat, 1, DrewReason.SKIP)
            seat = self.next_seat(seat)
        return seat

    def wait_on(self, seat: int, phase: Phase, deadline: int | None) -> None:
        """The match waits on ``seat`` for a decision (stack, challenge, dance)."""
        self.current = seat
        self.phase = phase
        self.deadline = deadline
        self.early_uno = False  # an early call belongs to the seat that made it
        self.seq += 1
        if not self.quiet:
            self.emit(Turn(seat, self.direction, phase))
        if self.jump_in:
            self.overtaken = -1
            self.note_jump_top(None)

    def note_jump_top(self, card: Card | None) -> None:
        """Ruling 37: from the events so far on, a jump-in may match ``card`` (None: no
        jump-in is possible). Only the last few positions are kept."""
        tops = self.jump_tops
        tops.append((self.event_count(), card))
        if len(tops) > 8:
            del tops[0]

    def jump_top_seen(self, seat: int) -> Card | None:
        """Ruling 37: the card a jump-in could match in the last view sent to ``seat``."""
        seen = self.seen[seat]
        for count, card in reversed(self.jump_tops):
            if count <= seen:
                return card
        return None

    # ------------------------------------------------------------------ UNO exposures

    def window_open(self, record: Exposure, now_ms: int) -> bool:
        """Ruling 12: open until the later of the watched seat's command and the grace."""
        return not record.acted or now_ms < record.since_ms + self.config.catch_grace_ms

    def seat_acted(self, seat: int, start: int) -> None:
        """``seat`` sent its first command since the exposures made before event ``start``."""
        for record in self.exposures.values():
            if record.watch == seat and record.seq <= start:
                record.acted = True

    # ------------------------------------------------------------------ cards

    def shuffle(self, cards: list[Card]) -> None:
        """Shuffle in place: a stable sort by one random key per card, the keys drawn in
        list order (``list.sort`` computes each item's key once, first to last). No Python
        code runs per card, unlike ``random.shuffle``; equal float keys are vanishingly
        rare and keep their order."""
        cards.sort(key=partial(next, starmap(self.rng.random, repeat((), len(cards)))))

    def can_draw(self) -> bool:
        """Whether a card can come from the draw pile (reshuffling the discards if needed)."""
        return bool(self.draw_pile) or len(self.discard) > 1

    def _reshuffle(self) -> bool:
        """Ruling 14: the discards under the top card become the draw pile."""
        if len(self.discard) <= 1:
            return False
        top = self.discard.pop()
        pile = self.discard
        self.shuffle(pile)
        self.draw_pile = pile + self.draw_pile
        self.discard = [top]
        self.seq += 1
        if not self.quiet:
            self.emit(Reshuffled(len(self.draw_pile)))
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
            if not self.draw_pile and not self._reshuffle():
                break
            pile = self.draw_pile
            need = min(count - len(taken), len(pile))
            chunk = pile[-need:]
            del pile[-need:]
            chunk.reverse()
            taken.extend(chunk)
        return taken

    def draw_cards(
        self, seat: int, count: int, reason: DrewReason, trigger: bool = True
    ) -> list[Card]:
        """``seat`` draws ``count`` cards (fewer if both piles run dry), Creepers included.

        Ruling 10: each Creeper drawn from the pile with ``trigger`` is shown to everyone
        and its owner draws three more, which never trigger.
        """
        cards = self._take(count)
        self.hands[seat].extend(cards)
        if self.exposures:
            self.exposures.pop(seat, None)
        self.seq += 1
        if not self.quiet:
            # Trusted: the cards come from the deck, the seat and count from the state
            # (tests/engine/test_event_codec.py checks every event of whole matches).
            body = Drew.trusted(seat=seat, count=len(cards), reason=reason)
            self.emit(body, {seat: SecretCards.trusted(cards=tuple(cards))})
        if trigger and self.creepers:
            for card in cards:
                if card.rank is _CREEPER:
                    self.seq += 1
                    if not self.quiet:
                        self.emit(CreeperRevealed(seat, card))
                    self.draw_cards(seat, 3, DrewReason.CREEPER, trigger=False)
        return cards
