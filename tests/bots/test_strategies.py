"""The strategies on hand-made views: each test names the decision it proves."""

from __future__ import annotations

import random

import pytest
from typed_views import play, view, wild_variants

from client.bots.memory import RoundMemory
from client.bots.strategies import (
    CHALLENGE_THRESHOLD,
    Knobs,
    UnknownStrategyError,
    choose,
    guilt_probability,
)
from protocol.cards import Card
from protocol.commands import (
    Accept,
    Arrow,
    CallUno,
    Catch,
    Challenge,
    Dance,
    Draw,
    Pass,
    Play,
    RefuseDance,
    SeatCommand,
)
from protocol.events import Challenged, RoundStarted
from protocol.phase import Phase


def test_nothing_legal_means_nothing_to_do() -> None:
    assert choose(view(["R1"], "B", []), random.Random(0)) is None


def test_unknown_strategy_is_refused_by_name() -> None:
    with pytest.raises(UnknownStrategyError, match="clever"):
        choose(view(["R1"], "R", [play("R1")]), random.Random(0), "clever")


def test_basic_matches_colour_before_number() -> None:
    legal = [play("B7"), play("R3"), Draw()]
    chosen = choose(view(["B7", "R3", "G1"], "R", legal, top="R7"), random.Random(0))
    assert chosen == play("R3")


def test_basic_sheds_the_costliest_card_of_the_colour() -> None:
    legal = [play("R3"), play("RS"), play("R9"), Draw()]
    assert choose(view(["R3", "RS", "R9"], "R", legal), random.Random(0)) == play("RS")


def test_basic_holds_wilds_while_a_coloured_card_plays() -> None:
    legal = [*wild_variants("W"), play("Y5"), Draw()]
    for seed in range(20):
        chosen = choose(view(["W", "Y5", "G2"], "G", legal, top="G5"), random.Random(seed))
        assert chosen == play("Y5")


def test_basic_names_the_colour_it_holds_most() -> None:
    legal = [*wild_variants("W"), Draw()]
    chosen = choose(view(["W", "B1", "B2", "Y4"], "R", legal), random.Random(0))
    assert chosen == play("W", color="B")


def test_basic_plays_an_honest_draw_four_before_bluffing() -> None:
    legal = [*wild_variants("W+4"), *wild_variants("W"), Draw()]
    # Holding a red card under red: the Wild Draw Four would be a bluff, so the Wild goes.
    chosen = choose(view(["W+4", "W", "R1"], "R", legal), random.Random(0))
    assert isinstance(chosen, Play) and chosen.card == Card.parse("W")


def test_basic_declares_uno_with_the_play() -> None:
    legal = [play("R3"), play("R3", uno=True), CallUno(), Draw()]
    assert choose(view(["R3", "G1"], "R", legal), random.Random(0)) == play("R3", uno=True)


def test_forgetful_bot_never_declares() -> None:
    legal = [play("R3"), play("R3", uno=True), CallUno()]
    knobs = Knobs(forget_uno=1.0)
    for seed in range(20):
        chosen = choose(view(["R3", "G1"], "R", legal), random.Random(seed), knobs=knobs)
        assert chosen == play("R3")


def test_forgetful_bot_stays_silent_when_exposed() -> None:
    legal = [CallUno()]
    assert choose(view(["G1"], "R", legal), random.Random(0), knobs=Knobs(forget_uno=1.0)) is None


def test_basic_calls_uno_late_when_exposed() -> None:
    assert choose(view(["G1"], "R", [CallUno()]), random.Random(0)) == CallUno()


def test_basic_catches_the_exposed_seat_first() -> None:
    legal = [Catch(target=2), play("R1"), Draw()]
    chosen = choose(view(["R1"], "R", legal), random.Random(0))
    assert chosen == Catch(target=2)


def test_catch_knob_off_leaves_exposed_seats_alone() -> None:
    legal = [Catch(target=2)]
    assert choose(view(["R1"], "R", legal), random.Random(0), knobs=Knobs(catch=False)) is None


def test_random_strategy_never_catches_with_catch_off() -> None:
    legal = [Catch(target=2), Draw()]
    knobs = Knobs(catch=False)
    for seed in range(20):
        assert choose(view([], "R", legal), random.Random(seed), "random", knobs) == Draw()


def test_random_strategy_reaches_every_legal_command() -> None:
    legal = [play("R1"), play("R2"), Draw()]
    seen = {str(choose(view([], "R", legal), random.Random(seed), "random")) for seed in range(60)}
    assert seen == {str(command) for command in legal}


def test_guilt_grows_with_the_hand_it_came_from() -> None:
    assert guilt_probability(1) < CHALLENGE_THRESHOLD < guilt_probability(5)
    assert guilt_probability(0) == 0.0


def answer(knobs: Knobs | None, cards_left: int) -> SeatCommand | None:
    legal = [Challenge(), Accept()]
    v = view(["R1"], "G", legal, counts=[1, 7, cards_left, 7], to_act=3, phase=Phase.CHALLENGE)
    return choose(v, random.Random(0), knobs=knobs)


def test_basic_challenges_a_draw_four_from_a_big_hand() -> None:
    assert answer(None, 8) == Challenge()


def test_basic_accepts_a_draw_four_from_a_single_card() -> None:
    assert answer(None, 1) == Accept()


