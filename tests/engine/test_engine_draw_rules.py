"""The house rules ``draw_until_playable`` (ruling 34), ``force_play`` (ruling 35) and the
presets (ruling 36)."""

from __future__ import annotations

import pytest
from engine_rig import codes, kinds, of_kind, ok, rig

from protocol.cards import Card, Color
from protocol.commands import Draw, Pass, Play, Timeout
from protocol.options import PRESETS, ConfigError, DeckName, Stack, TableConfig, preset_options
from protocol.rejections import RejectCode
from server.engine import Rejected


def card(code: str) -> Card:
    return Card.parse(code)


def until(**options: object) -> TableConfig:
    return TableConfig(seats=3, turn_seconds=0, draw_until_playable=True, **options)  # type: ignore[arg-type]


# ---------------------------------------------------------------- ruling 34


def test_ruling_34_a_draw_goes_on_until_a_playable_card_comes_and_that_is_the_drawn_card() -> None:
    match = rig(until(), hands=[["G5", "G6"], ["Y1"], ["B1"]], top="R5", draw=["B2", "Y3", "R7"])
    events = ok(match.apply(0, Draw(), 0))
    assert [event.public["count"] for event in of_kind(events, "drew")] == [1, 1, 1]
    assert match.view(0, 0).to_data()["drawn"] == "R7" and match.to_act() == 0
    assert Play(card("R7")) in match.legal_commands(0) and Pass() in match.legal_commands(0)


def test_ruling_34_a_creeper_stops_the_draw_and_brings_its_extras() -> None:
    config = until(deck=DeckName.MINECRAFT)
    draw = ["B2", "WCREEP", "Y3", "Y4", "Y6"]
    match = rig(config, hands=[["G5", "G6"], ["Y1"], ["B1"]], top="R5", draw=draw)
    events = ok(match.apply(0, Draw(), 0))
    assert "creeper-revealed" in kinds(events)
    assert match.view(0, 0).to_data()["drawn"] == "WCREEP" and len(match.hand(0)) == 7


def test_ruling_34_a_barred_wild_draw_four_does_not_stop_the_draw() -> None:
    config = until(wd4_bluff=False)
    match = rig(config, hands=[["R1", "G6"], ["Y1"], ["B1"]], top="G5", draw=["W+4", "B3", "G7"])
    ok(match.apply(0, Draw(), 0))
    assert match.view(0, 0).to_data()["drawn"] == "G7" and len(match.hand(0)) == 5


def test_ruling_34_with_both_piles_empty_the_draw_stops_and_the_turn_passes() -> None:
    match = rig(
        until(), hands=[["G5"], ["Y1"], ["B1"]], top="R5", draw=["B2", "Y3"], rest="nowhere"
    )
    events = ok(match.apply(0, Draw(), 0))
    assert len(of_kind(events, "drew")) == 2
    assert of_kind(events, "passed")[0].public == {"seat": 0, "stuck": False}
    assert match.to_act() == 1


def test_ruling_34_on_a_turn_expiry_the_server_draws_the_same_way_then_passes() -> None:
    config = TableConfig(seats=3, turn_seconds=10, draw_until_playable=True)
    match = rig(config, hands=[["G5"], ["Y1"], ["B1"]], top="R5", draw=["B2", "R7"])
    events = ok(match.apply(None, Timeout(), 10_000))
    assert len(of_kind(events, "drew")) == 2 and "played" not in kinds(events)
    assert match.to_act() == 1 and len(match.hand(0)) == 3


# ---------------------------------------------------------------- ruling 35


def forcing(**options: object) -> TableConfig:
    return TableConfig(seats=3, turn_seconds=0, force_play=True, **options)  # type: ignore[arg-type]


def test_ruling_35_a_playable_drawn_card_must_be_played() -> None:
    match = rig(forcing(), hands=[["G5", "G6"], ["Y1"], ["B1"]], top="R5", draw=["R7"])
    ok(match.apply(0, Draw(), 0))
    assert match.legal_commands(0) == [Play(card("R7"))]
    refused = match.apply(0, Pass(), 0)
    assert isinstance(refused, Rejected) and refused.code is RejectCode.CANNOT_PASS


def test_ruling_35_drawing_instead_of_playing_stays_allowed() -> None:
    match = rig(forcing(), hands=[["R6", "G6"], ["Y1"], ["B1"]], top="R5", draw=["B7"])
    assert Draw() in match.legal_commands(0)
    ok(match.apply(0, Draw(), 0))
    assert match.to_act() == 1  # the drawn B7 cannot be played: the turn is over


def test_ruling_35_a_wild_draw_four_is_forced_only_when_it_is_legal() -> None:
    config = forcing(wd4_bluff=False)
    match = rig(config, hands=[["R6", "G6"], ["Y1"], ["B1"]], top="R5", draw=["W+4"])
    ok(match.apply(0, Draw(), 0))
    assert match.legal_commands(0) == [Pass()]


def test_ruling_35_on_expiry_the_server_plays_the_drawn_card_with_ruling_17s_choices() -> None:
    config = TableConfig(seats=3, turn_seconds=10, force_play=True)
    match = rig(config, hands=[["G5", "G6", "B1"], ["Y1"], ["B2"]], top="R5", draw=["W"])
    events = ok(match.apply(None, Timeout(), 10_000))
    played = of_kind(events, "played")[0].public
    assert played["card"] == "W" and played["color"] == Color.GREEN.value
    assert match.to_act() == 1 and codes(match.hand(0)) == ["G5", "G6", "B1"]


def test_ruling_35_with_draw_until_playable_the_forced_card_ends_the_search() -> None:
    config = TableConfig(seats=3, turn_seconds=10, force_play=True, draw_until_playable=True)
    match = rig(config, hands=[["G5"], ["Y1"], ["B2"]], top="R5", draw=["B3", "R9"])
    events = ok(match.apply(None, Timeout(), 10_000))
    assert of_kind(events, "played")[0].public["card"] == "R9"
    assert codes(match.hand(0)) == ["G5", "B3"]


# ---------------------------------------------------------------- ruling 36: presets


def test_ruling_36_party_sets_seven_o_and_progressive_stacking_and_keeps_the_rest() -> None:
    options = preset_options("party", {"seats": 6, "force_play": True, "stack_draw_two": True})
    config = TableConfig.from_data(options)
    assert config.seven_o and config.stack is Stack.PROGRESSIVE and not config.force_play
    assert config.seats == 6 and "preset" not in options


def test_ruling_36_family_stacks_draw_twos_and_draws_until_playable() -> None:
    config = TableConfig.from_data(preset_options("family", {"seven_o": True}))
    assert config.stack is Stack.DRAW_TWO and config.draw_until_playable
    assert not config.seven_o and not config.skip_any


def test_ruling_36_official_is_the_seeds_rules() -> None:
    started = TableConfig(seven_o=True, stack=Stack.DRAW_FOUR, skip_any=True, seats=5)
    config = TableConfig.from_data(preset_options("official", started.to_data()))
    assert config == TableConfig(seats=5)
    assert set(PRESETS) == {"official", "party", "family"}


def test_ruling_36_an_unknown_preset_is_refused_and_no_preset_travels() -> None:
    with pytest.raises(ConfigError, match="preset"):
        preset_options("chaos")
    with pytest.raises(ConfigError, match="unknown table option"):
        TableConfig.from_data({"preset": "party"})
