"""client/launch.py: the one way the client and uno-bot start a server child process."""

from __future__ import annotations

import socket
import sys

import pytest
import trio

from client.cli import build_parser
from client.command import discovery_text, serve_options
from client.launch import ServerStartError, parse_address, running_server, server_command
from client.session import connect
from client.solo import lan_server


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


async def test_a_port_in_use_is_said_in_one_plain_sentence() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with trio.fail_after(60), pytest.raises(ServerStartError) as failed:
            async with running_server(port=port):
                pytest.fail("the server cannot have started")
    text = str(failed.value)
    assert text == f"uno-server could not start: cannot listen on 127.0.0.1:{port}: " + (
        "Address already in use"
    )


async def test_serve_with_no_mdns_and_a_host_stays_private() -> None:
    args = build_parser().parse_args(["--serve", "--no-mdns", "--host", "127.0.0.1", "--port", "0"])
    options = serve_options(args)
    command = server_command(
        host=options["host"],
        port=options["port"],
        advertise=options["advertise"],
        interfaces=options["interfaces"],
        extra=options["extra"],
    )
    assert "--no-mdns" in command and "--mdns-interface" not in command
    assert command[command.index("--host") + 1] == "127.0.0.1"
    with trio.fail_after(60):
        async with lan_server(**options) as served:
            assert served.address is not None
            host, port = served.address
            assert host == "127.0.0.1"
            async with connect(host, port, "Probe") as session:
                assert session.welcome is not None


def test_the_find_screen_with_no_mdns_does_not_look() -> None:
    args = build_parser().parse_args(["--no-mdns"])
    assert discovery_text(args) == "not looking, as --no-mdns asks"
    assert "every interface" in discovery_text(build_parser().parse_args([]))
