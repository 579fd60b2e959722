"""The house rules ``seven_o`` (ruling 32) and ``stack`` (rulings 22 and 33)."""

from __future__ import annotations

import pytest
from engine_rig import codes, first_card_match, kinds, of_kind, ok, rig

from protocol.cards import Card, Color, Rank
from protocol.commands import Accept, CallUno, Challenge, Draw, Play, Timeout
from protocol.options import ConfigError, DeckName, Stack, TableConfig
from protocol.rejections import RejectCode
from server.engine import Match, Phase, Rejected


def card(code: str) -> Card:
    return Card.parse(code)


def seven_o(seats: int = 4, **options: object) -> TableConfig:
    return TableConfig(seats=seats, turn_seconds=0, seven_o=True, **options)  # type: ignore[arg-type]


# ---------------------------------------------------------------- ruling 32: seven_o


def test_ruling_32_a_seven_names_any_other_seat_and_the_two_swap_hands() -> None:
    match = rig(seven_o(), hands=[["R7", "G5", "G6"], ["Y1"], ["B1", "B2"], ["Y3"]], top="R5")
    refused = match.apply(0, Play(card("R7")), 0)
    assert isinstance(refused, Rejected) and refused.code is RejectCode.TARGET_REQUIRED
    events = ok(match.apply(0, Play(card("R7"), target=2), 0))
    swapped = of_kind(events, "hands-swapped")[0]
    assert swapped.public == {"seat": 0, "target": 2, "counts": [2, 1, 2, 1]}
    # docs/protocol.md section 13: the play itself names the seat too (``played.target``).
    assert of_kind(events, "played")[0].public["target"] == 2
    assert codes(match.hand(0)) == ["B1", "B2"] and codes(match.hand(2)) == ["G5", "G6"]
    assert match.to_act() == 1


def test_ruling_32_a_seven_may_name_a_partner_under_teams() -> None:
    config = seven_o(scoring="teams")
    match = rig(config, hands=[["R7", "G5"], ["Y1"], ["B1", "B2"], ["Y3"]], top="R5")
    assert Play(card("R7"), target=2) in match.legal_commands(0)


def test_ruling_32_a_zero_passes_every_hand_on_in_the_direction_of_play() -> None:
    hands = [["R0", "G5"], ["Y1"], ["B1", "B2"], ["Y3", "Y4", "Y5"]]
    match = rig(seven_o(), hands=hands, top="R5", direction=-1)
    events = ok(match.apply(0, Play(card("R0")), 0))
    passed = of_kind(events, "hands-passed")[0]
    assert passed.public["direction"] == -1
    # Going right: seat 0 gives to 3, 3 to 2, 2 to 1, 1 to 0.
    assert [codes(match.hand(s)) for s in range(4)] == [["Y1"], ["B1", "B2"], hands[3], ["G5"]]
    assert passed.private[3].to_data() == {"hand": ["G5"]}
    assert match.to_act() == 3


def test_ruling_32_a_zero_between_two_players_is_an_exchange() -> None:
    match = rig(seven_o(2), hands=[["R0", "G5", "G6"], ["Y1"]], top="R5")
    ok(match.apply(0, Play(card("R0")), 0))
    assert codes(match.hand(0)) == ["Y1"] and codes(match.hand(1)) == ["G5", "G6"]


def test_ruling_32_a_seven_or_zero_as_the_last_card_just_ends_the_round() -> None:
    match = rig(seven_o(), hands=[["R7"], ["Y1"], ["B1", "B2"], ["Y3"]], top="R5")
    assert Play(card("R7")) in match.legal_commands(0)
    events = ok(match.apply(0, Play(card("R7")), 0))
    assert "hands-swapped" not in kinds(events)
    assert of_kind(events, "round-over")[0].public["winner"] == 0


def test_ruling_32_a_one_card_hand_received_needs_no_uno_call() -> None:
    match = rig(seven_o(), hands=[["R7", "G5"], ["Y1"], ["B1", "B2"], ["Y3"]], top="R5")
    events = ok(match.apply(0, Play(card("R7"), target=1), 0))
    assert "exposed" not in kinds(events)
    assert codes(match.hand(0)) == ["Y1"] and codes(match.hand(1)) == ["G5"]
    assert match.legal_commands(2) == [] or all(
        not isinstance(command, Play) for command in match.legal_commands(2)
    )


