"""Typed messages: round trips of every message, and refusal of every malformed field."""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from protocol_strategies import ALL_MESSAGE_CLASSES, CLIENT_CLASSES, SERVER_CLASSES, records

from protocol.cards import Card
from protocol.codec import decode_body, encode_body
from protocol.commands import Draw, SeatCommand, Timeout
from protocol.errors import ErrorCode, LobbyRejectCode, LocalProtocolError, RemoteProtocolError
from protocol.framing import FrameDecoder, encode_frame
from protocol.limits import MAX_CHAT_LEN, MAX_NAME_LEN, MAX_RAW_TEXT_FACTOR
from protocol.messages import (
    Chat,
    CreateTable,
    Error,
    Game,
    Hello,
    Join,
    ListTables,
    Message,
    Ok,
    Rejected,
    Sender,
    TableState,
    TableStatus,
    message_from_data,
)
from protocol.options import TableOptions
from protocol.schema import Record


def _sender(cls: type[Message]) -> Sender:
    return Sender.CLIENT if cls in CLIENT_CLASSES else Sender.SERVER


def _decode(data: dict[str, Any], sender: Sender = Sender.CLIENT) -> Message:
    return message_from_data(data, sender)


def _bad(data: dict[str, Any], sender: Sender = Sender.CLIENT) -> RemoteProtocolError:
    with pytest.raises(RemoteProtocolError) as caught:
        message_from_data(data, sender)
    assert caught.value.code is ErrorCode.BAD_MESSAGE, caught.value
    return caught.value


@pytest.mark.parametrize("cls", ALL_MESSAGE_CLASSES, ids=lambda cls: cls.TYPE)
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_every_message_round_trips_through_a_frame(cls: type[Message], data: st.DataObject) -> None:
    message = data.draw(records(cls))
    frames = FrameDecoder()
    frames.feed(encode_frame(encode_body(message.to_data())))
    body = frames.next_frame()
    assert body is not None
    decoded = message_from_data(decode_body(body), _sender(cls))
    assert decoded == message
    assert type(decoded) is cls


def test_both_directions_share_ping_and_pong_but_not_chat() -> None:
    shared = {cls.TYPE for cls in CLIENT_CLASSES} & {cls.TYPE for cls in SERVER_CLASSES}
    assert shared == {"ping", "pong", "chat"}
    said = _decode({"type": "chat", "id": 1, "text": "hi"}, Sender.CLIENT)
    heard = _decode({"type": "chat", "sender": "Ann", "text": "hi"}, Sender.SERVER)
    assert type(said) is not type(heard)


def test_wire_form_has_type_first_and_leaves_out_none() -> None:
    data = Join(id=7, table_id="t1").to_data()
    assert list(data) == ["type", "id", "table_id"]
    assert data == {"type": "join", "id": 7, "table_id": "t1"}


def test_unknown_fields_are_ignored_and_nil_means_absent() -> None:
    message = _decode({"type": "list-tables", "id": 1, "cursor": None, "shiny": [1, 2]})
    assert message == ListTables(id=1)


def test_unknown_type_is_unknown_message_not_bad_message() -> None:
    with pytest.raises(RemoteProtocolError) as caught:
        _decode({"type": "teleport", "id": 1})
    assert caught.value.code is ErrorCode.UNKNOWN_MESSAGE
    with pytest.raises(RemoteProtocolError) as caught:
        _decode({"type": "welcome"}, Sender.CLIENT)
    assert caught.value.code is ErrorCode.UNKNOWN_MESSAGE


def test_message_newer_than_the_negotiated_version_is_unknown() -> None:
    with pytest.raises(RemoteProtocolError) as caught:
        message_from_data({"type": "leave", "id": 1}, Sender.CLIENT, "0.9")
    assert caught.value.code is ErrorCode.UNKNOWN_MESSAGE
    assert message_from_data({"type": "leave", "id": 1}, Sender.CLIENT, "1.0").TYPE == "leave"


@pytest.mark.parametrize("wire_type", [None, 5, ["hello"]])
def test_missing_or_non_string_type_is_bad_message(wire_type: object) -> None:
    _bad({"type": wire_type, "id": 1})


# --- one wrong value per field kind ------------------------------------------------------

_WRONG_BY_KIND: dict[str, list[object]] = {
    "str": [5, True, ["x"], {"a": "b"}],
    "int": ["5", True, False, -1, 2**64 - 1, [1]],
    "bool": [1, 0, "true", []],
    "tuple": ["1.0", 5, {"a": 1}, [5], [{"seat": "zero"}], [None]],
    "dict": ["x", 5, [1, 2]],
    "enum": ["nowhere", 3],
    "record": ["x", 5, [1], {"seat": "zero"}],
    "options": ["x", 5, [1], {"seats": "zero"}, {"deck": "nowhere"}],
    "asked": ["x", 5, [1, 2]],
    "command": ["draw", {"type": "timeout"}, {"type": "fly"}, {"type": "play"}],
}


