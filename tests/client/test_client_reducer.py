"""The one reducer: a session's messages, in order, into the model; no I/O."""

from __future__ import annotations

import dataclasses
import typing

from client_builders import engine_view, event, table_state

from client.ui.model import Model, Screen, clear_table
from client.ui.reducer import apply, left_reason_words
from protocol.messages import (
    ChatMessage,
    Closing,
    Error,
    GameEvent,
    GameView,
    HostReason,
    Joined,
    Left,
    LeftReason,
    MatchList,
    MatchPlayer,
    MatchRecord,
    Ok,
    Ping,
    Pong,
    Rejected,
    ReplayPage,
    SeatInfo,
    ServerMessage,
    Standing,
    Standings,
    StandingsPeriod,
    TableList,
    TableState,
    TableStatus,
    TableSummary,
    Welcome,
)
from protocol.options import TableOptions


def _welcome() -> Welcome:
    return Welcome(version="1.2", server_name="Kitchen", server_id="s1", server_version="0.1.0")


def _summary() -> TableSummary:
    return TableSummary(table_id="t2", name="Later", state=TableStatus.LOBBY, seats=4, taken=1)


def test_a_session_s_messages_reduce_into_the_model_in_the_order_they_came() -> None:
    model = Model(name="Ann")
    apply(model, _welcome(), 0.0)
    assert (model.connected, model.server_name, model.records.available) == (True, "Kitchen", True)
    assert model.screen is Screen.LOBBY

    apply(model, Joined(table_id="t1", seat=1, resume_token="secret"), 0.0)
    apply(model, table_state(), 0.0)
    assert model.screen is Screen.TABLE
    assert (model.seat, model.spectating) == (1, False)

    view = engine_view(seat=1)
    apply(model, GameView(seq=3, body=view), 5.0)
    assert model.view is view
    assert model.view_at == 5.0

    logged = len(model.log)
    apply(model, GameEvent(seq=4, body=event({"seq": 4, "kind": "exposed", "seat": 0})), 6.0)
    assert len(model.log) == logged + 1
    apply(model, ChatMessage(sender="Bob", text="hi", seat=1), 6.0)
    assert list(model.chat) == ["Bob: hi"]
    assert model.log[-1] == "» Bob: hi"

    apply(model, Left(table_id="elsewhere", reason=LeftReason.KICKED), 7.0)
    assert model.table is not None  # a stale left, for another table, changes nothing
    apply(model, Left(table_id="t1", reason=LeftReason.KICKED, message="by Ann"), 7.0)
    assert model.screen is Screen.LOBBY
    assert (model.seat, model.view) == (None, None)
    assert model.message == left_reason_words(LeftReason.KICKED) + ": by Ann"
    assert model.message_is_error

    apply(model, GameView(seq=5, body=view), 8.0)
    assert model.view is None  # a view for no table shows nothing
    apply(model, TableList(tables=(_summary(),)), 8.0)
    assert [table.name for table in model.tables] == ["Later"]


def test_a_left_with_a_cause_is_said_from_its_code_and_fields() -> None:
    model = Model(name="Bob")
    apply(model, _welcome(), 0.0)
    apply(model, Joined(table_id="t1", seat=1), 1.0)
    apply(model, table_state(), 1.0)
    words = "Ann asked you to leave and banned you from this table, in words"
    left = Left(
        table_id="t1", reason=LeftReason.KICKED, message=words, cause="asked-to-leave",
        by="Ann", banned=True,
    )  # fmt: skip
    apply(model, left, 2.0)
    assert model.screen is Screen.LOBBY
    assert model.message == "Ann asked you to leave and banned you from this table"
    # A cause of a newer server: its words stand in.
    apply(model, Joined(table_id="t1", seat=1), 3.0)
    apply(model, table_state(), 3.0)
    apply(model, Left(table_id="t1", reason=LeftReason.KICKED, message=words, cause="x"), 4.0)
    assert model.message == words


def test_standings_of_another_period_than_the_one_shown_are_left_aside() -> None:
    model = Model(name="Ann")
    model.records.period = StandingsPeriod.ALL
    week = Standings(period=StandingsPeriod.WEEK, players=(Standing(name="Bob"),))
    apply(model, week, 0.0)
    assert not model.records.loaded
    apply(model, Standings(period=StandingsPeriod.ALL, players=(Standing(name="Cy"),)), 0.0)
    assert [player.name for player in model.records.players] == ["Cy"]


def _one_of_each() -> list[ServerMessage]:
    match = MatchRecord(
        finished_at=1,
        table_id="t1",
        table="Friday",
        deck="classic",
        options=TableOptions(),
        players=(MatchPlayer(name="Ann", score=500),),
    )
    return [
        _welcome(),
        Error(code="bad-message"),
        Ok(id=1),
        Rejected(id=2, code="not-your-turn"),
        TableList(tables=(_summary(),)),
        table_state(),
        Joined(table_id="t1", seat=0),
        GameEvent(seq=1, body=event({"kind": "exposed", "seat": 0})),
        GameView(seq=1, body=engine_view()),
        ChatMessage(sender="Bob", text="hi"),
        Left(table_id="t1", reason=LeftReason.TABLE_CLOSED),
        Standings(period=StandingsPeriod.WEEK, players=()),
        MatchList(matches=(match,)),
        ReplayPage(match_id=1, lines=('{"format":"uno-lan-replay"}',)),
        Ping(nonce=1),
        Pong(nonce=1),
        Closing(reason="shutting down"),
    ]


def test_every_message_a_server_sends_is_dispatched() -> None:
    messages = _one_of_each()
    assert {type(message) for message in messages} == set(typing.get_args(ServerMessage))
    model = Model(name="Ann")
    for message in messages:
        apply(model, message, 0.0)
    assert model.records.matches  # the last page reduced went in


def test_the_log_says_when_the_host_role_moves_and_why() -> None:
    model = Model(name="Cy")
    model.seat = 2

    def state(host: int, owner: int, reason: HostReason, *, ann_left: bool = False) -> TableState:
        built = table_state(3, host=host)
        if ann_left:
            built = dataclasses.replace(built, seats=(SeatInfo(seat=0), *built.seats[1:]))
        return dataclasses.replace(built, owner_seat=owner, host_reason=reason)

    apply(model, state(0, 0, HostReason.OWNER), 0.0)
    apply(model, state(1, 0, HostReason.OWNER_AWAY), 0.0)
    apply(model, state(1, 0, HostReason.OWNER_AWAY), 0.0)  # nothing moved: no line
    apply(model, state(0, 0, HostReason.OWNER), 0.0)
    apply(model, state(2, 2, HostReason.OWNER_LEFT, ann_left=True), 0.0)
    assert [line for line in model.log if "host" in line.lower()] == [
        "Host role lent to Bob while Ann is away",
        "Host role back with Ann, the table's owner",
        "Host role handed to you for good (Ann left)",
    ]


def test_a_rematch_ask_starts_its_clock_when_it_arrives_and_a_table_left_forgets_it() -> None:
    model = Model(name="Ann", connected=True)
    over = table_state(status=TableStatus.OVER, options={"round_pause_seconds": 10})
    apply(model, over, 100.0)
    assert model.rematch_at is None and model.rematch_ms(101.0) is None
    asked = dataclasses.replace(over, rematch_asked=True)
    apply(model, asked, 200.0)
    apply(model, asked, 203.0)  # a later state of the same ask keeps the clock going
    assert model.rematch_ms(204.0) == 6000
    assert model.rematch_ms(230.0) == 0
    clear_table(model)
    assert model.rematch_at is None
