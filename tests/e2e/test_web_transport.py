"""The web port of the real ``uno-server``: the page's files, and WebSocket as a transport.

No browser: ``e2e_websocket.WebSocketClient`` speaks WebSocket from Trio, and the same
``Player`` that plays over TCP in the other end-to-end tests plays over it here.
"""

from __future__ import annotations

import random
import socket
import struct
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio
from e2e_client import FAST_OPTIONS, Hub, Player, drive, turn_choice
from e2e_server import ServerProcess
from e2e_websocket import HandshakeRefused, WebSocketClient, connect_player, http_get

from protocol.messages import AddBot, CreateTable, Error, Ping, Pong, Start
from protocol.options import TableOptions
from protocol.startup import PAGE


def web_port_of(server: ServerProcess) -> int:
    """The port in the server's ``browser page:`` line."""
    while True:
        line = server.next_line()
        if line.startswith(PAGE):
            assert line.endswith("(reachable only from this machine)"), line
            url = line[len(PAGE) :].split(" ", 1)[0]
            assert url.startswith("http://127.0.0.1:") and url.endswith("/"), url
            return int(url.rstrip("/").rsplit(":", 1)[1])


@pytest.fixture
def web_server(tmp_path: Path) -> Iterator[tuple[ServerProcess, int]]:
    """A server (port 0, so its web port is free too) and its web port."""
    server = ServerProcess.start(tmp_path, "--max-per-address", "3")
    try:
        yield server, web_port_of(server)
    finally:
        server.stop()


async def test_a_whole_match_against_server_bots_over_the_websocket(
    web_server: tuple[ServerProcess, int],
) -> None:
    _server, port = web_server
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            player = await connect_player(port, "phone")
            assert player.welcome is not None
            assert player.welcome.version == "1.3"
            assert player.welcome.web_port == port
            nursery.start_soon(player.read_forever)
            options = TableOptions.parse({**FAST_OPTIONS, "seats": 3})
            await player.ok(lambda id_: CreateTable(id=id_, name="web", options=options))
            for _ in range(2):
                await player.ok(lambda id_: AddBot(id=id_, strategy="basic"))
            await player.ok(lambda id_: Start(id=id_))
            await drive([player], lambda: player.match_over, random.Random(3))
            assert "match-over" in player.event_kinds()
            assert "round-over" in player.event_kinds()
            assert player.unexpected_rejections == []
            nursery.cancel_scope.cancel()


async def test_the_welcome_names_the_web_port_only_to_1_3(
    web_server: tuple[ServerProcess, int],
) -> None:
    server, port = web_server
    old = await Player.connect(server.port, "old", versions=("1.2",))
    new = await Player.connect(server.port, "new", versions=("1.3",))
    assert old.welcome is not None and new.welcome is not None
    assert old.welcome.web_port is None
    assert new.welcome.web_port == port
    await old.close()
    await new.close()


async def test_a_handshake_from_another_origin_or_for_another_host_is_refused(
    web_server: tuple[ServerProcess, int],
) -> None:
    _server, port = web_server
    for origin in ("http://elsewhere.example", None, f"https://127.0.0.1:{port}", "null"):
        with pytest.raises(HandshakeRefused) as refused:
            await WebSocketClient.open(port, origin=origin)
        assert refused.value.status == 403, origin
    for host in ("elsewhere.example", f"evil.example:{port}", "127.0.0.1:1"):
        with pytest.raises(HandshakeRefused) as refused:
            await WebSocketClient.open(port, host=host)
        assert refused.value.status == 421, host
    # The same handshake with the page's own origin is accepted: the refusals are no accident.
    accepted = await WebSocketClient.open(port)
    await accepted.aclose()
    assert (await WebSocketClient.open(port, host=f"localhost:{port}")) is not None


async def test_only_the_shipped_files_are_served(web_server: tuple[ServerProcess, int]) -> None:
    _server, port = web_server
    status, headers = await http_get(port, "/")
    assert status == 200
    assert headers["content-type"].startswith("text/html")
    policy = headers["content-security-policy"]
    assert f"connect-src ws://127.0.0.1:{port}" in policy
    assert "default-src 'none'" in policy
    for target in (
        "/../pyproject.toml",
        "/..%2f..%2fpyproject.toml",
        "/%2e%2e/app.py",
        "/app.py",
        "/web/index.html",
        "//etc/passwd",
        "/index.html/..",
        "/nothing",
    ):
        assert (await http_get(port, target))[0] == 404, target
    assert (await http_get(port, "/", host="elsewhere.example"))[0] == 421


