"""Going out (13), empty piles (14), the scoring modes (15) and between rounds (18)."""

from __future__ import annotations

import pytest
from engine_rig import kinds, of_kind, ok, rig

from protocol.cards import Card
from protocol.commands import Draw, NextRound, Pass, Play, Timeout
from protocol.options import DeckName, Scoring, TableConfig
from server.engine import Match, Phase, RejectCode, Rejected
from server.engine.deck import build_deck
from server.engine.scoring import score_round


def card(code: str) -> Card:
    return Card.parse(code)


def test_ruling_13_going_out_ends_the_round_and_the_winner_takes_the_others_points() -> None:
    match = rig(hands=[["R3"], ["Y1", "W"], ["B9", "GS"]], top="R5")
    events = ok(match.apply(0, Play(card("R3")), 0))
    over = of_kind(events, "round-over")[0]
    assert over.public["winner"] == 0
    assert over.public["reason"] == "out"
    assert over.public["hands"] == [[], ["Y1", "W"], ["B9", "GS"]]
    assert over.public["points"] == [0, 51, 29]
    assert over.public["scores"] == [80, 0, 0]
    assert match.scores == [80, 0, 0]
    assert match.phase is Phase.ROUND_OVER
    assert match.to_act() is None


def test_ruling_14_an_empty_draw_pile_is_rebuilt_from_the_discards_under_the_top() -> None:
    match = rig(hands=[["G3", "G4"], ["Y1"]], top="R5", rest="discard")
    assert match.view(None, 0).to_data()["draw_count"] == 0
    events = ok(match.apply(0, Draw(), 0))
    assert kinds(events)[:2] == ["reshuffled", "drew"]
    assert match.top_card() == card("R5")
    view = match.view(None, 0).to_data()
    assert view["discard_count"] == 1
    assert view["draw_count"] == events[0].public["count"] - 1
    assert match.cards_accounted_for()


def test_ruling_14_a_player_who_can_neither_play_nor_draw_passes() -> None:
    match = rig(hands=[["G3"], ["Y1", "B2"]], top="R5", rest="1")
    refused = match.apply(0, Draw(), 0)
    assert isinstance(refused, Rejected)
    assert refused.code is RejectCode.NOTHING_TO_DRAW
    events = ok(match.apply(0, Pass(), 0))
    assert events[0].public == {"seat": 0, "stuck": True}


def test_ruling_14_a_full_cycle_of_stuck_passes_ends_the_round_fewest_points_win() -> None:
    match = rig(hands=[["G3", "Y4"], ["B7"], ["Y9"]], top="R5", rest="nowhere")
    ok(match.apply(0, Pass(), 0))
    ok(match.apply(1, Pass(), 0))
    events = ok(match.apply(2, Pass(), 0))
    over = of_kind(events, "round-over")[0]
    assert over.public["reason"] == "blocked"
    # Seats 0 and 1 both hold 7 points; seat 1 holds fewer cards.
    assert over.public["winner"] == 1


def test_ruling_14_blocked_ties_go_to_the_first_in_turn_order_from_the_player_to_act() -> None:
    match = rig(hands=[["G3"], ["B3"], ["Y9"]], top="R5", rest="nowhere", current=1)
    ok(match.apply(1, Pass(), 0))
    ok(match.apply(2, Pass(), 0))
    events = ok(match.apply(0, Pass(), 0))
    # Seats 0 and 1 tie on points and cards; seat 1 would act next.
    assert of_kind(events, "round-over")[0].public["winner"] == 1


def test_ruling_15_standard_the_winner_takes_every_other_hand() -> None:
    outcome = score_round(
        Scoring.STANDARD,
        target=500,
        winner=1,
        points=[10, 0, 25],
        scores=[0, 0, 0],
        eliminated=[False] * 3,
    )
    assert outcome.gained == (0, 35, 0)
    assert outcome.winners is None


def test_ruling_15_standard_the_target_ends_the_match() -> None:
    outcome = score_round(
        Scoring.STANDARD,
        target=500,
        winner=1,
        points=[10, 0, 25],
        scores=[100, 480, 0],
        eliminated=[False] * 3,
    )
    assert outcome.winners == (1,)


def test_ruling_15_lowest_everyone_scores_their_own_hand_and_the_lowest_total_wins() -> None:
    outcome = score_round(
        Scoring.LOWEST,
        target=100,
        winner=0,
        points=[0, 60, 30],
        scores=[90, 50, 20],
        eliminated=[False] * 3,
    )
    assert outcome.gained == (0, 60, 30)
    assert outcome.winners == (2,)


def test_ruling_15_elimination_seats_at_the_target_are_out_and_the_last_one_wins() -> None:
    first = score_round(
        Scoring.ELIMINATION,
        target=100,
        winner=0,
        points=[0, 60, 30],
        scores=[10, 50, 20],
        eliminated=[False] * 3,
    )
    assert first.newly_eliminated == (1,)
    assert first.winners is None
    last = score_round(
        Scoring.ELIMINATION,
        target=100,
        winner=2,
        points=[90, 0, 0],
        scores=[10, 110, 50],
        eliminated=[False, True, False],
    )
    assert last.newly_eliminated == (0,)
    assert last.winners == (2,)


