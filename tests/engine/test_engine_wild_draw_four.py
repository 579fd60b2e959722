"""Ruling 6 (Wild Draw Four: legality, bluff, challenge) and ruling 13 (a last Draw Two or
Wild Draw Four still makes the next player draw)."""

from __future__ import annotations

from engine_rig import codes, kinds, of_kind, ok, rig

from protocol.cards import Card, Color
from protocol.commands import Accept, Challenge, Draw, Play, Timeout
from protocol.options import TableConfig
from server.engine import Phase, RejectCode, Rejected

W4 = Card.parse("W+4")


def test_ruling_6_innocent_challenger_draws_six_and_loses_turn() -> None:
    # Seat 0 holds no red (the colour in force) - a same-number R5 would not count anyway.
    match = rig(hands=[["W+4", "G5", "B5"], ["Y1", "Y2"], ["B1"]], top="R5")
    ok(match.apply(0, Play(W4, color=Color.GREEN), 0))
    assert match.phase is Phase.CHALLENGE
    assert match.to_act() == 1
    events = ok(match.apply(1, Challenge(), 0))
    challenged = of_kind(events, "challenged")[0]
    assert challenged.public == {"seat": 1, "target": 0, "guilty": False}
    assert of_kind(events, "drew")[0].public["count"] == 6
    assert len(match.hand(1)) == 8
    assert match.to_act() == 2


def test_ruling_6_guilty_bluffer_draws_four_and_the_challenger_plays() -> None:
    match = rig(hands=[["W+4", "R9", "G5"], ["Y1", "Y2"], ["B1"]], top="R5")
    ok(match.apply(0, Play(W4, color=Color.GREEN), 0))
    events = ok(match.apply(1, Challenge(), 0))
    assert of_kind(events, "challenged")[0].public["guilty"] is True
    assert of_kind(events, "drew")[0].public == {"seat": 0, "count": 4, "reason": "challenge"}
    assert len(match.hand(0)) == 6
    assert len(match.hand(1)) == 2
    assert match.to_act() == 1
    assert match.phase is Phase.TURN


def test_ruling_6_only_the_colour_in_force_makes_a_draw_four_illegal() -> None:
    # Same number (R5 on a... ) and other wilds do not count: colour in force is yellow.
    match = rig(hands=[["W+4", "R5", "W", "G5"], ["Y1", "Y2"], ["B1"]], top="Y5")
    ok(match.apply(0, Play(W4, color=Color.GREEN), 0))
    events = ok(match.apply(1, Challenge(), 0))
    assert of_kind(events, "challenged")[0].public["guilty"] is False


def test_ruling_6_the_challenged_hand_is_shown_to_the_challenger_alone() -> None:
    match = rig(hands=[["W+4", "R9", "G5"], ["Y1", "Y2"], ["B1"]], top="R5")
    ok(match.apply(0, Play(W4, color=Color.GREEN), 0))
    challenged = of_kind(ok(match.apply(1, Challenge(), 0)), "challenged")[0]
    assert challenged.for_seat(1)["hand"] == ["R9", "G5"]
    assert "hand" not in challenged.for_seat(2)
    assert "hand" not in challenged.for_seat(0)
    assert "hand" not in challenged.for_seat(None)


def test_ruling_6_accepting_draws_four_and_loses_the_turn() -> None:
    match = rig(hands=[["W+4", "G5", "G6"], ["Y1", "Y2"], ["B1"]], top="R5")
    ok(match.apply(0, Play(W4, color=Color.GREEN), 0))
    assert match.legal_commands(1) == [Accept(), Challenge()]
    events = ok(match.apply(1, Accept(), 0))
    assert "draw-four-accepted" in kinds(events)
    assert len(match.hand(1)) == 6
    assert match.to_act() == 2


def test_ruling_6_only_the_next_player_may_challenge() -> None:
    match = rig(hands=[["W+4", "G5"], ["Y1", "Y2"], ["B1"]], top="R5")
    ok(match.apply(0, Play(W4, color=Color.GREEN), 0))
    outcome = match.apply(2, Challenge(), 0)
    assert isinstance(outcome, Rejected)
    assert outcome.code is RejectCode.NOT_YOUR_TURN
    outcome = match.apply(1, Draw(), 0)
    assert isinstance(outcome, Rejected)
    assert outcome.code is RejectCode.NOT_NOW


def test_ruling_6_no_answer_before_the_decision_clock_means_accept() -> None:
    config = TableConfig(seats=3, turn_seconds=0, decision_seconds=15)
    match = rig(config, hands=[["W+4", "G5"], ["Y1", "Y2"], ["B1"]], top="R5")
    ok(match.apply(0, Play(W4, color=Color.GREEN), 1_000))
    assert match.deadline_ms() == 16_000
    early = match.apply(None, Timeout(), 15_999)
    assert isinstance(early, Rejected)
    assert early.code is RejectCode.NOT_DUE
    events = ok(match.apply(None, Timeout(), 16_000))
    assert kinds(events)[:2] == ["timed-out", "draw-four-accepted"]
    assert len(match.hand(1)) == 6
    assert match.to_act() == 2


def test_ruling_6_a_table_without_bluffing_refuses_an_illegal_draw_four() -> None:
    config = TableConfig(seats=3, turn_seconds=0, wd4_bluff=False)
    match = rig(config, hands=[["W+4", "R9", "G5"], ["Y1", "Y2"], ["B1"]], top="R5")
    outcome = match.apply(0, Play(W4, color=Color.GREEN), 0)
    assert isinstance(outcome, Rejected)
    assert outcome.code is RejectCode.WILD_DRAW_FOUR_NOT_ALLOWED
    assert all(getattr(c, "card", None) != W4 for c in match.legal_commands(0))


def test_ruling_13_a_last_wild_draw_four_makes_the_next_draw_four_without_challenge() -> None:
    match = rig(hands=[["W+4"], ["Y1", "Y2"], ["B1"]], top="R5", draw=["G1", "G2", "G3", "G4"])
    events = ok(match.apply(0, Play(W4, color=Color.GREEN), 0))
    assert "challenged" not in kinds(events)
    assert codes(match.hand(1)) == ["Y1", "Y2", "G1", "G2", "G3", "G4"]
    over = of_kind(events, "round-over")[0]
    assert over.public["winner"] == 0
    assert over.public["points"][1] == 1 + 2 + 1 + 2 + 3 + 4
    assert match.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER)


def test_ruling_13_a_last_draw_two_makes_the_next_draw_two_and_those_cards_count() -> None:
    match = rig(hands=[["R+2"], ["Y1"], ["B1"]], top="R5", draw=["G7", "G8"])
    events = ok(match.apply(0, Play(Card.parse("R+2")), 0))
    over = of_kind(events, "round-over")[0]
    assert over.public["hands"][1] == ["Y1", "G7", "G8"]
    assert over.public["gained"][0] == 1 + 7 + 8 + 1
