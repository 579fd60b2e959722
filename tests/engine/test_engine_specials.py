"""Draw Two stacking (7), Dancing Wild (9), Creeper (10), Swap / Shuffle / Customizable
(11) and the ``skip_any`` house rule (16)."""

from __future__ import annotations

from collections import Counter

from engine_rig import codes, kinds, of_kind, ok, rig

from protocol.cards import Card, Color
from protocol.commands import Arrow, Dance, Draw, Pass, Play, RefuseDance, Timeout
from protocol.options import CustomRule, DanceCheck, DeckName, TableConfig
from server.engine import Phase, RejectCode, Rejected


def card(code: str) -> Card:
    return Card.parse(code)


# ---------------------------------------------------------------- ruling 7


def test_ruling_7_without_stacking_a_draw_two_cannot_be_passed_on() -> None:
    match = rig(hands=[["R+2", "G5"], ["G+2", "Y1"], ["B1"]], top="R5")
    ok(match.apply(0, Play(card("R+2")), 0))
    assert len(match.hand(1)) == 4
    assert match.to_act() == 2


def test_ruling_7_stacking_passes_the_total_on_to_the_next_player() -> None:
    config = TableConfig(seats=3, turn_seconds=0, stack_draw_two=True)
    match = rig(config, hands=[["R+2", "G5", "G6"], ["G+2", "Y1", "Y2"], ["B1", "B2"]], top="R5")
    ok(match.apply(0, Play(card("R+2")), 0))
    assert match.phase is Phase.STACK
    assert match.to_act() == 1
    assert match.legal_commands(1) == [Play(card("G+2")), Draw()]
    refused = match.apply(1, Play(card("Y1")), 0)
    assert isinstance(refused, Rejected)
    assert refused.code is RejectCode.MUST_ANSWER_DRAW_TWO
    ok(match.apply(1, Play(card("G+2")), 0))
    assert match.to_act() == 2
    assert match.view(2, 0).to_data()["pending_draw"] == 4
    events = ok(match.apply(2, Draw(), 0))
    assert of_kind(events, "drew")[0].public["count"] == 4
    assert len(match.hand(2)) == 6
    assert match.to_act() == 0
    assert match.phase is Phase.TURN


# ---------------------------------------------------------------- ruling 9


def bts(dance_check: DanceCheck = DanceCheck.STEPS) -> TableConfig:
    return TableConfig(deck=DeckName.BTS, seats=3, turn_seconds=0, dance_check=dance_check)


def test_ruling_9_a_dancing_wild_shows_a_sequence_of_four_to_eight_steps_to_everyone() -> None:
    match = rig(bts(), hands=[["WDANCE", "G5"], ["Y1", "Y2"], ["B1"]], top="R5")
    refused = match.apply(0, Play(card("WDANCE"), color=Color.BLUE), 0)
    assert isinstance(refused, Rejected)
    assert refused.code is RejectCode.DANCE_REQUIRED
    events = ok(match.apply(0, Play(card("WDANCE"), color=Color.BLUE, dance="butter"), 0))
    called = of_kind(events, "dance-called")[0]
    assert called.public["seat"] == 1
    assert called.public["dance"] == "butter"
    assert 4 <= len(called.public["steps"]) <= 8
    assert called.for_seat(None)["steps"] == called.public["steps"]
    assert match.phase is Phase.DANCE
    assert match.view(2, 0).to_data()["dance"]["steps"] == called.public["steps"]


def test_ruling_9_the_right_steps_dance_and_then_the_dancer_takes_their_turn() -> None:
    match = rig(bts(), hands=[["WDANCE", "G5"], ["Y1", "Y2"], ["B1"]], top="R5")
    events = ok(match.apply(0, Play(card("WDANCE"), color=Color.YELLOW, dance="idol"), 0))
    steps = tuple(Arrow(step) for step in of_kind(events, "dance-called")[0].public["steps"])
    events = ok(match.apply(1, Dance(steps), 0))
    assert kinds(events) == ["danced", "turn"]
    assert len(match.hand(1)) == 2
    assert match.to_act() == 1
    assert match.phase is Phase.TURN


