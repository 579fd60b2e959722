"""Rulings 1-4: decks, points, the dealer, the deal and the first card turned up."""

from __future__ import annotations

from collections import Counter

import pytest
from engine_rig import codes, first_card_match, kinds, of_kind, ok

import protocol
import server.engine
from protocol.cards import Card, Color, Rank, card_points, hand_points
from protocol.commands import ChooseColor, NextRound, Play
from protocol.options import DeckName, TableConfig
from server.engine import Match, Phase, RejectCode, Rejected, build_deck


@pytest.mark.parametrize(
    ("deck", "custom", "size", "extra"),
    [
        (DeckName.CLASSIC, 3, 108, {}),
        (DeckName.MODERN_SWAP, 3, 112, {Rank.SWAP_HANDS: 1, Rank.CUSTOM: 3}),
        (DeckName.MODERN_SWAP, 1, 110, {Rank.SWAP_HANDS: 1, Rank.CUSTOM: 1}),
        (DeckName.MODERN_SHUFFLE, 2, 111, {Rank.SHUFFLE_HANDS: 1, Rank.CUSTOM: 2}),
        (DeckName.BTS, 3, 112, {Rank.DANCE: 4}),
        (DeckName.MINECRAFT, 3, 112, {Rank.CREEPER: 4}),
    ],
)
def test_ruling_1_each_deck_holds_the_classic_cards_plus_its_own(
    deck: DeckName, custom: int, size: int, extra: dict[Rank, int]
) -> None:
    cards = build_deck(TableConfig(deck=deck, custom_wilds=custom))
    assert len(cards) == size
    ranks = Counter(card.rank for card in cards)
    assert ranks[Rank.ZERO] == 4
    assert ranks[Rank.SEVEN] == 8
    assert ranks[Rank.DRAW_TWO] == 8
    assert ranks[Rank.WILD] == 4
    assert ranks[Rank.WILD_DRAW_FOUR] == 4
    for rank, count in extra.items():
        assert ranks[rank] == count


def test_ruling_2_points_numbers_face_actions_20_wilds_50_modern_wilds_40() -> None:
    points = {code: card_points(Card.parse(code)) for code in ("R7", "B0", "GS", "YR", "R+2")}
    assert points == {"R7": 7, "B0": 0, "GS": 20, "YR": 20, "R+2": 20}
    for code in ("W", "W+4", "WDANCE", "WCREEP"):
        assert card_points(Card.parse(code)) == 50
    for code in ("WSWAP", "WSHUF", "WCUST"):
        assert card_points(Card.parse(code)) == 40
    assert hand_points([Card.parse(code) for code in ("R7", "GS", "W", "WSWAP")]) == 117
    assert hand_points([]) == 0


def test_points_and_phase_are_the_protocol_s_and_the_engine_re_exports_them() -> None:
    # The client reads these facts from ``protocol``; the server from ``server.engine``.
    assert server.engine.card_points is protocol.card_points
    assert server.engine.hand_points is protocol.hand_points
    assert Phase is protocol.Phase
    assert [phase.value for phase in Phase] == [
        "turn",
        "choose-color",
        "challenge",
        "dance",
        "stack",
        "round-over",
        "match-over",
        "paused",
    ]
    match = Match(TableConfig(seats=3), 1)
    assert Phase(match.view(0, 0).to_data()["phase"]) is match.phase


def test_ruling_3_the_highest_number_deals_symbols_count_zero_ties_redraw() -> None:
    saw_tie = False
    for seed in range(150):
        match = Match(TableConfig(seats=4), seed)
        chosen = match.events[0]
        assert chosen.kind.value == "dealer-chosen"
        draws = chosen.public["draws"]
        for earlier in draws[:-1]:
            values = [Card.parse(code).rank.number or 0 for _, code in earlier]
            assert values.count(max(values)) > 1, "a redraw happened without a tie"
        saw_tie = saw_tie or len(draws) > 1
        last = {seat: Card.parse(code).rank.number or 0 for seat, code in draws[-1]}
        best = max(last.values())
        assert [seat for seat, value in last.items() if value == best] == [chosen.public["dealer"]]
        if len(draws) > 1:  # only the tied seats draw again
            before = _values(draws[-2])
            tied = {seat for seat, value in before.items() if value == max(before.values())}
            assert {seat for seat, _ in draws[-1]} == tied
        assert match.dealer == chosen.public["dealer"]
    assert saw_tie


def _values(draw: list[list[object]]) -> dict[int, int]:
    return {int(str(seat)): Card.parse(str(code)).rank.number or 0 for seat, code in draw}


