"""The lobby: creating, listing, joining, watching and leaving tables; the host; limits."""

from __future__ import annotations

from functools import partial

import pytest
import trio
import trio.testing
from test_table_rig import FakePeer, call, create, ok, open_lobby, refused, settle

from protocol.commands import Draw
from protocol.errors import LobbyRejectCode
from protocol.messages import (
    AddBot,
    Chat,
    ChatMessage,
    CreateTable,
    Game,
    Join,
    Joined,
    Leave,
    ListTables,
    Ok,
    Ready,
    Rejected,
    RemoveBot,
    Spectate,
    Start,
    TableList,
    TableStatus,
)
from protocol.options import TableConfig, preset_options
from server.lobby import Lobby


async def test_create_seats_the_creator_as_host_with_a_token(nursery: trio.Nursery) -> None:
    lobby = await open_lobby(nursery)
    ann = FakePeer("Ann")
    table = await create(lobby, ann, name="Friday")

    joined = ann.last(Joined)
    assert joined.table_id == table.table_id and joined.seat == 0
    assert joined.resume_token is not None and len(joined.resume_token) >= 24
    state = ann.state
    assert state.name == "Friday" and state.host_seat == 0
    assert state.state is TableStatus.LOBBY
    assert state.seats[0].name == "Ann" and state.seats[1].name is None
    # Everything the command caused came before its one reply.
    assert isinstance(ann.received[-1], type(ann.reply(1)))


def _asking(options: dict[str, object], request_id: int) -> CreateTable:
    """A create-table as the server reads it off the wire (no client builds bad options)."""
    return CreateTable.from_data({"id": request_id, "name": "T", "options": options})


_BAD_OPTIONS: list[tuple[dict[str, object], str]] = [
    ({"colour": 1}, "unknown table option(s): colour"),
    ({"seats": 99}, "seats must be from 2 to 10, not 99"),
    ({"jump_in": "yes"}, "jump_in must be true or false"),
    ({"deck": None}, "deck is required"),
    ({"scoring": "teams", "seats": 3}, "teams scoring needs an even number of seats"),
]
"""One of each kind of refusal: a name, a range, a type, nil, options that disagree."""


async def test_create_takes_server_defaults_and_refuses_bad_options(
    nursery: trio.Nursery,
) -> None:
    lobby = await open_lobby(nursery)
    ann, bob = FakePeer("Ann"), FakePeer("Bob")
    for asked, why in _BAD_OPTIONS:
        reply = await call(lobby, ann, partial(_asking, asked))
        assert isinstance(reply, Rejected) and reply.code == LobbyRejectCode.BAD_OPTIONS
        assert reply.message.startswith(why), reply.message
    assert lobby.location(ann) is None

    await create(lobby, bob, deck="bts", seats=3)
    options = bob.state.options
    assert options.deck == "bts" and options.seats == 3
    assert options.turn_seconds == lobby.settings.table_defaults.turn_seconds
    # Section 10's order: already-at-table comes before bad-options.
    code = await refused(lobby, bob, partial(_asking, {"seats": 99}))
    assert code == LobbyRejectCode.ALREADY_AT_TABLE


async def test_a_table_asking_for_no_stacking_gets_none_on_a_stacking_server(
    nursery: trio.Nursery,
) -> None:
    party = TableConfig.from_data(preset_options("party"))
    lobby = await open_lobby(nursery, table_defaults=party)
    ann, bob = FakePeer("Ann"), FakePeer("Bob")
    await create(lobby, ann, stack="off")
    assert ann.state.options.stack == "off" and not ann.state.options.stack_draw_two
    await create(lobby, bob)
    assert bob.state.options.stack == "progressive" and bob.state.options.jump_in
    reader = FakePeer("Reader")
    await ok(lobby, reader, lambda i: ListTables(id=i, limit=10))
    listed = {table.table_id: table.house_rules for table in reader.last(TableList).tables}
    assert sorted(listed.values()) == [
        ("seven_o", "jump_in"),
        ("stack:progressive", "seven_o", "jump_in"),
    ]


async def test_list_tables_pages_with_a_cursor(nursery: trio.Nursery) -> None:
    lobby = await open_lobby(nursery)
    for name in ("One", "Two", "Three"):
        await create(lobby, FakePeer(name), name=name)
    reader = FakePeer("Reader")

    await ok(lobby, reader, lambda i: ListTables(id=i, limit=2))
    first = reader.last(TableList)
    assert [t.name for t in first.tables] == ["One", "Two"]
    assert first.next_cursor is not None
    cursor = first.next_cursor
    await ok(lobby, reader, lambda i: ListTables(id=i, cursor=cursor, limit=2))
    second = reader.last(TableList)
    assert [t.name for t in second.tables] == ["Three"] and second.next_cursor is None
    assert second.tables[0].taken == 1 and second.tables[0].host == "Three"

    code = await refused(lobby, reader, lambda i: ListTables(id=i, cursor="nonsense"))
    assert code == LobbyRejectCode.BAD_CURSOR


