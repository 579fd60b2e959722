"""Game commands on the schema: today's wire maps, both ways, and the same refusals."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from protocol_strategies import records

from protocol.cards import Card, Color
from protocol.commands import (
    COMMAND_TYPES,
    Accept,
    Arrow,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Command,
    Dance,
    Draw,
    InvalidCommandError,
    NextRound,
    Pass,
    Pause,
    Play,
    RefuseDance,
    Resume,
    SetAway,
    Timeout,
    command_from_data,
)
from protocol.errors import ErrorCode, LocalProtocolError, RemoteProtocolError
from protocol.messages import Game, Sender, message_from_data

WIRE_MAPS: list[tuple[Command, dict[str, Any]]] = [
    (Play(Card.parse("G1")), {"type": "play", "card": "G1"}),
    (
        Play(Card.parse("WDANCE"), Color.RED, 2, "butter", True),
        {
            "type": "play",
            "card": "WDANCE",
            "color": "R",
            "target": 2,
            "dance": "butter",
            "uno": True,
        },
    ),
    (ChooseColor(Color.BLUE), {"type": "choose-color", "color": "B"}),
    (ChooseColor(Color.YELLOW, 0), {"type": "choose-color", "color": "Y", "target": 0}),
    (Draw(), {"type": "draw"}),
    (Pass(), {"type": "pass"}),
    (CallUno(), {"type": "call-uno"}),
    (Catch(3), {"type": "catch", "target": 3}),
    (Accept(), {"type": "accept"}),
    (Challenge(), {"type": "challenge"}),
    (Dance(), {"type": "dance", "steps": []}),
    (Dance((Arrow.UP, Arrow.LEFT)), {"type": "dance", "steps": ["up", "left"]}),
    (RefuseDance(), {"type": "refuse-dance"}),
    (Timeout(), {"type": "timeout"}),
    (NextRound(), {"type": "next-round"}),
    (Pause(), {"type": "pause"}),
    (Resume(), {"type": "resume"}),
    (SetAway(1, False), {"type": "set-away", "seat": 1, "away": False}),
]
"""Every command type, as each has been sent since 1.0 (field order included)."""


def test_the_wire_maps_cover_every_command_type() -> None:
    assert {type(command) for command, _ in WIRE_MAPS} == set(COMMAND_TYPES.values())


@pytest.mark.parametrize(("command", "data"), WIRE_MAPS, ids=lambda value: str(value)[:40])
def test_each_command_is_sent_as_before_and_read_back(
    command: Command, data: dict[str, Any]
) -> None:
    assert list(command.to_data().items()) == list(data.items())
    assert command_from_data(data) == command


@pytest.mark.parametrize("cls", list(COMMAND_TYPES.values()), ids=lambda cls: cls.TYPE)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_every_command_type_round_trips(cls: type[Command], data: st.DataObject) -> None:
    command = data.draw(records(cls))
    assert command_from_data(command.to_data()) == command
    assert command_from_data({**command.to_data(), "later": [1]}) == command


REFUSED: list[dict[str, Any]] = [
    {"type": "fly"},
    {"card": "G1"},
    {"type": ["play"]},
    {"type": "play"},
    {"type": "play", "card": 5},
    {"type": "play", "card": "ZZ"},
    {"type": "play", "card": "W", "color": "Q"},
    {"type": "play", "card": "W", "color": 1},
    {"type": "play", "card": "G1", "target": True},
    {"type": "play", "card": "G1", "target": "1"},
    {"type": "play", "card": "WDANCE", "color": "R", "dance": "tango"},
    {"type": "play", "card": "WDANCE", "color": "R", "dance": 5},
    {"type": "play", "card": "G1", "uno": 1},
    {"type": "choose-color"},
    {"type": "choose-color", "color": "W"},
    {"type": "catch"},
    {"type": "catch", "target": False},
    {"type": "dance", "steps": "up"},
    {"type": "dance", "steps": ["up", "sideways"]},
    {"type": "dance", "steps": [1]},
    {"type": "dance", "steps": ["up"] * 17},
    {"type": "set-away", "seat": 1},
    {"type": "set-away", "seat": 1, "away": "yes"},
]


@pytest.mark.parametrize("data", REFUSED, ids=str)
def test_malformed_commands_are_refused(data: dict[str, Any]) -> None:
    with pytest.raises(InvalidCommandError):
        command_from_data(data)


@pytest.mark.parametrize(
    "data", [*REFUSED, {"type": "timeout"}, {"type": "set-away", "seat": 1, "away": True}], ids=str
)
def test_a_game_message_carrying_one_is_bad_message(data: dict[str, Any]) -> None:
    with pytest.raises(RemoteProtocolError) as caught:
        message_from_data({"type": "game", "id": 1, "command": data}, Sender.CLIENT)
    assert caught.value.code is ErrorCode.BAD_MESSAGE
    assert caught.value.message.startswith("game.command")


def test_construction_checks_the_fields() -> None:
    wild = Card.parse("WDANCE")
    with pytest.raises(LocalProtocolError):
        Play(wild, Color.RED, None, "tango")
    with pytest.raises(LocalProtocolError):
        Catch(True)
    with pytest.raises(LocalProtocolError):
        Dance((Arrow.UP,) * 17)
    assert Play(wild, "G").color is Color.GREEN  # type: ignore[arg-type]
    assert Game(id=1, command=Draw()).command == Draw()


def test_a_seat_number_out_of_range_is_the_engines_business() -> None:
    assert command_from_data({"type": "catch", "target": 99}) == Catch(99)
    skip = {"type": "play", "card": "GS", "target": -1}
    assert command_from_data(skip) == Play(Card.parse("GS"), target=-1)


def test_nil_is_absent_in_a_command_as_in_every_message() -> None:
    assert command_from_data({"type": "dance", "steps": None}) == Dance()
    assert command_from_data({"type": "play", "card": "G1", "uno": None}) == Play(Card.parse("G1"))
