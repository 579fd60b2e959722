"""The client session against a scripted server on an in-memory stream."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import pytest
import trio
import trio.testing

import client.session as client_session
from client.session import (
    ClientSession,
    ConnectionLostError,
    InvalidLocalCommandError,
    ResumeState,
    ServerClosedError,
    ServerProtocolError,
    open_session,
    percentile,
)
from protocol.cards import Card, Color
from protocol.connection import ServerConnection
from protocol.events import Drew, DrewReason, SeenEvent, Turn
from protocol.messages import (
    Bye,
    Closing,
    Error,
    Game,
    GameEvent,
    GameView,
    Hello,
    Joined,
    Left,
    LeftReason,
    Message,
    Ok,
    Ping,
    Pong,
    Rejected,
    Request,
    TableState,
    TableStatus,
    Welcome,
)
from protocol.phase import Phase
from protocol.version import SUPPORTED_VERSIONS
from protocol.views import SharedView, View


class ScriptedServer:
    """The far end of a memory stream, speaking through a real ServerConnection."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        self.conn = ServerConnection()
        self.received: list[Message] = []

    async def next(self) -> Message:
        while True:
            message = self.conn.next_message()
            if message is not None:
                self.received.append(message)
                return message
            data = await self.stream.receive_some(65536)
            if not data:
                raise EOFError
            self.conn.receive_data(bytes(data))

    async def send(self, message: Message) -> None:
        await self.stream.send_all(self.conn.send(message))

    async def greet(self) -> Hello:
        """Read the hello and welcome it (resumed when it carries a resume token)."""
        hello = await self.next()
        assert isinstance(hello, Hello)
        await self.send(
            Welcome(
                version=self.conn.version or "1.0",
                server_name="test",
                server_id="s1",
                server_version="0",
                resumed=hello.resume_token is not None,
            )
        )
        return hello


Script = Callable[[ScriptedServer], Awaitable[None]]


_SHARED = SharedView(
    phase=Phase.TURN,
    round=1,
    dealer=0,
    direction=1,
    to_act=0,
    top=Card.parse("R5"),
    color=Color.RED,
    counts=(7, 7, 7),
    draw_count=80,
    discard_count=1,
    scores=(0, 0, 0),
    eliminated=(),
    away=(),
    exposed=(),
    pending=None,
    remaining_ms=None,
    pending_draw=0,
    skip_marks=(0, 0, 0),
    round_result=None,
    match_result=None,
    last_seq=0,
)


def _view(seq: int, seat: int | None = 0, hand: tuple[str, ...] = ()) -> GameView:
    """A view numbered ``seq``, through ``seat``'s eyes (None: a spectator's)."""
    shared = dataclasses.replace(_SHARED, last_seq=seq)
    cards = tuple(Card.parse(code) for code in hand) if seat is not None else None
    return GameView(seq=seq, body=View(seat=seat, shared=shared, hand=cards))


def _turn(seq: int) -> GameEvent:
    return GameEvent(seq=seq, body=SeenEvent(seq, Turn(seat=0, direction=1, phase=Phase.TURN)))


@asynccontextmanager
async def scripted(
    script: Script, resume: ResumeState | None = None, *, kept: int = 10_000
) -> AsyncIterator[ClientSession]:
    client_stream, server_stream = trio.testing.memory_stream_pair()
    server = ScriptedServer(server_stream)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(script, server)
        async with open_session(
            client_stream, "Ada", resume=resume, events_kept=kept, latencies_kept=kept
        ) as session:
            yield session
        nursery.cancel_scope.cancel()


async def test_handshake_offers_our_versions_and_keeps_the_welcome() -> None:
    hellos: list[Hello] = []

    async def script(server: ScriptedServer) -> None:
        hellos.append(await server.greet())
        await trio.sleep_forever()

    with trio.fail_after(5):
        async with scripted(script) as session:
            assert session.welcome is not None and session.welcome.server_name == "test"
    assert hellos[0].versions == SUPPORTED_VERSIONS and hellos[0].name == "Ada"


async def test_a_command_gets_its_own_reply_while_events_flow() -> None:
    async def script(server: ScriptedServer) -> None:
        await server.greet()
        await server.send(Joined(table_id="t1", seat=2, resume_token="tok"))
        game = await server.next()
        assert isinstance(game, Game)
        drew = SeenEvent(1, Drew(seat=2, count=1, reason=DrewReason.DRAW))
        await server.send(GameEvent(seq=1, body=drew, cause=game.id))
        await server.send(_view(1, seat=2))
        await server.send(Ok(id=game.id))
        await trio.sleep_forever()

    with trio.fail_after(5):
        async with scripted(script) as session:
            await session.wait_for(lambda s: s.seat is not None)
            reply = await session.play({"type": "draw"})
            assert reply.ok and not reply.lost_race
            assert session.last_seq == 1 and not session.gaps
            assert session.events[0].cause == reply.id
            assert session.view == _view(1, seat=2).body
            assert len(session.latencies_ms) == 1
            assert session.resume_state() == ResumeState("tok", 1)