def test_hard_believes_a_draw_four_unless_its_player_was_caught_bluffing() -> None:
    # Seat 2 played it and holds 8 cards: normal challenges. Every hand is far from out,
    # so hard does not search: only its reading of the seat decides.
    legal = [Challenge(), Accept()]
    v = view(["R1"] * 7, "G", legal, counts=[7, 7, 8, 7], to_act=3, seat=3, phase=Phase.CHALLENGE)
    hard = Knobs(playouts=4)
    assert choose(v, random.Random(0)) == Challenge()
    memory = RoundMemory()
    assert choose(v, random.Random(0), "hard", hard, memory) == Accept()
    # An honest card shown by someone else's challenge changes nothing.
    memory.observe(Challenged(seat=0, target=2, guilty=False))
    assert choose(v, random.Random(0), "hard", hard, memory) == Accept()
    # Once seen caught bluffing, in this round or an earlier one, seat 2 is challenged.
    memory.observe(Challenged(seat=0, target=2, guilty=True))
    memory.observe(RoundStarted(round=2, dealer=0, counts=(7, 7, 7, 7)))
    assert memory.bluffers == {2}
    assert choose(v, random.Random(0), "hard", hard, memory) == Challenge()


def test_challenge_knobs_override_the_odds() -> None:
    assert answer(Knobs(challenge="always"), 1) == Challenge()
    assert answer(Knobs(challenge="never"), 8) == Accept()


def test_dance_correctly_sends_the_listed_steps() -> None:
    steps = (Arrow.UP, Arrow.LEFT, Arrow.DOWN, Arrow.DOWN)
    legal = [Dance(steps=steps), RefuseDance()]
    assert choose(view([], "R", legal), random.Random(0)) == Dance(steps=steps)


def test_dance_wrong_sends_another_sequence_of_the_same_length() -> None:
    steps = (Arrow.UP, Arrow.LEFT, Arrow.DOWN, Arrow.DOWN)
    legal = [Dance(steps=steps), RefuseDance()]
    chosen = choose(view([], "R", legal), random.Random(0), knobs=Knobs(dance="wrong"))
    assert isinstance(chosen, Dance)
    assert len(chosen.steps) == 4 and chosen.steps != steps


def test_dance_refuse_draws_instead() -> None:
    legal = [Dance(steps=(Arrow.UP,) * 4), RefuseDance()]
    chosen = choose(view([], "R", legal), random.Random(0), knobs=Knobs(dance="refuse"))
    assert chosen == RefuseDance()


def test_swap_hands_goes_to_the_smallest_hand() -> None:
    legal = [play("WSWAP", color=c, target=t) for c in "RYGB" for t in (1, 2, 3)]
    v = view(["WSWAP", "G1", "G2", "G3", "R4"], "B", legal, counts=[5, 6, 2, 9])
    assert choose(v, random.Random(0)) == play("WSWAP", color="G", target=2)


def test_basic_plays_the_drawn_card_or_passes() -> None:
    assert choose(view(["R1"], "R", [play("R1"), Pass()]), random.Random(0)) == play("R1")
    assert choose(view(["G1"], "R", [Pass()]), random.Random(0)) == Pass()


def test_challenge_odds_look_at_the_seat_before_in_play_order() -> None:
    legal = [Challenge(), Accept()]
    # Play goes right (-1): the victim 1 follows seat 2, which holds many cards.
    v = view(["R1"], "G", legal, counts=[1, 7, 8, 7], to_act=1, direction=-1, seat=1)
    assert choose(v, random.Random(0)) == Challenge()
    v = view(["R1"], "G", legal, counts=[1, 7, 1, 7], to_act=1, direction=-1, seat=1)
    assert choose(v, random.Random(0)) == Accept()


def test_knobs_refuse_nonsense() -> None:
    with pytest.raises(ValueError, match="challenge"):
        Knobs(challenge="sometimes")
    with pytest.raises(ValueError, match="think_ms"):
        Knobs(think_ms=(5, 1))
    with pytest.raises(ValueError, match="forget_uno"):
        Knobs(forget_uno=2.0)


def test_a_table_bot_forgets_uno_now_and_then() -> None:
    from client.bots.strategies import table_knobs

    legal = [play("R3"), play("R3", uno=True), CallUno(), Draw()]
    rng = random.Random(7)
    knobs = table_knobs("basic")
    plays = [choose(view(["R3", "G1"], "R", legal), rng, "basic", knobs) for _ in range(400)]
    forgotten = plays.count(play("R3"))
    assert plays.count(play("R3", uno=True)) + forgotten == 400
    assert 40 <= forgotten <= 120  # about one in five


@pytest.mark.parametrize(("seat", "direction", "expected"), [(0, 1, 2), (0, -1, 3), (2, 1, 3)])
def test_a_seven_names_the_fewest_cards_ties_to_the_next_in_turn_order(
    seat: int, direction: int, expected: int
) -> None:
    """Ruling 32, as an away seat's stand-in plays it: whatever its random source says."""
    others = [t for t in range(4) if t != seat]
    legal = [play("R7", target=t) for t in others]
    counts = [3, 3, 3, 3]
    counts[1] = 8  # seat 1 holds the most; the others tie on 3
    if seat == 2:
        counts = [3, 9, 4, 3]  # from seat 2 clockwise: 3 (3 cards), then 0 (3 cards)
    hand = ["R7", "G1", "B2", "Y3"][: counts[seat]]
    v = view(hand, "R", legal, counts=counts, seat=seat, to_act=seat, direction=direction)
    for rng_seed in range(20):
        assert choose(v, random.Random(rng_seed)) == play("R7", target=expected), rng_seed