async def test_a_malformed_or_broken_request_costs_only_its_own_connection(
    web_server: tuple[ServerProcess, int],
) -> None:
    server, port = web_server
    # Two Host headers: which one the page was served to cannot be known.
    status, _ = await http_get(port, "/", extra=f"Host: elsewhere.example:{port}\r\n")
    assert status == 400
    status, _ = await http_get(port, "/ws", extra=f"Host: 127.0.0.1:{port}\r\n")
    assert status == 400
    # A client that resets its connection halfway through its request.
    for _ in range(3):
        tcp = await trio.open_tcp_stream("127.0.0.1", port)
        await tcp.send_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1")
        tcp.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        await tcp.aclose()  # SO_LINGER 0: a reset, not a clean end
    await trio.sleep(0.2)
    assert server.process.poll() is None
    assert (await http_get(port, "/"))[0] == 200
    player = await connect_player(port, "ann", Hub())
    assert player.welcome is not None


async def test_websocket_connections_count_in_the_per_address_share(
    web_server: tuple[ServerProcess, int],
) -> None:
    server, port = web_server
    # --max-per-address 3: two over TCP and one over WebSocket fill it.
    tcp = [await Player.connect(server.port, f"t{n}") for n in range(2)]
    web = await connect_player(port, "w0")
    with pytest.raises(HandshakeRefused) as refused:
        await WebSocketClient.open(port)
    assert refused.value.status == 503
    # A TCP connection leaving makes room for a WebSocket: both count in one share.
    await tcp[0].close()
    with trio.fail_after(10):
        while True:
            try:
                again = await WebSocketClient.open(port)
            except HandshakeRefused:
                await trio.sleep(0.05)
                continue
            break
    await again.aclose()
    await web.close()
    await tcp[1].close()


async def test_a_text_message_closes_the_websocket(web_server: tuple[ServerProcess, int]) -> None:
    _server, port = web_server
    stream = await WebSocketClient.open(port)
    await stream.send_text("hello")
    with trio.fail_after(10):
        assert await stream.receive_some() == b""
    await stream.aclose()


async def test_a_broken_frame_over_the_websocket_is_a_protocol_error(
    web_server: tuple[ServerProcess, int],
) -> None:
    _server, port = web_server
    player = Player(await WebSocketClient.open(port), "garbage", Hub())  # type: ignore[arg-type]
    await player.stream.send_all(b"\x00\x00\x00\x03\xc1\xc1\xc1")
    with trio.fail_after(10):
        while await player.receive() is not None:
            pass
    assert isinstance(player.error, Error)


# The fields that differ by time or by process between two runs of the same seeded match,
# and nothing else: clocks' remaining time, the server's random id and resume tokens, and
# the web port (each server has a free one). Pings and pongs are left out whole.
MASKED = ("remaining_ms", "server_id", "resume_token", "web_port")


def masked(data: object) -> object:
    if isinstance(data, dict):
        return {k: "*" if k in MASKED else masked(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [masked(item) for item in data]
    return data


def own_turn_only(player: Player, rng: random.Random) -> dict[str, object] | None:
    """Plays on its own turn only (never a race against a bot for a catch)."""
    view = player.view
    if view is None or not player.legal() or view.get("to_act") != view.get("seat"):
        return None
    return turn_choice(player.legal(), rng)


async def seeded_match(player: Player) -> list[object]:
    async with trio.open_nursery() as nursery:
        nursery.start_soon(player.read_forever)
        options = TableOptions.parse({**FAST_OPTIONS, "seats": 2})
        await player.ok(lambda id_: CreateTable(id=id_, name="same", options=options))
        await player.ok(lambda id_: AddBot(id=id_, strategy="normal"))
        await player.ok(lambda id_: Start(id=id_))
        await drive([player], lambda: player.match_over, random.Random(5), own_turn_only)
        # The match's last message: the table says it is over (after the last view).
        await player.hub.until(lambda: player.state is not None and player.state.state == "over")
        nursery.cancel_scope.cancel()
    return [masked(f.to_data()) for f in player.frames if not isinstance(f, Ping | Pong)]


async def test_the_websocket_carries_exactly_the_frames_tcp_does(tmp_path: Path) -> None:
    tcp_server = ServerProcess.start(tmp_path)
    web_server = ServerProcess.start(tmp_path)
    try:
        web_port = web_port_of(web_server)
        with trio.fail_after(90):
            over_tcp = await seeded_match(
                await Player.connect(tcp_server.port, "same", versions=("1.3",))
            )
            over_web = await seeded_match(await connect_player(web_port, "same"))
    finally:
        tcp_server.stop()
        web_server.stop()
    assert len(over_tcp) > 50
    assert over_web == over_tcp