async def test_a_cursor_of_other_digits_is_refused_not_a_crash(nursery: trio.Nursery) -> None:
    # str.isdigit says yes to superscripts and other scripts' digits; int() does not.
    lobby = await open_lobby(nursery)
    await create(lobby, FakePeer("Ann"), name="One")
    reader = FakePeer("Reader")
    for cursor in ("\u00b2", "\u0663", "1\u00b2", "9" * 60):
        code = await refused(lobby, reader, partial(ListTables, cursor=cursor))
        assert code == LobbyRejectCode.BAD_CURSOR
    assert reader.closed is None


async def test_join_takes_the_first_free_seat_or_the_one_asked(nursery: trio.Nursery) -> None:
    lobby = await open_lobby(nursery)
    ann, bob, cat, dan = FakePeer("Ann"), FakePeer("Bob"), FakePeer("Cat"), FakePeer("Dan")
    table = await create(lobby, ann, seats=3)
    tid = table.table_id

    await ok(lobby, bob, lambda i: Join(id=i, table_id=tid, seat=2))
    assert bob.seat == 2
    assert await refused(lobby, cat, lambda i: Join(id=i, table_id=tid, seat=2)) == "seat-taken"
    assert await refused(lobby, cat, lambda i: Join(id=i, table_id=tid, seat=7)) == "bad-seat"
    await ok(lobby, cat, lambda i: Join(id=i, table_id=tid))
    assert cat.seat == 1
    assert await refused(lobby, dan, lambda i: Join(id=i, table_id=tid)) == "table-full"
    assert await refused(lobby, dan, lambda i: Join(id=i, table_id="404")) == "table-not-found"
    # Everyone at the table saw each arrival.
    assert [s.name for s in ann.state.seats] == ["Ann", "Cat", "Bob"]
    assert lobby.location(dan) is None


async def test_a_second_table_is_refused_until_the_first_is_left(nursery: trio.Nursery) -> None:
    lobby = await open_lobby(nursery)
    ann, bob = FakePeer("Ann"), FakePeer("Bob")
    first = await create(lobby, ann)
    second = await create(lobby, bob)
    sid = second.table_id

    code = await refused(lobby, ann, lambda i: Join(id=i, table_id=sid))
    assert code == LobbyRejectCode.ALREADY_AT_TABLE
    assert await refused(lobby, ann, lambda i: CreateTable(id=i, name="x")) == "already-at-table"
    assert lobby.location(ann) is first
    await ok(lobby, ann, lambda i: Leave(id=i))
    assert lobby.location(ann) is None
    await ok(lobby, ann, lambda i: Join(id=i, table_id=sid))
    assert lobby.location(ann) is second


async def test_commands_for_a_table_need_one(nursery: trio.Nursery) -> None:
    lobby = await open_lobby(nursery)
    ann = FakePeer("Ann")
    assert await refused(lobby, ann, lambda i: Ready(id=i)) == LobbyRejectCode.NOT_AT_TABLE
    assert await refused(lobby, ann, lambda i: Start(id=i)) == LobbyRejectCode.NOT_AT_TABLE
    draw = await refused(lobby, ann, lambda i: Game(id=i, command=Draw()))
    assert draw == LobbyRejectCode.NOT_AT_TABLE


async def test_same_name_twice_at_a_table_is_refused(nursery: trio.Nursery) -> None:
    lobby = await open_lobby(nursery)
    table = await create(lobby, FakePeer("Ann"))
    code = await refused(lobby, FakePeer("ann"), lambda i: Join(id=i, table_id=table.table_id))
    assert code == LobbyRejectCode.NAME_TAKEN


async def test_password_guards_join_and_spectate(nursery: trio.Nursery) -> None:
    lobby = await open_lobby(nursery)
    table = await create(lobby, FakePeer("Ann"), password="sesame")
    tid = table.table_id
    bob, eve = FakePeer("Bob"), FakePeer("Eve")

    assert await refused(lobby, eve, lambda i: Join(id=i, table_id=tid)) == "wrong-password"
    code = await refused(lobby, eve, lambda i: Spectate(id=i, table_id=tid, password="open"))
    assert code == "wrong-password"
    await ok(lobby, bob, lambda i: Join(id=i, table_id=tid, password="sesame"))
    assert bob.seat == 1
    assert lobby.summary().open_tables_with_password == 1