def test_the_deal_gives_each_seat_hand_size_cards_and_the_player_left_of_dealer_starts() -> None:
    for seed in range(40):
        match = Match(TableConfig(seats=3, hand_size=5, turn_seconds=0), seed)
        started = of_kind(match.events, "round-started")[0]
        assert started.public["counts"] == [5, 5, 5]
        for seat in range(3):
            dealt = started.for_seat(seat)["hand"]
            assert codes(match.hand(seat))[:5] == dealt  # a first Draw Two adds at the end
        assert "hand" not in started.for_seat(None)
        first = Card.parse(of_kind(match.events, "first-card")[0].public["card"])
        if first.rank.number is not None:
            assert match.to_act() == (match.dealer + 1) % 3
            assert match.phase is Phase.TURN
        assert match.cards_accounted_for()


def test_ruling_3_each_later_round_the_deal_passes_to_the_left() -> None:
    match = Match(TableConfig(seats=3, turn_seconds=0, target_score=10_000), 7)
    dealer = match.dealer
    _finish_round(match)
    ok(match.apply(None, NextRound(), 0))
    assert match.dealer == (dealer + 1) % 3
    assert match.round_no == 2


def _finish_round(match: Match) -> None:
    """Play the first legal command until the round ends (deterministic)."""
    for _ in range(5000):
        seat = match.to_act()
        if seat is None:
            return
        ok(match.apply(seat, match.legal_commands(seat)[0], 0))
    raise AssertionError("round did not end")


def test_ruling_4_first_card_skip_skips_the_first_player() -> None:
    match = first_card_match(TableConfig(seats=4, turn_seconds=0), lambda c: c.rank is Rank.SKIP)
    assert of_kind(match.events, "skipped")[0].public["seat"] == (match.dealer + 1) % 4
    assert match.to_act() == (match.dealer + 2) % 4


def test_ruling_4_first_card_reverse_dealer_starts_and_play_goes_right() -> None:
    match = first_card_match(TableConfig(seats=4, turn_seconds=0), lambda c: c.rank is Rank.REVERSE)
    assert match.to_act() == match.dealer
    assert match.direction == -1


def test_ruling_4_first_card_draw_two_first_player_draws_two_and_is_skipped() -> None:
    match = first_card_match(
        TableConfig(seats=4, turn_seconds=0), lambda c: c.rank is Rank.DRAW_TWO
    )
    first = (match.dealer + 1) % 4
    assert len(match.hand(first)) == 9
    assert match.to_act() == (match.dealer + 2) % 4


def test_ruling_4_first_card_wild_draw_four_goes_back_and_another_is_turned() -> None:
    for seed in range(5000):
        match = Match(TableConfig(seats=4, turn_seconds=0), seed)
        if of_kind(match.events, "first-card-returned"):
            break
    else:
        raise AssertionError("no seed turned up a Wild Draw Four")
    assert match.top_card().rank is not Rank.WILD_DRAW_FOUR
    assert kinds(match.events).index("first-card-returned") < kinds(match.events).index(
        "first-card"
    )
    assert match.cards_accounted_for()


@pytest.mark.parametrize("deck", [DeckName.CLASSIC, DeckName.BTS, DeckName.MINECRAFT])
def test_ruling_4_first_card_wild_the_first_player_chooses_the_colour_then_plays(
    deck: DeckName,
) -> None:
    match = first_card_match(
        TableConfig(deck=deck, seats=3, turn_seconds=0),
        lambda c: c.is_wild and c.rank is not Rank.WILD_DRAW_FOUR,
    )
    first = (match.dealer + 1) % 3
    assert match.phase is Phase.CHOOSE_COLOR
    assert match.to_act() == first
    rejected = match.apply(first, Play(match.hand(first)[0]), 0)
    assert isinstance(rejected, Rejected)
    assert rejected.code is RejectCode.NOT_NOW
    events = ok(match.apply(first, ChooseColor(Color.GREEN), 0))
    assert kinds(events)[:2] == ["color-chosen", "turn"]
    assert match.phase is Phase.TURN
    assert match.to_act() == first
    assert match.view(None, 0).to_data()["color"] == "G"
    assert not of_kind(match.events, "dance-called")


def test_ruling_4_first_card_swap_hands_the_first_player_names_colour_and_seat() -> None:
    match = first_card_match(
        TableConfig(deck=DeckName.MODERN_SWAP, seats=3, turn_seconds=0),
        lambda c: c.rank is Rank.SWAP_HANDS,
    )
    first = (match.dealer + 1) % 3
    other = (first + 1) % 3
    red = Color.RED
    rejected = match.apply(first, ChooseColor(red), 0)
    assert isinstance(rejected, Rejected)
    assert rejected.code is RejectCode.TARGET_REQUIRED
    mine, theirs = match.hand(first), match.hand(other)
    events = ok(match.apply(first, ChooseColor(red, target=other), 0))
    assert "hands-swapped" in kinds(events)
    assert match.hand(first) == theirs
    assert match.hand(other) == mine
    assert match.to_act() == first