def test_ruling_15_teams_partners_opposite_take_the_other_teams_hands() -> None:
    outcome = score_round(
        Scoring.TEAMS,
        target=500,
        winner=1,
        points=[10, 0, 25, 7],
        scores=[0, 0, 0, 0],
        eliminated=[False] * 4,
    )
    # Seats 1 and 3 are partners; they take seats 0 and 2 (the partner's 7 does not count).
    assert outcome.gained == (0, 35, 0, 35)


def test_ruling_15_an_eliminated_seat_is_dealt_out_and_skipped() -> None:
    config = TableConfig(seats=3, turn_seconds=0, scoring=Scoring.ELIMINATION, target_score=50)
    match = rig(config, hands=[["R3"], ["Y1", "W"], ["B9", "GS"]], top="R5")
    events = ok(match.apply(0, Play(card("R3")), 0))
    assert of_kind(events, "round-over")[0].public["eliminated"] == [1]
    ok(match.apply(None, NextRound(), 0))
    assert match.hand(1) == ()
    assert match.view(None, 0).to_data()["eliminated"] == [1]
    refused = match.apply(1, Draw(), 0)
    assert isinstance(refused, Rejected)
    assert refused.code is RejectCode.ELIMINATED
    assert match.legal_commands(1) == []


def test_ruling_18_between_rounds_only_the_tables_next_round_is_legal() -> None:
    config = TableConfig(seats=3, turn_seconds=0, round_pause_seconds=10)
    match = rig(config, hands=[["R3"], ["Y1"], ["B9"]], top="R5")
    ok(match.apply(0, Play(card("R3")), 1_000))
    assert all(match.legal_commands(seat) == [] for seat in range(3))
    refused = match.apply(1, Draw(), 1_000)
    assert isinstance(refused, Rejected)
    assert refused.code is RejectCode.ROUND_OVER
    assert match.view(1, 1_000).to_data()["round_result"]["winner"] == 0
    assert match.deadline_ms() == 11_000
    events = ok(match.apply(None, Timeout(), 11_000))
    assert kinds(events)[0] == "round-started"
    assert match.round_no == 2
    assert match.cards_accounted_for()


def test_ruling_18_the_match_ends_at_the_target_and_then_nothing_is_legal() -> None:
    config = TableConfig(seats=2, turn_seconds=0, target_score=10)
    match = rig(config, hands=[["R3"], ["Y9", "B8"]], top="R5")
    events = ok(match.apply(0, Play(card("R3")), 0))
    assert kinds(events)[-1] == "match-over"
    assert events[-1].public == {"winners": [0], "scores": [17, 0]}
    assert match.is_over
    assert match.result is not None
    assert match.result.to_data() == {"winners": [0], "scores": [17, 0]}
    assert match.legal_table_commands() == []
    refused = match.apply(None, NextRound(), 0)
    assert isinstance(refused, Rejected)
    assert refused.code is RejectCode.MATCH_OVER


def test_a_whole_match_keeps_every_card_and_ends() -> None:
    match = Match(TableConfig(seats=4, turn_seconds=0, target_score=150), 3)
    for step in range(20_000):
        seat = match.to_act()
        if seat is None:
            if match.is_over:
                break
            ok(match.apply(None, NextRound(), 0))
            continue
        legal = match.legal_commands(seat)
        ok(match.apply(seat, legal[step % len(legal)], 0))
        assert match.card_count_total() == match.deck_size
    assert match.is_over
    assert max(match.scores) >= 150


@pytest.mark.parametrize("deck", list(DeckName))
def test_ruling_14_a_blocked_round_cannot_happen_with_the_documented_decks(deck: DeckName) -> None:
    """The argument docs/rules.md gives, checked: a blocked round needs a full cycle of
    seats that hold no playable card with both piles empty, so every card is in a hand
    or on top. Every deck holds at least eight wild cards, so some hand holds one, and a
    hand holding a wild always has a play (a Wild Draw Four barred by ``wd4_bluff`` off
    means the hand holds the colour in force, which plays)."""
    config = TableConfig(seats=2, turn_seconds=0, deck=deck)
    wilds = {card for card in build_deck(config) if card.color is None}
    assert sum(1 for card in build_deck(config) if card.color is None) >= 8
    for wild in wilds:
        for bluff in (True, False):
            table = TableConfig(seats=2, turn_seconds=0, deck=deck, wd4_bluff=bluff)
            for other in ("G3", "R9"):  # off the colour in force, then on it
                match = rig(table, hands=[[wild.code, other], ["B1", "B2"]], top="R5")
                assert match.playable_cards(0), (deck, wild, bluff, other)
