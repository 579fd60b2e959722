"""Snapshots: the whole match as plain data, and back.

A snapshot is the documented seam for tests that need a particular position: take a real
snapshot, change hands / piles / the top card (card codes), restore. ``check_cards``
tells whether a (hand-written) position still holds exactly the table's deck.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, TypeVar

from protocol.cards import Card, Color
from protocol.commands import Arrow, command_from_data
from protocol.errors import RemoteProtocolError
from protocol.events import Event, MatchOver, RoundOver
from protocol.options import TableConfig
from protocol.phase import Phase
from server.engine.deck import build_deck
from server.engine.outcome import LogEntry
from server.engine.state import Exposure, MatchState

__all__ = ["SNAPSHOT_VERSION", "SnapshotError", "check_cards", "dump_state", "load_state"]

SNAPSHOT_VERSION = 1


class SnapshotError(ValueError):
    """A snapshot that does not describe a match this engine can restore."""


def _codes(cards: list[Card] | tuple[Card, ...]) -> list[str]:
    return [card.code for card in cards]


def _cards(codes: list[str]) -> list[Card]:
    return [Card.parse(code) for code in codes]


def dump_state(state: MatchState, with_history: bool = True) -> dict[str, Any]:
    """Every field of the match as plain data (lists, dicts, strings, ints, bools, None).

    ``with_history`` adds the event stream and the command log; without it the snapshot is
    the position only (what ``state_digest`` hashes).
    """
    version, internal, gauss = state.rng.getstate()
    data: dict[str, Any] = {
        "version": SNAPSHOT_VERSION,
        "config": state.config.to_data(),
        "seed": state.seed,
        "start_ms": state.start_ms,
        "rng": [version, list(internal), gauss],
        "phase": state.phase.value,
        "paused": state.paused,
        "paused_remaining": state.paused_remaining,
        "deadline": state.deadline,
        "round": state.round_no,
        "dealer": state.dealer,
        "direction": state.direction,
        "current": state.current,
        "color": None if state.color is None else state.color.value,
        "hands": [_codes(hand) for hand in state.hands],
        "draw_pile": _codes(state.draw_pile),
        "discard": _codes(state.discard),
        "scores": list(state.scores),
        "eliminated": list(state.eliminated),
        "away": list(state.away),
        "expiries": list(state.expiries),
        "drawn": None if state.drawn is None else state.drawn.code,
        "has_drawn": state.has_drawn,
        "early_uno": state.early_uno,
        "stuck_passes": state.stuck_passes,
        "pending_draw": state.pending_draw,
        "wd4": [state.wd4_player, state.wd4_guilty, _codes(state.wd4_hand)],
        "dance": [
            state.dance_name,
            None if state.dance_steps is None else [step.value for step in state.dance_steps],
        ],
        "skip_marks": list(state.skip_marks),
        "top_played": state.top_played,
        "overtaken": state.overtaken,
        "exposures": [
            [seat, rec.since_ms, rec.seq, rec.watch, rec.acted, rec.status]
            for seat, rec in state.exposures.items()
        ],
        "round_result": None if state.round_result is None else state.round_result.to_data(),
        "result": None if state.result is None else state.result.to_data(),
        "event_count": state.event_count(),
    }
    if with_history:
        data["events"] = [event.to_data() for event in state.events]
        data["log"] = [[entry.actor, entry.command.to_data(), entry.now_ms] for entry in state.log]
    return data


def load_state(state: MatchState, data: Mapping[str, Any]) -> None:
    """Overwrite ``state`` (built from the same config) with a snapshot's fields."""
    try:
        if data.get("version") != SNAPSHOT_VERSION:
            raise SnapshotError(f"snapshot version {data.get('version')!r} is not supported")
        version, internal, gauss = data["rng"]
        state.rng.setstate((version, tuple(internal), gauss))
        state.seed = data["seed"]
        state.start_ms = data["start_ms"]
        state.phase = Phase(data["phase"])
        state.paused = data["paused"]
        state.paused_remaining = data["paused_remaining"]
        state.deadline = data["deadline"]
        state.round_no = data["round"]
        state.dealer = data["dealer"]
        state.direction = data["direction"]
        state.current = data["current"]
        state.color = None if data["color"] is None else Color(data["color"])
        state.hands = [_cards(hand) for hand in data["hands"]]
        state.draw_pile = _cards(data["draw_pile"])
        state.discard = _cards(data["discard"])
        state.scores = list(data["scores"])
        state.eliminated = list(data["eliminated"])
        state.away = list(data["away"])
        state.expiries = list(data["expiries"])
        state.drawn = None if data["drawn"] is None else Card.parse(data["drawn"])
        state.has_drawn = data["has_drawn"]
        state.early_uno = data["early_uno"]
        state.stuck_passes = data["stuck_passes"]
        state.pending_draw = data["pending_draw"]
        state.wd4_player, state.wd4_guilty, wd4_hand = data["wd4"]
        state.wd4_hand = tuple(_cards(wd4_hand))
        dance_name, steps = data["dance"]
        state.dance_name = dance_name
        state.dance_steps = None if steps is None else tuple(Arrow(step) for step in steps)
        state.skip_marks = list(data["skip_marks"])
        # Absent from positions written by hand: a first card, nobody overtaken.
        state.top_played = bool(data.get("top_played", False))
        state.overtaken = int(data.get("overtaken", -1))
        state.exposures = {}
        for seat, since_ms, seq, watch, acted, status in data["exposures"]:
            record = Exposure(since_ms, seq, watch)
            record.acted = acted
            record.status = status
            state.exposures[seat] = record
        state.round_result = _optional(RoundOver, data["round_result"])
        state.result = _optional(MatchOver, data["result"])
        state.two_player = sum(not out for out in state.eliminated) == 2
        if "events" in data:
            state.events = [Event.from_data(event) for event in data["events"]]
            # A match that forgot its early history keeps numbering after them.
            state.seq = data["event_count"]
            state.log = [
                LogEntry(actor, command_from_data(command), now_ms)
                for actor, command, now_ms in data["log"]
            ]
        else:
            state.seq = 0
            state.events = []
            state.log = []
        state.jump_tops = []
        if state.jump_in and state.phase is Phase.TURN:  # ruling 37: the position restored
            top = state.discard[-1]
            state.note_jump_top(top if state.top_played and top.color is not None else None)
    except (KeyError, TypeError, ValueError, RemoteProtocolError) as error:
        if isinstance(error, SnapshotError):
            raise
        raise SnapshotError(f"not a snapshot of this engine: {error!r}") from None


_R = TypeVar("_R", RoundOver, MatchOver)


def _optional(cls: type[_R], data: Mapping[str, Any] | None) -> _R | None:
    return None if data is None else cls.from_data(data)


def check_cards(state: MatchState) -> bool:
    """Whether hands and piles together hold exactly the table's deck."""
    held: Counter[Card] = Counter(state.draw_pile)
    held.update(state.discard)
    for hand in state.hands:
        held.update(hand)
    return held == Counter(build_deck(state.config))


def config_of(data: Mapping[str, Any]) -> TableConfig:
    """The configuration a snapshot was taken under."""
    return TableConfig.from_data(data["config"])
