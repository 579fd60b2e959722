"""Rulings 21-30 of docs/rules.md: first cards, stacking, bluff-free Draw Fours, targeted
Skips, UNO details, Creepers, custom effects, blocked-round scoring, ties and eliminations."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from engine_rig import codes, first_card_match, kinds, of_kind, ok, rig

from protocol.cards import Card, Color, Rank
from protocol.commands import (
    Accept,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    NextRound,
    Pass,
    Play,
    Timeout,
)
from protocol.options import CustomRule, DeckName, Scoring, TableConfig
from server.engine import Phase, RejectCode, Rejected
from server.engine.scoring import score_round


def card(code: str) -> Card:
    return Card.parse(code)


def rejected(outcome: object, code: RejectCode) -> None:
    assert isinstance(outcome, Rejected), outcome
    assert outcome.code is code


# ---------------------------------------------------------------- ruling 21


def test_ruling_21_a_first_draw_two_cannot_be_stacked_on() -> None:
    config = TableConfig(seats=4, turn_seconds=0, stack_draw_two=True)
    match = first_card_match(config, lambda c: c.rank is Rank.DRAW_TWO)
    first = (match.dealer + 1) % 4
    assert len(match.hand(first)) == 9
    assert match.phase is Phase.TURN
    assert match.to_act() == (match.dealer + 2) % 4
    assert match.view(None, 0).to_data()["pending_draw"] == 0


def test_ruling_21_a_first_skip_under_skip_any_names_nobody_and_skips_the_first_player() -> None:
    config = TableConfig(seats=4, turn_seconds=0, skip_any=True)
    match = first_card_match(config, lambda c: c.rank is Rank.SKIP)
    assert of_kind(match.events, "skipped")[0].public["seat"] == (match.dealer + 1) % 4
    assert not of_kind(match.events, "skip-marked")
    assert match.view(None, 0).to_data()["skip_marks"] == [0, 0, 0, 0]
    assert match.to_act() == (match.dealer + 2) % 4


@pytest.mark.parametrize("custom_rule", [CustomRule.OTHERS_DRAW_TWO, CustomRule.EXTRA_TURN])
def test_ruling_21_a_first_customizable_only_asks_for_a_colour(custom_rule: CustomRule) -> None:
    config = TableConfig(
        deck=DeckName.MODERN_SWAP, seats=3, turn_seconds=0, custom_rule=custom_rule
    )
    match = first_card_match(config, lambda c: c.rank is Rank.CUSTOM)
    first = (match.dealer + 1) % 3
    events = ok(match.apply(first, ChooseColor(Color.RED), 0))
    assert kinds(events) == ["color-chosen", "turn"]
    assert [len(match.hand(seat)) for seat in range(3)] == [7, 7, 7]
    ok(match.apply(first, Draw(), 0))
    if match.to_act() == first:
        ok(match.apply(first, Pass(), 0))
    assert match.to_act() == (first + 1) % 3  # no extra turn either


def test_ruling_21_a_first_dancing_wild_asks_for_no_dance() -> None:
    config = TableConfig(deck=DeckName.BTS, seats=3, turn_seconds=0)
    match = first_card_match(config, lambda c: c.rank is Rank.DANCE)
    first = (match.dealer + 1) % 3
    events = ok(match.apply(first, ChooseColor(Color.BLUE), 0))
    assert "dance-called" not in kinds(match.events)
    assert match.phase is Phase.TURN
    assert of_kind(events, "turn")[0].public["seat"] == first


def test_ruling_21_a_first_creeper_makes_nobody_draw() -> None:
    config = TableConfig(deck=DeckName.MINECRAFT, seats=3, turn_seconds=0)
    match = first_card_match(config, lambda c: c.rank is Rank.CREEPER)
    assert not of_kind(match.events, "creeper-revealed")
    assert not of_kind(match.events, "drew")
    assert [len(match.hand(seat)) for seat in range(3)] == [7, 7, 7]
    assert match.phase is Phase.CHOOSE_COLOR


# ---------------------------------------------------------------- rulings 22 and 26


def stacking(turn_seconds: int = 0) -> TableConfig:
    return TableConfig(seats=3, turn_seconds=turn_seconds, stack_draw_two=True)


def test_ruling_22_when_the_stack_clock_runs_out_the_total_is_taken() -> None:
    match = rig(
        stacking(30),
        hands=[["R+2", "G5", "G6"], ["G+2", "Y1"], ["B1", "B2"]],
        top="R5",
    )
    ok(match.apply(0, Play(card("R+2")), 1_000))
    assert match.phase is Phase.STACK
    assert match.deadline_ms() == 31_000
    events = ok(match.apply(None, Timeout(), 31_000))
    assert kinds(events) == ["timed-out", "drew", "skipped", "turn"]
    assert of_kind(events, "drew")[0].public["count"] == 2
    assert len(match.hand(1)) == 4
    assert match.to_act() == 2


def test_ruling_22_only_a_draw_two_answers_a_draw_two() -> None:
    match = rig(stacking(), hands=[["R+2", "G5", "G6"], ["W+4", "Y1"], ["B1"]], top="R5")
    ok(match.apply(0, Play(card("R+2")), 0))
    rejected(match.apply(1, Play(card("W+4"), color=Color.RED), 0), RejectCode.MUST_ANSWER_DRAW_TWO)
    assert match.legal_commands(1) == [Draw()]


def test_ruling_26_a_last_draw_two_on_a_stack_passes_the_whole_total() -> None:
    match = rig(
        stacking(),
        hands=[["R+2", "G5", "G6"], ["G+2"], ["B1"]],
        top="R5",
        draw=["Y1", "Y2", "Y3", "Y4"],
    )
    ok(match.apply(0, Play(card("R+2")), 0))
    events = ok(match.apply(1, Play(card("G+2")), 0))
    assert of_kind(events, "drew")[0].public == {"seat": 2, "count": 4, "reason": "draw-two"}
    over = of_kind(events, "round-over")[0]
    assert over.public["winner"] == 1
    assert over.public["hands"][2] == ["B1", "Y1", "Y2", "Y3", "Y4"]
    assert match.phase is Phase.ROUND_OVER


# ---------------------------------------------------------------- ruling 23


def test_ruling_23_without_bluffing_the_victim_draws_four_at_once_with_no_decision() -> None:
    config = TableConfig(seats=3, turn_seconds=30, wd4_bluff=False)
    match = rig(
        config,
        hands=[["W+4", "G5", "G6"], ["Y1", "Y2"], ["B1"]],
        top="R5",
        draw=["G1", "G2", "G3", "G4"],
    )
    events = ok(match.apply(0, Play(card("W+4"), color=Color.GREEN), 1_000))
    assert kinds(events) == ["played", "drew", "skipped", "turn"]
    assert of_kind(events, "drew")[0].public == {
        "seat": 1,
        "count": 4,
        "reason": "wild-draw-four",
    }
    assert len(match.hand(1)) == 6
    assert match.phase is Phase.TURN
    assert match.to_act() == 2
    assert match.deadline_ms() == 31_000  # the turn clock, no decision clock
    assert Accept() not in match.legal_commands(1)
    rejected(match.apply(1, Challenge(), 1_000), RejectCode.NOT_YOUR_TURN)


# ---------------------------------------------------------------- ruling 24


def skip_any(seats: int = 4) -> TableConfig:
    return TableConfig(seats=seats, turn_seconds=0, skip_any=True)


def test_ruling_24_each_mark_costs_one_card_and_one_turn_served_one_at_a_time() -> None:
    match = rig(
        skip_any(),
        hands=[["RS", "R6", "G6"], ["GS", "R7", "Y3"], ["B2", "B3"], ["R8", "R9", "B9"]],
        top="R5",
        draw=["Y7", "Y8"],
    )
    ok(match.apply(0, Play(card("RS"), target=2), 0))
    events = ok(match.apply(1, Play(card("GS"), target=2), 0))  # two marks on seat 2 now
    assert kinds(events) == ["played", "skip-marked", "skip-served", "drew", "turn"]
    assert of_kind(events, "drew")[0].public["count"] == 1
    assert codes(match.hand(2)) == ["B2", "B3", "Y7"]
    assert match.view(None, 0).to_data()["skip_marks"] == [0, 0, 1, 0]
    assert match.to_act() == 3


def test_ruling_24_the_second_mark_is_served_on_the_next_turn() -> None:
    match = rig(
        skip_any(),
        hands=[["RS", "R6", "G6"], ["RS", "R7", "Y3", "Y4"], ["B2", "B3"], ["R8", "R9", "B9"]],
        top="R5",
        draw=["Y7", "Y8"],
    )
    ok(match.apply(0, Play(card("RS"), target=2), 0))
    ok(match.apply(1, Play(card("RS"), target=2), 0))
    assert match.to_act() == 3
    ok(match.apply(3, Play(card("R8")), 0))
    ok(match.apply(0, Play(card("R6")), 0))
    events = ok(match.apply(1, Play(card("R7")), 0))
    assert kinds(events) == ["played", "skip-served", "drew", "turn"]
    assert codes(match.hand(2)) == ["B2", "B3", "Y7", "Y8"]
    assert match.view(None, 0).to_data()["skip_marks"] == [0, 0, 0, 0]
    assert match.to_act() == 3


def test_ruling_24_a_turn_lost_to_a_draw_two_does_not_serve_a_mark() -> None:
    match = rig(
        skip_any(),
        hands=[["RS", "R6", "G6"], ["R+2", "R7", "Y3"], ["B2", "B3"], ["R8", "R9", "B9"]],
        top="R5",
        draw=["Y7", "Y8", "Y9"],
    )
    ok(match.apply(0, Play(card("RS"), target=2), 0))
    events = ok(match.apply(1, Play(card("R+2")), 0))
    assert "skip-served" not in kinds(events)
    assert codes(match.hand(2)) == ["B2", "B3", "Y7", "Y8"]
    assert match.view(None, 0).to_data()["skip_marks"] == [0, 0, 1, 0]
    assert match.to_act() == 3


def test_ruling_24_with_two_players_the_named_opponent_draws_one_and_you_play_again() -> None:
    match = rig(skip_any(2), hands=[["RS", "R6", "G6"], ["B2", "B3"]], top="R5", draw=["Y7"])
    events = ok(match.apply(0, Play(card("RS"), target=1), 0))
    assert kinds(events) == ["played", "skip-marked", "skip-served", "drew", "turn"]
    assert codes(match.hand(1)) == ["B2", "B3", "Y7"]
    assert match.to_act() == 0


def test_ruling_24_unserved_marks_are_forgotten_at_the_round_end() -> None:
    match = rig(skip_any(), hands=[["RS", "R6"], ["R7"], ["B2", "B3"], ["B9"]], top="R5")
    ok(match.apply(0, Play(card("RS"), target=2, uno=True), 0))
    ok(match.apply(1, Play(card("R7")), 0))
    assert match.phase is Phase.ROUND_OVER
    ok(match.apply(None, NextRound(), 0))
    assert match.view(None, 0).to_data()["skip_marks"] == [0, 0, 0, 0]


# ---------------------------------------------------------------- ruling 25


def test_ruling_25_a_swap_ends_an_exposure() -> None:
    config = TableConfig(deck=DeckName.MODERN_SWAP, seats=3, turn_seconds=0)
    match = rig(config, hands=[["R3", "G5"], ["WSWAP", "Y1", "Y2"], ["B1", "B2"]], top="R5")
    ok(match.apply(0, Play(card("R3")), 0))
    assert match.view(2, 0).to_data()["exposed"] == [0]
    events = ok(match.apply(1, Play(card("WSWAP"), color=Color.RED, target=0), 0))
    assert "hands-swapped" in kinds(events)
    assert match.view(2, 0).to_data()["exposed"] == []
    assert Catch(0) not in match.legal_commands(2)
    rejected(match.apply(2, Catch(0), 0), RejectCode.NOT_EXPOSED)
    rejected(match.apply(1, Catch(0), 0), RejectCode.NOT_EXPOSED)


# ---------------------------------------------------------------- ruling 27


def test_ruling_27_each_creeper_in_one_penalty_draw_brings_its_own_three() -> None:
    config = TableConfig(deck=DeckName.MINECRAFT, seats=3, turn_seconds=0)
    match = rig(
        config,
        hands=[["R+2", "G5", "G6"], ["Y1"], ["B1"]],
        top="R5",
        draw=["WCREEP", "WCREEP", "G1", "G2", "G3", "WCREEP", "G4", "G7"],
    )
    events = ok(match.apply(0, Play(card("R+2")), 0))
    assert [e.public["seat"] for e in of_kind(events, "creeper-revealed")] == [1, 1]
    drew = [(e.public["count"], e.public["reason"]) for e in of_kind(events, "drew")]
    assert drew == [(2, "draw-two"), (3, "creeper"), (3, "creeper")]
    # The third Creeper came as an extra and stays a secret wild in the hand.
    assert codes(match.hand(1)) == [
        "Y1",
        "WCREEP",
        "WCREEP",
        "G1",
        "G2",
        "G3",
        "WCREEP",
        "G4",
        "G7",
    ]


# ---------------------------------------------------------------- ruling 28


def modern(custom_rule: CustomRule, seats: int = 3) -> TableConfig:
    return TableConfig(
        deck=DeckName.MODERN_SWAP, seats=seats, turn_seconds=0, custom_rule=custom_rule
    )


def test_ruling_28_others_draw_two_in_turn_order_from_the_next_player_nobody_skipped() -> None:
    match = rig(
        modern(CustomRule.OTHERS_DRAW_TWO, 4),
        hands=[["WCUST", "G5", "G6"], ["Y1"], ["B1"], ["R1"]],
        top="R5",
        direction=-1,
    )
    events = ok(match.apply(0, Play(card("WCUST"), color=Color.GREEN), 0))
    assert [e.public["seat"] for e in of_kind(events, "drew")] == [3, 2, 1]
    assert "skipped" not in kinds(events)
    assert match.to_act() == 3


def test_ruling_28_an_extra_turn_is_a_complete_turn() -> None:
    match = rig(
        modern(CustomRule.EXTRA_TURN),
        hands=[["WCUST", "G5", "R6"], ["Y1"], ["B1"]],
        top="R5",
        draw=["Y9"],
    )
    ok(match.apply(0, Play(card("WCUST"), color=Color.GREEN), 0))
    assert match.to_act() == 0
    legal = match.legal_commands(0)
    assert Play(card("G5")) in legal
    assert Play(card("R6")) not in legal  # the named colour is in force
    assert Draw() in legal
    ok(match.apply(0, Play(card("G5")), 0))
    assert match.to_act() == 1


# ---------------------------------------------------------------- ruling 29


def blocked(scoring: Scoring, seats: int = 3) -> TableConfig:
    return TableConfig(seats=seats, turn_seconds=0, scoring=scoring, target_score=1000)


def block(hands: list[list[str]], scoring: Scoring) -> Mapping[str, Any]:
    """Every seat passes in turn with nothing to play or draw; the round-over fields."""
    match = rig(blocked(scoring, len(hands)), hands=hands, top="R5", rest="nowhere")
    for seat in range(len(hands) - 1):
        ok(match.apply(seat, Pass(), 0))
    events = ok(match.apply(len(hands) - 1, Pass(), 0))
    return of_kind(events, "round-over")[0].public


def test_ruling_29_standard_the_blocked_winner_scores_the_other_hands() -> None:
    over = block([["G3", "Y4"], ["B7"], ["Y9"]], Scoring.STANDARD)
    assert over["reason"] == "blocked"
    assert over["winner"] == 1
    assert over["gained"] == [0, 7 + 9, 0]


def test_ruling_29_teams_the_blocked_winners_team_scores_the_other_teams() -> None:
    over = block([["G3", "Y4"], ["B2"], ["Y9"], ["B8"]], Scoring.TEAMS)
    assert over["winner"] == 1
    assert over["gained"] == [0, 7 + 9, 0, 7 + 9]


@pytest.mark.parametrize("scoring", [Scoring.LOWEST, Scoring.ELIMINATION])
def test_ruling_29_own_hand_modes_score_every_hand_winner_included(scoring: Scoring) -> None:
    over = block([["G3", "Y4"], ["B7"], ["Y9"]], scoring)
    assert over["winner"] == 1
    assert over["gained"] == [7, 7, 9]


# ---------------------------------------------------------------- ruling 30


def test_ruling_30_lowest_equal_lowest_totals_share_the_win() -> None:
    outcome = score_round(
        Scoring.LOWEST,
        target=100,
        winner=0,
        points=[0, 70, 30],
        scores=[40, 40, 10],
        eliminated=[False] * 3,
    )
    assert outcome.winners == (0, 2)


def test_ruling_30_elimination_nobody_left_the_lowest_total_wins_equal_totals_share() -> None:
    outcome = score_round(
        Scoring.ELIMINATION,
        target=100,
        winner=0,
        points=[60, 90, 60, 0],
        scores=[50, 30, 50, 0],
        eliminated=[False, False, False, True],
    )
    assert outcome.newly_eliminated == (0, 1, 2)
    assert outcome.winners == (0, 2)


def test_ruling_30_an_eliminated_seat_never_deals_and_two_left_play_two_player_rules() -> None:
    config = TableConfig(seats=3, turn_seconds=0, scoring=Scoring.ELIMINATION, target_score=50)
    match = rig(config, hands=[["R3"], ["Y1", "W"], ["B9", "GS"]], top="R5", dealer=0)
    ok(match.apply(0, Play(card("R3")), 0))
    ok(match.apply(None, NextRound(), 0))
    assert match.view(None, 0).to_data()["eliminated"] == [1]
    assert match.view(None, 0).to_data()["dealer"] == 2  # seat 1 is out: the deal skips it
    assert len(match.hand(1)) == 0
    # Two players left: a Reverse acts as a Skip.
    two = rig(
        config,
        hands=[["RR", "R6"], [], ["B2", "B3"]],
        top="R5",
        eliminated=[False, True, False],
        rest="nowhere",
    )
    ok(two.apply(0, Play(card("RR")), 0))
    assert two.to_act() == 0


# ---------------------------------------------------------------- the two reviewed bugs


def test_ruling_12_an_early_call_does_not_carry_over_to_the_player_who_stacks() -> None:
    match = rig(
        stacking(),
        hands=[["R+2", "R5"], ["B+2", "G7"], ["B1", "B2", "B3"]],
        top="R9",
    )
    ok(match.apply(0, CallUno(), 0))
    ok(match.apply(0, Play(card("R+2")), 0))
    events = ok(match.apply(1, Play(card("B+2")), 0))
    assert of_kind(events, "exposed")[0].public == {"seat": 1}
    events = ok(match.apply(0, Catch(1), 0))
    assert of_kind(events, "caught")[0].public == {"seat": 1, "by": 0, "penalty": 2}


def test_ruling_12_a_stack_victim_holding_two_may_declare_before_stacking() -> None:
    match = rig(
        stacking(),
        hands=[["R+2", "R5", "R6"], ["B+2", "G7"], ["B1", "B2", "B3"]],
        top="R9",
    )
    ok(match.apply(0, Play(card("R+2")), 0))
    assert CallUno() in match.legal_commands(1)
    events = ok(match.apply(1, CallUno(), 0))
    assert events[0].public == {"seat": 1, "early": True}
    events = ok(match.apply(1, Play(card("B+2")), 0))
    assert "exposed" not in kinds(events)
    rejected(match.apply(2, Catch(1), 0), RejectCode.NOT_EXPOSED)


def test_ruling_12_no_early_call_in_a_stack_without_a_draw_two_to_play() -> None:
    match = rig(
        stacking(),
        hands=[["R+2", "R5", "R6"], ["B4", "G7"], ["B1", "B2", "B3"]],
        top="R9",
    )
    ok(match.apply(0, Play(card("R+2")), 0))
    assert CallUno() not in match.legal_commands(1)
    rejected(match.apply(1, CallUno(), 0), RejectCode.NOT_NOW)


def test_ruling_14_a_timed_out_player_who_could_play_does_not_count_toward_a_block() -> None:
    config = TableConfig(seats=2, turn_seconds=10)
    match = rig(config, hands=[["R3", "G4"], ["B7", "Y9"]], top="R5", rest="nowhere")
    events = ok(match.apply(None, Timeout(), 10_000))
    assert of_kind(events, "passed")[0].public == {"seat": 0, "stuck": False}
    events = ok(match.apply(1, Pass(), 10_000))
    assert of_kind(events, "passed")[0].public == {"seat": 1, "stuck": True}
    assert "round-over" not in kinds(events)
    assert match.to_act() == 0
    assert match.phase is Phase.TURN


def test_ruling_12_no_early_call_on_a_turn_with_nothing_to_play() -> None:
    match = rig(hands=[["G3", "B4"], ["Y1", "Y2"], ["B1"]], top="R5")
    assert CallUno() not in match.legal_commands(0)
    rejected(match.apply(0, CallUno(), 0), RejectCode.NOT_NOW)


def test_ruling_25_an_early_call_lapses_when_the_player_draws_instead() -> None:
    match = rig(hands=[["R3"], ["Y1", "Y2"], ["B1"]], top="R5", draw=["R9", "G1"])
    rejected(match.apply(0, CallUno(), 0), RejectCode.NOT_NOW)  # one card: nothing to declare
    match = rig(hands=[["R3", "G4"], ["Y1", "Y2"], ["B1"]], top="R5", draw=["R9"])
    ok(match.apply(0, CallUno(), 0))
    ok(match.apply(0, Draw(), 0))
    assert match.view(None, 0).to_data()["counts"][0] == 3
    assert match.snapshot(with_history=False)["early_uno"] is False


@pytest.mark.parametrize(
    ("config", "hands", "command", "phase"),
    [
        (stacking(), [["R+2", "G5"], ["G+2", "Y1"], ["B1"]], Play(card("R+2")), "stack"),
        (
            TableConfig(seats=3, turn_seconds=0),
            [["W+4", "G5"], ["Y1"], ["B1"]],
            Play(card("W+4"), color=Color.GREEN),
            "challenge",
        ),
        (
            TableConfig(deck=DeckName.BTS, seats=3, turn_seconds=0),
            [["WDANCE", "G5"], ["Y1"], ["B1"]],
            Play(card("WDANCE"), color=Color.GREEN, dance="butter"),
            "dance",
        ),
    ],
)
def test_decision_turn_events_name_the_phase_as_plain_text(
    config: TableConfig, hands: list[list[str]], command: Play, phase: str
) -> None:
    match = rig(config, hands=hands, top="R5")
    events = ok(match.apply(0, command, 0))
    turn = of_kind(events, "turn")[-1]
    assert turn.public["phase"] == phase
    assert type(turn.public["phase"]) is str
