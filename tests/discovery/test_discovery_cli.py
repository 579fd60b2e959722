"""The discovery flags of uno-server, uno-bot and uno-client (no network is touched)."""

from __future__ import annotations

import pytest

from client.bots.cli import build_parser as bot_parser
from client.bots.cli import main as bot_main
from client.cli import build_parser as client_parser
from server.cli import build_parser, main
from server.command import config_from_args


def test_server_flags_for_interfaces_and_published_addresses() -> None:
    args = build_parser().parse_args(
        ["--mdns-interface", "10.77.0.1", "--mdns-interface", "10.77.0.1",
         "--advertise-ip", "192.168.1.20", "--advertise-ip", "fd00::20"]
    )  # fmt: skip
    config = config_from_args(args)
    assert config.mdns
    assert config.mdns_interfaces == ("10.77.0.1",)
    assert config.advertise_ips == ("192.168.1.20", "fd00::20")
    assert config_from_args(build_parser().parse_args([])).advertise_ips == ()


@pytest.mark.parametrize(
    ("flag", "value"), [("--mdns-interface", "eth0"), ("--advertise-ip", "my-laptop.local")]
)
def test_server_refuses_what_is_not_an_address(
    flag: str, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([flag, value])
    assert exit_info.value.code == 2
    assert f"{flag} wants an IP address, not {value!r}" in capsys.readouterr().err


def test_bots_need_no_address_and_take_interfaces() -> None:
    args = bot_parser().parse_args(["--mdns-interface", "10.77.0.2", "--discover-seconds", "3"])
    assert args.server is None and not args.spawn_server
    assert args.mdns_interface == ["10.77.0.2"]
    assert args.discover_seconds == 3


def test_bots_say_why_when_they_cannot_look(capsys: pytest.CaptureFixture[str]) -> None:
    # Not an address: zeroconf refuses it before opening any socket.
    status = bot_main(["--mdns-interface", "not-an-address", "--discover-seconds", "1"])
    assert status == 2
    err = capsys.readouterr().err
    assert "cannot look for servers on not-an-address" in err
    assert "Traceback" not in err


def test_the_client_takes_interfaces() -> None:
    args = client_parser().parse_args(["--mdns-interface", "192.168.1.31"])
    assert args.mdns_interface == ["192.168.1.31"]
    assert args.server is None
