"""The strategies on hand-made views: each test names the decision it proves."""

from __future__ import annotations

import random
from typing import Any

import pytest

from client.bots.strategies import (
    CHALLENGE_THRESHOLD,
    Knobs,
    UnknownStrategyError,
    choose,
    guilt_probability,
)


def play(card: str, **extra: Any) -> dict[str, Any]:
    return {"type": "play", "card": card, **extra}


def wild_variants(card: str, **extra: Any) -> list[dict[str, Any]]:
    return [play(card, color=colour, **extra) for colour in "RYGB"]


def view(hand: list[str], colour: str, legal: list[Any], **extra: Any) -> dict[str, Any]:
    return {"seat": 0, "hand": hand, "color": colour, "legal": legal, **extra}


def test_nothing_legal_means_nothing_to_do() -> None:
    assert choose(view(["R1"], "B", []), random.Random(0)) is None


def test_unknown_strategy_is_refused_by_name() -> None:
    with pytest.raises(UnknownStrategyError, match="clever"):
        choose(view(["R1"], "R", [play("R1")]), random.Random(0), "clever")


def test_basic_matches_colour_before_number() -> None:
    legal = [play("B7"), play("R3"), {"type": "draw"}]
    chosen = choose(view(["B7", "R3", "G1"], "R", legal, top="R7"), random.Random(0))
    assert chosen == play("R3")


def test_basic_sheds_the_costliest_card_of_the_colour() -> None:
    legal = [play("R3"), play("RS"), play("R9"), {"type": "draw"}]
    assert choose(view(["R3", "RS", "R9"], "R", legal), random.Random(0)) == play("RS")


def test_basic_holds_wilds_while_a_coloured_card_plays() -> None:
    legal = [*wild_variants("W"), play("Y5"), {"type": "draw"}]
    for seed in range(20):
        chosen = choose(view(["W", "Y5", "G2"], "G", legal, top="G5"), random.Random(seed))
        assert chosen == play("Y5")


def test_basic_names_the_colour_it_holds_most() -> None:
    legal = [*wild_variants("W"), {"type": "draw"}]
    chosen = choose(view(["W", "B1", "B2", "Y4"], "R", legal), random.Random(0))
    assert chosen == play("W", color="B")


def test_basic_plays_an_honest_draw_four_before_bluffing() -> None:
    legal = [*wild_variants("W+4"), *wild_variants("W"), {"type": "draw"}]
    # Holding a red card under red: the Wild Draw Four would be a bluff, so the Wild goes.
    chosen = choose(view(["W+4", "W", "R1"], "R", legal), random.Random(0))
    assert chosen is not None and chosen["card"] == "W"


def test_basic_declares_uno_with_the_play() -> None:
    legal = [play("R3"), play("R3", uno=True), {"type": "call-uno"}, {"type": "draw"}]
    assert choose(view(["R3", "G1"], "R", legal), random.Random(0)) == play("R3", uno=True)


def test_forgetful_bot_never_declares() -> None:
    legal = [play("R3"), play("R3", uno=True), {"type": "call-uno"}]
    knobs = Knobs(forget_uno=1.0)
    for seed in range(20):
        chosen = choose(view(["R3", "G1"], "R", legal), random.Random(seed), knobs=knobs)
        assert chosen == play("R3")


def test_forgetful_bot_stays_silent_when_exposed() -> None:
    legal = [{"type": "call-uno"}]
    assert choose(view(["G1"], "R", legal), random.Random(0), knobs=Knobs(forget_uno=1.0)) is None


def test_basic_calls_uno_late_when_exposed() -> None:
    assert choose(view(["G1"], "R", [{"type": "call-uno"}]), random.Random(0)) == {
        "type": "call-uno"
    }


def test_basic_catches_the_exposed_seat_first() -> None:
    legal = [{"type": "catch", "target": 2}, play("R1"), {"type": "draw"}]
    chosen = choose(view(["R1"], "R", legal), random.Random(0))
    assert chosen == {"type": "catch", "target": 2}


def test_catch_knob_off_leaves_exposed_seats_alone() -> None:
    legal = [{"type": "catch", "target": 2}]
    assert choose(view(["R1"], "R", legal), random.Random(0), knobs=Knobs(catch=False)) is None


def test_random_strategy_never_catches_with_catch_off() -> None:
    legal = [{"type": "catch", "target": 2}, {"type": "draw"}]
    knobs = Knobs(catch=False)
    for seed in range(20):
        assert choose(view([], "R", legal), random.Random(seed), "random", knobs) == {
            "type": "draw"
        }