def _kind(hint: Any) -> str:
    args = [arg for arg in typing.get_args(hint) if arg is not type(None)]
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return _kind(args[0])
    origin = typing.get_origin(hint)
    if origin is tuple:
        return "tuple"
    if origin is dict:
        return "dict"
    if hint in (str, int, bool):
        return str(hint.__name__)
    if issubclass(hint, SeatCommand):
        return "command"
    if hint is TableOptions:
        return "options"
    if issubclass(hint, Record):
        return "record"
    return "enum"


def _field_cases() -> list[Any]:
    cases = []
    for cls in ALL_MESSAGE_CLASSES:
        hints = typing.get_type_hints(cls)
        for field in dataclasses.fields(cls):
            kind = _kind(hints[field.name])
            if cls is CreateTable and field.name == "options":
                kind = "asked"  # options no table can have are refused later (bad-options)
            cases.append(pytest.param(cls, field.name, kind, id=f"{cls.TYPE}.{field.name}"))
    return cases


@pytest.mark.parametrize(("cls", "name", "kind"), _field_cases())
@settings(max_examples=3, deadline=None)
@given(data=st.data())
def test_every_field_refuses_wrong_types(
    cls: type[Message], name: str, kind: str, data: st.DataObject
) -> None:
    valid = data.draw(records(cls)).to_data()
    sender = _sender(cls)
    for wrong in _WRONG_BY_KIND[kind]:
        if kind == "int" and isinstance(wrong, int) and not isinstance(wrong, bool):
            field = next(f for f in dataclasses.fields(cls) if f.name == name)
            limits = field.metadata["wire"]
            if limits.low <= wrong <= limits.high:
                continue
        _bad({**valid, name: wrong}, sender)


@pytest.mark.parametrize(("cls", "name", "kind"), _field_cases())
@settings(max_examples=2, deadline=None)
@given(data=st.data())
def test_required_fields_must_be_present(
    cls: type[Message], name: str, kind: str, data: st.DataObject
) -> None:
    field = next(f for f in dataclasses.fields(cls) if f.name == name)
    valid = data.draw(records(cls)).to_data()
    valid.pop(name, None)
    is_required = (
        field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING
    )
    if is_required:
        error = _bad(valid, _sender(cls))
        assert name in error.message
    else:
        assert message_from_data(valid, _sender(cls)).TYPE == cls.TYPE


# --- field rules -------------------------------------------------------------------------


def test_construction_validates_and_raises_a_local_error() -> None:
    with pytest.raises(LocalProtocolError) as caught:
        Join(id=1, table_id="t", seat=10)
    assert caught.value.code is ErrorCode.BAD_MESSAGE
    with pytest.raises(LocalProtocolError):
        Hello(versions=(), name="Ann")
    with pytest.raises(LocalProtocolError):
        Game(id=1, command=Timeout())  # type: ignore[arg-type]
    with pytest.raises(LocalProtocolError):
        Ok(id=1, result={"card": Card.parse("R7")})  # type: ignore[arg-type]


def test_names_and_chat_are_cleaned_on_arrival() -> None:
    hello = _decode({"type": "hello", "versions": ["1.0"], "name": "\x1b[31mAnn\x1b[0m\n"})
    assert isinstance(hello, Hello)
    assert hello.name == "Ann"
    chat = _decode({"type": "chat", "id": 2, "text": "gg\x1b]0;pwned\x07 all"})
    assert isinstance(chat, Chat)
    assert chat.text == "gg all"


def test_name_made_only_of_escapes_is_refused() -> None:
    _bad({"type": "hello", "versions": ["1.0"], "name": "\x1b[2J\x07"})


def test_text_limits_count_characters_after_cleaning() -> None:
    exact = "é" * MAX_NAME_LEN
    assert Hello(versions=("1.0",), name=exact).name == exact
    assert Hello(versions=("1.0",), name=f"\x1b[1m{exact}\x1b[0m").name == exact
    _bad({"type": "hello", "versions": ["1.0"], "name": exact + "x"})
    _bad({"type": "chat", "id": 1, "text": "a" * (MAX_CHAT_LEN + 1)})
    too_raw = "\x1b[0m" * (MAX_CHAT_LEN * MAX_RAW_TEXT_FACTOR // 4 + 1) + "x"
    _bad({"type": "chat", "id": 1, "text": too_raw})


def test_enums_accept_their_values() -> None:
    state = TableState(table_id="t", name="Den", state="playing", seats=())  # type: ignore[arg-type]
    assert state.state is TableStatus.PLAYING


def test_game_wraps_seat_commands_both_ways() -> None:
    game = _decode({"type": "game", "id": 4, "command": {"type": "draw", "extra": 1}})
    assert game == Game(id=4, command=Draw())
    assert Game(id=4, command=Draw()).to_data() == {
        "type": "game",
        "id": 4,
        "command": {"type": "draw"},
    }


def test_codes_of_errors_and_rejections_read_back_as_enums() -> None:
    assert Error(code=ErrorCode.TOO_SLOW).error_code is ErrorCode.TOO_SLOW
    assert Error(code="from-the-future").error_code is None
    assert Rejected(id=1, code="table-full").lobby_code is LobbyRejectCode.TABLE_FULL
    assert Rejected(id=1, code="not-your-turn").lobby_code is None
