"""What docs/protocol.md states about the engine's answers, each test named after one
statement of the page: the shape of ``legal``, a reshuffle inside a draw, every case of
``lost-race``, which rejection code wins when a command breaks several rules, a
two-player Reverse."""

from __future__ import annotations

import pytest
from engine_rig import first_card_match, kinds, of_kind, ok, rig

from protocol.cards import Card, Color, Rank
from protocol.commands import (
    CallUno,
    Catch,
    Command,
    Draw,
    Pass,
    Pause,
    Play,
)
from protocol.options import DeckName, TableConfig
from server.engine import Match, RejectCode, Rejected


def card(code: str) -> Card:
    return Card.parse(code)


def rejected(outcome: object) -> RejectCode:
    assert isinstance(outcome, Rejected), outcome
    return outcome.code


def legal_data(match: Match, seat: int) -> list[dict[str, object]]:
    return [command.to_data() for command in match.legal_commands(seat)]


# ---------------------------------------------------------------- the shape of legal


def test_legal_lists_a_wild_once_per_colour_and_the_uno_variants_when_holding_two() -> None:
    match = rig(hands=[["W", "R3"], ["G1", "G2"], ["B1", "B2"]], top="R5")
    wilds = [{"type": "play", "card": "W", "color": color} for color in "RYGB"]
    assert legal_data(match, 0) == [
        *wilds,
        *({**entry, "uno": True} for entry in wilds),
        {"type": "play", "card": "R3"},
        {"type": "play", "card": "R3", "uno": True},
        {"type": "draw"},
        {"type": "call-uno"},
    ]


def test_legal_lists_a_card_held_twice_once_and_no_uno_with_three_cards() -> None:
    match = rig(hands=[["R3", "R3", "G7"], ["G1", "G2"], ["B1", "B2"]], top="R5")
    assert legal_data(match, 0) == [{"type": "play", "card": "R3"}, {"type": "draw"}]


def test_legal_fills_in_every_target_and_every_dance() -> None:
    swap = TableConfig(seats=3, turn_seconds=0, deck=DeckName.MODERN_SWAP)
    match = rig(swap, hands=[["WSWAP", "G7", "G8"], ["G1", "G2"], ["B1", "B2"]], top="R5")
    plays = [entry for entry in legal_data(match, 0) if entry["type"] == "play"]
    assert plays == [
        {"type": "play", "card": "WSWAP", "color": color, "target": target}
        for color in "RYGB"
        for target in (1, 2)
    ]
    dance = TableConfig(seats=3, turn_seconds=0, deck=DeckName.BTS)
    match = rig(dance, hands=[["WDANCE", "G7", "G8"], ["G1", "G2"], ["B1", "B2"]], top="R5")
    plays = [entry for entry in legal_data(match, 0) if entry["type"] == "play"]
    dances = ("dynamite", "butter", "idol", "fire", "dope", "permission")
    assert plays == [
        {"type": "play", "card": "WDANCE", "color": color, "dance": name}
        for color in "RYGB"
        for name in dances
    ]


def test_legal_lists_a_catch_only_until_the_watched_seat_acts() -> None:
    config = TableConfig(seats=3, turn_seconds=0, catch_grace_ms=1500)
    match = rig(config, hands=[["R3", "G5"], ["R1", "Y2", "Y3"], ["B1", "B2"]], top="R5")
    ok(match.apply(0, Play(card("R3")), 1000))
    assert {"type": "catch", "target": 0} in legal_data(match, 2)
    assert {"type": "call-uno"} in legal_data(match, 0)
    ok(match.apply(1, Play(card("R1")), 1100))
    assert {"type": "catch", "target": 0} not in legal_data(match, 2)
    ok(match.apply(2, Catch(0), 1200))  # still accepted: inside the grace


# ---------------------------------------------------------------- a reshuffle inside a draw


