"""What one seat has seen of the round so far, for the ``hard`` level's sampler.

A view shows the present (hands' sizes, the top card); the events a seat received show
the round up to it. Three things in them narrow down the hidden cards:

- **The discards.** Every card played since the last reshuffle lies in the discard pile,
  in order, so those cards are not hidden at all.
- **Voids.** A seat that drew instead of playing (or passed, stuck) held nothing it
  could play on the card in force then: no card of that colour, none of that rank and
  no wild. The cards it held then still avoid those, except the ones it has played
  since; the cards it drew since are free. A drawn card passed on avoids them too.
  When it draws again with no card drawn since the last void, the old void's colour and
  rank go on as a lack (below), so its old cards avoid both voids' colours.
- **Plays read as ``normal`` plays.** A seat that played another colour on the colour in
  force (by rank, or with a wild) held none of that colour: a player who can follow the
  colour does. One that followed it held none of it worth more (the costliest first);
  one that played a wild held no coloured card that played (nor the top card's rank),
  and one that played a Wild Draw Four no plain wild. Other wilds it may still hold,
  and the cards it draws since are free again. The colour a wild names is the one the
  seat held most after it, until it plays or draws again.
- **Earlier readings.** A new reading (a void, or a play read as above) replaces the
  last one of its kind, but when the seat has drawn since, the last one still holds for
  the cards it held then: it is set aside, with its own count of fresh cards, and the
  sampler keeps it too (the newest ``_EARLIER`` of them).

One thing outlives the round: the seats seen caught bluffing a Wild Draw Four (a
challenge found them guilty). Every other seat is read as honest, as ``normal`` is (it
plays a Wild Draw Four only when no card of the colour in force plays).

Only what the seat's own events say is used: the memory is fed the redacted events a
client of that seat receives (``Event.seen_by``), never the match itself. A void is a
reading of how players play (one who can play does not draw), not a rule: a player may
draw anyway, or change the colour while holding it, and then the sampler is wrong about
that seat for a while.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from protocol.cards import COLORS, Card, Color, Rank, card_points
from protocol.events import (
    Challenged,
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

__all__ = ["Favourite", "Lack", "RoundMemory", "Void"]


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
    """What a seat held none of when it last played, except the ``fresh`` cards it has
    drawn since: no card of a colour worth more than its ``ceilings`` entry (-1: none of
    that colour at all), and no card of ``ranks`` (a plain wild among them after a Wild
    Draw Four). Other wilds it may hold."""

    ceilings: dict[Color, int]
    ranks: set[Rank]
    fresh: int

    @property
    def colors(self) -> set[Color]:
        """The colours the seat held none of."""
        return {color for color, ceiling in self.ceilings.items() if ceiling < 0}

    def allows(self, card: Card) -> bool:
        """Whether an old card of that seat may be ``card``."""
        if card.rank in self.ranks:
            return False
        if card.color is None:
            return True
        ceiling = self.ceilings.get(card.color)
        return ceiling is None or card_points(card) <= ceiling

    def narrow(self, other: Lack) -> None:
        """Add what ``other`` (a later reading of the same old cards) rules out."""
        for color, ceiling in other.ceilings.items():
            self.ceilings[color] = min(ceiling, self.ceilings.get(color, ceiling))
        self.ranks |= other.ranks


@dataclass(frozen=True, slots=True)
class Favourite:
    """The colour a seat named with a wild: the one it held most after the play (ties
    go to the first of ``COLORS``). Kept until that seat plays or draws again."""

    color: Color

    def holds(self, hand: Sequence[Card]) -> bool:
        """Whether ``hand`` is one after which a player naming the colour held most names
        this one."""
        held = Counter(card.color for card in hand if card.color is not None)
        mine = held.get(self.color, 0)
        first = COLORS.index(self.color)
        return all(
            held.get(color, 0) < mine or (held.get(color, 0) == mine and index > first)
            for index, color in enumerate(COLORS)
            if color != self.color
        )


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
        """What a seat held none of when it played: see :class:`Lack`."""
        self.earlier: dict[int, list[Void | Lack]] = {}
        """Readings a newer one replaced after the seat had drawn, oldest first: they still
        hold for the cards it held then (``readings``)."""
        self.favourites: dict[int, Favourite] = {}
        """The colour a seat named with its last wild, while it has neither played nor
        drawn since."""
        self.bluffers: set[int] = set()
        """The seats seen caught bluffing a Wild Draw Four at this table, in any round."""
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

    def readings(self, seat: int) -> list[Void | Lack]:
        """Every reading of what ``seat`` holds none of (void, lack, earlier ones): each
        binds the seat's cards but its own count of fresh ones."""
        readings: list[Void | Lack] = [*self.earlier.get(seat, ())]
        readings += [r for r in (self.voids.get(seat), self.lacks.get(seat)) if r is not None]
        return readings

    def catch_up(self, events: Iterable[SeenEvent]) -> None:
        """Take in the events after the last one taken (a session's kept events, oldest
        first). A gap in the numbers forgets what it cannot trust; numbers that start
        again (a new table) start the memory again."""
        events = list(events)
        if events and events[-1].seq < self.seq:
            self.seq = 0
            self.bluffers.clear()  # numbers that start again: another table
        for event in events:
            seq = event.seq
            if seq <= self.seq:
                continue
            if seq != self.seq + 1 and self.seq:
                self.discard = None
                self._forget_readings()
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
            self._played(event, drawing)
        elif isinstance(event, Drew):
            self._drew(event.seat, event.count, event.reason, drawing)
        elif isinstance(event, Passed):
            self._passed(event.seat, event.stuck, drawing)
        elif isinstance(event, Challenged):
            if event.guilty:
                self.bluffers.add(event.target)
        elif isinstance(event, Reshuffled):
            self.discard = [self._top] if self._top is not None else None
        elif isinstance(event, HandsSwapped | HandsShuffled | HandsPassed):
            self._forget_readings()

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
        self._forget_readings()
        self._top = None
        self._color = None
        self._drawing = None

    def _forget_readings(self) -> None:
        self.voids.clear()
        self.lacks.clear()
        self.earlier.clear()
        self.favourites.clear()

    def _set_aside(self, seat: int, reading: Void | Lack) -> None:
        """Keep a reading replaced after the seat drew (one with no fresh card is narrowed
        instead, never replaced): it still binds the cards the seat held then."""
        kept = self.earlier.setdefault(seat, [])
        kept.append(reading)
        del kept[:-_EARLIER]

    def _played(self, event: Played, drawing: int | None) -> None:
        seat, card, in_force, before = event.seat, event.card, self._color, self._top
        self._lay(card, event.color, first=False)
        self.favourites.pop(seat, None)
        for rule in self.readings(seat):
            if not rule.allows(card):
                rule.fresh = max(rule.fresh - 1, 0)  # it was one of the drawn cards
        if card.color is None and event.color is not None and event.count:
            self.favourites[seat] = Favourite(event.color)
        if drawing == seat or in_force is None or _stacks(before, card):
            return  # the card it drew, or a stack: it had no other choice to read
        reading = _reading(card, in_force, before)
        if reading is not None:
            self._read(seat, reading)

    def _read(self, seat: int, reading: Lack) -> None:
        """Take in a reading of the seat's whole hand: it narrows the last one when the seat
        has drawn nothing since (the same cards), else replaces it, set aside."""
        lack = self.lacks.get(seat)
        if lack is not None and lack.fresh == 0:
            lack.narrow(reading)
            return
        if lack is not None:
            self._set_aside(seat, lack)
        self.lacks[seat] = reading

    def _passed(self, seat: int, stuck: bool, drawing: int | None) -> None:
        void = self.voids.get(seat)
        if stuck:
            self._void(seat, fresh=0)
        elif drawing == seat and void is not None:
            void.fresh = max(void.fresh - 1, 0)  # the drawn card did not play either

    def _drew(self, seat: int, count: int, reason: DrewReason, drawing: int | None) -> None:
        void = self.voids.get(seat)
        self.favourites.pop(seat, None)
        if reason is DrewReason.DRAW and drawing != seat:
            if void is not None and void.fresh == 0:
                self._keep_old_void(seat, void)
            elif void is not None:
                self._set_aside(seat, void)
            self._void(seat, fresh=0)
        for rule in self.readings(seat):
            rule.fresh += count  # the new void's too: it reads the hand before the draw
        if reason is DrewReason.DRAW:
            self._drawing = seat

    def _keep_old_void(self, seat: int, void: Void) -> None:
        """Keep what a void that the new one replaces says, as a lack: every card the seat
        holds is an old card of both (none drawn since), so it held none of either's
        colour or rank. Wilds the new void rules out already."""
        ceilings = {void.color: -1} if void.color is not None else {}
        self._read(seat, Lack(ceilings, {void.rank} if void.rank is not None else set(), 0))

    def _void(self, seat: int, fresh: int) -> None:
        top = self._top
        rank = top.rank if top is not None and top.color is not None else None
        self.voids[seat] = Void(self._color, rank, fresh)


