"""The server over real loopback sockets: serving, the connection cap, isolation, stopping.

The lobby is a fake that answers ok; tests/e2e runs the real one in a real process. These
tests use real sockets, so they run on the real clock, bounded by ``fail_after``, and
never assert a time.
"""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
import trio
from test_session_wire import EchoLobby, WireClient

from protocol.codec import decode_body, encode_body
from protocol.errors import ErrorCode
from protocol.framing import FrameDecoder, encode_frame
from protocol.messages import Closing, ListTables, Ok, Welcome
from server.app import Server, ServerSettings, bind_listeners, format_address, local_addresses
from server.identity import ServerIdentity
from server.limits import SessionLimits

IDENTITY = ServerIdentity(name="test", server_id="srv-test", version="0.1.0")


class ServiceLobby(EchoLobby):
    """The echo lobby with the lobby's life cycle."""

    def __init__(self) -> None:
        super().__init__()
        self.running = False
        self.shut_down = False

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        self.running = True
        task_status.started()
        try:
            await trio.sleep_forever()
        finally:
            self.running = False

    async def shutdown(self) -> None:
        self.shut_down = True


@asynccontextmanager
async def running(
    settings: ServerSettings | None = None,
) -> AsyncIterator[tuple[Server, ServiceLobby, int]]:
    settings = settings or ServerSettings(hosts=("127.0.0.1",), port=0)
    lobby = ServiceLobby()
    server = Server(settings, lobby, IDENTITY)
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            addresses = await nursery.start(server.run)
            yield server, lobby, addresses[0][1]
            server.stop("test over")


async def connect(port: int, host: str = "127.0.0.1") -> WireClient:
    return WireClient(await trio.open_tcp_stream(host, port))


async def test_serves_a_client_over_loopback() -> None:
    async with running() as (server, lobby, port):
        assert lobby.running
        client = await connect(port)
        welcome = await client.hello("ann")
        assert isinstance(welcome, Welcome)
        assert welcome.server_id == "srv-test"
        assert isinstance(await client.request(lambda id_: ListTables(id=id_)), Ok)
        (session,) = server.sessions
        assert session.address == "127.0.0.1"
        assert session.name == "ann"


async def test_the_connection_cap_refuses_with_server_full() -> None:
    settings = ServerSettings(hosts=("127.0.0.1",), port=0, max_connections=2, max_per_address=2)
    async with running(settings) as (server, _, port):
        first, second = await connect(port), await connect(port)
        await first.hello("one")
        await second.hello("two")
        third = await connect(port)
        error = await third.expect_error()
        assert error.code == ErrorCode.SERVER_FULL
        # A place frees up when someone leaves.
        (session_one,) = [session for session in server.sessions if session.name == "one"]
        await first.stream.aclose()
        await session_one.done.wait()
        fourth = await connect(port)
        assert isinstance(await fourth.hello("four"), Welcome)


def _has_ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


@pytest.mark.skipif(not _has_ipv6_loopback(), reason="this machine has no IPv6 loopback")
async def test_one_address_cannot_take_more_than_its_share() -> None:
    settings = ServerSettings(
        hosts=("127.0.0.1", "::1"), port=0, max_connections=10, max_per_address=1
    )
    async with running(settings) as (_, _, port):
        mine = await connect(port)
        await mine.hello("one")
        again = await connect(port)
        error = await again.expect_error()
        assert error.code == ErrorCode.SERVER_FULL
        assert "127.0.0.1" in error.message
        other_address = await connect(port, "::1")
        assert isinstance(await other_address.hello("two"), Welcome)


async def test_garbage_on_one_connection_leaves_the_others_alone() -> None:
    async with running() as (server, lobby, port):
        good, bad = await connect(port), await connect(port)
        await good.hello("good")
        await bad.hello("bad")
        (bad_session,) = [session for session in server.sessions if session.name == "bad"]
        await bad.send_raw(b"\x00\x00\x00\x03abc")
        assert (await bad.expect_error()).code == ErrorCode.MALFORMED_FRAME
        assert isinstance(await good.request(lambda id_: ListTables(id=id_)), Ok)
        await bad_session.done.wait()
        assert [peer.name for peer in lobby.gone] == ["bad"]


async def test_stop_tells_every_client_then_closes() -> None:
    lobby_seen: list[ServiceLobby] = []
    async with running() as (server, lobby, port):
        lobby_seen.append(lobby)
        clients = [await connect(port) for _ in range(3)]
        for number, client in enumerate(clients):
            await client.hello(f"p{number}")
        server.stop("maintenance")
        for client in clients:
            messages = await client.receive_all()
            assert messages[-1] == Closing(reason="maintenance")
    assert lobby_seen[0].shut_down
    assert not lobby_seen[0].running


async def test_a_client_that_never_says_hello_is_told_to_on_stop() -> None:
    async with running() as (server, _, port):
        silent = await connect(port)
        # Connections are accepted in order: once a later one is welcomed, the silent
        # one is being served too.
        later = await connect(port)
        await later.hello("later")
        assert len(server.sessions) == 2
        server.stop("bye all")
        assert await silent.receive_all() == [Closing(reason="bye all")]


async def test_binding_port_zero_on_two_addresses_uses_one_port() -> None:
    hosts = ("127.0.0.1", "::1") if _has_ipv6_loopback() else ("127.0.0.1",)
    listeners = await bind_listeners(hosts, 0)
    try:
        ports = {listener.socket.getsockname()[1] for listener in listeners}
        assert len(listeners) == len(hosts)
        assert len(ports) == 1
    finally:
        for listener in listeners:
            await listener.aclose()


async def test_binding_a_taken_port_says_which() -> None:
    listeners = await bind_listeners(("127.0.0.1",), 0)
    port = listeners[0].socket.getsockname()[1]
    try:
        with pytest.raises(OSError, match=f"127.0.0.1:{port}"):
            await bind_listeners(("127.0.0.1",), port)
    finally:
        await listeners[0].aclose()


def test_addresses_are_shown_the_way_people_type_them() -> None:
    assert format_address("192.0.2.1", 7531) == "192.0.2.1:7531"
    assert format_address("::1", 7531) == "[::1]:7531"


def test_reachable_addresses_include_loopback_for_every_interface() -> None:
    assert "127.0.0.1" in local_addresses(["0.0.0.0"])
    assert local_addresses(["192.0.2.5"]) == ["192.0.2.5"]


def test_settings_refuse_nonsense() -> None:
    with pytest.raises(ValueError, match="port"):
        ServerSettings(port=70000)
    with pytest.raises(ValueError):
        ServerSettings(max_connections=0)
    with pytest.raises(ValueError):
        ServerSettings(session=SessionLimits(), shutdown_seconds=0)


async def test_a_refusal_in_the_handshake_is_read_before_an_orderly_end() -> None:
    """The client's next frame was on its way when the server refused its hello: the
    server reads and drops it, so the client sees the error, then an end, not a reset."""
    async with running() as (_, _, port):
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        hello = encode_body({"type": "hello", "versions": ["2.0"], "name": "future"})
        await stream.send_all(encode_frame(hello))
        await trio.lowlevel.wait_readable(stream.socket)
        await stream.send_all(encode_frame(encode_body({"type": "ping", "nonce": 1})))
        decoder = FrameDecoder()
        codes = []
        while data := await stream.receive_some(65536):  # a reset raises here
            decoder.feed(bytes(data))
            while (body := decoder.next_frame()) is not None:
                codes.append(decode_body(body).get("code"))
        await stream.aclose()
        assert codes == [ErrorCode.UNSUPPORTED_VERSION.value]