async def test_spectators_watch_without_a_seat(nursery: trio.Nursery) -> None:
    lobby = await open_lobby(nursery)
    ann, sue = FakePeer("Ann"), FakePeer("Sue")
    table = await create(lobby, ann)
    await ok(lobby, sue, lambda i: Spectate(id=i, table_id=table.table_id))

    assert sue.last(Joined).seat is None and sue.last(Joined).resume_token is None
    assert ann.state.spectators == 1
    assert await refused(lobby, sue, lambda i: Ready(id=i)) == LobbyRejectCode.NOT_SEATED
    await ok(lobby, sue, lambda i: Leave(id=i))
    assert ann.state.spectators == 0 and lobby.location(sue) is None


async def test_a_watch_sent_right_behind_a_leave_gets_its_reply(nursery: trio.Nursery) -> None:
    """Every command gets its one reply, even one the table reads after the same
    connection's leave (sent without waiting for the leave's reply)."""
    lobby = await open_lobby(nursery)
    ann, sue = FakePeer("Ann"), FakePeer("Sue")
    table = await create(lobby, ann)
    await ok(lobby, sue, lambda i: Spectate(id=i, table_id=table.table_id))
    leave = Leave(id=sue.next_id())
    watch = Spectate(id=sue.next_id(), table_id=table.table_id)
    await lobby.handle(sue, leave)
    await lobby.handle(sue, watch)
    await sue.wait_for(lambda: sue.reply(watch.id) is not None)
    answer = sue.reply(watch.id)
    assert isinstance(sue.reply(leave.id), Ok)
    assert answer is not None
    assert isinstance(answer, Ok) or answer.code == LobbyRejectCode.NOT_AT_TABLE, answer
    await ok(lobby, sue, lambda i: Spectate(id=i, table_id=table.table_id))  # and may again
    assert ann.state.spectators == 1


async def test_host_passes_to_the_next_person_when_the_host_leaves(nursery: trio.Nursery) -> None:
    lobby = await open_lobby(nursery)
    ann, bob, cat = FakePeer("Ann"), FakePeer("Bob"), FakePeer("Cat")
    table = await create(lobby, ann, seats=4)
    await ok(lobby, ann, lambda i: AddBot(id=i, strategy="basic"))  # seat 1 is a bot
    await ok(lobby, bob, lambda i: Join(id=i, table_id=table.table_id, seat=3))
    await ok(lobby, cat, lambda i: Join(id=i, table_id=table.table_id, seat=2))
    assert await refused(lobby, bob, lambda i: Start(id=i)) == LobbyRejectCode.NOT_HOST

    await ok(lobby, ann, lambda i: Leave(id=i))
    assert bob.state.host_seat == 2  # Cat: the next person after seat 0, bots skipped
    await ok(lobby, cat, lambda i: RemoveBot(id=i, seat=1))
    assert bob.state.seats[1].name is None


async def test_host_passes_on_a_lost_connection(nursery: trio.Nursery) -> None:
    lobby = await open_lobby(nursery)
    ann, bob = FakePeer("Ann"), FakePeer("Bob")
    table = await create(lobby, ann)
    await ok(lobby, bob, lambda i: Join(id=i, table_id=table.table_id))

    lobby.disconnected(ann)
    await bob.wait_for(lambda: bob.state.host_seat == 1)
    assert bob.state.seats[0].away


async def test_table_is_removed_when_its_last_person_leaves(nursery: trio.Nursery) -> None:
    lobby = await open_lobby(nursery)
    ann, sue = FakePeer("Ann"), FakePeer("Sue")
    table = await create(lobby, ann)
    await ok(lobby, ann, lambda i: AddBot(id=i, strategy="random"))
    await ok(lobby, sue, lambda i: Spectate(id=i, table_id=table.table_id))
    assert lobby.summary().tables == 1

    await ok(lobby, ann, lambda i: Leave(id=i))
    await settle()
    assert lobby.summary().tables == 0
    assert lobby.location(sue) is None  # spectators alone do not keep a table
    assert await refused(lobby, sue, lambda i: Ready(id=i)) == LobbyRejectCode.NOT_AT_TABLE


