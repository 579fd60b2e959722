"""The match: one table's game from the dealer's draw to the final scores.

``Match`` holds one ``MatchState`` and is the engine's whole public face. It is mutable
inside for speed and deterministic: everything random comes from one
``random.Random(seed)``, and the only notion of time is the ``now_ms`` stamp the table
passes with every command.

How a command flows through ``apply``: the command's type picks its check (in ``checks``, the
one home of legality) and its action (``effects`` for a play, ``actions`` for everything else).
The check runs first and changes nothing; only when it passes does the action change the state
and record events, so a ``Rejected`` leaves the match exactly as it was (RNG included).
Legal-move lists (``legal``), views (``view``) and snapshots (``snapshot``) only read the state.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from protocol.cards import Card, Color
from protocol.commands import (
    Accept,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Command,
    Dance,
    Draw,
    NextRound,
    Pass,
    Pause,
    Play,
    RefuseDance,
    Resume,
    SeatCommand,
    SetAway,
    TableCommand,
    Timeout,
)
from protocol.events import Event, MatchOver
from protocol.options import ConfigError, TableConfig
from protocol.phase import Phase
from protocol.rejections import RejectCode
from protocol.views import SharedView, View
from server.engine import actions, checks
from server.engine.checks import check_sender, check_table_sender
from server.engine.effects import play
from server.engine.legal import legal_seat_commands, legal_table_commands, playable_cards
from server.engine.outcome import Accepted, LogEntry, Outcome, Rejected
from server.engine.rounds import choose_dealer, start_round
from server.engine.snapshot import SnapshotError, check_cards, dump_state, load_state
from server.engine.state import MatchState
from server.engine.view import build_view, seat_view, shared_view

__all__ = ["Match"]

_SeatCheck = Callable[[MatchState, int, Any, int], Rejected | None]
_SeatAction = Callable[[MatchState, int, Any, int], None]
_TableCheck = Callable[[MatchState, Any, int], Rejected | None]
_TableAction = Callable[[MatchState, Any, int], None]

_SEAT_COMMANDS: dict[type[Command], tuple[_SeatCheck, _SeatAction]] = {
    Play: (checks.check_play, play),
    Draw: (checks.check_draw, actions.act_draw),
    Pass: (checks.check_pass, actions.act_pass),
    ChooseColor: (checks.check_choose_color, actions.act_choose_color),
    CallUno: (checks.check_call_uno, actions.act_call_uno),
    Catch: (checks.check_catch, actions.act_catch),
    Accept: (checks.check_decision, actions.act_accept),
    Challenge: (checks.check_decision, actions.act_challenge),
    Dance: (checks.check_dance, actions.act_dance),
    RefuseDance: (checks.check_dance, actions.act_refuse_dance),
}
"""Each seat command's check (after ``check_sender``) and what it does once accepted."""

_TURN_MOVES = (Play, Draw, Pass)
"""Ruling 37: the moves a jump-in overtakes."""

_TABLE_COMMANDS: dict[type[Command], tuple[_TableCheck, _TableAction]] = {
    Timeout: (checks.check_timeout, actions.act_timeout),
    NextRound: (checks.check_next_round, actions.act_next_round),
    Pause: (checks.check_pause, actions.act_pause),
    Resume: (checks.check_resume, actions.act_resume),
    SetAway: (checks.check_set_away, actions.act_set_away),
}
"""Each table command's check (after ``check_table_sender``) and what it does."""

# Enum members bound once: reading one from its class costs ten times a global's read.
_TURN = Phase.TURN
_STACK = Phase.STACK
_ROUND_OVER = Phase.ROUND_OVER
_MATCH_OVER = Phase.MATCH_OVER
_PAUSED = Phase.PAUSED

_QUIETLY_ACCEPTED = Accepted()
"""What a quiet match answers every accepted command with (one value, shared)."""


