"""client/launch.py: the one way the client and uno-bot start a server child process."""

from __future__ import annotations

import sys

import pytest
import trio

from client.launch import ServerStartError, parse_address, running_server, server_command
from client.session import connect


def test_a_private_server_listens_on_loopback_without_mdns() -> None:
    command = server_command(extra=["--seed", "3"])
    assert command[:3] == [sys.executable, "-m", "server"]
    assert command[command.index("--host") + 1] == "127.0.0.1"
    assert command[command.index("--port") + 1] == "0"
    assert "--no-mdns" in command and "--mdns-interface" not in command
    assert command[-2:] == ["--seed", "3"]  # extra arguments last, so they win


def test_a_lan_server_listens_everywhere_and_advertises_where_asked() -> None:
    command = server_command(host=None, port=7531, advertise=True, interfaces=["10.0.0.2"])
    assert "--host" not in command and "--no-mdns" not in command
    assert command[command.index("--port") + 1] == "7531"
    assert command[command.index("--mdns-interface") + 1] == "10.0.0.2"


def test_parse_address_takes_ascii_ports_and_ipv6_brackets() -> None:
    assert parse_address("127.0.0.1:7531") == ("127.0.0.1", 7531)
    assert parse_address("[::1]:80") == ("::1", 80)
    for bad in ("nowhere", "host:", "host:\u00b2"):
        with pytest.raises(ValueError, match="HOST:PORT"):
            parse_address(bad)


async def test_the_child_server_serves_then_stops_with_the_block() -> None:
    with trio.fail_after(60):
        async with running_server() as (host, port):
            assert host == "127.0.0.1" and port > 0
            async with connect(host, port, "Probe") as session:
                assert session.welcome is not None
        with pytest.raises(OSError):
            await trio.open_tcp_stream(host, port)


async def test_a_child_that_never_listens_is_a_start_error() -> None:
    with trio.fail_after(60), pytest.raises(ServerStartError):
        async with running_server(extra=["--port", "not-a-port"]):
            pytest.fail("the server cannot have started")
