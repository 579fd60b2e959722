"""Typed table options and replies: ``TableOptions`` (create-table, table-state, the match
history) and ``OkResult``, with the same wire maps and the same refusals as before."""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

import pytest

import protocol.schema
from protocol.codec import decode_body
from protocol.errors import ErrorCode, LocalProtocolError, RemoteProtocolError
from protocol.framing import FrameDecoder
from protocol.messages import (
    CreateTable,
    MatchList,
    MatchPlayer,
    MatchRecord,
    Message,
    Ok,
    OkResult,
    Sender,
    TableState,
    TableStatus,
    message_from_data,
)
from protocol.options import (
    ConfigError,
    DeckName,
    Scoring,
    Stack,
    TableConfig,
    TableOptions,
    UnusableOptions,
)


def _received(message: Message, sender: Sender) -> Message:
    decoder = FrameDecoder()
    decoder.feed(message.frame())
    body = decoder.next_frame()
    assert body is not None
    return message_from_data(decode_body(body), sender)


def test_options_keep_table_config_s_names_order_and_ranges() -> None:
    config_hints = typing.get_type_hints(TableConfig)
    option_hints = typing.get_type_hints(TableOptions)
    for config_field, option in zip(
        dataclasses.fields(TableConfig), dataclasses.fields(TableOptions), strict=True
    ):
        assert option.name == config_field.name and option.default is None
        assert option_hints[option.name] == config_hints[option.name] | None
        assert option.metadata.get("wire") == config_field.metadata.get("wire")


def test_a_create_table_sends_only_the_options_given() -> None:
    create = CreateTable(id=1, name="Den", options=TableOptions(seats=3, deck=DeckName.BTS))
    assert create.to_data()["options"] == {"deck": "bts", "seats": 3}
    assert CreateTable(id=1, name="Den").to_data()["options"] == {}
    received = _received(create, Sender.CLIENT)
    assert received == create
    assert isinstance(received, CreateTable) and received.options.deck is DeckName.BTS


def test_create_table_options_become_a_table_config_or_config_error() -> None:
    create = CreateTable(id=1, name="Den", options=TableOptions(seats=3, stack_draw_two=True))
    assert create.config() == TableConfig(seats=3, stack_draw_two=True)
    # Over a stacking server's defaults, asking for no stacking gets none.
    defaults = TableConfig(turn_seconds=20, stack=Stack.PROGRESSIVE)
    off = CreateTable(id=1, name="Den", options=TableOptions(stack=Stack.OFF))
    assert off.config(defaults) == TableConfig(turn_seconds=20)
    teams = TableOptions(seats=3, scoring=Scoring.TEAMS)
    with pytest.raises(ConfigError, match=r"^teams scoring needs an even number"):
        CreateTable(id=1, name="Den", options=teams).config()


def _as_before(options: dict[str, Any]) -> str:
    """What the lobby answered before options were typed: TableConfig.from_data over the
    defaults (less ``stack_draw_two``)."""
    defaults = TableConfig().to_data()
    del defaults["stack_draw_two"]
    with pytest.raises((ConfigError, TypeError)) as refused:
        TableConfig.from_data({**defaults, **options})
    return str(refused.value)


@pytest.mark.parametrize(
    ("options", "why"),
    [
        ({"colour": 1, "seats": 99}, "unknown table option(s): colour"),
        ({"preset": "party"}, "unknown table option(s): preset"),
        ({"seats": 99}, "seats must be from 2 to 10, not 99"),
        ({"seats": True}, "seats must be an integer"),
        ({"seats": "5"}, "seats must be an integer"),
        ({"seats": None}, "seats is required"),
        ({"deck": "nowhere", "seats": None}, "deck must be one of"),
        ({"hand_size": 99, "deck": None}, "deck is required"),
        ({"jump_in": 1}, "jump_in must be true or false"),
        ({"stack": "sideways"}, "stack must be one of off, draw-two, draw-four, progressive"),
        ({"seats": [2]}, "seats must be an integer"),
        ({"seats": 3, "scoring": "teams"}, "teams scoring needs an even number of seats"),
        ({"stack_draw_two": True, "stack": "draw-four"}, "stack_draw_two and stack draw-four"),
        ({"seats": 10, "hand_size": 15}, "10 seats of 15 cards leave no draw pile"),
    ],
)
def test_received_options_no_table_can_have_are_refused_as_before(
    options: dict[str, Any], why: str
) -> None:
    data = {"type": "create-table", "id": 3, "name": "Den", "options": options}
    create = message_from_data(data, Sender.CLIENT)
    assert isinstance(create, CreateTable) and create.id == 3
    with pytest.raises(ConfigError) as refused:
        create.config()
    assert str(refused.value) == _as_before(options)
    assert str(refused.value).startswith(why)