def test_ruling_9_wrong_steps_count_as_refusing_draw_three_then_the_dancer_plays() -> None:
    match = rig(bts(), hands=[["WDANCE", "G5"], ["Y1", "Y2"], ["B1"]], top="R5")
    events = ok(match.apply(0, Play(card("WDANCE"), color=Color.YELLOW, dance="idol"), 0))
    steps = of_kind(events, "dance-called")[0].public["steps"]
    wrong = tuple(Arrow.UP if step != "up" else Arrow.DOWN for step in steps)
    events = ok(match.apply(1, Dance(wrong), 0))
    assert of_kind(events, "dance-refused")[0].public["reason"] == "wrong-steps"
    assert len(match.hand(1)) == 5
    assert match.to_act() == 1


def test_ruling_9_refusing_draws_three() -> None:
    match = rig(bts(), hands=[["WDANCE", "G5"], ["Y1", "Y2"], ["B1"]], top="R5")
    ok(match.apply(0, Play(card("WDANCE"), color=Color.YELLOW, dance="fire"), 0))
    ok(match.apply(1, RefuseDance(), 0))
    assert len(match.hand(1)) == 5
    assert match.to_act() == 1


def test_ruling_9_running_out_of_dance_time_counts_as_refusing() -> None:
    config = TableConfig(deck=DeckName.BTS, seats=3, turn_seconds=0, dance_seconds=15)
    match = rig(config, hands=[["WDANCE", "G5"], ["Y1", "Y2"], ["B1"]], top="R5")
    ok(match.apply(0, Play(card("WDANCE"), color=Color.YELLOW, dance="dope"), 500))
    assert match.deadline_ms() == 15_500
    events = ok(match.apply(None, Timeout(), 15_500))
    assert of_kind(events, "dance-refused")[0].public["reason"] == "timeout"
    assert len(match.hand(1)) == 5


def test_ruling_9_honour_mode_asks_for_no_steps() -> None:
    match = rig(bts(DanceCheck.HONOUR), hands=[["WDANCE", "G5"], ["Y1"], ["B1"]], top="R5")
    events = ok(match.apply(0, Play(card("WDANCE"), color=Color.RED, dance="dynamite"), 0))
    assert of_kind(events, "dance-called")[0].public["steps"] is None
    assert Dance() in match.legal_commands(1)
    ok(match.apply(1, Dance(), 0))
    assert len(match.hand(1)) == 1
    assert match.to_act() == 1


# ---------------------------------------------------------------- ruling 10


def minecraft() -> TableConfig:
    return TableConfig(deck=DeckName.MINECRAFT, seats=3, turn_seconds=0)


def test_ruling_10_a_creeper_drawn_is_shown_and_its_owner_draws_three_more() -> None:
    match = rig(
        minecraft(),
        hands=[["G3", "G5"], ["Y1"], ["B1"]],
        top="R5",
        draw=["WCREEP", "B7", "WCREEP", "B9"],
    )
    events = ok(match.apply(0, Draw(), 0))
    assert kinds(events) == ["drew", "creeper-revealed", "drew"]
    assert events[1].public == {"seat": 0, "card": "WCREEP"}
    assert events[2].public == {"seat": 0, "count": 3, "reason": "creeper"}
    # The second Creeper came among the three: it is kept secret and does not trigger.
    assert events[2].for_seat(0)["cards"] == ["B7", "WCREEP", "B9"]
    assert "cards" not in events[2].for_seat(1)
    # The revealed Creeper is the drawn card and may be played.
    assert Play(card("WCREEP"), color=Color.RED) in match.legal_commands(0)
    ok(match.apply(0, Play(card("WCREEP"), color=Color.RED), 0))


