"""A replay's table at one moment: the model a spectator's client would hold after the
first ``n`` events of a replay file (``uno-client --replay``, docs/client.md).

The events go through the live client's one reducer (``client.ui.reducer.apply``) as
``event`` messages, so the log reads as it read to a spectator. A spectator's view (the
discard pile, the hand counts, whose turn, the scores, a round's revealed hands) came
from the server; a replay has only the events, so ``SpectatorTable`` folds them into the
same public facts and the reducer gets that view as a ``view`` message. Nothing in a view
made here is a secret: a replay file holds none. The draw pile's count is folded from the
events too (``protocol.draw_pile``) when the file's header gives the deck's size.

Stepping back rebuilds from the first event (``model_at``): exact, and cheap enough (a
match of a thousand events folds in milliseconds).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from client.i18n import pgettext
from client.ui.model import Model
from client.ui.reducer import apply
from client.ui.replay_words import keys, where
from protocol.cards import Card, Color
from protocol.draw_pile import DrawPile
from protocol.events import (
    Away,
    Back,
    Caught,
    ColorChosen,
    DirectionChanged,
    Drew,
    EventBody,
    Exposed,
    FirstCard,
    FirstCardReturned,
    HandsPassed,
    HandsShuffled,
    HandsSwapped,
    MatchOver,
    Played,
    Reshuffled,
    RoundOver,
    RoundStarted,
    SeenEvent,
    Turn,
    UnoCalled,
)
from protocol.messages import GameEvent, GameView, SeatInfo, TableState, TableStatus
from protocol.options import TableOptions
from protocol.phase import Phase
from protocol.replay_file import Replay
from protocol.views import SharedView, View

__all__ = ["REPLAY_TABLE_ID", "ReplayTable", "SpectatorTable", "model_at", "replay_table_state"]

REPLAY_TABLE_ID = "replay"
"""The table id the replay's model holds (no server gave one)."""


@dataclass(slots=True)
class SpectatorTable:
    """The public facts of a table, folded from its events one by one (``advance``)."""

    seats: int
    phase: Phase = Phase.TURN
    round: int = 0
    dealer: int = 0
    direction: int = 1
    to_act: int | None = None
    top: Card | None = None
    color: Color | None = None
    counts: list[int] = field(default_factory=list)
    discard_count: int = 0
    scores: list[int] = field(default_factory=list)
    eliminated: tuple[int, ...] = ()
    away: set[int] = field(default_factory=set)
    exposed: set[int] = field(default_factory=set)
    round_result: RoundOver | None = None
    match_result: MatchOver | None = None
    last_seq: int = 0
    pile: DrawPile | None = None
    """The draw pile's count, when the deck's size is known."""

    def __post_init__(self) -> None:
        self.counts = self.counts or [0] * self.seats
        self.scores = self.scores or [0] * self.seats

    def advance(self, event: SeenEvent) -> None:
        """Take in the next event."""
        self.last_seq = event.seq
        self._take(event.body)
        if self.pile is not None:
            self.pile.take(event.body)

    def _take(self, body: EventBody) -> None:  # noqa: C901 (one case per public fact)
        match body:
            case RoundStarted():
                self.round, self.dealer = body.round, body.dealer
                self.counts = list(body.counts)
                self.top, self.color, self.discard_count = None, None, 0
                self.round_result, self.to_act, self.phase = None, None, Phase.TURN
                self.exposed.clear()
            case FirstCard():
                self.top, self.color = body.card, body.color or body.card.color
                self.discard_count = 1
            case FirstCardReturned():
                self.top, self.color, self.discard_count = None, None, 0
            case Played():
                self.counts[body.seat] = body.count
                self.top, self.color = body.card, body.color
                self.discard_count += 1
                if body.count != 1:
                    self.exposed.discard(body.seat)
            case Drew():
                self.counts[body.seat] += body.count
                self.exposed.discard(body.seat)
            case ColorChosen():
                self.color = body.color
            case DirectionChanged():
                self.direction = body.direction
            case Turn():
                self.to_act, self.direction, self.phase = body.seat, body.direction, body.phase
            case HandsSwapped() | HandsShuffled() | HandsPassed():
                self.counts = list(body.counts)
            case UnoCalled() | Caught():
                self.exposed.discard(body.seat)
            case Exposed():
                self.exposed.add(body.seat)
            case Away():
                self.away.add(body.seat)
            case Back():
                self.away.discard(body.seat)
            case Reshuffled():
                self.discard_count = 1  # the top card stays; the rest became the draw pile
            case RoundOver():
                self.round_result, self.phase, self.to_act = body, Phase.ROUND_OVER, None
                self.scores, self.eliminated = list(body.scores), body.eliminated
            case MatchOver():
                self.match_result, self.phase, self.to_act = body, Phase.MATCH_OVER, None
                self.scores = list(body.scores)
            case _:
                pass  # the rest change no public count, card or turn

    def view(self) -> View:
        """The view a spectator would have been sent now."""
        shared = SharedView(
            phase=self.phase,
            round=self.round,
            dealer=self.dealer,
            direction=self.direction,
            to_act=self.to_act,
            top=self.top,
            color=self.color,
            counts=tuple(self.counts),
            draw_count=0 if self.pile is None else self.pile.count,
            discard_count=self.discard_count,
            scores=tuple(self.scores),
            eliminated=self.eliminated,
            away=tuple(sorted(self.away)),
            exposed=tuple(sorted(self.exposed)),
            pending=None,
            remaining_ms=None,
            pending_draw=0,
            skip_marks=(0,) * self.seats,
            round_result=self.round_result,
            match_result=self.match_result,
            last_seq=self.last_seq,
        )
        return View(seat=None, shared=shared)