@pytest.mark.parametrize("name", [option.name for option in dataclasses.fields(TableOptions)])
def test_every_refused_option_value_names_its_option_whatever_the_words_say(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def wordless(where: str, why: str) -> LocalProtocolError:
        return LocalProtocolError(ErrorCode.BAD_MESSAGE, "no")

    monkeypatch.setattr(protocol.schema, "_invalid", wordless)
    wrong: dict[str, Any] = {name: object()}
    with pytest.raises(LocalProtocolError) as caught:
        TableOptions(**wrong)
    assert caught.value.field == name
    for read in (TableConfig.from_data, TableOptions.parse):
        with pytest.raises(ConfigError) as refused:
            read(wrong)
        assert refused.value.option == name and str(refused.value) == "no"


def test_options_that_are_no_map_stay_a_protocol_error() -> None:
    for options in ("party", 5, [1, 2]):
        data = {"type": "create-table", "id": 3, "name": "Den", "options": options}
        with pytest.raises(RemoteProtocolError) as caught:
            message_from_data(data, Sender.CLIENT)
        assert caught.value.code is ErrorCode.BAD_MESSAGE
        assert "create-table.options must be a map" in caught.value.message


def test_refused_options_are_never_sent() -> None:
    create = CreateTable(id=1, name="Den", options=UnusableOptions(why="seats is required"))
    with pytest.raises(LocalProtocolError, match="seats is required"):
        create.frame()


def test_parse_takes_enum_members_and_values_alike() -> None:
    parsed = TableOptions.parse({"deck": DeckName.BTS, "stack": "progressive", "seats": 5})
    assert parsed == TableOptions(deck=DeckName.BTS, stack=Stack.PROGRESSIVE, seats=5)
    assert parsed.stack is Stack.PROGRESSIVE


def test_table_state_sends_every_option_as_table_config_does() -> None:
    config = TableConfig(deck=DeckName.BTS, stack=Stack.PROGRESSIVE, seats=3)
    state = TableState(
        table_id="t1",
        name="Den",
        state=TableStatus.LOBBY,
        seats=(),
        options=TableOptions.of(config),
    )
    sent = state.to_data()["options"]
    assert sent == config.to_data() and list(sent) == list(config.to_data())
    received = _received(state, Sender.SERVER)
    assert isinstance(received, TableState) and received == state
    assert received.options.over(TableConfig()) == config


def test_received_table_state_options_ignore_unknown_names_and_refuse_bad_values() -> None:
    base = {"type": "table-state", "table_id": "t1", "name": "Den", "state": "lobby", "seats": []}
    later = message_from_data({**base, "options": {"seats": 3, "fly": True}}, Sender.SERVER)
    assert isinstance(later, TableState) and later.options == TableOptions(seats=3)
    for bad in ({"seats": 11}, {"deck": "nowhere"}, {"jump_in": "yes"}):
        with pytest.raises(RemoteProtocolError) as caught:
            message_from_data({**base, "options": bad}, Sender.SERVER)
        assert caught.value.code is ErrorCode.BAD_MESSAGE


def test_a_match_record_carries_typed_options() -> None:
    record = MatchRecord(
        finished_at=1,
        table_id="4",
        table="Den",
        deck="classic",
        options=TableOptions.of(TableConfig(seats=2)),
        players=(MatchPlayer(name="Ann", score=120), MatchPlayer(name="Bot 1", bot=True)),
        winners=("Ann",),
    )
    page = MatchList(matches=(record,))
    assert page.to_data()["matches"][0]["options"] == TableConfig(seats=2).to_data()
    assert _received(page, Sender.SERVER) == page


def test_ok_results_are_the_same_maps() -> None:
    created = Ok(id=2, result=OkResult(table_id="7", seat=0))
    assert created.to_data() == {"type": "ok", "id": 2, "result": {"table_id": "7", "seat": 0}}
    assert Ok(id=3, result=OkResult(seat=4)).to_data()["result"] == {"seat": 4}
    assert Ok(id=4).to_data() == {"type": "ok", "id": 4}
    for ok in (created, Ok(id=3, result=OkResult(seat=4)), Ok(id=4)):
        assert _received(ok, Sender.SERVER) == ok
    later = message_from_data({"type": "ok", "id": 5, "result": {"seat": 1, "x": 2}}, Sender.SERVER)
    assert isinstance(later, Ok) and later.result == OkResult(seat=1)
    with pytest.raises(RemoteProtocolError):
        message_from_data({"type": "ok", "id": 5, "result": {"seat": "one"}}, Sender.SERVER)