def test_ruling_10_a_creeper_in_a_penalty_draw_also_triggers() -> None:
    match = rig(
        minecraft(),
        hands=[["R+2", "G5"], ["Y1"], ["B1"]],
        top="R5",
        draw=["G1", "WCREEP", "G2", "G3", "G4"],
    )
    events = ok(match.apply(0, Play(card("R+2")), 0))
    assert of_kind(events, "creeper-revealed")[0].public["seat"] == 1
    assert len(match.hand(1)) == 1 + 2 + 3


def test_ruling_10_no_creeper_triggers_outside_the_minecraft_deck() -> None:
    match = rig(hands=[["G3", "G5"], ["Y1"], ["B1"]], top="R5", draw=["W"])
    assert kinds(ok(match.apply(0, Draw(), 0))) == ["drew"]


# ---------------------------------------------------------------- ruling 11


def modern(deck: DeckName, rule: CustomRule = CustomRule.PLAIN) -> TableConfig:
    return TableConfig(deck=deck, seats=3, turn_seconds=0, custom_rule=rule)


def test_ruling_11_swap_hands_exchanges_hands_with_the_named_player() -> None:
    match = rig(
        modern(DeckName.MODERN_SWAP),
        hands=[["WSWAP", "G5", "G6"], ["Y1"], ["B1", "B2", "B3", "B4"]],
        top="R5",
    )
    refused = match.apply(0, Play(card("WSWAP"), color=Color.BLUE), 0)
    assert isinstance(refused, Rejected)
    assert refused.code is RejectCode.TARGET_REQUIRED
    events = ok(match.apply(0, Play(card("WSWAP"), color=Color.BLUE, target=2), 0))
    swapped = of_kind(events, "hands-swapped")[0]
    assert swapped.public["counts"] == [4, 1, 2]
    assert swapped.for_seat(0)["hand"] == ["B1", "B2", "B3", "B4"]
    assert swapped.for_seat(2)["hand"] == ["G5", "G6"]
    assert "hand" not in swapped.for_seat(1)
    assert codes(match.hand(2)) == ["G5", "G6"]
    assert match.to_act() == 1


def test_ruling_11_a_swap_as_the_last_card_just_ends_the_round() -> None:
    match = rig(modern(DeckName.MODERN_SWAP), hands=[["WSWAP"], ["Y1"], ["B1"]], top="R5")
    events = ok(match.apply(0, Play(card("WSWAP"), color=Color.BLUE), 0))
    assert "hands-swapped" not in kinds(events)
    assert of_kind(events, "round-over")[0].public["winner"] == 0


def test_ruling_11_a_last_swap_takes_no_target_as_the_legal_list_says() -> None:
    match = rig(modern(DeckName.MODERN_SWAP), hands=[["WSWAP"], ["Y1"], ["B1"]], top="R5")
    listed = [c for c in match.legal_commands(0) if isinstance(c, Play)]
    assert listed and all(c.target is None for c in listed)
    before = match.state_digest()
    refused = match.apply(0, Play(card("WSWAP"), color=Color.BLUE, target=1), 0)
    assert isinstance(refused, Rejected) and refused.code is RejectCode.INVALID_TARGET
    assert match.state_digest() == before


def test_ruling_11_shuffle_hands_deals_all_cards_from_the_players_left() -> None:
    match = rig(
        modern(DeckName.MODERN_SHUFFLE),
        hands=[["WSHUF", "G5", "G6"], ["Y1"], ["B1", "B2", "B3", "B4"]],
        top="R5",
    )
    gathered = Counter(codes(match.hand(1)) + codes(match.hand(2)) + ["G5", "G6"])
    events = ok(match.apply(0, Play(card("WSHUF"), color=Color.GREEN), 0))
    shuffled = of_kind(events, "hands-shuffled")[0]
    # 7 cards dealt one at a time starting left of seat 0: seat 1 gets 3, 2 gets 2, 0 gets 2.
    assert shuffled.public["counts"] == [2, 3, 2]
    after = Counter(code for seat in range(3) for code in codes(match.hand(seat)))
    assert after == gathered
    for seat in range(3):
        assert shuffled.for_seat(seat)["hand"] == codes(match.hand(seat))
    assert "hand" not in shuffled.for_seat(None)
    assert match.view(None, 0).to_data()["color"] == "G"
    assert match.to_act() == 1


