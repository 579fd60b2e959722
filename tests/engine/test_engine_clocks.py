"""Ruling 17: the clocks, what the table does on expiry, away seats; pause and resume."""

from __future__ import annotations

from engine_rig import kinds, of_kind, ok, rig

from protocol.cards import Card, Color
from protocol.commands import ChooseColor, Draw, Pause, Play, Resume, SetAway, Timeout
from protocol.options import DeckName, TableConfig
from server.engine import Match, Phase, RejectCode, Rejected


def clocked(seats: int = 3, **options: object) -> TableConfig:
    return TableConfig(seats=seats, turn_seconds=30, **options)  # type: ignore[arg-type]


def test_ruling_17_the_turn_clock_runs_from_the_start_of_each_turn() -> None:
    match = rig(clocked(), hands=[["R3", "G5"], ["Y1", "R7"], ["B1"]], top="R5")
    ok(match.apply(0, Play(Card.parse("R3")), 4_000))
    assert match.deadline_ms() == 34_000
    assert match.view(1, 10_000).to_data()["pending"] == {
        "kind": "turn",
        "seat": 1,
        "remaining_ms": 24_000,
    }


def test_ruling_17_no_turn_clock_when_turn_seconds_is_zero() -> None:
    match = rig(hands=[["R3", "G5"], ["Y1"], ["B1"]], top="R5")
    ok(match.apply(0, Play(Card.parse("R3")), 4_000))
    assert match.deadline_ms() is None
    refused = match.apply(None, Timeout(), 99_000)
    assert isinstance(refused, Rejected)
    assert refused.code is RejectCode.NOT_NOW


def test_ruling_17_on_turn_expiry_the_table_draws_and_passes_for_the_player() -> None:
    match = rig(clocked(), hands=[["R3", "G5"], ["Y1"], ["B1"]], top="R5", draw=["R9"])
    refused = match.apply(None, Timeout(), 29_999)
    assert isinstance(refused, Rejected)
    assert refused.code is RejectCode.NOT_DUE
    events = ok(match.apply(None, Timeout(), 30_000))
    assert kinds(events) == ["timed-out", "drew", "passed", "turn"]
    assert len(match.hand(0)) == 3  # the playable R9 is kept, not played
    assert match.to_act() == 1


def test_ruling_17_after_a_draw_expiry_only_passes() -> None:
    match = rig(clocked(), hands=[["R3", "G5"], ["Y1"], ["B1"]], top="R5", draw=["R9"])
    ok(match.apply(0, Draw(), 1_000))  # R9 could be played: the player is asked
    events = ok(match.apply(None, Timeout(), 30_000))
    assert kinds(events) == ["timed-out", "passed", "turn"]


def test_ruling_17_three_expiries_in_a_row_mark_the_seat_away() -> None:
    match = rig(clocked(2), hands=[["G1", "G2"], ["Y1", "Y2"]], top="R5")
    now = 0
    for _ in range(6):
        now = match.deadline_ms() or now
        events = ok(match.apply(None, Timeout(), now))
    assert match.view(None, now).to_data()["away"] == [0, 1]
    aways = [e for e in match.events if e.kind.value == "away"]
    assert [e.public for e in aways] == [
        {"seat": 0, "reason": "timeouts"},
        {"seat": 1, "reason": "timeouts"},
    ]
    assert kinds(events)[0] == "timed-out"


def test_ruling_17_an_own_command_resets_the_expiry_count() -> None:
    match = rig(clocked(2), hands=[["G1", "G2", "G3"], ["Y1", "Y2", "Y3"]], top="R5")
    for _ in range(2):
        ok(match.apply(None, Timeout(), match.deadline_ms() or 0))  # seat 0
        ok(match.apply(None, Timeout(), match.deadline_ms() or 0))  # seat 1
    ok(match.apply(0, Draw(), match.deadline_ms() or 0))
    ok(match.apply(None, Timeout(), match.deadline_ms() or 0))  # seat 0: count 1 again
    assert 0 not in match.view(None, 0).to_data()["away"]


