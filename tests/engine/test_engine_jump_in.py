"""The house rule ``jump_in`` (ruling 37): an identical card played out of turn."""

from __future__ import annotations

from engine_rig import codes, kinds, of_kind, ok, rig

from protocol.cards import Card, Color
from protocol.commands import CallUno, Catch, Draw, Pass, Play
from protocol.options import Stack, TableConfig
from protocol.rejections import RejectCode
from server.engine import Accepted, Match, Phase, Rejected


def card(code: str) -> Card:
    return Card.parse(code)


def jump_in(seats: int = 4, **options: object) -> TableConfig:
    options.setdefault("turn_seconds", 0)
    return TableConfig(seats=seats, jump_in=True, **options)  # type: ignore[arg-type]


def refused(outcome: Accepted | Rejected, code: RejectCode) -> None:
    assert isinstance(outcome, Rejected), outcome
    assert outcome.code is code, outcome


def played_top(config: TableConfig, hands: list[list[str]], top: str, **fields: object) -> Match:
    """Seat 1 to act, the top card played by someone (seat 0 by default)."""
    options = {"current": 1, "top_played": True, **fields}
    return rig(config, hands=hands, top=top, **options)  # type: ignore[arg-type]


HANDS = [["R1", "G2"], ["R8", "Y1", "Y2"], ["R6", "B1"], ["R5", "B7", "B8"]]


def test_ruling_37_an_identical_card_is_played_out_of_turn_and_play_goes_on_from_the_jumper() -> (
    None
):
    match = played_top(jump_in(), HANDS, "R5")
    assert match.legal_commands(3) == [Play(card("R5"))]
    assert match.legal_commands(2) == [] and match.playable_cards(3) == [card("R5")]
    events = ok(match.apply(3, Play(card("R5")), 0))
    assert kinds(events)[:2] == ["jumped-in", "played"]
    assert events[0].public == {"seat": 3, "overtaken": 1}
    assert match.to_act() == 0 and codes(match.hand(3)) == ["B7", "B8"]


def test_ruling_37_without_jump_in_a_play_out_of_turn_is_not_your_turn() -> None:
    match = played_top(TableConfig(seats=4, turn_seconds=0), HANDS, "R5")
    assert match.legal_commands(3) == []
    refused(match.apply(3, Play(card("R5")), 0), RejectCode.NOT_YOUR_TURN)


def test_ruling_37_the_player_of_the_top_card_may_jump_in_on_it() -> None:
    hands = [["R5", "R5", "G2"], ["Y8", "Y1"], ["B6", "B1"], ["B7", "B8"]]
    match = rig(jump_in(), hands=hands, top="R3")
    ok(match.apply(0, Play(card("R5")), 0))
    assert match.to_act() == 1 and Play(card("R5")) in match.legal_commands(0)
    ok(match.apply(0, Play(card("R5")), 0))
    assert match.to_act() == 1 and codes(match.hand(0)) == ["G2"]


def test_ruling_37_never_a_wild_and_never_a_card_of_another_colour_or_rank() -> None:
    hands = [["G1", "G2"], ["R8", "Y1"], ["W", "B1"], ["G5", "R4", "B8"]]
    match = played_top(jump_in(), hands, "W", color="R")
    assert match.legal_commands(2) == []
    refused(match.apply(2, Play(card("W"), Color.RED), 0), RejectCode.NOT_YOUR_TURN)
    match = played_top(jump_in(), hands, "R5")
    refused(match.apply(3, Play(card("G5")), 0), RejectCode.CARD_DOES_NOT_MATCH)
    refused(match.apply(3, Play(card("R4")), 0), RejectCode.CARD_DOES_NOT_MATCH)


def test_ruling_37_not_on_a_first_card_turned_up() -> None:
    match = played_top(jump_in(), HANDS, "R5", top_played=False)
    assert match.legal_commands(3) == []
    refused(match.apply(3, Play(card("R5")), 0), RejectCode.NOT_YOUR_TURN)


def test_ruling_37_not_while_a_wild_draw_four_decision_waits() -> None:
    hands = [["W+4", "G2", "G3"], ["Y8", "Y1"], ["B6", "B1"], ["B7", "B8"]]
    match = rig(jump_in(), hands=hands, top="R3")
    ok(match.apply(0, Play(card("W+4"), Color.BLUE), 0))
    assert match.phase is Phase.CHALLENGE
    assert all(not isinstance(c, Play) for seat in (0, 2, 3) for c in match.legal_commands(seat))


def test_ruling_37_with_stacking_a_jump_in_on_a_draw_two_comes_after_the_stack_and_starts_one() -> (
    None
):
    hands = [["R+2", "G2", "G3"], ["Y8", "Y1"], ["B6", "B1"], ["R+2", "B7", "B8"]]
    match = rig(jump_in(stack=Stack.PROGRESSIVE), hands=hands, top="R3")
    ok(match.apply(0, Play(card("R+2")), 0))
    assert match.phase is Phase.STACK and match.legal_commands(3) == []
    refused(match.apply(3, Play(card("R+2")), 0), RejectCode.NOT_YOUR_TURN)
    ok(match.apply(1, Draw(), 0))  # seat 1 takes the stack; seat 2 to act
    assert match.to_act() == 2 and Play(card("R+2")) in match.legal_commands(3)
    ok(match.apply(3, Play(card("R+2")), 0))
    assert match.phase is Phase.STACK and match.to_act() == 0
    assert match.view(None, 0).to_data()["pending_draw"] == 2


