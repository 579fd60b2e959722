"""Every event kind and a view of every phase, made by the engine, through the wire codec.

Whole matches are played under tables that between them reach every event kind and every
phase: random legal commands for the seat to act and, now and then, for any seat (calls
and catches), a random catch (a false one, mostly), pauses, seats marked away and back,
and clocks run out. Each event, as each seat and a spectator sees it, and each view are
encoded as the server sends them and decoded as a client does: the decoded message must
equal the one sent, its body must be the record of its kind, and the records built on the
engine's trusted path must equal the same records built and checked by their constructor.
"""

from __future__ import annotations

import dataclasses
import random

from engine_rig import random_play

from protocol.codec import decode_body, encode_trusted_body
from protocol.events import EVENT_TYPES, Event, EventKind, SeenEvent
from protocol.messages import GameEvent, GameView, Sender, message_from_data
from protocol.options import DanceCheck, DeckName, Stack, TableConfig
from protocol.phase import Phase
from protocol.schema import Record
from protocol.views import View
from server.engine import Match

CONFIGS = (
    TableConfig(seats=3, target_score=250, turn_seconds=5, false_catch_penalty=2),
    TableConfig(deck=DeckName.BTS, seats=4, target_score=250, stack=Stack.PROGRESSIVE),
    TableConfig(deck=DeckName.BTS, seats=3, target_score=200, dance_check=DanceCheck.HONOUR),
    TableConfig(deck=DeckName.MODERN_SWAP, seats=4, target_score=250, seven_o=True, skip_any=True),
    TableConfig(deck=DeckName.MODERN_SHUFFLE, seats=3, target_score=250, jump_in=True),
    TableConfig(deck=DeckName.MINECRAFT, seats=2, target_score=250, turn_seconds=5),
)


def _through_the_wire(message: GameEvent | GameView) -> GameEvent | GameView:
    data = decode_body(encode_trusted_body(message.to_data()))
    decoded = message_from_data(data, Sender.SERVER)
    assert isinstance(decoded, GameEvent | GameView)
    return decoded


def _checked(record: Record) -> Record:
    """The same record built by its constructor, which checks every field."""
    values = {field.name: getattr(record, field.name) for field in dataclasses.fields(record)}
    return type(record)(**values)


def _check_event(event: Event, seats: int) -> None:
    assert type(event.body) is EVENT_TYPES[event.kind]
    assert _checked(event.body) == event.body
    for secret in event.private.values():
        assert type(secret) is event.body.SECRET and _checked(secret) == secret
    for seat in (None, *range(seats)):
        seen = event.seen_by(seat)
        sent = GameEvent.trusted(seq=event.seq, body=seen)
        received = _through_the_wire(sent)
        assert received == sent, (seat, event)
        assert isinstance(received.body, SeenEvent) and received.body.body == event.body
        assert received.body.to_data() == event.for_seat(seat)


def _check_view(view: View) -> None:
    assert _checked(view.shared) == view.shared
    sent = GameView.trusted(seq=view.shared.last_seq, body=view)
    received = _through_the_wire(sent)
    assert received == sent and View.from_data(view.to_data()) == view


def _first_cards(kinds: set[EventKind], phases: set[Phase]) -> None:
    """Rounds that open on a wild (its colour chosen) or on a Wild Draw Four (returned):
    only the first deal of many matches finds enough of them."""
    for seed in range(60):
        match = Match(TableConfig(seats=2), seed)
        if match.phase is Phase.CHOOSE_COLOR:
            _check_view(match.view(0, 0))
            phases.add(Phase.CHOOSE_COLOR)
            seat = match.to_act()
            assert seat is not None
            match.apply(seat, match.legal_commands(seat)[0], 0)
        for event in match.events:
            _check_event(event, 2)
            kinds.add(event.kind)


def test_every_event_kind_and_a_view_of_every_phase_round_trip_through_the_codec() -> None:
    kinds: set[EventKind] = set()
    phases: set[Phase] = set()
    _first_cards(kinds, phases)
    for number, config in enumerate(CONFIGS):
        rng = random.Random(number)
        match = Match(config, seed=100 + number)
        for now_ms, events in random_play(match, rng, steps=4000, catches=0.03, off_turn=0.08):
            for event in events:
                _check_event(event, config.seats)
                kinds.add(event.kind)
            phase = match.view(None, now_ms).shared.phase
            if phase not in phases or rng.random() < 0.05:  # every seat's now and then
                phases.add(phase)
                for seat in (None, *range(config.seats)):
                    _check_view(match.view(seat, now_ms))
    assert set(EventKind) - kinds == set(), "some event kinds never happened"
    assert set(Phase) - phases == set(), "some phases were never seen"
