"""What a host gives friends (issue 26 item 5) and where a phone opens the page (issue 25):
the ``--serve`` server's own lines, read by the client, and the lobby's page line."""

from __future__ import annotations

import socket

import pytest
import trio

from client.command import share_from
from client.solo import lan_server, serve_port
from client.ui.model import Model
from client.ui.reducer import apply
from client.ui.render import render
from protocol.messages import Welcome
from protocol.startup import DEFAULT_PORT


def screen(model: Model, width: int = 80, height: int = 24) -> str:
    return "".join(fragment[1] for fragment in render(model, width, height, 0.0))


def test_the_lobby_shows_the_page_of_the_welcomes_web_port() -> None:
    model = Model(name="Ann", address="192.168.1.20:7531")
    welcome = Welcome(
        version="1.3", server_name="Kitchen", server_id="s1", server_version="1", web_port=7532
    )
    apply(model, welcome, 0.0)
    assert "Phones: http://192.168.1.20:7532/" in screen(model)


def test_a_server_without_a_page_shows_no_page_line() -> None:
    model = Model(name="Ann", address="192.168.1.20:7531", connected=True)
    assert "Phones:" not in screen(model)


def test_the_host_sees_the_lan_address_and_page_the_server_printed() -> None:
    model = Model(name="Ann", address="127.0.0.1:7531", connected=True)
    said = [
        "reachable at: 127.0.0.1:7531, 192.168.1.20:7531, [fd00::20]:7531",
        "note: tables without a password are open to anyone who can reach this machine",
        "browser page: http://192.168.1.20:7532/",
    ]
    share_from(model, said)
    text = screen(model)
    assert "friends join 192.168.1.20:7531" in text
    assert "Phones: http://192.168.1.20:7532/" in text


def test_a_page_for_this_machine_only_is_not_given_to_friends() -> None:
    model = Model(name="Ann")
    share_from(model, ["browser page: http://127.0.0.1:7532/ (reachable only from this machine)"])
    assert model.page_at is None and model.friends_at is None


async def test_the_served_server_says_where_it_is_reachable() -> None:
    with trio.fail_after(60):
        async with lan_server(port=0, host="127.0.0.1", advertise=False) as served:
            assert served.address is not None
            with trio.fail_after(20):
                while not any(line.startswith("browser page: ") for line in served.said):
                    await trio.sleep(0.05)
    port = served.address[1]
    assert f"reachable at: 127.0.0.1:{port}" in served.said


def test_a_taken_serve_port_gives_a_free_one_and_says_so() -> None:
    with socket.socket() as holder:
        holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            holder.bind(("127.0.0.1", DEFAULT_PORT))
            holder.listen()
        except OSError:
            pass  # taken already: by something else, as the test wants
        port, note = serve_port("127.0.0.1")
    assert port == 0
    assert note is not None and str(DEFAULT_PORT) in note


def test_a_free_serve_port_is_the_fixed_one() -> None:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", DEFAULT_PORT))
        except OSError:
            pytest.skip(f"port {DEFAULT_PORT} is taken on this machine")
    assert serve_port("127.0.0.1") == (DEFAULT_PORT, None)


async def test_serve_on_a_taken_port_listens_on_another_and_says_so() -> None:
    with socket.socket() as holder:
        holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            holder.bind(("127.0.0.1", DEFAULT_PORT))
            holder.listen()
        except OSError:
            pass  # taken already, as the test wants
        with trio.fail_after(60):
            async with lan_server(host="127.0.0.1", advertise=False) as served:
                assert served.address is not None
                assert served.address[1] != DEFAULT_PORT
                assert served.port_note is not None and str(DEFAULT_PORT) in served.port_note