def test_random_strategy_reaches_every_legal_command() -> None:
    legal = [play("R1"), play("R2"), {"type": "draw"}]
    seen = {str(choose(view([], "R", legal), random.Random(seed), "random")) for seed in range(60)}
    assert seen == {str(command) for command in legal}


def test_guilt_grows_with_the_hand_it_came_from() -> None:
    assert guilt_probability(1) < CHALLENGE_THRESHOLD < guilt_probability(5)
    assert guilt_probability(0) == 0.0


def answer(knobs: Knobs | None, cards_left: int) -> dict[str, Any] | None:
    legal = [{"type": "challenge"}, {"type": "accept"}]
    v = view(["R1"], "G", legal, counts=[1, 7, cards_left, 7], to_act=3, direction=1)
    return choose(v, random.Random(0), knobs=knobs)


def test_basic_challenges_a_draw_four_from_a_big_hand() -> None:
    assert answer(None, 8) == {"type": "challenge"}


def test_basic_accepts_a_draw_four_from_a_single_card() -> None:
    assert answer(None, 1) == {"type": "accept"}


def test_challenge_knobs_override_the_odds() -> None:
    assert answer(Knobs(challenge="always"), 1) == {"type": "challenge"}
    assert answer(Knobs(challenge="never"), 8) == {"type": "accept"}


def test_dance_correctly_sends_the_listed_steps() -> None:
    steps = ["up", "left", "down", "down"]
    legal = [{"type": "dance", "steps": steps}, {"type": "refuse-dance"}]
    assert choose(view([], "R", legal), random.Random(0)) == {"type": "dance", "steps": steps}


def test_dance_wrong_sends_another_sequence_of_the_same_length() -> None:
    steps = ["up", "left", "down", "down"]
    legal = [{"type": "dance", "steps": steps}, {"type": "refuse-dance"}]
    chosen = choose(view([], "R", legal), random.Random(0), knobs=Knobs(dance="wrong"))
    assert chosen is not None and chosen["type"] == "dance"
    assert len(chosen["steps"]) == 4 and chosen["steps"] != steps


def test_dance_refuse_draws_instead() -> None:
    legal = [{"type": "dance", "steps": ["up"] * 4}, {"type": "refuse-dance"}]
    chosen = choose(view([], "R", legal), random.Random(0), knobs=Knobs(dance="refuse"))
    assert chosen == {"type": "refuse-dance"}


def test_swap_hands_goes_to_the_smallest_hand() -> None:
    legal = [play("WSWAP", color=c, target=t) for c in "RYGB" for t in (1, 2, 3)]
    v = view(["WSWAP", "G1", "G2", "G3", "R4"], "B", legal, counts=[5, 6, 2, 9])
    assert choose(v, random.Random(0)) == play("WSWAP", color="G", target=2)


def test_basic_plays_the_drawn_card_or_passes() -> None:
    assert choose(view(["R1"], "R", [play("R1"), {"type": "pass"}]), random.Random(0)) == play("R1")
    assert choose(view(["G1"], "R", [{"type": "pass"}]), random.Random(0)) == {"type": "pass"}


def test_challenge_odds_look_at_the_seat_before_in_play_order() -> None:
    legal = [{"type": "challenge"}, {"type": "accept"}]
    # Play goes right (-1): the victim 1 follows seat 2, which holds many cards.
    v = view(["R1"], "G", legal, counts=[1, 7, 8, 7], to_act=1, direction=-1)
    assert choose(v, random.Random(0)) == {"type": "challenge"}
    v = view(["R1"], "G", legal, counts=[1, 7, 1, 7], to_act=1, direction=-1)
    assert choose(v, random.Random(0)) == {"type": "accept"}


def test_knobs_refuse_nonsense() -> None:
    with pytest.raises(ValueError, match="challenge"):
        Knobs(challenge="sometimes")
    with pytest.raises(ValueError, match="think_ms"):
        Knobs(think_ms=(5, 1))
    with pytest.raises(ValueError, match="forget_uno"):
        Knobs(forget_uno=2.0)


def test_a_table_bot_forgets_uno_now_and_then() -> None:
    from client.bots.strategies import table_knobs

    legal = [play("R3"), play("R3", uno=True), {"type": "call-uno"}, {"type": "draw"}]
    rng = random.Random(7)
    knobs = table_knobs("basic")
    plays = [choose(view(["R3", "G1"], "R", legal), rng, "basic", knobs) for _ in range(400)]
    forgotten = plays.count(play("R3"))
    assert plays.count(play("R3", uno=True)) + forgotten == 400
    assert 40 <= forgotten <= 120  # about one in five