def test_a_draw_that_empties_the_pile_sends_reshuffled_then_one_drew_with_every_card() -> None:
    match = rig(
        hands=[["R+2", "G5", "G6"], ["G1", "Y2"], ["B1", "B2"]],
        top="R5",
        draw=["G9"],
        rest="discard",
    )
    under_top = match.view(0, 0).to_data()["discard_count"]  # after the play, all but the new top
    events = ok(match.apply(0, Play(card("R+2")), 0))
    assert kinds(events) == ["played", "reshuffled", "drew", "skipped", "turn"]
    assert of_kind(events, "reshuffled")[0].public == {"count": under_top}
    drew = of_kind(events, "drew")[0]
    assert drew.public == {"seat": 1, "count": 2, "reason": "draw-two"}
    assert drew.private[1].to_data()["cards"][0] == "G9"  # the card from before the reshuffle first
    assert match.view(0, 0).to_data()["draw_count"] == under_top - 1


# ---------------------------------------------------------------- lost-race


def uno_table(penalty: int = 0) -> Match:
    config = TableConfig(seats=3, turn_seconds=0, catch_grace_ms=1500, false_catch_penalty=penalty)
    return rig(config, hands=[["R3", "G5"], ["R1", "Y2", "Y3"], ["B1", "B2"]], top="R5")


def test_lost_race_answers_a_catch_after_the_call_for_as_long_as_the_window_is_open() -> None:
    match = uno_table()
    ok(match.apply(0, Play(card("R3")), 1000))
    ok(match.apply(0, CallUno(), 1100))
    # The next seat has not acted: the window is open, however late the catch comes.
    assert rejected(match.apply(2, Catch(0), 600_000)) is RejectCode.LOST_RACE
    ok(match.apply(1, Play(card("R1")), 600_001))
    assert rejected(match.apply(2, Catch(0), 600_002)) is RejectCode.NOT_EXPOSED


def test_lost_race_answers_a_second_catch_and_the_caught_seats_late_call() -> None:
    match = uno_table()
    ok(match.apply(0, Play(card("R3")), 1000))
    ok(match.apply(1, Catch(0), 1100))
    assert rejected(match.apply(2, Catch(0), 1200)) is RejectCode.LOST_RACE
    assert rejected(match.apply(0, CallUno(), 1200)) is RejectCode.LOST_RACE
    ok(match.apply(1, Play(card("R1")), 1300))
    assert rejected(match.apply(0, CallUno(), 2600)) is RejectCode.NOT_NOW
    assert rejected(match.apply(2, Catch(0), 2600)) is RejectCode.NOT_EXPOSED


def test_lost_race_costs_no_false_catch_penalty() -> None:
    match = uno_table(penalty=2)
    ok(match.apply(0, Play(card("R3")), 1000))
    ok(match.apply(0, CallUno(), 1100))
    before = match.snapshot()
    assert rejected(match.apply(2, Catch(0), 1200)) is RejectCode.LOST_RACE
    assert match.snapshot() == before


def test_a_catch_and_a_call_of_the_watched_seat_do_not_close_the_window() -> None:
    match = uno_table()
    ok(match.apply(0, Play(card("R3")), 1000))
    assert rejected(match.apply(1, Catch(2), 1100)) is RejectCode.NOT_EXPOSED
    assert rejected(match.apply(1, Play(card("G5")), 1100)) is RejectCode.CARD_NOT_IN_HAND
    ok(match.apply(2, Catch(0), 9000))  # nothing seat 1 did counted: still open


# ---------------------------------------------------------------- precedence


def _first_code(match: Match, seat: int, command: Command, now_ms: int = 0) -> RejectCode:
    before = match.snapshot()
    code = rejected(match.apply(seat, command, now_ms))
    assert match.snapshot() == before
    return code


def test_precedence_who_sends_comes_before_whose_turn() -> None:
    match = rig(hands=[["R3", "G5"], ["G1", "Y2"], ["B1", "B2"]], top="R5")
    assert _first_code(match, 1, Play(card("W"))) is RejectCode.NOT_YOUR_TURN
    assert _first_code(match, 7, Play(card("W"))) is RejectCode.INVALID_SEAT
    ok(match.apply(None, Pause(), 0))
    assert _first_code(match, 1, Play(card("W"))) is RejectCode.PAUSED


W, R3, G7, WD4 = card("W"), card("R3"), card("G7"), card("W+4")
RED, GREEN = Color.RED, Color.GREEN