async def test_left_clears_the_table_and_the_next_table_numbers_from_one() -> None:
    state = TableState(table_id="t1", name="Friday", state=TableStatus.PLAYING, seats=())

    async def script(server: ScriptedServer) -> None:
        await server.greet()
        await server.send(Joined(table_id="t1", seat=1, resume_token="tok"))
        await server.send(state)
        await server.send(_view(40, seat=1))
        await server.send(Left(table_id="elsewhere", reason=LeftReason.LEFT))
        await server.send(Left(table_id="t1", reason=LeftReason.KICKED, message="Bo kicked you"))
        await server.send(Joined(table_id="t2", seat=0, resume_token="tok2"))
        await server.send(_view(1, seat=0))
        await server.send(_turn(2))
        await trio.sleep_forever()

    with trio.fail_after(5):
        async with scripted(script) as session:
            await session.wait_for(lambda s: s.left_count == 2)
            assert session.left is not None and session.left.reason is LeftReason.KICKED
            assert session.left.message == "Bo kicked you"
            await session.wait_for(lambda s: s.last_seq == 2)
            assert session.table_id == "t2" and session.seat == 0
            assert session.table is None  # the old table's state is forgotten
            assert session.resume_state() == ResumeState("tok2", 2)
            assert not session.gaps


async def test_left_before_anything_else_forgets_the_seat() -> None:
    async def script(server: ScriptedServer) -> None:
        await server.greet()
        await server.send(Joined(table_id="t1", seat=1, resume_token="tok"))
        await server.send(_view(5, seat=1))
        await server.send(Left(table_id="t1", reason=LeftReason.TABLE_CLOSED))
        await trio.sleep_forever()

    with trio.fail_after(5):
        async with scripted(script) as session:
            await session.wait_for(lambda s: s.left is not None)
            assert session.seat is None and session.table_id is None and session.view is None
            assert session.resume_state() is None and session.last_seq == 0


async def test_a_table_closed_by_a_stopping_server_keeps_its_token_to_resume() -> None:
    """A 1.2 server (or one without a journal) that stops says the table closed, then
    ``closing``: the token comes back, for the resume once the server is up again."""

    async def script(server: ScriptedServer) -> None:
        await server.greet()
        await server.send(Joined(table_id="t1", seat=1, resume_token="tok"))
        await server.send(_view(5, seat=1))
        await server.send(Left(table_id="t1", reason=LeftReason.TABLE_CLOSED))
        await server.send(Closing(reason="the server is shutting down"))
        await trio.sleep_forever()

    with trio.fail_after(5):
        async with scripted(script) as session:
            await session.wait_for(lambda s: s.closed)
            assert session.resume_state() == ResumeState("tok", 0)
            assert session.table_id == "t1"


async def test_a_rejection_carries_code_and_sentence() -> None:
    async def script(server: ScriptedServer) -> None:
        await server.greet()
        game = await server.next()
        assert isinstance(game, Request)
        await server.send(Rejected(id=game.id, code="lost-race", message="too slow"))
        await trio.sleep_forever()

    with trio.fail_after(5):
        async with scripted(script) as session:
            reply = await session.play({"type": "catch", "target": 1})
            assert not reply.ok and reply.lost_race and reply.message == "too slow"


async def test_a_session_without_history_counts_events_and_replies_but_keeps_none() -> None:
    async def script(server: ScriptedServer) -> None:
        await server.greet()
        await server.send(Joined(table_id="t1", seat=0, resume_token="tok"))
        game = await server.next()
        assert isinstance(game, Game)
        for seq in range(1, 301):
            await server.send(_turn(seq))
        await server.send(_view(300, seat=0))
        await server.send(Ok(id=game.id))
        await trio.sleep_forever()

    with trio.fail_after(5):
        async with scripted(script, kept=0) as session:
            await session.wait_for(lambda s: s.seat is not None)
            reply = await session.play({"type": "draw"})
            assert reply.ok and session.reply_count == 1
            assert session.event_count == 300 and session.last_seq == 300
            assert session.view_seq == 300 and not session.gaps
            assert not session.events and not session.latencies_ms


