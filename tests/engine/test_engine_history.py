"""Ruling 19 (seed + log replays a match), snapshots, event numbering and redaction, views."""

from __future__ import annotations

import json
from collections.abc import Callable

import msgpack
import pytest
from engine_rig import ok

from protocol.cards import Card
from protocol.commands import NextRound, Timeout
from protocol.events import Drew, DrewReason, Event, InvalidEventError, SecretCards
from protocol.options import DeckName, TableConfig
from server.engine import Match, SnapshotError


def play(match: Match, steps: int, now: int = 0) -> int:
    """Drive ``match`` deterministically, with clocks running out now and then."""
    for step in range(steps):
        now += 700
        deadline = match.deadline_ms()
        if deadline is not None and step % 7 == 0:
            now = max(now, deadline)
            ok(match.apply(None, Timeout(), now))
            continue
        seat = match.to_act()
        if seat is None:
            if match.is_over:
                break
            ok(match.apply(None, NextRound(), now))
            continue
        legal = match.legal_commands(seat)
        ok(match.apply(seat, legal[(step * 7) % len(legal)], now))
    return now


@pytest.mark.parametrize("deck", list(DeckName))
def test_ruling_19_seed_and_log_replay_the_match_exactly(
    deck: DeckName, assert_replays: Callable[[Match], None]
) -> None:
    match = Match(TableConfig(deck=deck, seats=4, turn_seconds=20), 1234, now_ms=500)
    play(match, 400, 500)
    assert_replays(match)


def test_a_restored_match_goes_on_exactly_like_the_original() -> None:
    original = Match(TableConfig(deck=DeckName.MINECRAFT, seats=3), 99)
    now = play(original, 150)
    restored = Match.restore(json.loads(json.dumps(original.snapshot())))
    play(original, 150, now)
    play(restored, 150, now)
    assert restored.snapshot() == original.snapshot()
    assert restored.state_digest() == original.state_digest()


def test_the_snapshot_is_plain_data_for_json_and_msgpack() -> None:
    match = Match(TableConfig(deck=DeckName.BTS, seats=5), 5)
    play(match, 80)
    data = match.snapshot()
    assert msgpack.unpackb(msgpack.packb(data), strict_map_key=False) == json.loads(
        json.dumps(data)
    )


def test_a_broken_snapshot_is_refused() -> None:
    data = Match(TableConfig(), 1).snapshot()
    with pytest.raises(SnapshotError):
        Match.restore({**data, "version": 99})
    with pytest.raises(SnapshotError):
        Match.restore({**data, "hands": [["XX"]]})
    with pytest.raises(SnapshotError):
        Match.restore({"config": {"seats": 99}})


def test_events_are_numbered_one_to_n_without_gaps_and_outcomes_carry_them() -> None:
    match = Match(TableConfig(seats=3), 8)
    seen = len(match.events)
    for step in range(60):
        seat = match.to_act()
        if seat is None:
            break
        events = ok(match.apply(seat, match.legal_commands(seat)[-1], step))
        assert list(events) == match.events[seen:]
        seen = len(match.events)
    assert [event.seq for event in match.events] == list(range(1, len(match.events) + 1))


def test_a_match_that_forgets_its_history_plays_on_alike_and_numbers_on() -> None:
    config = TableConfig(deck=DeckName.MINECRAFT, seats=4, turn_seconds=20)
    keeping = Match(config, 77, now_ms=500)
    play(keeping, 400, 500)
    forgetting = Match(config, 77, now_ms=500)
    seen = list(forgetting.events)
    forgetting.forget_history()
    for actor, command, now in keeping.log:
        seen.extend(ok(forgetting.apply(actor, command, now)))
        forgetting.forget_history()
        assert forgetting.events == [] and forgetting.log == []
    assert [event.to_data() for event in seen] == [event.to_data() for event in keeping.events]
    assert forgetting.state_digest() == keeping.state_digest()
    now = keeping.log[-1].now_ms
    assert forgetting.view(0, now) == keeping.view(0, now)  # last_seq included
    # A snapshot keeps the numbering: the restored match's next event follows the last.
    restored = Match.restore(json.loads(json.dumps(forgetting.snapshot())))
    assert restored.events == [] and restored.log == []
    play(keeping, 5, now)
    for actor, command, now in keeping.log[-5:]:
        seen.extend(ok(restored.apply(actor, command, now)))
    assert [event.to_data() for event in seen] == [event.to_data() for event in keeping.events]


def test_an_event_shows_its_secret_only_to_its_seat_and_round_trips() -> None:
    event = Event(
        4, Drew(seat=2, count=1, reason=DrewReason.DRAW), {2: SecretCards((Card.parse("R5"),))}
    )
    drew = {"seq": 4, "kind": "drew", "seat": 2, "count": 1, "reason": "draw"}
    assert event.for_seat(2) == {**drew, "cards": ["R5"]}
    assert event.for_seat(1) == drew
    assert event.for_seat(None) == event.for_seat(1)
    assert Event.from_data(json.loads(json.dumps(event.to_data()))) == event
    with pytest.raises(InvalidEventError):
        Event.from_data({"seq": 0, "kind": "drew"})
    with pytest.raises(InvalidEventError):
        Event.from_data({"seq": 1, "kind": "no-such-kind"})


def test_no_event_shows_a_hand_to_another_seat() -> None:
    match = Match(TableConfig(deck=DeckName.MODERN_SWAP, seats=4), 21)
    play(match, 500)
    for event in match.events:
        for seat in (None, 0, 1, 2, 3):
            seen = event.for_seat(seat)
            if "cards" in seen or "hand" in seen:
                assert seat is not None
                assert seat in event.private


def test_views_show_only_your_own_hand_and_are_msgpack_data() -> None:
    match = Match(TableConfig(seats=4, turn_seconds=15), 17)
    play(match, 30)
    spectator = match.view(None, 0).to_data()
    assert "hand" not in spectator
    assert spectator["legal"] == []
    assert sum(spectator["counts"]) + spectator["draw_count"] + spectator["discard_count"] == 108
    for seat in range(4):
        view = match.view(seat, 0).to_data()
        assert view["hand"] == [card.code for card in match.hand(seat)]
        assert view["legal"] == [command.to_data() for command in match.legal_commands(seat)]
        assert msgpack.unpackb(msgpack.packb(view), strict_map_key=False) == view
    to_act = match.to_act()
    assert to_act is not None
    assert match.view(to_act, 0).to_data()["legal"]
    assert match.view(None, 0).to_data()["to_act"] == to_act


def _plain(value: object) -> bool:
    if value is None or type(value) in (str, int, bool):
        return True
    if isinstance(value, list) and type(value) is list:
        return all(_plain(item) for item in value)
    if isinstance(value, dict) and type(value) is dict:
        return all(type(k) in (str, int) and _plain(v) for k, v in value.items())
    return False


@pytest.mark.parametrize("deck", list(DeckName))
def test_every_event_carries_only_plain_data(deck: DeckName) -> None:
    match = Match(TableConfig(deck=deck, seats=3, turn_seconds=10, stack_draw_two=True), 4)
    play(match, 600)
    for event in match.events:
        for seat in (None, 0, 1, 2):
            assert _plain(event.for_seat(seat)), event
    for seat in (None, 0, 1, 2):
        assert _plain(match.view(seat, 0).to_data())
        assert _plain(match.snapshot())