@pytest.mark.parametrize(
    ("hand", "play", "code"),
    [
        # not in hand comes before anything the card would need
        (["R3", "G5", "G6"], Play(W), RejectCode.CARD_NOT_IN_HAND),
        # not matching before the colour it should not carry
        (["G7", "G5", "G6"], Play(G7, color=RED), RejectCode.CARD_DOES_NOT_MATCH),
        # the colour before the target
        (["R3", "G5", "G6"], Play(R3, color=GREEN, target=1), RejectCode.COLOUR_NOT_ALLOWED),
        (["W", "G5", "G6"], Play(W, target=1), RejectCode.COLOUR_REQUIRED),
        # the target before the dance
        (["R3", "G5", "G6"], Play(R3, target=1, dance="idol"), RejectCode.INVALID_TARGET),
        # the dance before UNO
        (["R3", "G5", "G6"], Play(R3, dance="idol", uno=True), RejectCode.DANCE_NOT_ALLOWED),
        # UNO before the Wild Draw Four's own rule
        (["W+4", "R7", "G6"], Play(WD4, color=GREEN, uno=True), RejectCode.UNO_NOT_ALLOWED),
        (["W+4", "R7", "G6"], Play(WD4, color=GREEN), RejectCode.WILD_DRAW_FOUR_NOT_ALLOWED),
    ],
)
def test_precedence_of_a_play_follows_the_pages_order(
    hand: list[str], play: Play, code: RejectCode
) -> None:
    config = TableConfig(seats=3, turn_seconds=0, wd4_bluff=False)
    match = rig(config, hands=[hand, ["G1", "Y2"], ["B1", "B2"]], top="R5")
    assert _first_code(match, 0, play) is code


def test_precedence_after_a_draw_only_the_drawn_card_comes_before_matching() -> None:
    match = rig(hands=[["G7", "G5"], ["G1", "Y2"], ["B1", "B2"]], top="R5", draw=["R9"])
    ok(match.apply(0, Draw(), 0))  # a playable card: the turn goes on
    assert _first_code(match, 0, Play(card("G7"))) is RejectCode.ONLY_DRAWN_CARD
    assert _first_code(match, 0, Draw()) is RejectCode.ALREADY_DREW
    ok(match.apply(0, Pass(), 0))


def test_precedence_a_catch_too_late_is_only_for_an_exposure_nobody_answered() -> None:
    match = uno_table()
    ok(match.apply(0, Play(card("R3")), 1000))
    assert _first_code(match, 2, Catch(2), 1100) is RejectCode.INVALID_TARGET
    ok(match.apply(1, Play(card("R1")), 1100))
    assert _first_code(match, 2, Catch(0), 5000) is RejectCode.CATCH_TOO_LATE
    ok(match.apply(0, CallUno(), 5000))  # a late call still ends the exposure
    assert _first_code(match, 2, Catch(0), 5000) is RejectCode.NOT_EXPOSED


# ---------------------------------------------------------------- two players


def test_a_two_player_reverse_sends_no_direction_event_and_keeps_the_direction() -> None:
    match = rig(hands=[["RR", "G5", "G6"], ["G1", "Y2"]], top="R5")
    events = ok(match.apply(0, Play(card("RR")), 0))
    assert kinds(events) == ["played", "skipped", "turn"]
    assert of_kind(events, "skipped")[0].public == {"seat": 1}
    assert of_kind(events, "turn")[0].public == {"seat": 0, "direction": 1, "phase": "turn"}
    assert match.view(1, 0).to_data()["direction"] == 1
    assert match.to_act() == 0


def test_a_reverse_with_three_players_sends_direction_and_flips_the_view() -> None:
    match = rig(hands=[["RR", "G5", "G6"], ["G1", "Y2"], ["B1", "B2"]], top="R5")
    events = ok(match.apply(0, Play(card("RR")), 0))
    assert kinds(events) == ["played", "direction", "turn"]
    assert of_kind(events, "direction")[0].public == {"direction": -1}
    assert match.view(1, 0).to_data()["direction"] == -1
    assert match.to_act() == 2


def test_a_two_player_reverse_turned_up_first_skips_and_keeps_the_direction() -> None:
    config = TableConfig(seats=2, turn_seconds=0)
    match = first_card_match(config, lambda first: first.rank is Rank.REVERSE)
    assert "direction" not in kinds(match.events)
    assert of_kind(match.events, "skipped")
    assert match.view(0, 0).to_data()["direction"] == 1
