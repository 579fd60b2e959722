"""A table's replay log (server.table.replay_log), on the engine's real events: a stretch
per round written as the next round starts and at the match's end, the round being
played always at hand from its ``round-started``; a round past the bound in pieces."""

from __future__ import annotations

import json

import pytest

import server.table.replay_log
from protocol.commands import NextRound, Play
from protocol.events import EventKind
from protocol.options import TableConfig
from server.engine import Accepted, Match
from server.table.history import EventHistory
from server.table.replay_log import ReplayLog


class Store:
    """The stretches written, by number."""

    def __init__(self) -> None:
        self.parts: dict[int, list[str]] = {}

    def replay_part(self, part: int, lines: list[str]) -> None:
        self.parts[part] = lines


def test_each_round_is_one_stretch_from_its_round_started() -> None:
    match = Match(TableConfig(seats=2, target_score=300, turn_seconds=0), 3, 0)
    history = EventHistory(128)
    store = Store()
    log = ReplayLog(store)
    log.match_started()
    log.add(history.extend(match.events))
    assert log.round_so_far()[0].event.kind is EventKind.ROUND_STARTED
    assert list(store.parts) == [0]  # the dealer's draw, before the first round
    now = 0
    while not match.is_over:
        now += 10
        seat = match.to_act()
        if seat is None:
            outcome = match.apply(None, NextRound(), now)
        else:
            view = match.seat_view(match.shared_view(now), seat)
            plays = [c for c in view.legal if isinstance(c, Play)]
            outcome = match.apply(seat, plays[0] if plays else view.legal[0], now)
        assert isinstance(outcome, Accepted), outcome
        log.add(history.extend(outcome.events))
        if outcome.events and outcome.events[0].kind is EventKind.ROUND_STARTED:
            assert log.round_so_far()[0].event is outcome.events[0]
    assert log.round_so_far() == [] and log.stretch == []
    seqs = [json.loads(line)["seq"] for part in sorted(store.parts) for line in store.parts[part]]
    assert seqs == list(range(1, history.last_seq + 1))
    for part in sorted(store.parts)[1:]:
        kinds = [json.loads(line)["kind"] for line in store.parts[part]]
        assert kinds[0] == "round-started" and kinds.count("round-started") == 1
    assert len(store.parts) > 2  # the dealer's draw and at least two rounds
    assert json.loads(store.parts[max(store.parts)][-1])["kind"] == "match-over"


def test_a_round_past_the_stretch_bound_is_written_in_pieces(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(server.table.replay_log, "MAX_STRETCH_EVENTS", 5)
    match = Match(TableConfig(seats=2, turn_seconds=0), 3, 0)
    history = EventHistory(128)
    store = Store()
    log = ReplayLog(store)
    log.match_started()
    log.add(history.extend(match.events))
    now = 0
    while len(store.parts) < 4:  # the dealer's draw, then pieces of the first round
        now += 10
        seat = match.to_act()
        assert seat is not None
        view = match.seat_view(match.shared_view(now), seat)
        outcome = match.apply(seat, view.legal[-1], now)  # a draw or a pass, mostly
        assert isinstance(outcome, Accepted), outcome
        log.add(history.extend(outcome.events))
        assert len(log.stretch) <= 5
    assert match.round_no == 1  # still the first round
    assert all(len(store.parts[part]) == 5 for part in (1, 2, 3))
    first = [json.loads(line)["kind"] for line in store.parts[1]]
    assert first[0] == "round-started"
    assert "round-started" not in [json.loads(line)["kind"] for line in store.parts[2]]
    assert log.round_so_far() == []  # a spectator arriving now gets the view alone
    seqs = [json.loads(line)["seq"] for part in sorted(store.parts) for line in store.parts[part]]
    seqs += [item.seq for item in log.stretch]
    assert seqs == list(range(1, history.last_seq + 1))
