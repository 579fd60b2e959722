"""What one seat has seen of the round so far, for the ``hard`` level's sampler.

A view shows the present (hands' sizes, the top card); the events a seat received show
the round up to it. Three things in them narrow down the hidden cards:

- **The discards.** Every card played since the last reshuffle lies in the discard pile,
  in order, so those cards are not hidden at all.
- **Voids.** A seat that drew instead of playing (or passed, stuck) held nothing it
  could play on the card in force then: no card of that colour, none of that rank and
  no wild. The cards it held then still avoid those, except the ones it has played
  since; the cards it drew since are free. A drawn card passed on avoids them too.
- **Colours left.** A seat that played another colour on the colour in force (by rank,
  or with a wild) held none of that colour: a player who can follow the colour does
  (``normal`` plays it first). Wilds it may still hold, and the cards it draws since are
  free again.

Only what the seat's own events say is used: the memory is fed the redacted events a
client of that seat receives (``Event.seen_by``), never the match itself. A void is a
reading of how players play (one who can play does not draw), not a rule: a player may
draw anyway, or change the colour while holding it, and then the sampler is wrong about
that seat for a while.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from protocol.cards import Card, Color, Rank
from protocol.events import (
    ColorChosen,
    Drew,
    DrewReason,
    EventBody,
    FirstCard,
    FirstCardReturned,
    HandsPassed,
    HandsShuffled,
    HandsSwapped,
    Passed,
    Played,
    Reshuffled,
    RoundStarted,
    SeenEvent,
)
from protocol.messages import GameEvent, TableState
from protocol.options import ConfigError, TableConfig

__all__ = ["Lack", "RoundMemory", "Void"]


@dataclass(slots=True)
class Void:
    """A seat held nothing playable on ``color``/``rank`` when it drew, except the
    ``fresh`` cards it has drawn since."""

    color: Color | None
    rank: Rank | None
    fresh: int

    def allows(self, card: Card) -> bool:
        """Whether an old card of that seat may be ``card``: one it could not have played."""
        if card.color is None:
            return False
        return card.color != self.color and card.rank != self.rank


@dataclass(slots=True)
class Lack:
    """A seat held no card of ``colors`` when it last changed the colour, except the
    ``fresh`` cards it has drawn since; wilds it may hold."""

    colors: set[Color]
    fresh: int

    def allows(self, card: Card) -> bool:
        """Whether an old card of that seat may be ``card``."""
        return card.color is None or card.color not in self.colors


class RoundMemory:
    """The discards and voids of the current round, from one seat's events."""

    def __init__(self) -> None:
        self.seq = 0
        """The number of the last event taken in by ``catch_up``."""
        self.seen: set[Card] = set()
        """Every card seen played or turned up, this round or earlier (which deck)."""
        self.discard: list[Card] | None = None
        """The discard pile, bottom to top, when every card of it was seen; else None."""
        self.rules: TableConfig | None = None
        """The table's options as its ``table-state`` tells them (``know_table``); the search
        guesses them from the view while this is None."""
        self.voids: dict[int, Void] = {}
        self.lacks: dict[int, Lack] = {}
        """Colours a seat left: it played another colour (by rank, or a wild) on them."""
        self._top: Card | None = None
        self._color: Color | None = None
        self._drawing: int | None = None
        """The seat whose voluntary draw was the last event (its pass would follow)."""

    def know_table(self, state: TableState | None) -> None:
        """Take in the options of the table the seat is at (public, in its table-state)."""
        if state is None:
            return
        try:
            self.rules = state.options.over(TableConfig())
        except ConfigError:  # options of a newer server than this bot: guess them instead
            self.rules = None

    def catch_up(self, events: Iterable[SeenEvent]) -> None:
        """Take in the events after the last one taken (a session's kept events, oldest
        first). A gap in the numbers forgets what it cannot trust; numbers that start
        again (a new table) start the memory again."""
        events = list(events)
        if events and events[-1].seq < self.seq:
            self.seq = 0
        for event in events:
            seq = event.seq
            if seq <= self.seq:
                continue
            if seq != self.seq + 1 and self.seq:
                self.discard = None
                self.voids.clear()
                self.lacks.clear()
            self.seq = seq
            self.observe(event.body)

    def catch_up_messages(self, messages: Sequence[GameEvent]) -> None:
        """``catch_up`` from a session's kept event messages (only the ones not taken yet,
        all of them when the numbers start again)."""
        restart = bool(messages) and messages[-1].seq < self.seq
        self.catch_up(m.body for m in messages if restart or m.seq > self.seq)

    def observe(self, event: EventBody) -> None:
        """Take in one event body as this seat received it."""
        drawing, self._drawing = self._drawing, None
        if isinstance(event, RoundStarted):
            self._forget()
        elif isinstance(event, FirstCard):
            self._lay(event.card, event.color, first=True)
        elif isinstance(event, FirstCardReturned):
            self.discard = None
        elif isinstance(event, ColorChosen):
            self._color = event.color
        elif isinstance(event, Played):
            self._played(event)
        elif isinstance(event, Drew):
            self._drew(event.seat, event.count, event.reason, drawing)
        elif isinstance(event, Passed):
            self._passed(event.seat, event.stuck, drawing)
        elif isinstance(event, Reshuffled):
            self.discard = [self._top] if self._top is not None else None
        elif isinstance(event, HandsSwapped | HandsShuffled | HandsPassed):
            self.voids.clear()
            self.lacks.clear()

    def _lay(self, card: Card, color: Color | None, *, first: bool) -> None:
        self._top = card
        self.seen.add(card)
        self._color = color or card.color
        if first:
            self.discard = [card]
        elif self.discard is not None:
            self.discard.append(card)

    def _forget(self) -> None:
        self.discard = None
        self.voids.clear()
        self.lacks.clear()
        self._top = None
        self._color = None
        self._drawing = None

    def _played(self, event: Played) -> None:
        seat, card, in_force = event.seat, event.card, self._color
        self._lay(card, event.color, first=False)
        void = self.voids.get(seat)
        if void is not None and not void.allows(card):
            void.fresh = max(void.fresh - 1, 0)  # it was one of the drawn cards
        lack = self.lacks.get(seat)
        if lack is not None and not lack.allows(card):
            lack.fresh = max(lack.fresh - 1, 0)
        if in_force is not None and _leaves(card, in_force):
            # A player who could follow the colour does (``normal`` plays it first): one
            # that changed it, by rank or with a wild, held none of it.
            self._lack(seat, in_force)

    def _lack(self, seat: int, color: Color) -> None:
        lack = self.lacks.get(seat)
        if lack is not None and lack.fresh == 0:
            lack.colors.add(color)
        else:
            self.lacks[seat] = Lack({color}, 0)

    def _passed(self, seat: int, stuck: bool, drawing: int | None) -> None:
        void = self.voids.get(seat)
        if stuck:
            self._void(seat, fresh=0)
        elif drawing == seat and void is not None:
            void.fresh = max(void.fresh - 1, 0)  # the drawn card did not play either

    def _drew(self, seat: int, count: int, reason: DrewReason, drawing: int | None) -> None:
        void = self.voids.get(seat)
        if reason is DrewReason.DRAW and drawing != seat:
            self._void(seat, fresh=count)
        elif void is not None:
            void.fresh += count
        lack = self.lacks.get(seat)
        if lack is not None:
            lack.fresh += count
        if reason is DrewReason.DRAW:
            self._drawing = seat

    def _void(self, seat: int, fresh: int) -> None:
        top = self._top
        rank = top.rank if top is not None and top.color is not None else None
        self.voids[seat] = Void(self._color, rank, fresh)


def _leaves(card: Card, in_force: Color) -> bool:
    """Whether playing ``card`` on ``in_force`` says the player had none of that colour."""
    if card.color is None:
        return card.rank in (Rank.WILD, Rank.WILD_DRAW_FOUR)
    return card.color != in_force