def test_ruling_11_a_one_card_hand_from_a_shuffle_needs_no_uno_call() -> None:
    match = rig(modern(DeckName.MODERN_SHUFFLE), hands=[["WSHUF", "G5"], ["Y1"], ["B1"]], top="R5")
    events = ok(match.apply(0, Play(card("WSHUF"), color=Color.GREEN), 0))
    assert "exposed" not in kinds(events)
    assert match.view(None, 0).to_data()["exposed"] == []


def test_ruling_11_customizable_plain_is_a_wild() -> None:
    match = rig(modern(DeckName.MODERN_SWAP), hands=[["WCUST", "G5"], ["Y1"], ["B1"]], top="R5")
    events = ok(match.apply(0, Play(card("WCUST"), color=Color.GREEN), 0))
    assert kinds(events) == ["played", "exposed", "turn"]
    assert match.to_act() == 1


def test_ruling_11_customizable_everyone_else_draws_two() -> None:
    config = modern(DeckName.MODERN_SWAP, CustomRule.OTHERS_DRAW_TWO)
    match = rig(config, hands=[["WCUST", "G5", "G6"], ["Y1"], ["B1"]], top="R5")
    events = ok(match.apply(0, Play(card("WCUST"), color=Color.GREEN), 0))
    assert [event.public["seat"] for event in of_kind(events, "drew")] == [1, 2]
    assert [len(match.hand(seat)) for seat in range(3)] == [2, 3, 3]
    assert match.to_act() == 1


def test_ruling_11_customizable_extra_turn() -> None:
    config = modern(DeckName.MODERN_SHUFFLE, CustomRule.EXTRA_TURN)
    match = rig(config, hands=[["WCUST", "G5", "G6"], ["Y1"], ["B1"]], top="R5")
    ok(match.apply(0, Play(card("WCUST"), color=Color.GREEN), 0))
    assert match.to_act() == 0


# ---------------------------------------------------------------- ruling 16


def skip_any() -> TableConfig:
    return TableConfig(seats=4, turn_seconds=0, skip_any=True)


def test_ruling_16_skip_any_names_an_opponent_who_draws_one_when_their_turn_comes() -> None:
    match = rig(
        skip_any(),
        hands=[["RS", "G5", "G6"], ["R1", "Y2", "Y3"], ["R2", "B2"], ["R3", "B3"]],
        top="R5",
        draw=["Y9"],
    )
    refused = match.apply(0, Play(card("RS")), 0)
    assert isinstance(refused, Rejected)
    assert refused.code is RejectCode.TARGET_REQUIRED
    events = ok(match.apply(0, Play(card("RS"), target=2), 0))
    assert of_kind(events, "skip-marked")[0].public == {"seat": 0, "target": 2}
    assert match.to_act() == 1  # play goes on to the next player as usual
    events = ok(match.apply(1, Play(card("R1")), 0))
    assert kinds(events) == ["played", "skip-served", "drew", "turn"]
    assert codes(match.hand(2)) == ["R2", "B2", "Y9"]
    assert match.to_act() == 3


def test_ruling_16_skip_any_rejects_naming_yourself() -> None:
    match = rig(skip_any(), hands=[["RS", "G5", "G6"], ["R1"], ["R2"], ["R3"]], top="R5")
    refused = match.apply(0, Play(card("RS"), target=0), 0)
    assert isinstance(refused, Rejected)
    assert refused.code is RejectCode.INVALID_TARGET
    targets = [c.target for c in match.legal_commands(0) if isinstance(c, Play)]
    assert sorted(t for t in targets if t is not None) == [1, 2, 3]


def test_pass_is_legal_only_after_drawing_or_when_nothing_can_be_played_or_drawn() -> None:
    match = rig(hands=[["G3"], ["Y1"]], top="R5", rest="1")
    assert match.legal_commands(0) == [Pass()]
