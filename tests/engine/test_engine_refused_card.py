"""A refused play names its card (protocol 1.3, ``rejected.card``): the engine's rejection
carries the card for the codes about it, so a client can say which one."""

from __future__ import annotations

from engine_rig import ok, rig

from protocol.cards import Card
from protocol.commands import Draw, Play
from protocol.rejections import RejectCode
from server.engine import Rejected


def _refusal(outcome: object) -> tuple[RejectCode, Card | None]:
    assert isinstance(outcome, Rejected), outcome
    return outcome.code, outcome.card


def test_a_card_not_held_and_a_card_that_does_not_match_are_named() -> None:
    match = rig(hands=[["G2", "B7"], ["Y1"]], top="R5", draw=["Y9"])
    r9, g2 = Card.parse("R9"), Card.parse("G2")
    assert _refusal(match.apply(0, Play(r9), 0)) == (RejectCode.CARD_NOT_IN_HAND, r9)
    assert _refusal(match.apply(0, Play(g2), 0)) == (RejectCode.CARD_DOES_NOT_MATCH, g2)


def test_after_drawing_another_card_is_named() -> None:
    match = rig(hands=[["R2", "B7"], ["Y1"]], top="R5", draw=["R9"])  # playable: the turn stays
    ok(match.apply(0, Draw(), 0))
    r2 = Card.parse("R2")
    assert _refusal(match.apply(0, Play(r2), 0)) == (RejectCode.ONLY_DRAWN_CARD, r2)


def test_a_refusal_about_no_card_names_none() -> None:
    match = rig(hands=[["G2", "B7"], ["Y1"]], top="R5")
    assert _refusal(match.apply(1, Play(Card.parse("Y1")), 0)) == (RejectCode.NOT_YOUR_TURN, None)