async def test_table_nobody_comes_back_to_is_removed_after_the_grace(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    lobby = await open_lobby(nursery, empty_table_seconds=30.0)
    ann = FakePeer("Ann")
    await create(lobby, ann)
    lobby.disconnected(ann)
    await settle()
    assert lobby.summary().tables == 1  # the seat waits for its owner

    autojump_clock.jump(31.0)
    await settle()
    assert lobby.summary().tables == 0


async def test_a_full_inbox_is_refused_as_busy(nursery: trio.Nursery) -> None:
    lobby = await open_lobby(nursery, inbox_size=2)
    ann = FakePeer("Ann")
    await create(lobby, ann)
    # handle() forwards without a checkpoint, so the table cannot drain in between: two
    # requests wait in the inbox (one more may be handed straight to the waiting task).
    ids = list(range(100, 106))
    for request_id in ids:
        await lobby.handle(ann, Ready(id=request_id))
    busy = [m.id for m in ann.received if isinstance(m, Rejected)]
    assert busy == ids[-len(busy) :] and len(busy) >= 3
    assert {m.code for m in ann.of(Rejected)} == {LobbyRejectCode.SLOW_DOWN}
    accepted = ids[: -len(busy)]
    await ann.wait_for(lambda: all(ann.reply(i) is not None for i in accepted))
    assert ann.state.seats[0].ready


async def test_too_many_tables_is_refused(nursery: trio.Nursery) -> None:
    lobby = await open_lobby(nursery, max_tables=1)
    await create(lobby, FakePeer("Ann"))
    code = await refused(lobby, FakePeer("Bob"), lambda i: CreateTable(id=i, name="x"))
    assert code == LobbyRejectCode.TOO_MANY_TABLES


async def test_chat_is_cleaned_and_reaches_the_table_only(nursery: trio.Nursery) -> None:
    lobby = await open_lobby(nursery)
    ann, bob, idle = FakePeer("Ann"), FakePeer("Bob"), FakePeer("Idle")
    table = await create(lobby, ann)
    await ok(lobby, bob, lambda i: Join(id=i, table_id=table.table_id))
    await ok(lobby, idle, lambda i: ListTables(id=i))

    await ok(lobby, bob, lambda i: Chat(id=i, text="hi \x1b[31mall\x1b[0m\x07"))
    line = ann.last(ChatMessage)
    assert (line.sender, line.text, line.seat) == ("Bob", "hi all", 1)
    assert not idle.of(ChatMessage)

    await ok(lobby, idle, lambda i: Chat(id=i, text="anyone?"))
    assert idle.last(ChatMessage).text == "anyone?"
    assert ann.last(ChatMessage).text == "hi all"


async def test_summary_counts_open_tables_and_free_seats(nursery: trio.Nursery) -> None:
    lobby = await open_lobby(nursery)
    await create(lobby, FakePeer("Ann"), seats=4)
    await create(lobby, FakePeer("Bob"), seats=2, password="pw")
    summary = lobby.summary()
    assert (summary.tables, summary.open_tables, summary.seats_free) == (2, 2, 4)
    assert summary.open_tables_with_password == 1 and not summary.password_needed


async def test_shutdown_stops_every_table(nursery: trio.Nursery) -> None:
    lobby = await open_lobby(nursery)
    ann, bob = FakePeer("Ann"), FakePeer("Bob")
    await create(lobby, ann)
    await create(lobby, bob)
    with trio.fail_after(5):
        await lobby.shutdown()
    assert lobby.summary().tables == 0
    assert lobby.location(ann) is None and lobby.location(bob) is None


async def test_messages_that_are_not_commands_are_ignored(nursery: trio.Nursery) -> None:
    from protocol.messages import Ping

    lobby = await open_lobby(nursery)
    ann = FakePeer("Ann")
    await lobby.handle(ann, Ping(nonce=1))
    assert ann.received == []
    reply = await call(lobby, ann, lambda i: ListTables(id=i))
    assert reply.id == 1


def test_lobby_builds_with_default_settings() -> None:
    lobby = Lobby()
    assert lobby.settings.seed is None and lobby.summary().tables == 0


async def test_a_table_failing_on_a_join_lets_the_newcomer_go_elsewhere(
    nursery: trio.Nursery, monkeypatch: pytest.MonkeyPatch
) -> None:
    lobby = await open_lobby(nursery)
    ann, bob = FakePeer("Ann"), FakePeer("Bob")
    table = await create(lobby, ann, name="Broken")

    def fail(*_args: object) -> None:
        raise RuntimeError("a bug in the table")

    monkeypatch.setattr(table.handlers, "_on_join", fail)
    monkeypatch.setattr(table.handlers, "_on_spectate", fail)
    code = await refused(lobby, bob, lambda i: Join(id=i, table_id=table.table_id))
    assert code == LobbyRejectCode.INTERNAL_ERROR
    code = await refused(lobby, bob, lambda i: Spectate(id=i, table_id=table.table_id))
    assert code == LobbyRejectCode.INTERNAL_ERROR
    assert lobby.location(bob) is None and bob.closed is None
    # Not stuck "on the way" to the broken table: Bob can still open his own.
    await create(lobby, bob, name="Mine")
    assert bob.last(Joined).seat == 0