def test_ruling_37_without_stacking_a_jump_in_draw_two_hits_the_seat_after_the_jumper() -> None:
    hands = [["G1", "G2"], ["R8", "Y1"], ["B6", "B1"], ["R+2", "B7", "B8"]]
    match = played_top(jump_in(), hands, "R+2")
    ok(match.apply(3, Play(card("R+2")), 0))
    assert len(match.hand(0)) == 4 and match.to_act() == 1


def test_ruling_37_the_jump_in_s_effect_applies_from_the_jumper() -> None:
    hands = [["G1", "G2"], ["R8", "Y1"], ["B6", "B1"], ["RS", "B7", "B8"]]
    match = played_top(jump_in(), hands, "RS")
    events = ok(match.apply(3, Play(card("RS")), 0))
    assert of_kind(events, "skipped")[0].public == {"seat": 0}
    assert match.to_act() == 1


def test_ruling_37_seats_passed_over_serve_no_skip_any_mark_and_no_clock_expiry() -> None:
    config = jump_in(skip_any=True, turn_seconds=30)
    match = played_top(config, HANDS, "R5", skip_marks=[0, 0, 1, 0], expiries=[0, 2, 0, 0])
    events = ok(match.apply(3, Play(card("R5")), 1_000))
    assert "skip-served" not in kinds(events)
    snapshot = match.snapshot(with_history=False)
    assert snapshot["skip_marks"] == [0, 0, 1, 0] and snapshot["expiries"] == [0, 2, 0, 0]
    assert match.away == [False] * 4 and match.deadline_ms() == 31_000


def test_ruling_37_it_cancels_the_overtaken_seat_s_drawn_card() -> None:
    match = played_top(jump_in(), HANDS, "R5", draw=["R9"])
    ok(match.apply(1, Draw(), 0))
    assert match.view(1, 0).to_data()["drawn"] is not None and match.to_act() == 1
    ok(match.apply(3, Play(card("R5")), 0))
    snapshot = match.snapshot(with_history=False)
    assert snapshot["drawn"] is None and not snapshot["has_drawn"]


def test_ruling_37_it_cancels_the_overtaken_seat_s_early_uno_call() -> None:
    hands = [["G1", "G2"], ["R8", "Y1"], ["R6", "B1"], ["R5", "B7"]]
    match = played_top(jump_in(), hands, "R5")
    ok(match.apply(1, CallUno(), 0))
    events = ok(match.apply(3, Play(card("R5")), 0))
    # The early call was seat 1's: seat 3, left with one card and no call, is exposed.
    assert of_kind(events, "exposed")[0].public == {"seat": 3}
    assert not match.snapshot(with_history=False)["early_uno"]


def test_ruling_37_the_jumper_declares_uno_with_the_jump_in_never_before_it() -> None:
    hands = [["G1", "G2"], ["R8", "Y1"], ["R6", "B1"], ["R5", "B7"]]
    match = played_top(jump_in(), hands, "R5")
    assert Play(card("R5"), uno=True) in match.legal_commands(3)
    assert CallUno() not in match.legal_commands(3)
    refused(match.apply(3, CallUno(), 0), RejectCode.NOT_NOW)
    events = ok(match.apply(3, Play(card("R5"), uno=True), 0))
    assert "exposed" not in kinds(events) and "uno-called" in kinds(events)


def test_ruling_37_a_jump_in_counts_as_the_first_command_of_the_seat_to_act_for_a_catch() -> None:
    hands = [["R7", "G2"], ["R8", "Y1"], ["B6", "B1"], ["R7", "B7", "B8"]]
    config = jump_in(catch_grace_ms=1500)
    match = rig(config, hands=hands, top="R3")
    ok(match.apply(0, Play(card("R7")), 0))  # seat 0 is left with one card, uncalled
    assert Catch(0) in match.legal_commands(2)
    ok(match.apply(3, Play(card("R7")), 100))  # the jump-in comes while the window is open
    assert Catch(0) not in match.legal_commands(2)
    # The window closes at the later of the jump-in and the grace.
    refused(match.apply(2, Catch(0), 1_600), RejectCode.CATCH_TOO_LATE)
    ok(match.apply(2, Catch(0), 1_400))


def test_ruling_37_going_out_by_a_jump_in_ends_the_round() -> None:
    hands = [["G1", "G2"], ["R8", "Y1"], ["R6", "B1"], ["R+2"]]
    match = played_top(jump_in(), hands, "R+2")
    events = ok(match.apply(3, Play(card("R+2")), 0))
    assert of_kind(events, "round-over")[0].public["winner"] == 3
    # Ruling 13: the last Draw Two still makes the seat after the jumper draw.
    assert of_kind(events, "drew")[0].public == {"seat": 0, "count": 2, "reason": "draw-two"}