class Match:
    """One match at one table. See ``server.engine`` for the full API reference."""

    def __init__(
        self, config: TableConfig, seed: int, now_ms: int = 0, *, quiet: bool = False
    ) -> None:
        self._state = state = MatchState(config, seed, now_ms, quiet)
        choose_dealer(state)
        start_round(state, now_ms)

    # ------------------------------------------------------------------ the one entry point

    def apply(self, actor: int | None, command: Command, now_ms: int) -> Outcome:
        """Apply one command stamped with the server's clock; see the package docstring."""
        state = self._state
        start = state.seq
        kept = len(state.events)
        kind = type(command)
        seat_command = _SEAT_COMMANDS.get(kind)
        if seat_command is not None:
            refusal = check_sender(state, actor)
            if refusal is not None:
                return refusal
            assert actor is not None  # check_sender accepts only a seat in play
            check, act = seat_command
            refusal = check(state, actor, command, now_ms)
            if refusal is not None:
                if actor == state.overtaken and kind in _TURN_MOVES:
                    return checks.turned_back_refusal(state, actor, refusal)
                return refusal
            act(state, actor, command, now_ms)
            if actor == state.overtaken and kind in _TURN_MOVES:
                state.overtaken = -1  # its turn, handed straight back, is under way
            state.expiries[actor] = 0
            if state.exposures and kind is not Catch and kind is not CallUno:
                state.seat_acted(actor, start)
        else:
            table_command = _TABLE_COMMANDS.get(kind)
            if table_command is None:
                return Rejected(RejectCode.NOT_NOW, f"{kind.__name__} is not a match command")
            table_check, table_act = table_command
            refusal = check_table_sender(state, actor) or table_check(state, command, now_ms)
            if refusal is not None:
                return refusal
            table_act(state, command, now_ms)
        if state.quiet:
            return _QUIETLY_ACCEPTED
        state.log.append(LogEntry(actor, command, now_ms))
        return Accepted(tuple(state.events[kept:]))

    # ------------------------------------------------------------------ reading the match

    @property
    def phase(self) -> Phase:
        """What the match waits for; ``Phase.PAUSED`` while the host has paused it."""
        state = self._state
        return _PAUSED if state.paused else state.phase

    @property
    def is_over(self) -> bool:
        return self._state.phase is _MATCH_OVER

    def to_act(self) -> int | None:
        """The one seat whose move the match waits for; None between rounds, at the end
        and while paused (then only table commands are legal)."""
        state = self._state
        phase = state.phase
        if state.paused or phase is _ROUND_OVER or phase is _MATCH_OVER:
            return None
        return state.current

    def deadline_ms(self) -> int | None:
        """When (server ms, the clock of ``now_ms``) the table must send Timeout, or None."""
        return self._state.deadline

    @property
    def events(self) -> list[Event]:
        """Every event of the match, ``seq`` 1..N without gaps (since ``forget_history``:
        the ones after it)."""
        return self._state.events

    @property
    def log(self) -> list[LogEntry]:
        """Every accepted command, in order: with the seed, the match's whole history
        (since ``forget_history``: the commands after it)."""
        return self._state.log

    def forget_history(self) -> None:
        """Let go of the events and commands so far, once they have been read (a server
        table has sent the events and journalled the commands): a long match then holds
        only its position. Events go on numbered from where they were; ``events`` and
        ``log`` start again empty, and so does a snapshot's history."""
        self._state.forget_history()

    @property
    def quiet(self) -> bool:
        """Whether the match keeps no events and no log (a playout's match); it plays
        exactly as one that keeps them and counts its events all the same."""
        return self._state.quiet

    @property
    def config(self) -> TableConfig:
        return self._state.config

    @property
    def seed(self) -> int:
        return self._state.seed

    @property
    def start_ms(self) -> int:
        """The ``now_ms`` the match was created at (``replay`` starts there)."""
        return self._state.start_ms

    @property
    def deck_size(self) -> int:
        return self._state.deck_size

    @property
    def scores(self) -> list[int]:
        return list(self._state.scores)

    @property
    def result(self) -> MatchOver | None:
        """The winners and scores once the match is over, else None."""
        return self._state.result

    @property
    def dealer(self) -> int:
        return self._state.dealer

    @property
    def round_no(self) -> int:
        return self._state.round_no

    @property
    def direction(self) -> int:
        """+1 clockwise (to the left), -1 after an odd number of Reverses."""
        return self._state.direction

    @property
    def away(self) -> list[bool]:
        """Per seat, whether it is marked away (a server bot plays it)."""
        return list(self._state.away)

    @property
    def paused(self) -> bool:
        return self._state.paused

    @property
    def color(self) -> Color | None:
        """The colour in force (the top card's, or the one a wild named)."""
        return self._state.color

    def hand(self, seat: int) -> tuple[Card, ...]:
        return tuple(self._state.hands[seat])

    def hand_count(self, seat: int) -> int:
        """How many cards ``seat`` holds."""
        return len(self._state.hands[seat])

    def top_card(self) -> Card:
        return self._state.discard[-1]

    def card_count_total(self) -> int:
        """Cards in hands and both piles; always equals ``deck_size``."""
        state = self._state
        return sum(map(len, state.hands)) + len(state.draw_pile) + len(state.discard)

    def cards_accounted_for(self) -> bool:
        """Whether hands and piles hold exactly the table's deck, card by card."""
        return check_cards(self._state)

    # ------------------------------------------------------------------ legal moves

    def legal_commands(self, seat: int) -> list[SeatCommand]:
        """Every command ``seat`` may send now, fully expanded (see ``server.engine.legal``)."""
        return legal_seat_commands(self._state, seat)

    def playable_cards(self, seat: int) -> list[Card]:
        """The distinct cards ``seat`` may play now: the cards of the ``Play`` commands in
        ``legal_commands(seat)`` unexpanded (a cheap query for bots and simulations)."""
        return playable_cards(self._state, seat)

    def may_draw(self, seat: int) -> bool:
        """Whether ``Draw()`` is legal for ``seat`` now (its turn before drawing, with a
        card to draw; or a Draw Two stack to take)."""
        state = self._state
        if seat != state.current or state.paused:
            return False
        phase = state.phase
        if phase is _TURN:
            return not state.has_drawn and state.can_draw()
        return phase is _STACK

    def legal_table_commands(self, now_ms: int | None = None) -> list[TableCommand]:
        return legal_table_commands(self._state, now_ms)

    # ------------------------------------------------------------------ views

    def view(self, seat: int | None, now_ms: int) -> View:
        """What ``seat`` (None: a spectator) may see, with its legal moves."""
        return build_view(self._state, seat, now_ms)

    def shared_view(self, now_ms: int) -> SharedView:
        """The part of every view that all seats see alike; see ``seat_view``."""
        return shared_view(self._state, now_ms)

    def seat_view(self, shared: SharedView, seat: int | None) -> View:
        """``view(seat, now_ms)``, from the ``shared_view(now_ms)`` of that moment: the
        views of every seat for the price of one shared part."""
        return seat_view(self._state, shared, seat)

    def event_count(self) -> int:
        """How many events the match has produced (a view of now includes them all)."""
        return self._state.event_count()

    def saw(self, seat: int, count: int | None = None) -> None:
        """The last view ``seat`` had been sent included the first ``count`` events (by
        default all so far). Ruling 37: a jump-in whose card was identical to that view's
        top card, arriving once the top has changed, is refused as a lost race rather than
        as a card that does not match."""
        state = self._state
        if state.jump_in and 0 <= seat < state.seats:
            state.seen[seat] = state.event_count() if count is None else count

    # ------------------------------------------------------------------ snapshots

    def snapshot(self, with_history: bool = True) -> dict[str, Any]:
        """The whole match as plain data; ``Match.restore`` rebuilds it."""
        return dump_state(self._state, with_history)

    @classmethod
    def restore(cls, data: Mapping[str, Any]) -> Match:
        """The match a snapshot describes (also the test seam for rigged positions)."""
        try:
            config = TableConfig.from_data(data["config"])
        except (KeyError, TypeError, ConfigError) as error:
            raise SnapshotError(f"snapshot has no valid config: {error}") from None
        state = MatchState(config, 0, 0)
        load_state(state, data)
        match = cls.__new__(cls)  # not __init__: it would deal a new round
        match._state = state
        return match

    def fork(self) -> Match:
        """A quiet copy of the position to play on: no history, and it keeps none.

        The cheap way to try several futures of one position: no snapshot is written or
        read, only the lists that a move changes are copied. The copy's RNG continues
        from the same state, so equal commands give equal futures. Like a position-only
        snapshot restored, it counts its events from 0.
        """
        state = self._state
        twin = copy.copy(state)
        twin.rng = random.Random()
        twin.rng.setstate(state.rng.getstate())
        twin.hands = [list(hand) for hand in state.hands]
        twin.draw_pile = list(state.draw_pile)
        twin.discard = list(state.discard)
        twin.scores = list(state.scores)
        twin.eliminated = list(state.eliminated)
        twin.away = list(state.away)
        twin.expiries = list(state.expiries)
        twin.skip_marks = list(state.skip_marks)
        twin.jump_tops = list(state.jump_tops)
        twin.seen = list(state.seen)
        twin.exposures = {seat: copy.copy(record) for seat, record in state.exposures.items()}
        twin.quiet = True
        twin.seq = 0
        twin.events = []
        twin.log = []
        match = Match.__new__(Match)
        match._state = twin
        return match

    def state_digest(self) -> str:
        """A hash of the position (history excluded): equal digests, equal matches."""
        text = json.dumps(self.snapshot(with_history=False), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()

    # ------------------------------------------------------------------ replay

    @classmethod
    def replay(
        cls,
        config: TableConfig,
        seed: int,
        log: Iterable[LogEntry | tuple[int | None, Command, int]],
        start_ms: int = 0,
    ) -> Match:
        """Rebuild a match from its seed and accepted-command log (ruling 19)."""
        match = cls(config, seed, start_ms)
        for actor, command, now_ms in log:
            outcome = match.apply(actor, command, now_ms)
            if isinstance(outcome, Rejected):
                raise ValueError(f"log entry {command!r} by {actor} was rejected: {outcome}")
        return match
