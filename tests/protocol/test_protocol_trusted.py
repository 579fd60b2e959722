"""The sending side's shortcuts: ``Record.trusted`` and the frame a message keeps.

Trusted records skip validation when they are built, so these tests pin down what that
may and may not mean: a trusted record is the same value (and the same bytes) as a
validated one; the plain-data check still runs once, at encoding; and nothing a peer
sends ever takes the trusted path, so a receiver refuses a bad trusted message.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from protocol_strategies import ALL_MESSAGE_CLASSES, CLIENT_CLASSES, records

from protocol.cards import Card
from protocol.codec import decode_body, encode_body
from protocol.connection import ClientConnection, ServerConnection
from protocol.errors import ErrorCode, LocalProtocolError, RemoteProtocolError
from protocol.events import EVENT_TYPES, SeenEvent, Turn
from protocol.framing import FrameDecoder, encode_frame
from protocol.messages import (
    CreateTable,
    GameEvent,
    Hello,
    Message,
    Ok,
    Sender,
    TableState,
    TableStatus,
    Welcome,
    message_from_data,
)
from protocol.options import TableOptions
from protocol.phase import Phase
from protocol.schema import Record, _schema, _to_plain
from protocol.views import SharedView


def _fields(record: Record) -> dict[str, Any]:
    return {field.name: getattr(record, field.name) for field in dataclasses.fields(record)}


def _handshake() -> tuple[ServerConnection, ClientConnection]:
    server, client = ServerConnection(), ClientConnection()
    server.receive_data(client.send(Hello(versions=("1.0",), name="Ann")))
    assert server.next_message() is not None
    welcome = Welcome(version="1.0", server_name="Den", server_id="s1", server_version="0.1")
    client.receive_data(server.send(welcome))
    assert client.next_message() is not None
    return server, client


@pytest.mark.parametrize("cls", ALL_MESSAGE_CLASSES, ids=lambda cls: cls.TYPE)
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_a_trusted_message_is_the_validated_one_byte_for_byte(
    cls: type[Message], data: st.DataObject
) -> None:
    checked = data.draw(records(cls))
    trusted = cls.trusted(**_fields(checked))
    assert type(trusted) is cls
    assert trusted == checked
    assert trusted.frame() == checked.frame()


def _reference_data(record: Record) -> Any:
    """A record's plain form by the generic walk, field by field (the path the encoding
    plan replaces)."""
    out: dict[str, Any] = {}
    for spec in _schema(type(record)):
        value = getattr(record, spec.name)
        if value is None:
            if spec.limits.nil:
                out[spec.name] = None
        elif not (spec.limits.sparse and value == spec.default):
            out[spec.name] = _to_plain(value)
    return out


@pytest.mark.parametrize(
    "cls", [*ALL_MESSAGE_CLASSES, *EVENT_TYPES.values(), SharedView], ids=lambda cls: cls.__name__
)
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_the_encoding_plan_gives_what_the_generic_walk_gives(
    cls: type[Record], data: st.DataObject
) -> None:
    record = data.draw(records(cls))
    assert Record.to_data(record) == _reference_data(record)


def test_trusted_fills_defaults_and_refuses_unknown_or_missing_fields() -> None:
    first = CreateTable.trusted(id=1, name="Den")
    second = CreateTable.trusted(id=2, name="Den")
    assert first.options == TableOptions() and first.password is None
    assert first.options is not second.options  # a default factory runs for each record
    with pytest.raises(TypeError, match="no field 'colour'"):
        Ok.trusted(id=1, colour="red")
    with pytest.raises(TypeError, match="needs the field 'body'"):
        GameEvent.trusted(seq=1)


def test_trusted_skips_the_checks_that_construction_makes() -> None:
    with pytest.raises(LocalProtocolError):
        Ok(id=-1)
    assert Ok.trusted(id=-1).id == -1  # the sender vouches for its values


def test_a_bad_trusted_message_is_refused_by_the_receiver() -> None:
    server, client = _handshake()
    sneaky = TableState.trusted(table_id="", name="Den", state=TableStatus.LOBBY, seats=())
    client.receive_data(server.send(sneaky))
    with pytest.raises(RemoteProtocolError) as caught:
        client.next_message()
    assert caught.value.code is ErrorCode.BAD_MESSAGE


def test_plain_data_is_still_checked_once_at_encoding() -> None:
    server, _ = _handshake()
    # A card is a NamedTuple: msgpack alone would send it as an array of its fields.
    event = GameEvent.trusted(seq=1, body={"card": Card.parse("R5")})
    with pytest.raises(LocalProtocolError) as caught:
        server.send(event)
    assert caught.value.code is ErrorCode.BAD_MESSAGE


def _forbidden(cls: type[Record], /, **values: Any) -> Record:
    raise AssertionError(f"{cls.__name__} was decoded through Record.trusted")


@pytest.mark.parametrize("cls", ALL_MESSAGE_CLASSES, ids=lambda cls: cls.TYPE)
@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_no_message_of_either_side_decodes_through_trusted(
    cls: type[Message], data: st.DataObject
) -> None:
    message = data.draw(records(cls))
    sender = Sender.CLIENT if cls in CLIENT_CLASSES else Sender.SERVER
    frames = FrameDecoder()
    frames.feed(message.frame())
    body = frames.next_frame()
    assert body is not None
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Record, "trusted", classmethod(_forbidden))
        assert message_from_data(decode_body(body), sender) == message


def test_decoding_stays_strict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Record, "trusted", classmethod(_forbidden))
    with pytest.raises(RemoteProtocolError) as caught:
        message_from_data({"type": "ok", "id": -1}, Sender.SERVER)
    assert caught.value.code is ErrorCode.BAD_MESSAGE


def test_a_message_is_encoded_once_however_many_connections_send_it() -> None:
    first, _ = _handshake()
    second, _ = _handshake()
    body = SeenEvent(1, Turn(seat=0, direction=1, phase=Phase.TURN))
    event = GameEvent.trusted(seq=1, body=body)
    sent = first.send(event)
    assert sent == encode_frame(encode_body(event.to_data()))
    assert second.send(event) is sent
    assert GameEvent(seq=1, body=body).frame() == sent