def test_ruling_37_a_jump_in_resets_the_blocked_round_cycle() -> None:
    match = played_top(jump_in(), HANDS, "R5", stuck_passes=2)
    ok(match.apply(3, Play(card("R5")), 0))
    assert match.snapshot(with_history=False)["stuck_passes"] == 0


def test_ruling_37_the_overtaken_seat_s_move_lost_the_race() -> None:
    match = played_top(jump_in(), HANDS, "R5")
    ok(match.apply(3, Play(card("R5")), 0))
    refused(match.apply(1, Play(card("R8")), 0), RejectCode.LOST_RACE)
    refused(match.apply(1, Draw(), 0), RejectCode.LOST_RACE)
    refused(match.apply(1, Pass(), 0), RejectCode.LOST_RACE)
    # Anyone else out of turn is told as before.
    refused(match.apply(2, Draw(), 0), RejectCode.NOT_YOUR_TURN)
    # Once the next turn starts, the race is long over.
    ok(match.apply(0, Play(card("R1")), 0))
    ok(match.apply(1, Play(card("R8")), 0))


def test_ruling_37_a_jump_in_matching_the_top_of_the_last_view_sent_lost_the_race() -> None:
    match = played_top(jump_in(), HANDS, "R5")
    for seat in range(4):
        match.saw(seat)
    ok(match.apply(1, Play(card("R8")), 0))  # arrives first; seat 3 saw R5 on top
    refused(match.apply(3, Play(card("R5")), 0), RejectCode.LOST_RACE)
    # A card that matched nothing in the view is refused as not matching.
    refused(match.apply(3, Play(card("B8")), 0), RejectCode.CARD_DOES_NOT_MATCH)
    # Once seat 3 has been sent the view with R8 on top, its R5 simply does not match.
    match.saw(3)
    refused(match.apply(3, Play(card("R5")), 0), RejectCode.CARD_DOES_NOT_MATCH)


def test_ruling_37_the_overtaken_seat_loses_the_race_only_until_it_is_shown_the_jump_in() -> None:
    match = played_top(jump_in(), HANDS, "R5")
    for seat in range(4):
        match.saw(seat)
    ok(match.apply(3, Play(card("R5")), 0))
    refused(match.apply(1, Play(card("R8")), 0), RejectCode.LOST_RACE)  # sent unaware
    match.saw(1)  # the view with the jump-in has been sent to seat 1
    refused(match.apply(1, Play(card("R8")), 0), RejectCode.NOT_YOUR_TURN)


def test_ruling_37_a_turn_handed_straight_back_starts_afresh_and_a_stale_move_lost_the_race() -> (
    None
):
    # Two players: seat 0 jumps in on seat 1's turn, and the turn passes on to seat 1.
    hands = [["R5", "G2", "G3"], ["Y8", "Y1", "Y2"]]
    match = played_top(jump_in(seats=2), hands, "R5", draw=["R9", "B4", "B5"])
    for seat in range(2):
        match.saw(seat)
    ok(match.apply(1, Draw(), 0))  # seat 1 drew R9 and means to pass, keeping it
    ok(match.apply(0, Play(card("R5")), 0))
    assert match.to_act() == 1 and match.phase is Phase.TURN
    # Its pass was meant for the old turn: the new one refuses it, so it lost the race.
    refused(match.apply(1, Pass(), 0), RejectCode.LOST_RACE)
    match.saw(1)
    refused(match.apply(1, Pass(), 0), RejectCode.CANNOT_PASS)  # told as any other turn
    ok(match.apply(1, Play(card("R9")), 0))  # what the new turn allows is its move


def test_ruling_37_out_of_turn_while_a_decision_waits_is_not_your_turn_or_a_lost_race() -> None:
    hands = [["W+4", "G2", "G3"], ["Y8", "Y1"], ["B6", "B1"], ["R5", "B7", "B8"]]
    match = rig(jump_in(), hands=hands, top="R5", top_played=True)
    for seat in range(4):
        match.saw(seat)
    ok(match.apply(0, Play(card("W+4"), color=Color.GREEN), 0))
    assert match.phase is Phase.CHALLENGE
    # Seat 3's R5 was identical to the top it was shown: it raced the Wild Draw Four.
    refused(match.apply(3, Play(card("R5")), 0), RejectCode.LOST_RACE)
    refused(match.apply(2, Play(card("B6")), 0), RejectCode.NOT_YOUR_TURN)
    match.saw(3)  # shown the decision: nothing may jump in now
    refused(match.apply(3, Play(card("R5")), 0), RejectCode.NOT_YOUR_TURN)


def test_ruling_37_while_jump_ins_are_open_a_card_that_is_not_identical_does_not_match() -> None:
    match = played_top(jump_in(), HANDS, "R5")
    refused(match.apply(2, Play(card("R6")), 0), RejectCode.CARD_DOES_NOT_MATCH)
    refused(match.apply(2, Draw(), 0), RejectCode.NOT_YOUR_TURN)