def test_ruling_32_a_seven_or_zero_turned_up_first_does_nothing() -> None:
    match = first_card_match(seven_o(), lambda first: first.rank in (Rank.SEVEN, Rank.ZERO))
    assert not of_kind(match.events, "hands-swapped") and not of_kind(match.events, "hands-passed")
    assert match.phase is Phase.TURN


def test_ruling_32_without_seven_o_a_seven_is_a_plain_number() -> None:
    config = TableConfig(seats=4, turn_seconds=0)
    match = rig(config, hands=[["R7", "G5"], ["Y1"], ["B1", "B2"], ["Y3"]], top="R5")
    assert match.legal_commands(0)[0] == Play(card("R7"))
    ok(match.apply(0, Play(card("R7")), 0))
    assert codes(match.hand(0)) == ["G5"]


# ---------------------------------------------------------------- ruling 33: stack


def stack(kind: Stack, seats: int = 3, **options: object) -> TableConfig:
    return TableConfig(seats=seats, turn_seconds=0, stack=kind, **options)  # type: ignore[arg-type]


def test_ruling_33_stack_draw_two_is_the_old_name_of_stack_draw_two() -> None:
    assert TableConfig(stack_draw_two=True) == TableConfig(stack=Stack.DRAW_TWO)
    assert TableConfig(stack=Stack.PROGRESSIVE).stack_draw_two
    assert not TableConfig(stack=Stack.DRAW_FOUR).stack_draw_two
    assert TableConfig.from_data({"stack_draw_two": True}).stack is Stack.DRAW_TWO
    assert TableConfig.from_data({"stack_draw_two": True, "stack": "progressive"}).stack_draw_two
    with pytest.raises(ConfigError, match="disagree"):
        TableConfig.from_data({"stack_draw_two": True, "stack": "draw-four"})


def test_ruling_33_under_draw_four_a_draw_two_does_not_stack() -> None:
    hands = [["R+2", "G5", "G6"], ["G+2", "Y1"], ["B1", "B2"]]
    match = rig(stack(Stack.DRAW_FOUR), hands=hands, top="R5")
    ok(match.apply(0, Play(card("R+2")), 0))
    assert len(match.hand(1)) == 4 and match.to_act() == 2


def test_ruling_33_the_victim_of_a_wild_draw_four_may_challenge_accept_or_stack() -> None:
    hands = [["W+4", "G5", "G6"], ["W+4", "Y1", "Y2"], ["B1", "B2"]]
    match = rig(stack(Stack.DRAW_FOUR), hands=hands, top="R5")
    ok(match.apply(0, Play(card("W+4"), Color.BLUE), 0))
    assert match.phase is Phase.CHALLENGE and match.view(1, 0).to_data()["pending_draw"] == 4
    legal = match.legal_commands(1)
    assert legal[:2] == [Accept(), Challenge()]
    assert Play(card("W+4"), Color.RED) in legal
    ok(match.apply(1, Play(card("W+4"), Color.GREEN), 0))
    # Onto a stack: no challenge, only a Wild Draw Four answers, on the turn clock.
    assert match.phase is Phase.STACK and match.to_act() == 2
    assert match.legal_commands(2) == [Draw()]
    events = ok(match.apply(2, Draw(), 0))
    assert of_kind(events, "drew")[0].public == {"seat": 2, "count": 8, "reason": "wild-draw-four"}
    assert match.to_act() == 0


def test_ruling_33_progressive_a_wild_draw_four_onto_a_draw_two_needs_no_colour_test() -> None:
    config = stack(Stack.PROGRESSIVE, wd4_bluff=False)
    hands = [["R+2", "G5", "G6"], ["W+4", "R1", "G+2"], ["G+2", "B2"]]
    match = rig(config, hands=hands, top="R5")
    ok(match.apply(0, Play(card("R+2")), 0))
    # Seat 1 holds red (the colour in force): still legal onto a stack, even unbluffable.
    ok(match.apply(1, Play(card("W+4"), Color.YELLOW), 0))
    assert match.phase is Phase.STACK and match.to_act() == 2
    refused = match.apply(2, Play(card("G+2")), 0)
    assert isinstance(refused, Rejected) and refused.code is RejectCode.MUST_ANSWER_DRAW_TWO
    events = ok(match.apply(2, Draw(), 0))
    assert of_kind(events, "drew")[0].public["count"] == 6