def replay_table_state(replay: Replay, status: TableStatus) -> TableState:
    """The table as its ``table-state`` would have shown it to a spectator."""
    seats = tuple(
        SeatInfo(seat=index, name=player.name, bot=player.bot)
        for index, player in enumerate(replay.players)
    )
    return TableState(
        table_id=REPLAY_TABLE_ID,
        name=replay.table,
        state=status,
        seats=seats,
        options=TableOptions.from_data(replay.config.to_data()),
    )


class ReplayTable:
    """A replay's model at a position (``show``): forward it reduces only the events it
    has not yet shown; back, it rebuilds from the first event."""

    def __init__(self, replay: Replay, name: str = "replay") -> None:
        self.replay = replay
        self._name = name
        self.model = Model(name=name)
        self.shown = 0
        self._table = self._new_table()
        self._restart()

    def _new_table(self) -> SpectatorTable:
        deck_size = self.replay.deck_size
        pile = None if deck_size is None else DrawPile(deck_size)
        return SpectatorTable(seats=len(self.replay.players), pile=pile)

    def _restart(self) -> None:
        model = Model(name=self._name)
        model.connected, model.status = True, pgettext("replay", "replay")
        model.address = where(self.replay.match_id)
        model.replay_keys = keys()
        model.replay_counts_pile = self.replay.deck_size is not None
        apply(model, replay_table_state(self.replay, TableStatus.PLAYING), 0.0)
        self.model, self.shown = model, 0
        self._table = self._new_table()

    def show(self, count: int) -> Model:
        """The model after the first ``count`` events, as a spectator's client held it."""
        count = max(0, min(count, len(self.replay.events)))
        if count < self.shown:
            self._restart()
        model = self.model
        for event in self.replay.events[self.shown : count]:
            self._table.advance(event)
            apply(model, GameEvent(seq=event.seq, body=event), 0.0)
            if isinstance(event.body, MatchOver):
                apply(model, replay_table_state(self.replay, TableStatus.OVER), 0.0)
        self.shown = count
        if count:  # before the first event no view came (the screen waits for the deal)
            apply(model, GameView(seq=self._table.last_seq, body=self._table.view()), 0.0)
        return model


def model_at(replay: Replay, count: int) -> Model:
    """The model after the first ``count`` events, rebuilt from the start."""
    return ReplayTable(replay).show(count)
