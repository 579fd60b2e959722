"""Event and view records: the wire shapes every version has sent, and what decoding forgives."""

from __future__ import annotations

from enum import StrEnum

import pytest

from protocol.cards import Card, Color
from protocol.commands import Arrow, Draw
from protocol.errors import LocalProtocolError, RemoteProtocolError
from protocol.events import (
    Away,
    AwayReason,
    DanceCalled,
    DanceRefused,
    DanceRefusedReason,
    Drew,
    DrewReason,
    FalseCatch,
    FalseCatchReason,
    Played,
    RoundOver,
    RoundOverReason,
    SecretCards,
    SecretHand,
    SeenEvent,
    Skipped,
    Turn,
    UnknownEvent,
)
from protocol.messages import GameEvent, Sender, message_from_data
from protocol.phase import Phase
from protocol.views import SharedView, View

R5 = Card.parse("R5")


def test_a_kind_this_release_does_not_know_keeps_its_seq_and_skips_the_rest() -> None:
    data = {"type": "event", "seq": 9, "body": {"seq": 9, "kind": "jump-in", "seat": 2}}
    message = message_from_data(data, Sender.SERVER)
    assert isinstance(message, GameEvent) and message.seq == 9
    assert message.body.body == UnknownEvent(name="jump-in") and message.body.kind is None


def test_fields_a_later_version_adds_are_ignored() -> None:
    data = {"seq": 3, "kind": "skipped", "seat": 1, "why": "a later minor's field"}
    assert SeenEvent.from_data(data) == SeenEvent(3, Skipped(seat=1))
    view = View(seat=None, shared=_shared())
    assert View.from_data({**view.to_data(), "weather": "sunny"}) == view


def test_a_known_kind_with_a_bad_field_is_refused() -> None:
    with pytest.raises(RemoteProtocolError):
        SeenEvent.from_data({"seq": 1, "kind": "turn", "seat": "two", "direction": 1})


def test_a_secret_goes_only_with_the_kind_that_has_it() -> None:
    SeenEvent(1, Drew(seat=0, count=1, reason=DrewReason.DRAW), SecretCards((R5,)))
    with pytest.raises(LocalProtocolError):
        SeenEvent(1, Drew(seat=0, count=1, reason=DrewReason.DRAW), SecretHand((R5,)))
    with pytest.raises(LocalProtocolError):
        SeenEvent(1, Turn(seat=0, direction=1, phase=Phase.TURN), SecretCards((R5,)))


def test_fields_keep_the_shapes_every_version_has_sent() -> None:
    wild = Played(seat=1, card=Card.parse("W"), color=None, count=3)
    assert wild.to_data() == {"seat": 1, "card": "W", "color": None, "count": 3}
    called = Played(seat=1, card=R5, color=Color.RED, count=1, uno=True)
    assert called.to_data()["uno"] is True
    honour = DanceCalled(seat=1, by=0, dance="fire", steps=None)
    assert honour.to_data() == {"seat": 1, "by": 0, "dance": "fire", "steps": None}
    steps = DanceCalled(seat=1, by=0, dance="fire", steps=(Arrow.UP,))
    assert SeenEvent.from_data({"seq": 2, "kind": "dance-called", **steps.to_data()}).body == steps


def _shared() -> SharedView:
    return SharedView(
        phase=Phase.TURN,
        round=1,
        dealer=0,
        direction=1,
        to_act=0,
        top=R5,
        color=Color.RED,
        counts=(1, 1),
        draw_count=9,
        discard_count=1,
        scores=(0, 0),
        eliminated=(),
        away=(),
        exposed=(),
        pending=None,
        remaining_ms=None,
        pending_draw=0,
        skip_marks=(0, 0),
        round_result=None,
        match_result=None,
        last_seq=4,
    )


def test_a_spectator_view_has_no_hand_and_a_seat_view_sends_drawn_as_nil() -> None:
    shared = _shared()
    spectator = View(seat=None, shared=shared).to_data()
    assert "hand" not in spectator and "drawn" not in spectator and spectator["legal"] == []
    assert spectator["pending"] is None and spectator["top"] == "R5" and "dance" not in spectator
    seated = View(seat=0, shared=shared, hand=(R5,), legal=(Draw(),))
    data = seated.to_data()
    assert data["drawn"] is None and data["hand"] == ["R5"] and data["legal"] == [{"type": "draw"}]
    assert View.from_data(data) == seated


_REASONED: list[tuple[dict[str, object], type[StrEnum]]] = [
    ({"kind": "drew", "seat": 0, "count": 1}, DrewReason),
    ({"kind": "false-catch", "seat": 0, "target": 1, "penalty": 2}, FalseCatchReason),
    ({"kind": "dance-refused", "seat": 1}, DanceRefusedReason),
    ({"kind": "away", "seat": 2}, AwayReason),
    (
        {
            "kind": "round-over",
            "round": 1,
            "winner": 0,
            "hands": [[], ["R5"]],
            "points": [0, 5],
            "gained": [5, 0],
            "scores": [5, 0],
            "eliminated": [],
        },
        RoundOverReason,
    ),
]


@pytest.mark.parametrize(("fields", "reasons"), _REASONED, ids=lambda x: str(x)[:24])
def test_an_event_s_reason_is_one_of_its_list_and_nothing_else(
    fields: dict[str, object], reasons: type[StrEnum]
) -> None:
    for reason in reasons:
        event = SeenEvent.from_data({"seq": 4, **fields, "reason": reason.value})
        body = event.body
        assert isinstance(body, Drew | FalseCatch | DanceRefused | Away | RoundOver)
        assert body.reason is reason
        assert event.to_data()["reason"] == reason.value
    for wrong in ("sneeze", "", 7, None):
        with pytest.raises(RemoteProtocolError):
            SeenEvent.from_data({"seq": 4, **fields, "reason": wrong})


def test_a_reason_given_as_its_word_is_taken_as_its_member() -> None:
    assert Drew(seat=0, count=1, reason="skip").reason is DrewReason.SKIP  # type: ignore[arg-type]
    assert Away(seat=0, reason=AwayReason.TABLE).to_data() == {"seat": 0, "reason": "table"}
    with pytest.raises(LocalProtocolError):
        DanceRefused(seat=0, reason="shy")  # type: ignore[arg-type]
    with pytest.raises(LocalProtocolError):
        FalseCatch(seat=0, target=1, penalty=2, reason="lost-race")  # type: ignore[arg-type]
