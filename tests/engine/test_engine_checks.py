"""The legality oracle: the cheap queries, the legal lists and the checks of ``apply`` agree,
and an ``Accepted`` built on demand is the same value as one built at once."""

from __future__ import annotations

import random

import pytest

from protocol.cards import Card, Color, Rank
from protocol.commands import DANCES, Draw, NextRound, Play, Timeout
from protocol.options import DeckName, TableConfig
from server.engine import Accepted, EventKind, Match, Phase, Rejected


def well_formed_play(match: Match, seat: int, card: Card) -> Play:
    """A play of ``card`` naming what the card needs (ruling 9, 11, 16): a colour for a
    wild, a seat for a Swap Hands that is not the last card or a Skip under ``skip_any``,
    a dance for a Dancing Wild."""
    hand = match.hand(seat)
    wants_target = (card.rank is Rank.SWAP_HANDS and len(hand) > 1) or (
        card.rank is Rank.SKIP and match.config.skip_any
    )
    target = next(other for other in range(match.config.seats) if other != seat)
    return Play(
        card,
        color=Color.GREEN if card.color is None else None,
        target=target if wants_target else None,
        dance=DANCES[0] if card.rank is Rank.DANCE else None,
    )


def positions(deck: DeckName, seed: int, count: int) -> list[Match]:
    """``count`` positions of a match played at random from the engine's own lists."""
    rng = random.Random(seed)
    config = TableConfig(
        deck=deck, seats=3, skip_any=seed % 2 == 0, wd4_bluff=seed % 3 != 0, stack_draw_two=True
    )
    match = Match(config, seed)
    found: list[Match] = []
    now = 0
    while len(found) < count and not match.is_over:
        now += 500
        seat = match.to_act()
        if seat is None:
            match.apply(None, NextRound(), now)
            continue
        if match.phase in (Phase.TURN, Phase.STACK):
            found.append(Match.restore(match.snapshot()))
        legal = match.legal_commands(seat)
        outcome = match.apply(seat, rng.choice(legal), now) if legal else None
        if outcome is None:
            match.apply(None, Timeout(), match.deadline_ms() or now)
    return found


@pytest.mark.parametrize("deck", list(DeckName))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_playable_cards_and_may_draw_agree_with_what_apply_accepts(
    deck: DeckName, seed: int
) -> None:
    probed = 0
    for match in positions(deck, seed, 40):
        seat = match.to_act()
        assert seat is not None
        snapshot = match.snapshot()
        playable = match.playable_cards(seat)
        listed = {command.card for command in match.legal_commands(seat) if type(command) is Play}
        assert set(playable) == listed
        for card in dict.fromkeys(match.hand(seat)):
            outcome = Match.restore(snapshot).apply(seat, well_formed_play(match, seat, card), 0)
            assert isinstance(outcome, Accepted) == (card in playable), (card, outcome)
            probed += 1
        drew = Match.restore(snapshot).apply(seat, Draw(), 0)
        assert isinstance(drew, Accepted) == match.may_draw(seat), drew
        assert match.snapshot() == snapshot  # the queries changed nothing
    assert probed > 100


def test_an_accepted_outcome_holds_the_events_of_its_command() -> None:
    match = Match(TableConfig(seats=2, turn_seconds=0), 5)
    before = len(match.events)
    seat = match.to_act()
    assert seat is not None
    outcome = match.apply(seat, Draw(), 100)
    assert isinstance(outcome, Accepted)
    assert outcome.events == tuple(match.events[before:])
    assert outcome.events[0].kind is EventKind.DREW
    assert outcome == Accepted(tuple(match.events[before:]))
    assert outcome != Accepted()
    assert repr(outcome).startswith("Accepted(events=(Event(")


def test_a_rejected_outcome_is_a_value_with_a_code_and_a_sentence() -> None:
    match = Match(TableConfig(seats=2), 5)
    seat = match.to_act()
    assert seat is not None
    outcome = match.apply(1 - seat, Draw(), 0)
    assert isinstance(outcome, Rejected)
    assert outcome == Rejected(outcome.code, outcome.message)
    assert outcome.code.value == "not-your-turn"
