"""Ruling 5 (a turn is one card; draw instead of playing), the action cards, rejections
that change nothing, and the two-player rules (ruling 8)."""

from __future__ import annotations

import pytest
from engine_rig import codes, kinds, of_kind, ok, rig

from protocol.cards import Card, Color
from protocol.commands import Accept, CallUno, Draw, NextRound, Pass, Play
from protocol.options import DeckName, TableConfig
from server.engine import Accepted, Match, RejectCode, Rejected


def card(code: str) -> Card:
    return Card.parse(code)


def rejected(outcome: object, code: RejectCode) -> None:
    assert isinstance(outcome, Rejected), outcome
    assert outcome.code is code
    assert outcome.message


def three_seats() -> Match:
    return rig(hands=[["R3", "G5", "B+2", "W"], ["Y1", "Y2", "Y3"], ["B1", "B2", "B3"]], top="R5")


def test_ruling_5_a_card_matching_colour_or_number_is_played_and_the_turn_passes_on() -> None:
    match = three_seats()
    events = ok(match.apply(0, Play(card("G5")), 10))
    assert kinds(events) == ["played", "turn"]
    assert events[0].public == {"seat": 0, "card": "G5", "color": "G", "count": 3}
    assert match.to_act() == 1
    assert match.top_card() == card("G5")


def test_ruling_5_a_card_matching_neither_colour_nor_number_is_rejected() -> None:
    match = three_seats()
    rejected(match.apply(0, Play(card("B+2")), 0), RejectCode.CARD_DOES_NOT_MATCH)


def test_a_rejected_command_changes_nothing_not_even_the_rng() -> None:
    match = three_seats()
    before = match.snapshot()
    rejected(match.apply(0, Play(card("Y9")), 0), RejectCode.CARD_NOT_IN_HAND)
    rejected(match.apply(1, Play(card("Y1")), 0), RejectCode.NOT_YOUR_TURN)
    rejected(match.apply(0, Play(card("W")), 0), RejectCode.COLOUR_REQUIRED)
    rejected(match.apply(0, Play(card("R3"), color=Color.RED), 0), RejectCode.COLOUR_NOT_ALLOWED)
    rejected(match.apply(0, Pass(), 0), RejectCode.CANNOT_PASS)
    rejected(match.apply(0, Play(card("R3"), uno=True), 0), RejectCode.UNO_NOT_ALLOWED)
    rejected(match.apply(0, Play(card("R3"), target=1), 0), RejectCode.INVALID_TARGET)
    rejected(match.apply(None, Play(card("R3")), 0), RejectCode.SEAT_ONLY)
    rejected(match.apply(7, Play(card("R3")), 0), RejectCode.INVALID_SEAT)
    rejected(match.apply(0, CallUno(), 0), RejectCode.NOT_NOW)
    assert match.snapshot() == before


def test_ruling_5_you_may_draw_even_when_you_could_play_then_only_the_drawn_card() -> None:
    match = rig(hands=[["R3", "G5"], ["Y1"]], top="R5", draw=["R9", "B4"])
    assert Draw() in match.legal_commands(0)
    events = ok(match.apply(0, Draw(), 0))
    assert kinds(events) == ["drew"]
    assert events[0].for_seat(0)["cards"] == ["R9"]
    assert "cards" not in events[0].for_seat(1)
    assert events[0].for_seat(1)["count"] == 1
    rejected(match.apply(0, Play(card("R3")), 0), RejectCode.ONLY_DRAWN_CARD)
    rejected(match.apply(0, Draw(), 0), RejectCode.ALREADY_DREW)
    legal = match.legal_commands(0)
    assert Play(card("R9")) in legal
    assert Pass() in legal
    assert Play(card("R3")) not in legal
    ok(match.apply(0, Play(card("R9")), 0))
    assert match.to_act() == 1


def test_ruling_5_a_drawn_card_that_cannot_be_played_ends_the_turn_at_once() -> None:
    match = rig(hands=[["G3", "G5"], ["Y1", "Y2"]], top="R5", draw=["B4"])
    events = ok(match.apply(0, Draw(), 0))
    assert kinds(events) == ["drew", "passed", "turn"]
    assert events[1].public == {"seat": 0, "stuck": False}
    assert match.to_act() == 1
    assert codes(match.hand(0)) == ["G3", "G5", "B4"]


def test_ruling_5_a_playable_drawn_card_may_be_kept_by_passing() -> None:
    match = rig(hands=[["G3", "G5"], ["Y1", "Y2"]], top="R5", draw=["R4"])
    ok(match.apply(0, Draw(), 0))
    assert match.legal_commands(0) == [Play(card("R4")), Pass()]
    events = ok(match.apply(0, Pass(), 0))
    assert kinds(events) == ["passed", "turn"]
    assert codes(match.hand(0)) == ["G3", "G5", "R4"]


