"""Ruling 12: declaring UNO, exposure, the catch window, false catches and lost races."""

from __future__ import annotations

from engine_rig import kinds, of_kind, ok, rig

from protocol.cards import Card
from protocol.commands import CallUno, Catch, Draw, Play
from protocol.options import TableConfig
from server.engine import Match, RejectCode, Rejected

R3 = Card.parse("R3")


def table(grace_ms: int = 1500, penalty: int = 0) -> Match:
    config = TableConfig(
        seats=3, turn_seconds=0, catch_grace_ms=grace_ms, false_catch_penalty=penalty
    )
    return rig(
        config,
        hands=[["R3", "G5"], ["R1", "Y2", "Y3"], ["B1", "B2"]],
        top="R5",
        draw=["G1", "G2", "G3"],
    )


def rejected(outcome: object, code: RejectCode) -> None:
    assert isinstance(outcome, Rejected), outcome
    assert outcome.code is code


def test_ruling_12_declaring_with_the_play_needs_nothing_more() -> None:
    match = table()
    events = ok(match.apply(0, Play(R3, uno=True), 0))
    assert kinds(events) == ["played", "uno-called", "turn"]
    rejected(match.apply(1, Catch(0), 10), RejectCode.NOT_EXPOSED)


def test_ruling_12_declaring_before_the_play_holding_two_on_your_turn() -> None:
    match = table()
    assert CallUno() in match.legal_commands(0)
    events = ok(match.apply(0, CallUno(), 0))
    assert events[0].public == {"seat": 0, "early": True}
    assert CallUno() not in match.legal_commands(0)
    events = ok(match.apply(0, Play(R3), 0))
    assert "exposed" not in kinds(events)
    rejected(match.apply(2, Catch(0), 10), RejectCode.NOT_EXPOSED)


def test_ruling_12_an_undeclared_last_but_one_play_exposes_and_may_be_caught_for_two() -> None:
    match = table()
    events = ok(match.apply(0, Play(R3), 100))
    assert of_kind(events, "exposed")[0].public == {"seat": 0}
    assert match.view(2, 100).to_data()["exposed"] == [0]
    assert Catch(0) in match.legal_commands(2)
    assert Catch(0) in match.legal_commands(1)
    events = ok(match.apply(2, Catch(0), 200))
    assert of_kind(events, "caught")[0].public == {"seat": 0, "by": 2, "penalty": 2}
    assert len(match.hand(0)) == 3
    assert match.view(1, 200).to_data()["exposed"] == []
    assert match.to_act() == 1  # a catch is not a turn


def test_ruling_12_declaring_after_the_play_ends_the_exposure() -> None:
    match = table()
    ok(match.apply(0, Play(R3), 100))
    assert CallUno() in match.legal_commands(0)
    events = ok(match.apply(0, CallUno(), 150))
    assert events[0].public == {"seat": 0, "early": False}
    rejected(match.apply(2, Catch(0), 160), RejectCode.LOST_RACE)


def test_ruling_12_the_call_loses_the_race_to_a_catch_that_arrived_first() -> None:
    match = table()
    ok(match.apply(0, Play(R3), 100))
    ok(match.apply(1, Catch(0), 120))
    rejected(match.apply(0, CallUno(), 130), RejectCode.LOST_RACE)
    rejected(match.apply(2, Catch(0), 130), RejectCode.LOST_RACE)


def test_ruling_12_the_window_stays_open_for_the_grace_after_the_next_seat_acts() -> None:
    match = table(grace_ms=1500)
    ok(match.apply(0, Play(R3), 1000))
    ok(match.apply(1, Play(Card.parse("R1")), 1200))  # the next seat's first command
    ok(match.apply(2, Catch(0), 2499))  # still inside 1500 ms after the play


def test_ruling_12_the_window_closes_at_the_later_of_next_command_and_grace() -> None:
    match = table(grace_ms=1500)
    ok(match.apply(0, Play(R3), 1000))
    # Before the next seat acts the window is open however long it takes.
    ok(Match.restore(match.snapshot()).apply(2, Catch(0), 60_000))
    ok(match.apply(1, Play(Card.parse("R1")), 1200))
    rejected(match.apply(2, Catch(0), 2500), RejectCode.CATCH_TOO_LATE)
    assert match.view(2, 2500).to_data()["exposed"] == []


def test_ruling_12_with_no_grace_the_window_closes_when_the_next_player_starts() -> None:
    match = table(grace_ms=0)
    ok(match.apply(0, Play(R3), 1000))
    ok(match.apply(1, Play(Card.parse("R1")), 1000))
    rejected(match.apply(2, Catch(0), 1000), RejectCode.CATCH_TOO_LATE)


def test_ruling_12_catching_someone_not_exposed_is_rejected_and_changes_nothing() -> None:
    match = table()
    before = match.snapshot()
    rejected(match.apply(1, Catch(2), 0), RejectCode.NOT_EXPOSED)
    rejected(match.apply(1, Catch(1), 0), RejectCode.INVALID_TARGET)
    assert match.snapshot() == before


def test_ruling_12_a_false_catch_costs_the_catcher_the_tables_penalty() -> None:
    match = table(penalty=2)
    events = ok(match.apply(1, Catch(2), 0))
    assert of_kind(events, "false-catch")[0].public["penalty"] == 2
    assert len(match.hand(1)) == 5


def test_ruling_12_a_hand_that_grows_again_can_no_longer_be_caught() -> None:
    match = rig(
        TableConfig(seats=2, turn_seconds=0),
        hands=[["RS", "R3", "G5"], ["Y1", "Y2"]],
        top="R5",
        draw=["B9", "G1"],
    )
    ok(match.apply(0, Play(Card.parse("RS")), 0))
    ok(match.apply(0, Play(R3), 0))  # two players: the Skip gave another turn
    assert match.view(1, 0).to_data()["exposed"] == [0]
    ok(match.apply(1, Draw(), 0))  # B9 cannot be played: the turn passes
    ok(match.apply(0, Draw(), 0))  # seat 0 holds two again
    assert match.view(1, 0).to_data()["exposed"] == []
    rejected(match.apply(1, Catch(0), 0), RejectCode.NOT_EXPOSED)