_EARLIER = 3
"""Earlier readings kept per seat (the newest): each binds fewer of its cards than the
one after it, and every one is a test per card the sampler deals."""


def _reading(card: Card, in_force: Color, top: Card | None) -> Lack | None:
    """What a play of ``card`` on ``in_force`` (and ``top``) says the player held none
    of, read as ``normal`` plays: the colour in force first, its costliest card first
    (so nothing of it worth more); another colour by rank only without the colour in
    force; a wild only with no coloured card that plays (none of that colour or rank),
    and a Wild Draw Four only without a plain wild."""
    if card.color is None:
        if card.rank not in (Rank.WILD, Rank.WILD_DRAW_FOUR):
            return None
        ranks = {top.rank} if top is not None and top.color is not None else set()
        if card.rank is Rank.WILD_DRAW_FOUR:
            ranks.add(Rank.WILD)  # normal plays a plain wild before a Wild Draw Four
        return Lack({in_force: -1}, ranks, 0)
    if card.color == in_force:
        return Lack({in_force: card_points(card)}, set(), 0)
    return Lack({in_force: -1}, set(), 0)


_DRAWS = (Rank.DRAW_TWO, Rank.WILD_DRAW_FOUR)


def _stacks(top: Card | None, card: Card) -> bool:
    """Whether ``card`` may have been played on a stack of draws (house rule), where only
    draw cards play and the colour says nothing."""
    return top is not None and top.rank in _DRAWS and card.rank in _DRAWS