async def test_missing_event_numbers_are_recorded_as_a_gap() -> None:
    async def script(server: ScriptedServer) -> None:
        await server.greet()
        await server.send(_view(3, seat=None))
        await server.send(_turn(4))
        await server.send(_turn(7))
        await server.send(_turn(7))
        await trio.sleep_forever()

    with trio.fail_after(5):
        async with scripted(script) as session:
            await session.wait_for(lambda s: s.last_seq == 7)
            assert list(session.gaps) == [(5, 6)] and session.gap_count == 1
            assert [event.seq for event in session.events] == [4, 7]


async def test_pings_are_answered_with_the_same_nonce() -> None:
    pongs: list[Pong] = []

    async def script(server: ScriptedServer) -> None:
        await server.greet()
        await server.send(Ping(nonce=42))
        message = await server.next()
        assert isinstance(message, Pong)
        pongs.append(message)
        await server.send(_turn(1))
        await trio.sleep_forever()

    with trio.fail_after(5):
        async with scripted(script) as session:
            await session.wait_for(lambda s: s.last_seq == 1)
    assert pongs == [Pong(nonce=42)]


async def test_a_protocol_error_from_the_server_ends_waiting_commands() -> None:
    async def script(server: ScriptedServer) -> None:
        await server.greet()
        await server.next()
        await server.send(Error(code="bad-message", message="nope"))
        await trio.sleep_forever()

    with trio.fail_after(5):
        async with scripted(script) as session:
            with pytest.raises(ServerClosedError) as caught:
                await session.play({"type": "draw"})
            assert caught.value.code == "bad-message" and session.closed


async def test_a_closing_notice_is_a_server_close() -> None:
    async def script(server: ScriptedServer) -> None:
        await server.greet()
        await server.send(Closing(reason="shutting down"))
        await trio.sleep_forever()

    with trio.fail_after(5):
        async with scripted(script) as session:
            with pytest.raises(ServerClosedError, match="shutting down"):
                await session.wait_for(lambda s: False)


async def closing_on_the_wire() -> tuple[ClientSession, ScriptedServer, bytes]:
    """A greeted session, its server, and the bytes of the server's closing: sent, read
    off the stream, not yet given to the session's connection."""
    client_stream, server_stream = trio.testing.memory_stream_pair()
    server = ScriptedServer(server_stream)
    session = ClientSession(client_stream, "Ada")
    async with trio.open_nursery() as nursery:
        nursery.start_soon(server.greet)
        await session.handshake(Hello(versions=SUPPORTED_VERSIONS, name="Ada"))
    await server.send(Closing(reason="shutting down"))
    return session, server, bytes(await client_stream.receive_some(65536))


async def test_a_closing_read_but_not_yet_handled_still_closes_quietly() -> None:
    # A Ctrl-C can land between reading the server's closing and handling it; closing the
    # session then must not try to say bye on a connection that has already ended.
    session, server, closing = await closing_on_the_wire()
    session._conn.receive_data(closing)
    assert isinstance(session._conn.next_message(), Closing) and not session.closed
    with pytest.raises(ConnectionLostError):
        await session.send(Ping(nonce=1))
    await session.aclose()
    assert session.closed and server.received == [server.received[0]]


async def test_a_closing_read_while_a_send_waits_for_the_lock_is_a_lost_connection() -> None:
    # A Ctrl-C's bye can wait behind another send while the reader takes in the server's
    # closing: once it has the lock it must end as a lost connection (which closing the
    # session expects), not as a protocol error from sending on a closed connection.
    session, server, closing = await closing_on_the_wire()

    async def say_bye() -> None:
        with pytest.raises(ConnectionLostError):
            await session.send(Bye(reason=None))

    await session._send_lock.acquire()  # another send is writing
    async with trio.open_nursery() as nursery:
        nursery.start_soon(say_bye)
        await trio.testing.wait_all_tasks_blocked()
        session._conn.receive_data(closing)
        assert isinstance(session._conn.next_message(), Closing)
        session._send_lock.release()
    assert server.received == [server.received[0]]


async def test_a_dropped_connection_raises_connection_lost() -> None:
    async def script(server: ScriptedServer) -> None:
        await server.greet()
        await server.next()
        await server.stream.aclose()

    with trio.fail_after(5):
        async with scripted(script) as session:
            with pytest.raises(ConnectionLostError):
                await session.play({"type": "draw"})