def test_ruling_33_with_bluffing_off_a_wild_draw_four_opens_the_stack_on_the_turn_clock() -> None:
    config = TableConfig(seats=3, turn_seconds=30, stack=Stack.DRAW_FOUR, wd4_bluff=False)
    match = rig(config, hands=[["W+4", "G5", "G6"], ["Y1", "Y2"], ["B1", "B2"]], top="R5")
    ok(match.apply(0, Play(card("W+4"), Color.BLUE), 1_000))
    assert match.phase is Phase.STACK and match.deadline_ms() == 31_000
    assert match.legal_commands(1) == [Draw()]


def test_ruling_33_expiry_of_the_decision_takes_the_total() -> None:
    config = TableConfig(seats=3, turn_seconds=0, stack=Stack.PROGRESSIVE, decision_seconds=5)
    match = rig(config, hands=[["W+4", "G5", "G6"], ["Y1", "Y2"], ["B1", "B2"]], top="R5")
    ok(match.apply(0, Play(card("W+4"), Color.BLUE), 0))
    events = ok(match.apply(None, Timeout(), 5_000))
    assert of_kind(events, "drew")[0].public["count"] == 4
    assert match.view(None, 5_000).to_data()["pending_draw"] == 0 and match.to_act() == 2


def test_ruling_33_a_challenge_of_a_stack_opening_wild_draw_four_is_as_before() -> None:
    hands = [["W+4", "R1", "G5"], ["W+4", "Y1", "Y2"], ["B1", "B2"]]
    match = rig(stack(Stack.DRAW_FOUR), hands=hands, top="R5")
    ok(match.apply(0, Play(card("W+4"), Color.BLUE), 0))
    events = ok(match.apply(1, Challenge(), 0))
    assert of_kind(events, "challenged")[0].public["guilty"]
    assert len(match.hand(0)) == 6 and match.to_act() == 1
    assert match.view(None, 0).to_data()["pending_draw"] == 0


def test_ruling_33_a_last_card_onto_a_stack_passes_the_total_on() -> None:
    hands = [["W+4", "G5"], ["W+4"], ["B1", "B2"]]
    match = rig(stack(Stack.DRAW_FOUR), hands=hands, top="R5")
    ok(match.apply(0, Play(card("W+4"), Color.BLUE), 0))
    events = ok(match.apply(1, Play(card("W+4"), Color.RED), 0))
    assert of_kind(events, "drew")[0].public["count"] == 8
    assert of_kind(events, "round-over")[0].public["winner"] == 1


def test_ruling_33_a_player_holding_two_may_call_uno_before_answering_a_stack() -> None:
    hands = [["W+4", "G5", "G6"], ["W+4", "Y1"], ["B1", "B2"]]
    match = rig(stack(Stack.PROGRESSIVE), hands=hands, top="R5")
    ok(match.apply(0, Play(card("W+4"), Color.BLUE), 0))
    assert CallUno() in match.legal_commands(1)
    ok(match.apply(1, CallUno(), 0))
    events = ok(match.apply(1, Play(card("W+4"), Color.YELLOW), 0))
    assert "exposed" not in kinds(events)


def test_ruling_33_a_first_card_never_starts_a_stack() -> None:
    config = stack(Stack.PROGRESSIVE, seats=4)
    match = first_card_match(config, lambda first: first.rank is Rank.DRAW_TWO)
    assert match.phase is Phase.TURN
    assert of_kind(match.events, "drew")[-1].public["count"] == 2


def test_ruling_33_stacking_replays_from_seed_and_log() -> None:
    config = TableConfig(deck=DeckName.MINECRAFT, seats=3, stack=Stack.PROGRESSIVE)
    match = Match(config, 7)
    for _ in range(400):
        seat = match.to_act()
        if seat is None:
            break
        ok(match.apply(seat, match.legal_commands(seat)[0], 0))
    replayed = Match.replay(config, 7, match.log)
    assert replayed.state_digest() == match.state_digest()