def test_skip_makes_the_next_player_lose_their_turn() -> None:
    match = rig(hands=[["RS", "G5"], ["Y1"], ["B1"]], top="R5")
    events = ok(match.apply(0, Play(card("RS")), 0))
    assert of_kind(events, "skipped")[0].public["seat"] == 1
    assert match.to_act() == 2


def test_reverse_changes_the_direction_with_three_players() -> None:
    match = rig(hands=[["RR", "G5"], ["Y1"], ["B1"]], top="R5")
    events = ok(match.apply(0, Play(card("RR")), 0))
    assert of_kind(events, "direction")[0].public["direction"] == -1
    assert match.to_act() == 2
    assert match.direction == -1


def test_draw_two_makes_the_next_player_draw_two_and_lose_the_turn() -> None:
    match = rig(hands=[["R+2", "G5"], ["Y1"], ["B1"]], top="R5", draw=["G1", "G2"])
    events = ok(match.apply(0, Play(card("R+2")), 0))
    drew = of_kind(events, "drew")[0]
    assert drew.public == {"seat": 1, "count": 2, "reason": "draw-two"}
    assert match.to_act() == 2
    assert codes(match.hand(1)) == ["Y1", "G1", "G2"]


def test_a_wild_sets_the_colour_in_force() -> None:
    match = three_seats()
    ok(match.apply(0, Play(card("W"), color=Color.BLUE), 0))
    assert match.view(None, 0).to_data()["color"] == "B"
    rejected(match.apply(1, Play(card("Y1")), 0), RejectCode.CARD_DOES_NOT_MATCH)


def test_ruling_8_two_players_reverse_acts_as_skip() -> None:
    match = rig(hands=[["RR", "G5"], ["Y1", "Y2"]], top="R5")
    ok(match.apply(0, Play(card("RR")), 0))
    assert match.to_act() == 0


def test_ruling_8_two_players_skip_gives_another_turn() -> None:
    match = rig(hands=[["RS", "G5"], ["Y1", "Y2"]], top="R5")
    ok(match.apply(0, Play(card("RS")), 0))
    assert match.to_act() == 0


def test_ruling_8_two_players_draw_two_gives_another_turn() -> None:
    match = rig(hands=[["R+2", "G5"], ["Y1", "Y2"]], top="R5")
    ok(match.apply(0, Play(card("R+2")), 0))
    assert len(match.hand(1)) == 4
    assert match.to_act() == 0


def test_ruling_8_two_players_wild_draw_four_gives_another_turn() -> None:
    match = rig(hands=[["W+4", "G5"], ["Y1", "Y2"]], top="R5")
    ok(match.apply(0, Play(card("W+4"), color=Color.GREEN), 0))
    ok(match.apply(1, Accept(), 0))
    assert len(match.hand(1)) == 6
    assert match.to_act() == 0


def test_every_listed_command_is_accepted() -> None:
    for seed in range(3):
        match = Match(TableConfig(seats=3, turn_seconds=0, target_score=200), seed)
        for step in range(120):
            seat = match.to_act()
            if seat is None:
                break
            legal = match.legal_commands(seat)
            position = match.snapshot(with_history=False)
            for command in legal:
                probe = Match.restore(position)
                assert isinstance(probe.apply(seat, command, 0), Accepted), command
            ok(match.apply(seat, legal[step % len(legal)], 0))


@pytest.mark.parametrize("deck", list(DeckName))
def test_the_cheap_queries_agree_with_the_legal_list(deck: DeckName) -> None:
    for seed, bluff in ((0, True), (1, False)):
        config = TableConfig(
            deck=deck,
            seats=3,
            turn_seconds=0,
            target_score=200,
            stack_draw_two=True,
            skip_any=True,
            wd4_bluff=bluff,
        )
        match = Match(config, seed)
        for step in range(400):
            seat = match.to_act()
            if seat is None:
                if match.is_over:
                    break
                ok(match.apply(None, NextRound(), 0))
                continue
            for other in range(3):
                legal = match.legal_commands(other)
                played = list(dict.fromkeys(c.card for c in legal if isinstance(c, Play)))
                assert match.playable_cards(other) == played
                assert match.may_draw(other) == (Draw() in legal)
                assert match.hand_count(other) == len(match.hand(other))
            legal = match.legal_commands(seat)
            ok(match.apply(seat, legal[(step * 5) % len(legal)], 0))