async def test_garbage_from_the_server_is_its_protocol_error() -> None:
    async def script(server: ScriptedServer) -> None:
        await server.greet()
        await server.stream.send_all(b"\x00\x00\x00\x02\xff\xff")
        await trio.sleep_forever()

    with trio.fail_after(5):
        async with scripted(script) as session:
            await session.wait_for(lambda s: s.closed)
            assert isinstance(session.close_reason, ServerProtocolError)


async def test_resume_sends_the_token_and_last_seq_in_the_hello() -> None:
    hellos: list[Hello] = []

    async def script(server: ScriptedServer) -> None:
        hellos.append(await server.greet())
        # The server's order: the missed events, then the view, then what follows.
        await server.send(_turn(6))
        await server.send(_turn(7))
        await server.send(_view(7, hand=("R1",)))
        await server.send(_turn(8))
        await trio.sleep_forever()

    with trio.fail_after(5):
        async with scripted(script, resume=ResumeState("tok", 5)) as session:
            await session.wait_for(lambda s: s.last_seq == 8)
            assert not session.gaps
            assert [event.seq for event in session.events] == [6, 7, 8]
    assert hellos[0].resume_token == "tok" and hellos[0].last_seq == 5


async def test_a_view_beyond_the_last_event_is_the_new_base_not_a_gap() -> None:
    """After a long absence the server sends the view alone (no replay): its seq is where
    the client now stands, and a later resume starts from there."""

    checked = trio.Event()

    async def script(server: ScriptedServer) -> None:
        await server.greet()
        await server.send(Joined(table_id="t1", seat=1, resume_token="tok"))
        await server.send(_view(700, hand=("R1",)))
        await checked.wait()
        await server.send(_turn(701))
        await trio.sleep_forever()

    with trio.fail_after(5):
        async with scripted(script, resume=ResumeState("tok", 5)) as session:
            await session.wait_for(lambda s: s.view is not None)
            assert session.resume_state() == ResumeState("tok", 700)
            checked.set()
            await session.wait_for(lambda s: s.event_count == 1)
            assert not session.gaps and session.view == _view(700, hand=("R1",)).body
            assert [event.seq for event in session.events] == [701]
            assert session.resume_state() == ResumeState("tok", 701)


async def test_the_listener_hears_every_message_in_order_but_no_event_twice() -> None:
    heard: list[Message] = []

    async def script(server: ScriptedServer) -> None:
        await server.greet()
        await server.send(Joined(table_id="t1", seat=0, resume_token="tok"))
        await server.send(_turn(1))
        await server.send(_turn(1))  # repeated, as a resume may: not passed on
        await server.send(_view(1))
        await server.send(Ping(nonce=3))
        await trio.sleep_forever()

    client_stream, server_stream = trio.testing.memory_stream_pair()
    with trio.fail_after(5):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(script, ScriptedServer(server_stream))
            async with open_session(client_stream, "Ada", listener=heard.append) as session:
                await session.wait_for(lambda s: len(heard) >= 5)
            nursery.cancel_scope.cancel()
    assert [type(message) for message in heard] == [Welcome, Joined, GameEvent, GameView, Ping]


async def test_a_map_that_is_no_command_is_refused_before_sending() -> None:
    async def script(server: ScriptedServer) -> None:
        await server.greet()
        await trio.sleep_forever()

    with trio.fail_after(5):
        async with scripted(script) as session:
            with pytest.raises(InvalidLocalCommandError):
                await session.play({"type": "fly"})
            with pytest.raises(InvalidLocalCommandError):
                await session.play({"type": "timeout"})


def test_percentile_is_nearest_rank() -> None:
    assert percentile([], 0.5) == 0.0
    assert percentile([3.0, 1.0, 2.0, 4.0], 0.5) == 2.0
    assert percentile([float(n) for n in range(1, 101)], 0.99) == 99.0


async def test_latencies_and_gaps_are_kept_within_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    """In-server bots live as long as their table: what they record must not grow forever."""
    monkeypatch.setattr(client_session, "MAX_KEPT_GAPS", 2)

    async def script(server: ScriptedServer) -> None:
        await server.greet()
        for seq in (1, 3, 5, 7, 9):
            await server.send(_turn(seq))
        while True:
            request = await server.next()
            if isinstance(request, Game):
                await server.send(Ok(id=request.id))

    with trio.fail_after(5):
        async with scripted(script, kept=3) as session:
            for _ in range(5):
                assert (await session.play({"type": "draw"})).ok
            await session.wait_for(lambda s: s.last_seq == 9)
            assert len(session.latencies_ms) == 3
            assert list(session.gaps) == [(6, 6), (8, 8)] and session.gap_count == 4
            assert percentile(session.latencies_ms, 0.99) >= 0.0