def test_ruling_17_away_and_back_are_table_commands() -> None:
    match = rig(hands=[["R3", "G5"], ["Y1"], ["B1"]], top="R5")
    events = ok(match.apply(None, SetAway(1, True), 0))
    assert events[0].public == {"seat": 1, "reason": "table"}
    refused = match.apply(None, SetAway(1, True), 0)
    assert isinstance(refused, Rejected)
    assert refused.code is RejectCode.NOT_NOW
    assert kinds(ok(match.apply(None, SetAway(1, False), 0))) == ["back"]
    refused = match.apply(1, SetAway(1, False), 0)
    assert isinstance(refused, Rejected)
    assert refused.code is RejectCode.TABLE_ONLY


def first_wild(deck: DeckName, rank: str) -> Match:
    for seed in range(20_000):
        match = Match(TableConfig(deck=deck, seats=3, turn_seconds=20), seed)
        if match.phase is Phase.CHOOSE_COLOR and match.top_card().rank.value == rank:
            return match
    raise AssertionError("no seed found")


def test_ruling_17_on_colour_expiry_the_colour_held_most_is_chosen() -> None:
    match = first_wild(DeckName.CLASSIC, "W")
    seat = match.to_act()
    assert seat is not None
    counts = dict.fromkeys(Color, 0)
    for held in match.hand(seat):
        if held.color is not None:
            counts[held.color] += 1
    most = max(Color, key=lambda color: (counts[color], -list(Color).index(color)))
    events = ok(match.apply(None, Timeout(), match.deadline_ms() or 0))
    assert of_kind(events, "color-chosen")[0].public["color"] == most.value
    assert of_kind(events, "passed")  # then drew and passed for the player


def test_ruling_17_on_swap_expiry_the_player_with_fewest_cards_is_chosen() -> None:
    match = first_wild(DeckName.MODERN_SWAP, "WSWAP")
    seat = match.to_act()
    assert seat is not None
    data = match.snapshot(with_history=False)
    # Give the seat after next the fewest cards by moving two of them to the pile.
    fewest = (seat + 2) % 3
    data["draw_pile"] += data["hands"][fewest][:2]
    data["hands"][fewest] = data["hands"][fewest][2:]
    match = Match.restore(data)
    events = ok(match.apply(None, Timeout(), match.deadline_ms() or 0))
    assert of_kind(events, "hands-swapped")[0].public["target"] == fewest


def test_choosing_the_first_colour_is_refused_outside_that_moment() -> None:
    match = rig(hands=[["R3", "G5"], ["Y1"], ["B1"]], top="R5")
    refused = match.apply(0, ChooseColor(Color.RED), 0)
    assert isinstance(refused, Rejected)
    assert refused.code is RejectCode.NOT_NOW


def test_pause_stops_every_clock_and_resume_moves_the_deadline_on() -> None:
    match = rig(clocked(), hands=[["R3", "G5"], ["Y1"], ["B1"]], top="R5")
    assert match.deadline_ms() == 30_000
    ok(match.apply(None, Pause(), 10_000))
    assert match.phase is Phase.PAUSED
    assert match.to_act() is None
    assert match.deadline_ms() is None
    assert match.legal_commands(0) == []
    refused = match.apply(0, Play(Card.parse("R3")), 11_000)
    assert isinstance(refused, Rejected)
    assert refused.code is RejectCode.PAUSED
    assert match.view(0, 50_000).to_data()["remaining_ms"] == 20_000
    ok(match.apply(None, Resume(), 100_000))
    assert match.deadline_ms() == 120_000
    assert match.phase is Phase.TURN
    refused = match.apply(None, Resume(), 100_000)
    assert isinstance(refused, Rejected)
    assert refused.code is RejectCode.NOT_PAUSED
